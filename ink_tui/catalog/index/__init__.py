"""The catalog index: a persistent SQLite cache of every session's picker row, entries and text.

- :mod:`.store`: the database (location, schema version, rebuild or bypass, write transactions);
- :mod:`.filescan`: one file, read whole or from where it was last indexed;
- :mod:`.update`: the sessions dir reconciled with the index, and the rows read back;
- :mod:`.listing`: the picker's rows through the index.

The names below are imported from their modules when first used (PEP 562): importing
``ink_tui.catalog.index.store`` does not import the file scan and the listing's parser.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ink_tui.catalog.index.listing import load_rows
    from ink_tui.catalog.index.store import (
        CatalogIndex,
        IndexBusy,
        IndexUnavailable,
        default_index_path,
    )
    from ink_tui.catalog.index.update import IndexReport, update_index

_HOMES = {
    "store": ("CatalogIndex", "IndexBusy", "IndexUnavailable", "default_index_path"),
    "update": ("IndexReport", "update_index"),
    "listing": ("load_rows",),
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "CatalogIndex",
    "IndexBusy",
    "IndexReport",
    "IndexUnavailable",
    "default_index_path",
    "load_rows",
    "update_index",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # found once, then an ordinary attribute
    return value
