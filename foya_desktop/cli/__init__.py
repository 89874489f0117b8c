"""The ``foya`` command line: the window by default, or headless commands (``cli/main.py``)."""
