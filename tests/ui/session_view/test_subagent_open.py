"""Enter on a ``task`` call whose result names a subagent session opens that session over the
parent's view, with a breadcrumb; Esc comes back to the same row (issue 13, item 1: a part)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from testdata import task_record
from waiting import wait_for

from ink_tui.session.analysis.subagents import find_child
from ink_tui.session.writing.writer import SessionWriter
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree

CWD = "/home/ada/code/kids"


def _family(base: Path, *, with_child: bool = True) -> tuple[Path, Path]:
    """A parent whose task call's result names a child in ``children/`` (written if asked)."""
    project = base / "home-ada-code-kids"
    parent = SessionWriter.new(project, CWD)
    child = SessionWriter.new(project / "children", CWD)
    child.header["parent"] = parent.session_id
    child.header["launch"] = {
        "version": 1,
        "parentSessionId": parent.session_id,
        "childId": child.session_id,
    }
    if with_child:
        child.append_message({"role": "user", "content": "review the change to ledger.py"})
    parent.append_message({"role": "user", "content": "ask a reviewer"})
    call = {"type": "toolCall", "id": "t1", "name": "task", "arguments": {"prompt": "review"}}
    parent.append_message(
        {"role": "assistant", "blocks": [call], "usage": {"inputTokens": 1, "outputTokens": 1}}
    )
    record = task_record(
        childId=child.session_id,
        transcript={"present": True, "path": f"/elsewhere/children/{child.path.name}"},
    )
    result = {
        "toolCallId": "t1",
        "toolName": "task",
        "content": "looks right",
        "isError": False,
        "taskRecord": record,
    }
    parent.append_message({"role": "toolResult", "results": [result]})
    return parent.path, child.path


def test_the_child_is_found_by_its_transcript_name_or_its_header_id(tmp_path: Path) -> None:
    parent, child = _family(tmp_path)
    transcript = {"present": True, "path": "/x/" + child.name}
    result = {"taskRecord": task_record(childId=child.stem, transcript=transcript)}
    assert find_child(parent, result) is None  # the name matches, the header id does not
    session_id = child.read_text().split('"id":"', 1)[1].split('"', 1)[0]
    assert find_child(parent, {"taskRecord": task_record(childId=session_id)}) == child
    assert find_child(child, {"taskRecord": task_record(childId=session_id)}) == child  # beside it
    assert find_child(parent, {"taskRecord": task_record(childId="gone")}) is None
    assert find_child(parent, {"no": "record"}) is None
    # a record Ink's parseTaskRecord rejects (no sourceId) names nothing: Ink treats it as absent
    invalid = {key: v for key, v in task_record(childId=session_id).items() if key != "sourceId"}
    assert find_child(parent, {"taskRecord": invalid}) is None


async def _on_the_task_row(pilot: Any) -> tuple[SessionScreen, SessionTree]:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the session")
    screen = app.screen
    tree = screen.query_one(SessionTree)
    await wait_for(pilot, lambda: tree.at_last_row, "the rows")
    await pilot.press("g", "l", "j")  # the first turn, opened, its first row: the task call
    assert "task" in tree.cursor.text
    return screen, tree


async def test_enter_on_a_task_call_opens_the_subagent_and_esc_comes_back(
    tmp_path: Path, make_app: Any
) -> None:
    parent, child = _family(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=parent)
    async with app.run_test(size=(120, 36)) as pilot:
        screen, tree = await _on_the_task_row(pilot)
        row = tree.cursor_key
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.path == child,
            "the subagent's own view",
        )
        child_view = app.screen
        header = child_view.query_one("#session-header")
        await wait_for(pilot, lambda: "▸ task ▸" in str(header.render()), "the breadcrumb")
        assert str(header.render()).startswith("ask a reviewer ▸ task ▸ review the change")
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, "back in the parent")
        assert tree.cursor_key == row


async def test_a_task_call_whose_child_is_gone_says_so(tmp_path: Path, make_app: Any) -> None:
    parent, child = _family(tmp_path / "sessions", with_child=False)
    assert not child.exists()
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD, open_path=parent)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        screen, _tree = await _on_the_task_row(pilot)
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: any("not in children/" in str(n.message) for n in app._notifications),
            "the notice",
        )
        assert app.screen is screen
