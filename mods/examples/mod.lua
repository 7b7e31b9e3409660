return { id = "examples", version = "0.1.0", requires = { base = "^0.1" },
  description = "Putit paradise (a ten-floor unique dungeon on a world map), the quick-start hub, a grid of two maps, the well's dungeon branches and three layouts" }
