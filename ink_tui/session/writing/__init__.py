"""Writing to a session, the one door: the writer (lazy exclusive create, one whole record per
write, another writer noticed), the ledger of ink-tui's own writes, the repair of a torn tail and
Ink's continuation verdict.
"""
