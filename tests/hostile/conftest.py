"""The hostile programs are data, never test modules: pytest must not import them."""

collect_ignore_glob = ["*/main.py"]
