"""Following a session Ink is still writing: the bytes appended after the last complete line,
checked as ``open()`` checks them.
"""
