-- scripts/rimea/test01_corridor.lua — RiMEA test 1 (guideline 4.1.1, Annex 1): one pedestrian walks a corridor 40 m long and 2 m wide at 1.33 m/s; the walk must take 26-34 s.
-- The corridor runs from x = 1 to x = 41 between walls at y = 1 and y = 3 (the world's edges and two
-- wall strips); the walker starts with its centre on x = 1 and follows a route field to the exit
-- region past x = 41. CSV: `walked` (metres along the corridor), `arrival` (s at which x reached 41,
-- 0 before).
-- Try: build/flockbox --headless --steps 400 --csv t1.csv scripts/rimea/test01_corridor.lua
local ped = require("pedestrian")
local START, END, Y = 1, 41, 2

local arrived_at, walked = 0, 0
return {
  name = "RiMEA test 1: 40 m along a corridor",
  world = ped.world(43, 4),
  obstacles = {
    { polygon = { { 0, 0 }, { 43, 0 }, { 43, 1 }, { 0, 1 } } },
    { polygon = { { 0, 3 }, { 43, 3 }, { 43, 4 }, { 0, 4 } } },
  },
  regions = { out = { { 41.5, 1 }, { 43, 1 }, { 43, 3 }, { 41.5, 3 } } },
  flow_fields = { exit = ped.route("out", { speed = 1.33 }) },
  species = { ped.species({ name = "walker", agents = { { START, Y, 0, 0 } }, speed = 1.33 }) },
  on_step = function()
    local _, t = fb.time()
    for a in fb.each("walker") do
      walked = a.x - START
      if arrived_at == 0 and a.x >= END then arrived_at = t end
    end
  end,
  metrics = {
    { "walked", function() return walked end },
    { "arrival", function() return arrived_at end },
  },
}
