# step.gp — the picture of one step (docs/architecture.md, "One step"): its phases in order, the file
# that owns each, what it reads and writes; the parallel phases shaded. Regenerate from the repository's
# root with: gnuplot docs/figures/step.gp   (writes docs/figures/step.png)
set terminal pngcairo size 1280,1060 font "DejaVu Sans,12"
set output "docs/figures/step.png"
unset border; unset tics; unset key
set xrange [0:100]; set yrange [0:106]
set margins 0, 0, 0, 0

parallel = "#d6e9ff"; serial = "#eeeeee"; lua = "#ffe7c2"
set style textbox opaque noborder

# name, owner, reads -> writes, fill colour; one row per phase, top to bottom
array phase[11]; array owner[11]; array flow[11]; array fill[11]
phase[1] = "1  grid sort";            owner[1] = "sim.c, grid.c, species\\_index.c"
flow[1]  = "positions -> agents in cell order, the grid";                           fill[1] = serial
phase[2] = "2  perception + rules";   owner[2] = "perception.c, sampling.c, rules.c, accumulate.c"
flow[2]  = "step t positions, velocities, fields -> steering, forces, drags, field\\_next, commands"; fill[2] = parallel
phase[3] = "3  replay after a failure"; owner[3] = "ruleset.c"
flow[3]  = "a rule that raised -> skipped from that agent on; its commands rolled back"; fill[3] = serial
phase[4] = "4  ORCA";                 owner[4] = "orca\\_stage.c, orca.c"
flow[4]  = "neighbours, obstacles, steering -> steering of ORCA agents";            fill[4] = parallel
phase[5] = "5  integration";          owner[5] = "integrate.c"
flow[5]  = "steering, forces, drags, limits, terrain -> position, velocity, heading, energy"; fill[5] = parallel
phase[6] = "6  bodies";               owner[6] = "bodies.c"
flow[6]  = "overlaps of solid agents -> positions pushed apart (passes)";          fill[6] = parallel
phase[7] = "7  swap";                 owner[7] = "world.c"
flow[7]  = "field\\_next -> field (what step t+1 reads); step + 1";                 fill[7] = serial
phase[8] = "8  paths";                owner[8] = "spline\\_path.c"
flow[8]  = "time -> path objects moved to step * dt";                               fill[8] = serial
phase[9] = "9  commands";             owner[9] = "sim.c"
flow[9]  = "spawns and removals, in agent order -> agents added, arrays compacted"; fill[9] = serial
phase[10] = "10  on\\_step";          owner[10] = "hooks.c, scenario\\_api.c"
flow[10] = "the scenario's Lua hook -> fb.set\\_*, spawns, removals";                fill[10] = lua

set label 1 "One step: fbSim\\_Step (src/engine/sim/sim.c)" at 50, 102.5 center font "DejaVu Sans,17"
set label 2 "blue: parallel on the worker threads, each over its own range of agents; grey: the calling thread; orange: the scenario's Lua state" \
    at 50, 98.5 center font "DejaVu Sans,11"

top = 94.0; h = 7.0; gap = 2.2
do for [k=1:10] {
  y1 = top - (k - 1) * (h + gap); y0 = y1 - h
  set object k rect from 3, y0 to 97, y1 fc rgb fill[k] fs solid 1.0 border lc rgb "#607080" lw 1.2
  set label 10 + 3 * k phase[k] at 5, y1 - 2.3 left font "DejaVu Sans Bold,13"
  set label 11 + 3 * k owner[k] at 95, y1 - 2.3 right font "DejaVu Sans Mono,11" tc rgb "#2a4a6a"
  set label 12 + 3 * k flow[k] at 5, y0 + 2.0 left font "DejaVu Sans,11" tc rgb "#303030"
  if (k < 10) {
    set arrow k from 50, y0 to 50, y0 - gap head filled size 0.9,30 lw 1.6 lc rgb "#607080"
  }
}
set label 60 "Rules read step t and write step t+1; only integration (and bodies) move the agents. Random numbers depend on (seed, id, step, stream): the same bits on any thread count." \
    at 50, 2.2 center font "DejaVu Sans,10.5" tc rgb "#404040"
plot NaN
