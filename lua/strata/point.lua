-- strata.point: a point as the API takes it, { x, y } or { x =, y = }.
-- point(v, what) -> x, y (integers), or an error naming `what`.
return function(v, what)
  if type(v) == "table" then
    local x, y = v.x, v.y
    if x == nil and y == nil then x, y = v[1], v[2] end
    if math.type(x) == "integer" and math.type(y) == "integer" then return x, y end
  end
  error(("%s: expected a point { x, y } or { x =, y = }, got %s"):format(what, tostring(v)), 0)
end
