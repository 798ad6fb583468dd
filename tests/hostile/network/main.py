"""Hostile submission: connects to 127.0.0.1 on the given port."""

import socket
import sys

if __name__ == "__main__":
    try:
        with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1) as conn:
            conn.sendall(b"leak\n")
            print("CONNECTED")
    except OSError as exc:
        print(f"BLOCKED: {exc}")
