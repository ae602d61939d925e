-- tests/behaviours/breaks_at.lua — a rule that works until a given time, then raises an error (tests/cli_run_status.sh).
return {
  params = { at = { 1, help = "seconds before it breaks" } },
  steer = function(a, p)
    local _, t = fb.time()
    if t >= p.at then
      error("broke at " .. t .. " s")
    end
    return 0, 0
  end,
}
