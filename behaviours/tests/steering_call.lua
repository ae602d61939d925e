-- behaviours/tests/steering_call.lua — a rule that calls one function of the steering library with numbers from its params, for steering_library_test.lua.
-- steering[fn](a, s, x1, ..., xn) when with_agent, else steering[fn](x1, ..., xn), in the engine's
-- own rule sandbox; it steers by the first two results and keeps the first four in fields r1..r4.
-- luacheck: read globals steering
local ARGS = 12

local params = { fn = { "seek", help = "the steering function" }, with_agent = { false, help = "pass a, s first" },
  n = { 0, min = 0, max = ARGS, integer = true, help = "how many numbers follow" } }
for k = 1, ARGS do
  params["x" .. k] = { 0, help = "argument " .. k }
end

return {
  params = params,
  fields = { r1 = 0, r2 = 0, r3 = 0, r4 = 0 },
  steer = function(a, p, s)
    local args = {}
    for k = 1, p.n do
      args[k] = p["x" .. k]
    end
    local f = steering[p.fn]
    local r
    if p.with_agent then
      r = table.pack(f(a, s, table.unpack(args, 1, p.n)))
    else
      r = table.pack(f(table.unpack(args, 1, p.n)))
    end
    for k = 1, 4 do
      a:set("r" .. k, r[k] or 0)
    end
    return r[1] or 0, r[2] or 0
  end,
}
