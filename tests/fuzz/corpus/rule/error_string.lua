0
error("deliberate")
