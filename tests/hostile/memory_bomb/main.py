"""Hostile submission: allocates (and touches) memory until something stops it."""

if __name__ == "__main__":
    hoard = []
    while True:
        hoard.append(bytearray(16 * 1024 * 1024))
