c
p aux sp ss 3
s 1
s 3
s 1
