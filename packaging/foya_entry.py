"""The frozen bundle's entry point: the same ``foya`` command as the console script."""

from foya_desktop.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
