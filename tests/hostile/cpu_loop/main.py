"""Hostile submission: spins on the CPU forever."""

if __name__ == "__main__":
    while True:
        pass
