:
return 10e8, 3 % 1e308
