"""Where a tool call's ``path`` argument points, as Ink's tools resolve it (``path-resolve.ts``).

Two rules, by tool:

- :func:`resolve_to_cwd` (``read`` and ``ls``; Ink's ``resolveToCwd``): Unicode spaces become
  plain spaces, one leading ``@`` is dropped, ``~`` and ``~/…`` name the home folder (in the
  path and in the cwd), then the path is resolved against the cwd;
- :func:`resolve_plain` (``edit``, ``write``, ``grep``, ``find``; Node's ``path.resolve``): the
  path is resolved against the cwd as it is.

Paths are POSIX strings; nothing here touches the file system (the home folder is the one of
the user running ink-tui, as it is Ink's user's when Ink runs).
"""

from __future__ import annotations

import os
import posixpath
import re
from typing import Final

__all__ = [
    "RESOLVE_TO_CWD_TOOLS",
    "UNICODE_SPACES",
    "resolve_for_tool",
    "resolve_plain",
    "resolve_to_cwd",
]

UNICODE_SPACES: Final = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000]")
"""The space-like code points a terminal may put where a plain space belongs (pi's class)."""

RESOLVE_TO_CWD_TOOLS: Final = frozenset({"read", "ls"})
"""The built-in tools whose path goes through :func:`resolve_to_cwd`."""


def _expand_tilde(text: str) -> str:
    """``~`` and ``~/…`` made the home folder (never ``~user``, as Ink's ``normalizePath``)."""
    if text == "~" or text.startswith("~/"):
        return os.path.expanduser(text)
    return text


def resolve_plain(requested: str, cwd: str) -> str:
    """``path.resolve(cwd, requested)``: absolute and normalised, the text taken as it is."""
    return posixpath.normpath(posixpath.join(cwd, requested))


def resolve_to_cwd(requested: str, cwd: str) -> str:
    """Ink's ``resolveToCwd``: spaces made plain, a leading ``@`` dropped, ``~`` expanded (the
    cwd's too), then resolved against the cwd."""
    text = UNICODE_SPACES.sub(" ", requested).removeprefix("@")
    return resolve_plain(_expand_tilde(text), _expand_tilde(cwd))


def resolve_for_tool(tool: str, requested: str, cwd: str) -> str:
    """The absolute path tool ``tool``'s ``path`` argument names, by that tool's rule."""
    if tool in RESOLVE_TO_CWD_TOOLS:
        return resolve_to_cwd(requested, cwd)
    return resolve_plain(requested, cwd)
