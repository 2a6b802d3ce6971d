"""What the picker says around its list: the status line above it and the text shown in place
of an empty list. Pure: the screen hands in what it knows (``ui/screens/picker.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text

from ink_tui.catalog import SessionSummary
from ink_tui.catalog.folders import folder_problem, unreadable_folder
from ink_tui.humanize import human_size
from ink_tui.paths import SESSIONS_DIR_ENV
from ink_tui.ui.render import palette
from ink_tui.ui.render.safe import plain
from ink_tui.ui.scope import Scope, scope_cwd, scope_label, tab_hint
from ink_tui.ui.widgets import problem_rows, secret_rows
from ink_tui.ui.widgets.row_filter import RowFilter

__all__ = ["PickerPlace", "empty_text", "row_note", "status_text"]


@dataclass(frozen=True, slots=True)
class PickerPlace:
    """Where the picker looks: the sessions folder, the user's project, the scope listed, and
    whether any machine is mirrored here."""

    sessions_dir: Path
    project_dir: Path
    cwd: str
    scope: Scope
    mirrors: bool = False


def status_text(
    place: PickerPlace,
    *,
    total: int,
    query: str,
    shown: int,
    only: RowFilter | None,
    indexing: tuple[int, int] | None,
    scanning: bool,
    syncing: int | None = None,
    machines: tuple[str, ...] = (),
) -> Text:
    """``This project · calc-kit  ·  12 sessions · 3 matching  ·  indexing 40% …  Tab: …``."""
    status = plain(scope_label(place.scope, place.project_dir.name), "bold")
    if place.scope == "project" and machines:  # the same project's sessions on other machines
        status.append_text(plain(f" (here and on {', '.join(machines)})"))
    status.append(f"  ·  {total} session{'s' if total != 1 else ''}")
    if query:
        status.append(f" · {shown} matching")
    if only is not None:
        status.append(only.status_part(shown), "bold")
    if indexing is not None and indexing[1] > 0:
        done, size = indexing
        status.append(
            f"  ·  indexing {100 * done // size}% ({human_size(done)} of {human_size(size)})",
            "italic",
        )
    elif scanning:
        status.append("  ·  reading…", "italic")
    if syncing is not None:
        status.append(f"  ·  syncing machines ({human_size(syncing)})…", "italic")
    status.append(f"    {tab_hint(place.scope, mirrors=place.mirrors)}", "dim")
    return status


def empty_text(place: PickerPlace, *, query: str, only: RowFilter | None) -> Text:
    """Why the list is empty, and what to do about it (the folder missing or unreadable is
    said)."""
    if only is not None:
        return only.empty(query)
    if query:
        return plain(f"No session matches “{query}”. Esc clears the filter.")
    where = (
        f"for this project in {place.project_dir}"
        if place.scope == "project"
        else f"under {place.sessions_dir}"
    )
    if place.scope == "machines":
        where += " or in any machine's mirror"
    text = plain(f"No Ink sessions found {where}\n\n", "bold")
    cwd = scope_cwd(place.scope, place.cwd)
    problem = folder_problem(place.sessions_dir) or unreadable_folder(place.sessions_dir, cwd)
    if problem is not None:
        text.append_text(plain(f"{problem}\n\n", palette.current.warning))
    text.append_text(
        plain(
            f"Sessions dir: {place.sessions_dir}\n"
            f"Project folder: {place.project_dir.name}  (from {place.cwd})\n\n"
            "Point elsewhere with --sessions-dir DIR or the "
            f"{SESSIONS_DIR_ENV} environment variable"
            + ("; Tab lists every project." if place.scope == "project" else ".")
            + f"\n\nc starts a new session with a model in {place.cwd} (the chat pane)."
        )
    )
    return text


def row_note(summary: SessionSummary | None, only: RowFilter | None) -> Text | None:
    """The note under the list for the highlighted row: why Ink hides it, its problem (while
    the problems filter is on), the secrets it holds; ``None`` when there is nothing to say."""
    notes = [
        note
        for note in (
            problem_rows.row_note(summary, filtering=only is problem_rows.FILTER),
            secret_rows.row_note(summary),
        )
        if note is not None
    ]
    return Text("\n").join(notes) if notes else None
