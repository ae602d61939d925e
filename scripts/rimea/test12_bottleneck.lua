-- scripts/rimea/test12_bottleneck.lua — RiMEA test 12 (guideline 4.1.1, Annex 1) measured as Seyfried et al. 2009 did: 60 pedestrians leave a room through a bottleneck 2.8 m long; the flow through it per metre of width against their specific flow of about 1.9 /m/s.
-- Seyfried, Passon, Steffen, Boltes, Rupprecht & Klingsch 2009, "New insights into pedestrian flow
-- through bottlenecks", Transportation Science 43(3): widths 0.8-1.2 m, 2.8 m long; with Kretz
-- and Müller's widths the specific flow J/b stays near 1.9 /m/s for b from 0.6 to 2.5 m.
-- The room is 6 m deep and 8 m wide (x 1-7, y 1-9), the bottleneck (x 7-9.8) WIDTH wide about
-- y = 5, then open floor to the exit at x = 13.5. The time each pedestrian first crosses the
-- bottleneck's end (x = 9.8) is kept; the flow is J = 40 / (t50 - t10), the steady middle of the
-- 60 passages. CSV: `passed`, `flow` (J, persons/s, 0 until 50 have passed), `specific_flow`
-- (J / WIDTH, /m/s), `left` (out of the exit), `overlap` (the deepest overlap of two
-- bodies now, m).
-- Try: build/flockbox --headless --steps 1200 --csv t12.csv scripts/rimea/test12_bottleneck.lua
-- Other widths: tools/rimea_bottleneck.sh copies this file with another WIDTH (docs/steering-routes.md).
local ped = require("pedestrian")
local WIDTH = 1.0
local N, ROOM, NECK, OUT, W, H = 60, 7, 9.8, 13.5, 15, 10
local LOW, HIGH = 5 - WIDTH / 2, 5 + WIDTH / 2

local function box(x0, y0, x1, y1) return { polygon = { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } } end

local passed, crossed, times, left = 0, {}, {}, 0
local function flow()
  if passed < 50 then return 0 end
  return 40 / (times[50] - times[10])
end

return {
  name = "RiMEA test 12: a bottleneck",
  world = ped.world(W, H),
  obstacles = {
    box(0, 0, W, 1), box(0, 9, W, H), box(0, 1, 1, 9), -- the outer walls; the exit side is open
    box(ROOM, 1, NECK, LOW), box(ROOM, HIGH, NECK, 9), -- the bottleneck's sides
  },
  regions = { out = { { OUT, 1 }, { W, 1 }, { W, 9 }, { OUT, 9 } } },
  flow_fields = { exit = ped.route("out", { cell = 0.05 }) },
  species = { ped.species({ name = "walker", count = N, spawn = { area = { 1.3, 1.3, ROOM - 0.5, 8.7 }, speed = 0 } }) },
  on_step = function()
    local _, t = fb.time()
    for a in fb.each("walker") do
      if a.x >= NECK and not crossed[a.id] then
        crossed[a.id] = true
        passed = passed + 1
        times[passed] = t
      end
      if a.x >= OUT then
        fb.remove(a.id)
        left = left + 1
      end
    end
  end,
  metrics = {
    { "passed", function() return passed end },
    { "flow", flow },
    { "specific_flow", function() return flow() / WIDTH end },
    { "left", function() return left end },
    { "overlap", function() return ped.deepest_overlap("walker") end },
  },
}
