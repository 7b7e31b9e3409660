-- The two examples of areas-and-archetypes.md (the project's reference notes,
-- kept beside the repository, not in it), written for
-- strata's API: putit paradise, a unique ten-floor dungeon whose entrance
-- appears on the world map, and the quick-start hub with its test rooms.
mod:load("world_map")
mod:load("putit_paradise")
mod:load("quickstart")
mod:load("grid")
mod:load("dungeon")
