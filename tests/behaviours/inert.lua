-- tests/behaviours/inert.lua — test-only: steers nowhere; the control for tamper.lua.
return {
  params = { what = { "nothing", help = "ignored" } },
  steer = function()
    return 0, 0
  end,
}
