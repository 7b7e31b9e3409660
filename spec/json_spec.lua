-- strata.json: the core's JSON reader and writer (core/include/strata/json.h)
-- for plain data: exact numbers, UTF-8 strings, refusals naming the JSON path.
local strata = require "strata"
local support = require "support"

describe("strata.json", function()
  local json = strata.json

  it("decodes objects, arrays, numbers, strings, booleans and null", function()
    local v = json.decode('{"a": [1, 2.5, -0.0, 1e2, "x\\u00e9\\ud83d\\ude00\\n"], "b": true, "c": null, "d": {}}')
    assert.same({ 1, 2.5, -0.0, 100.0, "xé😀\n" }, v.a)
    assert.is_true(math.type(v.a[1]) == "integer" and math.type(v.a[3]) == "float" and math.type(v.a[4]) == "float")
    assert.equal(true, v.b)
    assert.equal(json.null, v.c)
    assert.same({}, v.d)
    assert.same({ 1, json.null, 3 }, json.decode("[1, null, 3]"))
    assert.equal(math.maxinteger, json.decode(tostring(math.maxinteger)))
    assert.equal("float", math.type(json.decode("9223372036854775808")))
    assert.equal("a\0b", json.decode('"a\\u0000b"'))
  end)

  it("encodes plain data, object keys in byte order, and reads back what it wrote", function()
    assert.equal('{"a":[1,2.5,"x"],"b":true,"c":null,"z":{}}',
                 json.encode{ z = {}, c = json.null, b = true, a = { 1, 2.5, "x" } })
    assert.equal("[1.0,0.1,1e+300,-0.0]", json.encode{ 1.0, 0.1, 1e300, -0.0 })
    assert.equal('"\\"\\\\\\n\\u0001é"', json.encode('"\\\n\1é'))
    assert.equal('{\n  "a": [1, 2],\n  "b": {\n    "c": "d"\n  }\n}\n', json.encode({ a = { 1, 2 }, b = { c = "d" } }, { pretty = true }))
    for _, f in ipairs{ 0.1, 1 / 3, 2 ^ 60 + 0.0, 5e-324, math.pi, -1.7976931348623157e308 } do
      local back = json.decode(json.encode(f))
      assert.equal(f, back)
      assert.equal("float", math.type(back))
    end
  end)

  it("writes strings as RFC 8259 asks: quotes, backslashes and control characters escaped, UTF-8 as it is", function()
    assert.equal('"q\\"\\\\\\n\\u0001\\t/\127é"', json.encode('q"\\\n\1\t/\127é'))
    assert.equal('{"a":1.5,"b":1,"d":[1,2.0]}', json.encode{ b = 1, a = 1.5, d = { 1, 2.0 } })
    assert.equal("0.1", json.encode(0.1)) -- the shortest text that reads back the same double
  end)

  it("writes a table marked by strata.json.array as an array: [] when empty, where {} is an empty object", function()
    assert.equal('{"e":{},"f":[],"g":[1,2],"h":[[]]}',
                 json.encode{ e = {}, f = json.array(), g = json.array{ 1, 2 }, h = { json.array{} } })
    assert.equal("[]", json.encode(json.array{}))
    assert.equal('{\n  "maps": [],\n  "options": {}\n}\n', json.encode({ maps = json.array(), options = {} }, { pretty = true }))
    local t = {}
    assert.equal(t, json.array(t)) -- the same table, marked
    assert.equal(t, json.array(t)) -- marking it again is no error
    t[1] = "x"
    assert.equal('["x"]', json.encode(t))
    -- marked as an array, a table must still be one: refused with its path, never written as an object
    t.name = "y"
    assert.matches("json_spec%.lua:%d+: strata%.json%.encode: %$%.list: a table marked by strata%.json%.array has a "
      .. "string key", support.err_of(function() return json.encode{ list = t } end))
    assert.matches("%$%[0%]: a table's keys must be", support.err_of(json.encode, { json.array{ [2] = 1 } }))
  end)

  it("marks with a metatable no one can take or forge, and keeps another's metatable", function()
    local marked = json.array()
    assert.equal("strata.json.array", getmetatable(marked)) -- its name, not the metatable
    assert.has_error(function() setmetatable(marked, nil) end)
    local fake = setmetatable({}, { __metatable = "strata.json.array", __name = "strata.json.array" })
    assert.equal("{}", json.encode(fake)) -- a look-alike is no mark
    local other = setmetatable({}, { __index = function() error("ran") end })
    assert.matches("json_spec%.lua:%d+: strata%.json%.array: [^\n]*a metatable of its own",
      support.err_of(function() return json.array(other) end))
    assert.is_function(getmetatable(other).__index) -- left as it was
    assert.matches("json_spec%.lua:%d+: strata%.json%.array: [^\n]*table expected, got number",
      support.err_of(function() return json.array(5) end))
  end)

  it("refuses bad text with the JSON path, line and column", function()
    local function refused(text, pattern)
      local err = support.err_of(function() return json.decode(text) end)
      assert.matches("^[^\n]*json_spec%.lua:%d+: strata%.json%.decode: " .. pattern, err)
    end
    refused('{"objects": [{"hp": 1}, {"hp": }]}', "%$%.objects%[1%]%.hp: expected a value.*%(line 1, column 32%)")
    refused('{"a": [1, 2', "%$%.a: the text ends inside an array")
    refused('{"a": 1, "a": 2}', '%$%.a: a duplicate key')
    refused('[1] 2', "%$: text after the value")
    refused('"\255"', "%$: a string that is not UTF%-8")
    refused('"\\ud800"', "%$: a high surrogate")
    refused('[01]', "%$%[0%]: a number with a leading zero")
    refused('[1e999]', "%$%[0%]: a number out of a double's range")
    refused('{"a b": [tru]}', '%$%["a b"%]%[0%]: expected a value')
    refused(string.rep("[", 600) .. string.rep("]", 600), "%$%[0%]%[0%].*%[0%]: nested deeper than 512 levels %(line 1, column 513%)")
  end)

  it("finds a duplicate key in a large object", function()
    local parts = {}
    for i = 1, 5000 do parts[#parts + 1] = ('"k%d": %d'):format(i, i) end
    parts[#parts + 1] = '"k17": 0'
    assert.matches("%$%.k17: a duplicate key", support.err_of(json.decode, "{" .. table.concat(parts, ",") .. "}"))
  end)

  it("refuses what cannot be JSON, naming its path, and runs no metamethod", function()
    local function refused(v, pattern)
      assert.matches("json_spec%.lua:%d+: strata%.json%.encode: " .. pattern, support.err_of(function() return json.encode(v) end))
    end
    refused({ a = { print } }, "%$%.a%[0%]: function cannot be JSON")
    refused({ a = 0 / 0 }, "%$%.a: NaN is no JSON number")
    refused({ a = { -math.huge } }, "%$%.a%[0%]: an infinity is no JSON number")
    refused({ [true] = 1 }, "%$: a table's keys must be all strings")
    refused({ 1, 2, x = 3 }, "%$: a table's keys must be all strings")
    refused({ [3] = 1 }, "%$: a table's keys must be all strings")
    refused({ s = "\255" }, "%$%.s: a string that is not UTF%-8")
    local cycle = {}
    cycle.self = cycle
    refused(cycle, "%$%.self%.self.*%.self: tables nested deeper than 512 levels %(a cycle%?%)")
    local ran = false
    local t = setmetatable({ a = 1 }, { __index = function() ran = true end, __pairs = function() ran = true end })
    assert.equal('{"a":1}', json.encode(t))
    assert.is_false(ran)
    assert.matches("unknown option 'prety' %(nearest known: pretty%)", support.err_of(json.encode, {}, { prety = true }))
  end)
end)
