4
return 1e308, -1e308
