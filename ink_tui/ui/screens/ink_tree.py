"""Ink's tree (``I`` in the session view): the whole file as Ink's ``/tree`` lists it.

The rows are :func:`ink_tui.session.conversation.navtree.tree_rows`' (spec §7): every entry but
labels, a self-parented or orphaned entry as a root, siblings by timestamp, the branch holding
the current leaf first and marked ``•``, labels as ``[label]``, the current leaf ``◂``. Tab
cycles Ink's five filters (default, no-tools, user-only, labeled-only, all; the status line
names the one shown), ``/`` keeps the rows whose text or label holds the words
(case-insensitive; the current leaf always stays), ``f`` (or Space) folds the row's subtree as
Ink's ``f`` does (not while a search is typed), ``L`` labels the entry, Enter shows the branch
to that entry in a session view of its own (read-only, as the branches screen does), Esc clears
the search, then goes back.

The file is read afresh in a thread worker (nothing the session view holds is touched), and the
rows are built in one too: 20,000 entries take about a second, so the screen says "building the
tree…" meanwhile. A change asked for while a build runs waits for it, and only the newest asked
for is built next. After a build the cursor stays on its entry, or on its nearest ancestor shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, Static

from ink_tui.humanize import plural
from ink_tui.logs import unforeseen
from ink_tui.safetext import one_line
from ink_tui.session.conversation.navtree import (
    FILTERS,
    TreeFilter,
    TreeNode,
    TreeRow,
    ink_tree,
    tree_rows,
)
from ink_tui.session.reading.errors import SessionError
from ink_tui.session.reading.reader import open_session
from ink_tui.ui.keymap import bind
from ink_tui.ui.options import follow_theme
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.footer import InkFooter
from ink_tui.ui.widgets.ink_tree_rows import InkTreeList
from ink_tui.ui.widgets.keeper import SessionKeeper

__all__ = ["BUILDING", "NOTHING_YET", "InkTreeScreen", "TreeView", "nearest_shown"]

BUILDING = "building the tree…"
NOTHING_YET = "nothing in this session yet"  # Ink's /tree on a file with no entry
SEARCH_DELAY = 0.2  # seconds of no typing before the search is built


@dataclass(frozen=True, slots=True)
class TreeView:
    """What the rows are built for: the filter, the folded entries, the search."""

    mode: TreeFilter = "default"
    folded: frozenset[str] = frozenset()
    query: str = ""


@dataclass(slots=True)
class TreeFile:
    """The file's tree as read: roots, Ink's leaf, each entry's parent in the tree."""

    roots: list[TreeNode]
    leaf_id: str | None
    parents: dict[str, str | None] = field(default_factory=dict)
    with_children: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, roots: list[TreeNode], leaf_id: str | None) -> TreeFile:
        tree = cls(roots, leaf_id)
        stack: list[tuple[TreeNode, str | None]] = [(root, None) for root in roots]
        while stack:
            node, parent = stack.pop()
            if node.entry.id in tree.parents:
                continue  # a duplicate id seen again (under itself): once is enough
            tree.parents[node.entry.id] = parent
            if node.children:
                tree.with_children.add(node.entry.id)
            stack.extend((child, node.entry.id) for child in node.children)
        return tree


def nearest_shown(entry_id: str | None, rows: list[TreeRow], parents: dict[str, str | None]) -> int:
    """The row of ``entry_id``, else of its nearest ancestor shown (Ink's
    ``findNearestVisibleIndex``): 0 without an entry, the last row when none is shown."""
    if not rows or entry_id is None:
        return 0
    index = {row.entry_id: number for number, row in enumerate(rows)}
    seen: set[str] = set()
    current: str | None = entry_id
    while current is not None and current not in seen:
        if current in index:
            return index[current]
        seen.add(current)
        current = parents.get(current)
    return len(rows) - 1


class InkTreeScreen(Screen[str | None]):
    """Choose an entry: Enter returns its id (its branch is shown), Esc ``None``."""

    BINDINGS: ClassVar[list[BindingType]] = [  # moving and Enter: the list's own keys
        bind("switch", "cycle_filter", "Filter", show=True),
        bind("find", "search", "Search", show=True),
        bind("ink", "fold", "Fold", show=True),
        bind("toggle", "fold", "Fold / unfold"),
        bind("label", "label", "Label", show=True),
        bind("back", "back", "Back", show=True),
    ]

    @dataclass
    class Read(Message):
        tree: TreeFile
        entries: int

    @dataclass
    class Built(Message):
        tree: TreeFile
        view: TreeView
        rows: list[TreeRow]

    @dataclass
    class Failed(Message):
        reason: str

    def __init__(self, path: Path, *, mode: TreeFilter = "default") -> None:
        super().__init__()
        self.path = path
        self.file_tree: TreeFile | None = None
        self.entries = 0
        self.wanted = TreeView(mode)
        self.shown: TreeView | None = None
        self.rows: list[TreeRow] = []
        self._building: TreeView | None = None
        self._cursor_entry: str | None = None  # where the cursor goes once the rows are built
        self._typing: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(plain("Ink's tree  ·  reading the session…", "bold"), id="ink-tree-title")
        yield InkTreeList(id="ink-tree-list")
        yield Input(placeholder="search the rows' text and labels", id="ink-tree-search")
        yield Static(plain(BUILDING, "dim"), id="ink-tree-status")
        yield SessionKeeper()
        yield InkFooter()

    @property
    def rows_list(self) -> InkTreeList:
        return self.query_one(InkTreeList)

    @property
    def search_line(self) -> Input:
        return self.query_one("#ink-tree-search", Input)

    def on_mount(self) -> None:
        self.search_line.display = False
        self.rows_list.focus()
        follow_theme(self, self.theme_changed)
        self._read()

    # -- reading and building (workers) ---------------------------------------------------------

    @work(thread=True, exclusive=True, group="ink-tree-read")
    def _read(self) -> None:
        try:
            session = open_session(self.path, warn=None)
            tree = TreeFile.of(ink_tree(session), session.leaf_id)
        except SessionError as error:
            self.post_message(self.Failed(error.one_line()))
        except OSError as error:
            self.post_message(self.Failed(f"{self.path}: {error.strerror or error}"))
        except Exception as error:  # a bug: logged, said in one line, never an app exit
            self.post_message(self.Failed(unforeseen(error, "reading Ink's tree")))
        else:
            count = sum(1 for entry in session.entries if entry.type != "label")
            self.post_message(self.Read(tree, count))

    @work(thread=True, group="ink-tree-build")
    def _build(self, tree: TreeFile, view: TreeView) -> None:
        try:
            rows = tree_rows(
                tree.roots, tree.leaf_id, view.mode, folded=view.folded, query=view.query
            )
        except SessionError as error:  # a payload read again from a file changed since
            self.post_message(self.Failed(error.one_line()))
        except Exception as error:  # a bug: logged, said in one line, never an app exit
            self.post_message(self.Failed(unforeseen(error, "building Ink's tree")))
        else:
            self.post_message(self.Built(tree, view, rows))

    def _want(self, view: TreeView) -> None:
        """Build the rows for ``view`` (after the build under way, if any)."""
        self.wanted = view
        if self._building is None and self.file_tree is not None:
            self._building = view
            self._build(self.file_tree, view)
        self._say()

    @on(Read)
    def _was_read(self, message: Read) -> None:
        self.file_tree, self.entries = message.tree, message.entries
        if self._cursor_entry is None:
            self._cursor_entry = message.tree.leaf_id  # at open: on the current leaf
        self._building = None
        self._want(self.wanted)

    @on(Built)
    def _was_built(self, message: Built) -> None:
        if message.tree is not self.file_tree:
            return  # built from the file as it was before it was read again
        self._building = None
        if message.view != self.wanted:  # asked for something else meanwhile: build that
            self._want(self.wanted)
            return
        highlighted = self.rows_list.highlighted
        if self.shown is not None and highlighted is not None:
            self._cursor_entry = highlighted.entry_id
        self.shown, self.rows = message.view, message.rows
        parents = self.file_tree.parents if self.file_tree is not None else {}
        self.rows_list.show(message.rows, nearest_shown(self._cursor_entry, message.rows, parents))
        self._say()

    @on(Failed)
    def _failed(self, message: Failed) -> None:
        self._building = None
        status = self.query_one("#ink-tree-status", Static)
        status.update(plain(f"cannot show Ink's tree: {message.reason}", "bold"))

    # -- what the screen says ------------------------------------------------------------------

    def _title(self) -> Text:
        text = plain("Ink's tree", "bold")
        if self.file_tree is None:
            return text
        text.append_text(plain(f"  ·  {plural(self.entries, 'entry', 'entries')}"))
        leaf = self.file_tree.leaf_id
        where = f"◂ {one_line(leaf[:8])}" if leaf is not None else "none (the empty branch)"
        text.append_text(plain(f"  ·  current leaf {where}"))
        text.append_text(plain("  ·  Enter shows the branch to the entry", "dim"))
        return text

    def _say(self) -> None:
        self.query_one("#ink-tree-title", Static).update(self._title())
        view = self.shown or self.wanted
        parts = [f"filter: {self.wanted.mode}"]
        if self.shown is not None and not self.entries:
            parts.insert(0, NOTHING_YET)
        elif self.shown is not None:
            count = len(self.rows)
            place = self.rows_list.cursor_row + 1 if count else 0
            parts.insert(0, f"({place:,}/{count:,})" if count else "no entries match")
        if view.query:
            parts.append(f"search: {one_line(view.query)}")
        if view.folded:
            parts.append(f"{plural(len(view.folded), 'row')} folded")
        if self._building is not None:
            parts.append(BUILDING)
        self.query_one("#ink-tree-status", Static).update(plain("  ·  ".join(parts)))

    @on(InkTreeList.Highlighted)
    def _highlighted(self, event: InkTreeList.Highlighted) -> None:
        self._say()

    @on(InkTreeList.Selected)
    def _selected(self, event: InkTreeList.Selected) -> None:
        event.stop()
        self.dismiss(event.row.entry_id)

    # -- keys ----------------------------------------------------------------------------------

    def action_cycle_filter(self) -> None:
        """Tab: the next of Ink's five filters (folds are cleared, as Ink clears them)."""
        mode = FILTERS[(FILTERS.index(self.wanted.mode) + 1) % len(FILTERS)]
        self._want(TreeView(mode, frozenset(), self.wanted.query))

    def action_search(self) -> None:
        line = self.search_line
        line.display = True
        line.value = self.wanted.query
        line.focus()

    @on(Input.Changed, "#ink-tree-search")
    def _typed(self, event: Input.Changed) -> None:
        if self._typing is not None:
            self._typing.stop()
        query = event.value
        self._typing = self.set_timer(SEARCH_DELAY, lambda: self._search_for(query))

    def _search_for(self, query: str) -> None:
        if query != self.wanted.query:  # every search edit clears the folds (Ink's rule)
            self._want(TreeView(self.wanted.mode, frozenset(), query))

    @on(Input.Submitted, "#ink-tree-search")
    def _submitted(self, event: Input.Submitted) -> None:
        self._search_for(event.value)
        self._close_search()

    def _close_search(self) -> None:
        self.search_line.display = False
        self.rows_list.focus()

    def action_fold(self) -> None:
        """``f``: fold or unfold the row's subtree (Ink: only while no search is typed)."""
        row = self.rows_list.highlighted
        if row is None or self.file_tree is None:
            return
        if self.wanted.query:
            self.notify("clear the search (Esc) to fold: Ink folds only without one", timeout=3)
            return
        if row.entry_id not in self.file_tree.with_children:
            self.notify("nothing under this row to fold", timeout=2)
            return
        self._want(TreeView(self.wanted.mode, self.wanted.folded ^ {row.entry_id}, ""))

    def action_label(self) -> None:
        """``L``: label the row's entry, as Ink's ``/tree`` does (empty removes)."""
        row = self.rows_list.highlighted
        if row is not None:
            self.query_one(SessionKeeper).label(self.path, row.entry_id, row.label or "")

    @on(SessionKeeper.Kept)
    def _kept(self, message: SessionKeeper.Kept) -> None:
        highlighted = self.rows_list.highlighted
        if highlighted is not None:
            self._cursor_entry = highlighted.entry_id
        self._building = self.wanted  # the rows wait for the file read again
        self._say()
        self._read()

    def action_back(self) -> None:
        if self.search_line.display:
            self._close_search()
        elif self.wanted.query:
            if self._typing is not None:
                self._typing.stop()
            self._want(TreeView(self.wanted.mode, frozenset(), ""))
        else:
            self.dismiss(None)

    def theme_changed(self) -> None:
        """The app's theme changed: the rows are drawn again in its colours."""
        self.rows_list.refresh_styles()
