-- The bell of the luv examples (examples/luv/*.lua): a timer handler that
-- rings it, noting the world time, who asked, and the sound (hot_reload.lua
-- changes it while the world runs).
data:add{ _type = "base.handler", _id = "ring", run = function(world, params, args)
  local rings = args.bell.state
  rings[#rings + 1] = { time = params.time, who = args.who, sound = "ding" }
end }
