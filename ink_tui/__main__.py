"""Entry point for ``python -m ink_tui``."""

from ink_tui.cli import main

raise SystemExit(main())
