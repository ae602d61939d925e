return {
  species = { { name = "s", count = 3, rules = { { "wander" } } } },
  metrics = { { "ok", function() return 1 end }, { "nan", function() return 0 / 0 end }, { 42 }, "x",
              { "inf", function() return math.huge end }, { "err", function() error("no") end } },
}
