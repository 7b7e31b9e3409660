-- Two examples of areas and archetypes (docs/areas.md), written for strata's
-- API: putit paradise, a unique ten-floor dungeon whose entrance
-- appears on the world map, and the quick-start hub with its test rooms.
mod:load("world_map")
mod:load("putit_paradise")
mod:load("quickstart")
mod:load("grid")
mod:load("dungeon")
mod:load("layouts")
