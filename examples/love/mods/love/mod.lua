return { id = "love", version = "0.1.0", requires = { base = "^0.1" } }
