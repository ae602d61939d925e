-- tests/data/hide_block.lua — one bystander hides from a still threat behind a square block (a:hiding_spot on a polygon).
-- The threat stands at (10, 30), the block spans x 28..36, y 26..34 (centre (32, 30), far side 4
-- from it along +x): the spot is (32 + 4 + 0.5 + 1, 30) = (37.5, 30). The bystander starts at (30, 10),
-- in the open, and should come to rest near the spot, out of the threat's sight.
return {
  name = "hide behind a block",
  world = { width = 60, height = 60, dt = 0.05, bounds = "clamp" },
  obstacles = { { polygon = { { 28, 26 }, { 36, 26 }, { 36, 34 }, { 28, 34 } } } },
  species = {
    { name = "threat", count = 0, agents = { { 10, 30, 0, 0 } }, body_length = 1, max_speed = 2, rules = { { "wind" } } },
    {
      name = "bystander", count = 0, agents = { { 30, 10, 0, 0 } }, body_length = 1, max_speed = 3, cruise_speed = 2,
      max_accel = 6, accumulator = "prioritised",
      rules = { { "avoid_silhouette", params = { range = 4, gain = 10 } }, { "hide", params = { threat = "threat" } } },
    },
  },
}
