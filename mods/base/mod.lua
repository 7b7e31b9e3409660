return { id = "base", version = "0.1.0", requires = {}, description = "strata's base types" }
