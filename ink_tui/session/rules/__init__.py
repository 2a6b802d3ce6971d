"""Ink's rules over the records ``open()`` keeps: the fill-in results (:mod:`.fillins`), task
records (:mod:`.taskrecord`), the child-resume lease (:mod:`.leases`), Ink's static rates and its
``/status`` work totals (:mod:`.rates`, :mod:`.usage_totals`). Each rule lives here once, for
the view, the command line, the chat and the catalog alike. Built on :mod:`ink_tui.session.reading`.
"""
