return { id = "hog", version = "0.1.0", requires = { base = "^0.1" },
  description = "spec/embed: a mod that misbehaves inside an embedding host" }
