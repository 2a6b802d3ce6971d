"""Reading one session file: the JSON codec (JavaScript's parse and stringify), the lines, Ink's
records and their checks, the strict ``open()`` (:mod:`.reader`), payloads read by offset, and
JavaScript's value rules (numbers, dates, formatting). Imports nothing else of the session core.
"""
