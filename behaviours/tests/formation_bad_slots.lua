-- behaviours/tests/formation_bad_slots.lua — a slot list formation must refuse (an offset that is not two numbers), for formation_test.lua.
return { { -1, "left" } }
