"""The catalog index: a persistent SQLite cache of every session's picker row, entries and text.

- :mod:`.store`: the database (location, schema version, rebuild or bypass, write transactions);
- :mod:`.filescan`: one file, read whole or from where it was last indexed;
- :mod:`.update`: the sessions dir reconciled with the index, and the rows read back.
"""

from ink_tui.catalog.index.store import (
    CatalogIndex,
    IndexBusy,
    IndexUnavailable,
    default_index_path,
)
from ink_tui.catalog.index.update import IndexReport, load_rows, update_index

__all__ = [
    "CatalogIndex",
    "IndexBusy",
    "IndexReport",
    "IndexUnavailable",
    "default_index_path",
    "load_rows",
    "update_index",
]
