"""Hostile submission: writes one file of up to 1 GB in its directory."""

if __name__ == "__main__":
    chunk = b"\0" * (1024 * 1024)
    with open("huge.bin", "wb") as out:
        for _ in range(1024):
            out.write(chunk)
            out.flush()
