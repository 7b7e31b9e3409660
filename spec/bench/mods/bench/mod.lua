return { id = "bench", version = "0.1.0", requires = { base = "^0.1" }, description = "floors for bench_areas.lua" }
