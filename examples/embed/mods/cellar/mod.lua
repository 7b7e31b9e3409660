return { id = "cellar", version = "0.1.0", requires = { base = "^0.1" },
  description = "The cellar of examples/embed, written in Lua: the game's C code runs it too" }
