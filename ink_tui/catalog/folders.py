"""Whether a sessions folder can be listed, and why not, in words naming it.

Kept apart from :mod:`ink_tui.catalog.scan` (which reads sessions) so that a command that only
needs to know, as ``ink-tui search`` does before it asks the index, imports nothing more.
"""

from __future__ import annotations

import os
from pathlib import Path

from ink_tui.paths import project_dir

__all__ = ["folder_problem", "unreadable_folder"]


def folder_problem(folder: Path) -> str | None:
    """Why ``folder`` cannot be listed, in words naming it (``None``: it can).

    ``"<folder> does not exist"`` (Ink lists nothing there), ``"<folder> is not a folder"``, or
    ``"cannot read <folder>: Permission denied"`` (and the other reasons of ``scandir``)."""
    try:
        with os.scandir(folder):
            return None
    except FileNotFoundError:
        return f"{folder} does not exist"
    except NotADirectoryError:
        return f"{folder} is not a folder"
    except OSError as error:
        return f"cannot read {folder}: {error.strerror or error}"


def unreadable_folder(base_dir: Path, cwd: str | None) -> str | None:
    """Why the folder a listing reads (the sessions folder, or the cwd's project folder in it)
    exists but cannot be read; ``None`` when it can, or when it does not exist (an empty
    listing, as Ink's)."""
    problem = folder_problem(base_dir if cwd is None else project_dir(base_dir, cwd))
    return None if problem is None or problem.endswith(" does not exist") else problem
