0
return "x", {}
