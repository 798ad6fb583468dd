"""Hostile submission: fills its directory with 1 MB files (each under the file size limit) until it cannot."""


if __name__ == "__main__":
    chunk = b"\0" * (1024 * 1024)
    written = 0
    try:
        while written < 4096:  # at most 4 GB if nothing stops it
            with open(f"fill{written:05}.bin", "wb") as out:
                out.write(chunk)
            written += 1
    except OSError as exc:
        print(f"stopped after {written} MB: {exc.strerror}")
        raise SystemExit(1)
    print(f"wrote {written} MB")
