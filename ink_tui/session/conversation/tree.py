"""The entry tree of one session: branch walk, forks, labels, name, model and thinking level."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator

from ink_tui.session.reading.errors import SessionError
from ink_tui.session.reading.lines import JS_WHITESPACE
from ink_tui.session.reading.reader import Entry, SessionFile
from ink_tui.session.reading.records import THINKING_LEVELS
from ink_tui.session.rules.modelref import ModelRef

__all__ = [
    "branch",
    "children_map",
    "entry_named",
    "explicit_model_selection",
    "fold_labels",
    "label_writes",
    "labels",
    "leaves",
    "restored_model",
    "session_name",
    "thinking_level",
]


def entry_named(session: SessionFile, wanted: str) -> str:
    """The id of the entry ``wanted`` names (``--branch``): its id, or a prefix of one id only.
    Raises :class:`SessionError` naming the session when none or several match."""
    if wanted in session.by_id:
        return wanted
    found = [entry_id for entry_id in session.by_id if entry_id.startswith(wanted)]
    if len(found) == 1:
        return found[0]
    many = f"{len(found)} entries start with" if found else "no entry is or starts with"
    raise SessionError(f"--branch {wanted}: {many} {wanted}", path=session.path)


def branch(
    session: SessionFile, leaf_id: str | None = None, *, use_leaf: bool = True
) -> list[Entry]:
    """The entries from the root to ``leaf_id`` (default: the session's leaf), as ``getBranch``.

    Raises :class:`SessionError` with Ink's texts on a cycle, a broken chain or a missing leaf.
    A null leaf gives an empty branch.
    """
    if use_leaf and leaf_id is None:
        leaf_id = session.leaf_id
    if leaf_id is None:
        return []
    by_id = session.by_id
    current = by_id.get(leaf_id)
    if current is None:
        raise SessionError(f"entry {leaf_id} not found", path=session.path)
    # Every entry walked is an id's winner, so a walk longer than the id map has met one twice:
    # a cycle, then named by a second walk (no set of a million ids on every walk).
    longest = len(by_id)
    path: list[Entry] = []
    append = path.append
    while True:
        append(current)
        parent_id = current.parent_id
        if parent_id is None:
            break
        parent = by_id.get(parent_id)
        if parent is None:
            raise SessionError(f"broken parentId chain at entry {leaf_id}", path=session.path)
        if len(path) > longest:
            raise SessionError(f"parentId cycle at entry {_first_repeat(path)}", path=session.path)
        current = parent
    path.reverse()
    return path


def _first_repeat(walk: list[Entry]) -> str:
    """The id of the first entry a walk meets a second time."""
    seen: set[str] = set()
    for entry in walk:
        if entry.id in seen:
            return entry.id
        seen.add(entry.id)
    raise AssertionError("the walk has no repeat")


def children_map(session: SessionFile) -> dict[str | None, list[Entry]]:
    """Each id (``None`` for roots) to its child entries in file order (the id map's winners)."""
    result: dict[str | None, list[Entry]] = defaultdict(list)
    for entry in session.entries:
        if session.by_id.get(entry.id) is entry:
            result[entry.parent_id].append(entry)
    return result


def leaves(session: SessionFile) -> list[Entry]:
    """Entries (labels excepted) that no other non-label entry names as parent, in file order."""
    by_id = session.by_id
    winners = (
        [entry for entry in session.entries if by_id.get(entry.id) is entry]
        if session.duplicate_ids
        else session.entries  # every entry is its id's winner
    )
    parents = {entry.parent_id for entry in winners if entry.type != "label"}
    return [entry for entry in winners if entry.type != "label" and entry.id not in parents]


def fold_labels(labels: dict[str, str], writes: Iterable[tuple[str, str]]) -> set[str]:
    """Ink's label rule: apply ``(targetId, label)`` writes, in file order, to ``labels`` in
    place. File-wide, the last write wins, an empty label removes it. Returns the target ids
    whose label changed."""
    changed: set[str] = set()
    for target, text in writes:
        before = labels.get(target)
        if text:
            labels[target] = text
        else:
            labels.pop(target, None)
        if labels.get(target) != before:
            changed.add(target)
    return changed


def label_writes(entries: Iterable[Entry]) -> Iterator[tuple[str, str]]:
    """The ``(targetId, label)`` of each ``label`` entry among ``entries``."""
    for entry in entries:
        if entry.type == "label":
            yield str(entry.record["targetId"]), str(entry.record["label"])


def labels(session: SessionFile) -> dict[str, str]:
    """``targetId -> label`` for the whole file (:func:`fold_labels`)."""
    result: dict[str, str] = {}
    fold_labels(result, label_writes(session.entries))
    return result


def session_name(branch_entries: list[Entry]) -> str | None:
    """The latest ``session_info`` name on the branch; a blank name clears it."""
    for entry in reversed(branch_entries):  # the latest one decides
        if entry.type == "session_info":
            return str(entry.record["name"]).strip(JS_WHITESPACE) or None
    return None


def thinking_level(session: SessionFile) -> str | None:
    """The level a resume restores: the last ``thinkingLevelChange`` in whole-file order.

    As in Ink's runner, an unknown level in that last change means nothing is restored.
    """
    for entry in reversed(session.entries):
        if entry.type == "thinkingLevelChange":
            level = str(entry.record["thinkingLevel"])
            return level if level in THINKING_LEVELS else None
    return None


def restored_model(session: SessionFile) -> tuple[ModelRef | None, bool]:
    """The model a resume restores and whether it was an explicit selection.

    The latest ``session_model`` in file order wins, whatever the branch; else ``header.model``.
    """
    if session.session_models:
        record = session.session_models[-1].record
        return ModelRef(str(record["provider"]), str(record["modelId"])), bool(record["explicit"])
    model = session.header.get("model")
    if isinstance(model, dict):
        return ModelRef(str(model["provider"]), str(model["modelId"])), False
    return None, False


def explicit_model_selection(session: SessionFile) -> bool:
    """Whether any ``session_model`` marker records an explicit ``/model`` choice."""
    return any(marker.record["explicit"] is True for marker in session.session_models)
