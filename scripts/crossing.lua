-- scripts/crossing.lua — two streams of walkers cross at right angles and dodge each other (Reynolds, "Steering Behaviors For Autonomous Characters", 1999, unaligned collision avoidance).
-- One stream walks east, the other south, each starting with 8 walkers at its entrance; then a
-- walker enters each stream every 0.6 s at a lane taken in turn from eight, and leaves at the far side. Each sees both streams and dodges the one that
-- would come too close soonest (avoid_unaligned), or with --set east.avoid_unaligned.weight=0
-- --set south.avoid_unaligned.weight=0 walks straight on. Bodies are not solid here, so how close
-- they come is what the rule alone achieves. Column: contacts (pairs of bodies overlapping,
-- summed over the steps so far).
-- Try: flockbox --headless --steps 1200 --csv crossing.csv scripts/crossing.lua

local SIZE, LANES, EVERY = 60, 8, 12 -- the square crossed, lanes per stream, steps between entries
local BODY = 1

-- A stream starts with 8 walkers near its entrance (area x0, y0, x1, y1) heading across (degrees).
local function stream(name, area, heading, goal, colour)
  return {
    name = name, count = 8, spawn = { area = area, speed = 2, heading = heading },
    body_length = BODY, max_speed = 3, cruise_speed = 2, max_accel = 6, collide = false,
    vision = { radius = 8, fov = 360, separation = 1, sees = { "east", "south" } },
    colour = colour,
    rules = {
      { "avoid_unaligned", weight = 1, params = { horizon = 3, margin = 0.5 } },
      { "seek_goal", weight = 1, params = { goal = goal } },
    },
  }
end

local step_count, contacts = 0, 0

-- Pairs of bodies overlapping now: fb.close_pairs counts them in C by a sweep, where a Lua loop
-- over every pair cost 886 000 instructions per agent-step at 2 000 walkers (docs/speed.md).
local function overlapping()
  return fb.close_pairs(BODY)
end

return {
  name = "Two streams crossing",
  world = { width = SIZE, height = SIZE, dt = 0.05, bounds = "clamp" },
  goals = { east_exit = { SIZE + 40, SIZE / 2 }, south_exit = { SIZE / 2, SIZE + 40 } },
  species = {
    stream("east", { 1, SIZE / 2 - 8, 12, SIZE / 2 + 8 }, 0, "east_exit", { 255, 170, 60 }),
    stream("south", { SIZE / 2 - 8, 1, SIZE / 2 + 8, 12 }, 90, "south_exit", { 90, 200, 255 }),
  },
  on_step = function(step)
    step_count = step_count + 1
    contacts = contacts + overlapping()
    if step % EVERY == 0 then
      local lane = (step // EVERY * 3) % LANES -- lanes 2 units apart about the middle, in a fixed shuffle
      local offset = SIZE / 2 + (lane - (LANES - 1) / 2) * 2
      fb.spawn("east", 1, offset, 2, 0)
      fb.spawn("south", offset, 1, 0, 2)
    end
    for a in fb.each() do
      if a.x > SIZE - 2 or a.y > SIZE - 2 then
        fb.remove(a.id)
      end
    end
  end,
  metrics = {
    { "contacts", function() return contacts end },
  },
}
