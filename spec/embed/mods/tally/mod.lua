return { id = "tally", version = "0.1.0", requires = { base = "^0.1" },
  description = "spec/embed: an honest timer handler and four attacks, for worlds on threads" }
