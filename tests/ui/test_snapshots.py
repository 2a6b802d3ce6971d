"""SVG snapshots of the main screens (pytest-textual-snapshot), and the README's screenshots.

Every snapshot must come out the same on any machine, any day, from any checkout:

- the demo sessions are generated for a fixed ``NOW`` (their mtimes are set relative to it) and
  the app's clock is pinned a few seconds later, so ages ("2m ago") and live markers never move;
- no absolute path reaches the screen: the picker and the session view show folder and file
  *names* only, and the error view, which prints the path it was given, is handed a relative
  one (see :func:`test_error`).

Refresh after a deliberate change to the UI (then look at the SVGs before committing)::

    python -m pytest tests/ui/test_snapshots.py --snapshot-update -k 'not screenshots' &&
    for n in picker preview session help error chat search stats timeline changes subagents \
        ink_tree; do
        cp tests/ui/__snapshots__/test_snapshots/test_$n.svg docs/screenshots/$n.svg; done

(one line in the README's Development section).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import testdata
from textual.pilot import Pilot
from textual.widgets import Input
from waiting import wait_for, workers_finished

from ink_tui.demo import DEMO_CWD, generate_demo
from ink_tui.ui.app import InkApp
from ink_tui.ui.widgets.preview import SessionPreview

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOTS = Path(__file__).resolve().parent / "__snapshots__" / "test_snapshots"
SCREENSHOTS = ROOT / "docs" / "screenshots"
# docs/screenshots/NAME.svg <- test_NAME
SHOTS = (
    *("picker", "preview", "session", "help", "error", "chat", "search", "stats", "timeline"),
    *("changes", "subagents", "ink_tree"),
)
REFRESH = (
    "for n in " + " ".join(SHOTS) + "; do "
    "cp tests/ui/__snapshots__/test_snapshots/test_$n.svg docs/screenshots/$n.svg; done"
)

SIZE = (120, 36)
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
CLOCK = NOW.timestamp() + 5

SnapCompare = Callable[..., bool]


def clock() -> float:
    return CLOCK


@pytest.fixture
def demo_app(tmp_path: Path, make_app: Any) -> Callable[..., InkApp]:
    """``demo_app(open_path=None, chat=False)``: the app on the demo sessions, clock pinned."""

    def make(open_path: Path | None = None, *, chat: bool = False) -> InkApp:
        sessions = tmp_path / "sessions"
        paths = generate_demo(sessions, seed=0, sessions=12, now=NOW)
        if chat:  # the newest session of the demo project, as `ink-tui -c --chat` opens it
            open_path = next(p for p in paths if p.parent.name == "home-ada-code-calc--kit")
        app: InkApp = make_app(
            sessions_dir=sessions, cwd=DEMO_CWD, open_path=open_path, clock=clock, chat=chat
        )
        return app

    return make


async def settle(pilot: Pilot[Any]) -> None:
    """Let every worker finish and every message they posted be handled."""
    await wait_for(pilot, workers_finished(pilot.app), "every worker of the app to finish")


async def press_and_settle(pilot: Pilot[Any], *keys: str) -> None:
    await settle(pilot)  # the picker's rows are read by a worker
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


def test_picker(snap_compare: SnapCompare, demo_app: Any) -> None:
    """The picker on the demo project's sessions, newest first."""
    assert snap_compare(demo_app(), terminal_size=SIZE, run_before=press_and_settle)


def test_preview(snap_compare: SnapCompare, demo_app: Any) -> None:
    """The picker with the preview of the newest session open (Space)."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await press_and_settle(pilot, "space")
        # The preview scrolls itself to the end right after replacing its body, before the new
        # body is laid out: where it lands depends on timing (usually 2 rows short of the end,
        # under load at the top). Scroll it to the end again, once laid out, so the snapshot
        # shows what the preview means to show rather than a race.
        preview = pilot.app.screen.query_one(SessionPreview)
        preview.scroll_end(animate=False, immediate=True)
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=SIZE, run_before=run_before)


def test_search(snap_compare: SnapCompare, demo_app: Any) -> None:
    """The search across sessions (s in the picker): hits grouped by session, as typed."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await press_and_settle(pilot, "s")
        # A blinking cursor is drawn or not depending on when the snapshot is taken.
        pilot.app.screen.query_one("#search-query", Input).cursor_blink = False
        await pilot.press(*"retry loop")
        note = pilot.app.screen.query_one("#search-note")
        await wait_for(pilot, lambda: "hits in" in str(note.render()), "the hits")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=SIZE, run_before=run_before)


def test_stats(snap_compare: SnapCompare, demo_app: Any) -> None:
    """Usage and cost (S in the picker), every project (Tab): the totals per model, the chart."""

    async def run_before(pilot: Pilot[Any]) -> None:
        from ink_tui.ui.screens.stats import StatsScreen

        await press_and_settle(pilot, "S", "tab")
        screen = pilot.app.screen
        assert isinstance(screen, StatsScreen)
        await wait_for(pilot, lambda: screen.report is not None, "the figures")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=SIZE, run_before=run_before)


def test_session(snap_compare: SnapCompare, demo_app: Any) -> None:
    """The session view of the newest demo session (Enter on the first row)."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await press_and_settle(pilot, "enter")

    assert snap_compare(demo_app(), terminal_size=SIZE, run_before=run_before)


def test_timeline(snap_compare: SnapCompare, demo_app: Any) -> None:
    """The timeline (T) of the newest demo session: every turn as a bar of its duration."""

    async def run_before(pilot: Pilot[Any]) -> None:
        from ink_tui.ui.screens.timeline import TimelineScreen
        from ink_tui.ui.widgets.timeline_bars import TimelineBars

        await press_and_settle(pilot, "enter", "T")
        screen = pilot.app.screen
        assert isinstance(screen, TimelineScreen)
        bars = screen.query_one(TimelineBars)
        await wait_for(pilot, lambda: bool(bars.rows), "the measured turns")
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=SIZE, run_before=run_before)


def test_ink_tree(snap_compare: SnapCompare, demo_app: Any) -> None:
    """Ink's tree (I in the session view) of the demo project's second session (three leaves):
    every entry as Ink's /tree lists it, the current branch first and marked, the cursor on the
    current leaf; then Tab (the no-tools filter, named on the status line)."""

    async def run_before(pilot: Pilot[Any]) -> None:
        from ink_tui.ui.screens.ink_tree import BUILDING, InkTreeScreen

        await press_and_settle(pilot, "j", "enter", "I")
        screen = pilot.app.screen
        assert isinstance(screen, InkTreeScreen)
        status = screen.query_one("#ink-tree-status")
        await wait_for(pilot, lambda: screen.shown is not None, "the tree's rows")
        await press_and_settle(pilot, "tab")
        await wait_for(
            pilot,
            lambda: (
                screen.shown is not None
                and screen.shown.mode == "no-tools"
                and BUILDING not in str(status.render())
            ),
            "the rows under no-tools",
        )
        await settle(pilot)

    assert snap_compare(demo_app(), terminal_size=SIZE, run_before=run_before)


def test_help(snap_compare: SnapCompare, demo_app: Any) -> None:
    """The help screen over the session view (?)."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await press_and_settle(pilot, "enter", "question_mark")

    assert snap_compare(demo_app(), terminal_size=SIZE, run_before=run_before)


def test_changes(snap_compare: SnapCompare, tmp_path: Path, make_app: Any) -> None:
    """The changes view (D in the session view) of a hand-made session, its turns shown (t):
    every file's net change on one line (a deep path shortened from the left, long turn titles
    cut with …), the first file's diff with its failed edit."""
    import changesdata

    ids = iter(range(1, 1000))
    sessions = tmp_path / "sessions"
    path = changesdata.changes_session(
        sessions,
        long_names=True,
        clock=lambda: NOW,
        random_hex=lambda: f"{next(ids):016x}",
        file_uuid="0" * 36,
    )
    app = make_app(sessions_dir=sessions, cwd=changesdata.CWD, open_path=path, clock=clock)

    async def run_before(pilot: Pilot[Any]) -> None:
        from ink_tui.ui.screens.changes import ChangesScreen

        await press_and_settle(pilot, "D")
        screen = pilot.app.screen
        assert isinstance(screen, ChangesScreen)
        await wait_for(pilot, lambda: "mul" in str(screen.diff.content), "the first diff")
        await press_and_settle(pilot, "t")

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_subagents(snap_compare: SnapCompare, tmp_path: Path, make_app: Any) -> None:
    """A task call of the subagent family (tests/data/subagents) shown in place: the call's
    result, the head row, the subagent's turns, the first one opened."""
    family = testdata.copy_family(tmp_path / "sessions", live=False)
    app = make_app(
        sessions_dir=tmp_path / "sessions",
        cwd=testdata.TREE_HOME_CWD,
        open_path=family.parent,
        clock=clock,
    )

    async def run_before(pilot: Pilot[Any]) -> None:
        from ink_tui.ui.session_view.screen import SessionScreen

        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, SessionScreen)
        tree = screen.session_tree
        # The view's own first move (to the last row) first, then the call: under load the
        # first move could land after a reveal made too early.
        await wait_for(pilot, lambda: tree.at_last_row, "the first row")
        screen.reveal("a1:1")
        await wait_for(pilot, lambda: tree.cursor_key == "a1:1", "the cursor on the call")
        call = tree.cursor
        await press_and_settle(pilot, "l")
        await wait_for(pilot, lambda: len(call.children) > 2, "the subagent's rows")
        await settle(pilot)
        await press_and_settle(pilot, "j", "j", "j", "l")

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_error(snap_compare: SnapCompare, demo_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The error view of a session with a corrupt line in the middle.

    The error view prints the path it was given, and an absolute path would depend on where the
    repository is checked out (CI clones it elsewhere). So the project's own data file is read
    in place (the error view never writes) but opened by a *relative* name, from inside its
    folder: the snapshot shows ``interior-corrupt.jsonl`` wherever the repository lives.
    (Copying it into ``tmp_path`` would not help: that path changes on every run.)
    """
    testdata.session_file("interior-corrupt")
    monkeypatch.chdir(testdata.SESSIONS)
    app = demo_app(open_path=Path("interior-corrupt.jsonl"))
    assert snap_compare(app, terminal_size=SIZE, run_before=press_and_settle)


def test_chat(
    snap_compare: SnapCompare,
    demo_app: Any,
    monkeypatch: pytest.MonkeyPatch,
    fake_llm: Any,
) -> None:
    """The chat pane on the newest demo session: a streamed reply asks to run a bash command."""
    from ink_tui.session.writing import writer

    for name, value in fake_llm.env().items():
        monkeypatch.setenv(name, value)
    fake_llm.chat(  # the demo session's model is openai/gpt-5.1
        text="I'll run the test suite first.",
        tool_calls=[("toolu_01", "bash", {"command": "python -m pytest -q tests/test_stats.py"})],
    )

    async def run_before(pilot: Pilot[Any]) -> None:
        from ink_tui.ui.modals.chat import ApprovalScreen

        await settle(pilot)
        # the chat's entry ids are drawn at random: pinned here (the prompt's row shows its id)
        ids = iter(range(1, 1000))
        monkeypatch.setattr(writer, "new_entry_id", lambda *_: f"{next(ids):016x}")
        await pilot.press(*"run the stats tests", "enter")
        await wait_for(
            pilot, lambda: isinstance(pilot.app.screen, ApprovalScreen), "the approval dialog"
        )

    assert snap_compare(demo_app(chat=True), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("name", SHOTS)
def test_screenshots_match_the_snapshots(name: str) -> None:
    """``docs/screenshots/`` (shown in the README and the docs) holds copies of the snapshots,
    kept current."""
    snapshot = SNAPSHOTS / f"test_{name}.svg"
    screenshot = SCREENSHOTS / f"{name}.svg"
    refresh = f"refresh with: {REFRESH}"
    assert snapshot.exists(), f"no snapshot {snapshot.name}: run the snapshot tests first"
    assert screenshot.exists(), f"docs/screenshots/{name}.svg is missing; {refresh}"
    assert screenshot.read_bytes() == snapshot.read_bytes(), (
        f"docs/screenshots/{name}.svg differs from its snapshot; {refresh}"
    )


def test_export_secrets(
    snap_compare: SnapCompare, tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The export screen (e in the session view) over a session holding a token and a password,
    Enter pressed: it says how many secrets, of what kind, and how to go on; nothing written."""
    from inksessions import ink_session

    sessions = tmp_path / "sessions"
    prompts = [
        "deploy it with ghp_" + "Vb3Nm8Qw" * 4 + "Zr7p please",
        "and DB_PASSWORD=hunter22 for the db",
    ]
    path = ink_session(sessions, "/home/ada/code/deploy", "leaky", prompts, reply="done")
    monkeypatch.chdir("/")  # the proposed file's folder: the same on every machine
    app = make_app(sessions_dir=sessions, cwd="/home/ada/code/deploy", open_path=path, clock=clock)

    async def run_before(pilot: Pilot[Any]) -> None:
        from ink_tui.ui.screens.export import ExportScreen

        await press_and_settle(pilot, "e")
        screen = pilot.app.screen
        assert isinstance(screen, ExportScreen)
        await press_and_settle(pilot, "enter")
        problem = screen.query_one("#export-problem")
        await wait_for(pilot, lambda: "secrets" in str(problem.render()), "the secrets said")

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_secrets(snap_compare: SnapCompare, tmp_path: Path, make_app: Any) -> None:
    """The secrets of a session (x in the picker): a line each, every secret masked, the
    session's title masked too."""
    from inksessions import ink_session

    from ink_tui.ui.screens.secrets import SecretsScreen

    sessions = tmp_path / "sessions"
    prompts = [
        "deploy it with ghp_" + "Vb3Nm8Qw" * 4 + "Zr7p please",
        'and the db: {"user": "app", "password": "Hn3Jk8Lp2Qw"} then postgres://app:Zx9Cv8Bn7@db/app',
    ]
    ink_session(
        sessions, "/home/ada/code/deploy", "leaky", prompts, reply="done", mtime=CLOCK - 3600
    )
    app = make_app(sessions_dir=sessions, cwd="/home/ada/code/deploy", clock=clock)

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, workers_finished(pilot.app), "the picker's rows")
        await press_and_settle(pilot, "x")
        await wait_for(
            pilot,
            lambda: isinstance(pilot.app.screen, SecretsScreen) and pilot.app.screen.findings,
            "the findings",
        )

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
