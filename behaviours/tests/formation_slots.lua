-- behaviours/tests/formation_slots.lua — a slot list for formation_test.lua's shape = "slots": {x ahead, y right} in spacings.
return { { -1, -1 }, { -1, 1 }, { -2, 0 } }
