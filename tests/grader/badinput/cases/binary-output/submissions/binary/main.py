# Writes binary junk instead of text: a PNG header, NUL bytes and invalid UTF-8.
if __name__ == "__main__":
    with open("output.txt", "wb") as handle:
        handle.write(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\xfa Minimum number of moves = 3\n\xc3\x28\n")
