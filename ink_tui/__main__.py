"""Entry point for ``python -m ink_tui``."""

from ink_tui.cli import main

if __name__ == "__main__":  # never when a worker process imports it
    raise SystemExit(main())
