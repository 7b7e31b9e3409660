-- Three layouts in the generator language (docs/layouts.md), each showing
-- other parts of it; `strata layout examples.cave` previews one, `strata
-- render examples.cave --svg cave.svg` draws it. Each has one way up and one
-- way down, joined. Only base's tokens: they draw with base's glyphs.

-- A cave: heights from noise decide rock, floor and pools (NoiseMap); rock
-- mostly surrounded by floor crumbles (Area counts neighbours); mud rims the
-- pools by chance; Connect digs the pockets together, cheaper through mud
-- and shallow water than through rock.
data:add{ _type = "base.layout", _id = "cave", size = { 60, 24 }, source = [[
Def Dig(Between) Connect(Between, (1, Or(On("floor"), On("mud")), None), (2, On("water"), None),
                         (4, On("rock"), Reset("floor"))) End
{
  Reset("rock")
  Inside(1, {
    NoiseMap({ (0.0, 0.15, Reset("water")) (0.15, 0.55, Reset("floor")) (0.55, 1.0, None) })
    Filter(And(On("rock"), Area(1, On("floor"), 6)), Reset("floor"))
    Filter(And(On("floor"), Area(1, On("water")), Chance(0.5)), Reset("mud"))
  })
  Place(({1 1} Set("stairs_up") 1 On("floor")), ({1 1} Set("stairs_down") 1 On("floor")))
  Dig(On("floor"))
  Dig(Or(On("stairs_up"), On("stairs_down")))
} ]] }

-- A dungeon of rooms and corridors: macros with parameters make a room
-- (Margins: walls around a floor of the token given) and dig corridors;
-- Place scatters rooms of sizes drawn from a range, apart from each other,
-- and one garden with a pool; Connect runs corridors through rock and makes a
-- door where one breaks through a room's wall. The stairs go in rooms, not
-- beside a door (Not Area), and a last Connect between them alone makes sure
-- they are joined (Connect joins random pairs of its cells: a small room can
-- be missed).
data:add{ _type = "base.layout", _id = "dungeon", size = { 60, 30 }, source = [[
Def Room(Floor) Margins(1, Reset("wall"), Reset(Floor)) End
Def Dig(Between) Connect(Between, (1, Or(On("floor"), On("grass"), On("door")), None),
                         (2, On("rock"), Reset("floor")),
                         (6, On("wall"), Reset("door"))) End
Def AwayFromDoors() And(On("floor"), Not Area(1, On("door"))) End
{
  Reset("rock")
  Place(minSize = {5 4} maxSize = {12 9} count = {6 10} minSpacing = 1 generator = Room("floor"))
  Place(size = {7 7} count = 1 minSpacing = 1 generator = { Room("grass") Position(MIDDLE, {3 3}, Reset("water")) })
  Dig(Or(On("floor"), On("grass")))
  Place(({1 1} Set("stairs_up") 1 AwayFromDoors()), ({1 1} Set("stairs_down") 1 AwayFromDoors()))
  Dig(Or(On("stairs_up"), On("stairs_down")))
} ]] }

-- A fort in a wood: Position puts a walled square in the middle; SplitV
-- cuts the keep from the yard and Choose makes the keep one hall or two
-- rooms (SplitH); Border and Position cut the doors and the gate into walls
-- (a macro's parameter names the wall's side); towers stand in the corners;
-- YMod furrows a field beside it; trees grow by chance, and Connect clears a
-- path through them from the way up to the gate.
data:add{ _type = "base.layout", _id = "fort", size = { 50, 30 }, source = [[
Def Walled(Side, Door) { Margin(Side, 1, Reset("wall"), Reset("floor")) Border(Side, 1, Position(MIDDLE, Door, Reset("door"))) } End
Def Tower(Door) { Margins(1, Reset("wall"), Reset("floor")) Border(Door, 1, Position(MIDDLE, {1 1}, Reset("door"))) } End
{
  Reset("grass")
  Filter(Chance(0.25), Reset("tree"))
  Position(LEFT_CENTER, {8 12}, Filter(YMod(2, 0), Reset("mud"), Reset("grass")))
  Position(MIDDLE, {30 20}, {
    Margins(1, Reset("wall"), SplitV(0.45,
      { Walled(BOTTOM, {2 1}) Inside(BOTTOM, 1, Choose(None, SplitH(0.5, Walled(RIGHT, {1 1}), None))) },
      { Reset("grass") Position(MIDDLE, {2 2}, Reset("water")) }))
    Border(BOTTOM, 1, Position(MIDDLE, {3 1}, Reset("door")))
    Position(TOP_LEFT, {5 5}, Tower(BOTTOM)) Position(TOP_RIGHT, {5 5}, Tower(BOTTOM))
    Position(BOTTOM_LEFT, {5 5}, Tower(TOP)) Position(BOTTOM_RIGHT, {5 5}, Tower(TOP))
    Place({1 1}, Set("stairs_down"), 1, And(On("floor"), Not Area(1, On("door"))))
  })
  Position(BOTTOM_CENTER, {1 1}, Reset("grass", "stairs_up"))
  Connect(Or(On("stairs_up"), On("door")),
          (1, Or(On("grass"), On("mud"), On("floor"), On("door")), None),
          (3, On("tree"), Reset("grass")))
} ]] }
