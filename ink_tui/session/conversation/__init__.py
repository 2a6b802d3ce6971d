"""The conversation a session holds, and what it means: the tree (leaf, branch walk, labels,
names), the context Ink rebuilds, tool-call pairing, the view's turns and rows, the header's
counts, forks, the resume point, the preview read from the end, and ``/tree``'s tree. Built on
:mod:`ink_tui.session.rules` and :mod:`ink_tui.session.reading`.
"""
