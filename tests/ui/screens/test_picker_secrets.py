"""Pilot journeys of the secrets in the app: the picker's ``secrets`` column and note, ``$``
keeping only the sessions holding secrets, ``x`` listing a session's findings (masked), Enter
going to the record, ``X`` scrubbing after a question and ``u`` bringing the original back byte
for byte; and no secret on any screen along the way."""

from __future__ import annotations

import io
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from inksessions import ink_session
from rich.console import Console
from textual.widgets import Static
from waiting import wait_for, workers_finished

from ink_tui.paths import project_dir
from ink_tui.ui.app import InkApp
from ink_tui.ui.modals.keeping import ConfirmScreen
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.screens.secrets import SecretsScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.widgets.finding_list import FindingList
from ink_tui.ui.widgets.session_list import SessionList

CWD = "/home/ada/code/deploy"
TOKEN = "ghp_" + "Vb3Nm8Qw" * 4 + "Zr7p"
PASSWORD = "Hn3Jk8Lp2Qw"
OLD = time.time() - 3600  # not written to for an hour: no writer is active


def _sessions(base: Path) -> Path:
    ink_session(base, CWD, "clean", ["fix the flaky test"], reply="done", mtime=OLD - 60)
    prompts = ["start the deploy", f"push with {TOKEN} and DB_PASSWORD={PASSWORD}", "thanks"]
    return ink_session(base, CWD, "leaky", prompts, reply="done", mtime=OLD)


def _text(app: InkApp, selector: str) -> str:
    widget = app.screen.query_one(selector, Static)
    console = Console(file=io.StringIO(), width=300, color_system=None, legacy_windows=False)
    console.print(widget.content)
    return console.file.getvalue()  # type: ignore[attr-defined]


def _no_secret_on_screen(app: InkApp) -> None:
    shown = app.export_screenshot()
    assert TOKEN not in shown and PASSWORD not in shown and TOKEN[:12] not in shown


@pytest.fixture
def app(tmp_path: Path, make_app: Any) -> InkApp:
    """The app on a project of two sessions: ``leaky`` (a token and a password), ``clean``."""
    _sessions(tmp_path / "sessions")
    built: InkApp = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD)
    return built


async def _findings(app: InkApp, pilot: Any) -> SecretsScreen:
    """``x`` on the highlighted session, and its secrets screen once they are read."""
    await pilot.press("x")
    await wait_for(
        pilot,
        lambda: isinstance(app.screen, SecretsScreen) and app.screen.findings is not None,
        "the findings",
    )
    assert isinstance(app.screen, SecretsScreen)
    return app.screen


async def _enter_lands_on(app: InkApp, pilot: Any, text: str, where: str) -> None:
    """Enter on the highlighted finding: the session opens with the tree's cursor on a row
    showing ``text``, and no secret on the screen once it is read."""
    await pilot.press("enter")
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, SessionScreen)
            and app.screen.session_tree.cursor is not None
            and text in app.screen.session_tree.cursor.text
        ),
        where,
    )
    await wait_for(pilot, workers_finished(app), "the session read")
    _no_secret_on_screen(app)


async def _picker(app: InkApp, pilot: Any) -> SessionList:
    await wait_for(pilot, workers_finished(app), "the picker's rows")
    assert isinstance(app.screen, PickerScreen)
    return app.screen.query_one(SessionList)


async def test_the_picker_counts_the_secrets_and_dollar_keeps_those_sessions(app: InkApp) -> None:
    async with app.run_test(size=(130, 30)) as pilot:
        sessions = await _picker(app, pilot)
        assert [row.id for row in sessions.shown] == ["leaky", "clean"]
        assert "secrets" in sessions.column_keys()
        cells = dict(zip(sessions.column_keys(), sessions.row_cells(0), strict=True))
        assert cells["secrets"].plain == "2"
        assert cells["title"].plain == "start the deploy"
        note = _text(app, "#picker-note")
        assert "Holds 2 secrets (1 github-token, 1 password)" in note
        assert "x lists them, X scrubs them from the file (u undoes)" in note
        await pilot.press("j")
        await wait_for(pilot, lambda: not app.screen.query_one("#picker-note").display, "no note")
        await pilot.press("dollar_sign")
        await wait_for(pilot, lambda: len(sessions.shown) == 1, "only the leaky session")
        assert sessions.shown[0].id == "leaky"
        assert "only sessions holding secrets: 1  ($ shows all)" in _text(app, "#picker-status")
        await pilot.press("dollar_sign")
        await wait_for(pilot, lambda: len(sessions.shown) == 2, "every session again")
        _no_secret_on_screen(app)


async def test_x_lists_the_findings_masked_and_enter_goes_to_the_record(app: InkApp) -> None:
    async with app.run_test(size=(130, 30)) as pilot:
        await _picker(app, pilot)
        findings = (await _findings(app, pilot)).query_one(FindingList)
        assert [(f.line, f.entry_id, f.field, f.kind) for f in findings.findings] == [
            (4, "u2", "message.content", "github-token"),
            (4, "u2", "message.content", "password"),
        ]
        row = findings.row_text(0, 200).plain
        assert row.startswith(" line 4 ") and "push with [REDACTED:github-token:" in row
        assert "2 secrets (1 github-token, 1 password)" in _text(app, "#secrets-title")
        _no_secret_on_screen(app)
        await _enter_lands_on(
            app, pilot, "push with", "the session, on the record holding the secret"
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, SecretsScreen), "back to the list")


async def test_capital_x_scrubs_after_a_question_and_u_brings_the_original_back(
    app: InkApp, tmp_path: Path
) -> None:
    (path,) = (tmp_path / "sessions").rglob("*-leaky.jsonl")
    original = path.read_bytes()
    async with app.run_test(size=(130, 30)) as pilot:
        await _picker(app, pilot)
        secrets = await _findings(app, pilot)
        assert secrets.findings
        await pilot.press("X")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        body = str(app.screen.query_one("#keep-body", Static).content)
        assert "Replace 2 secrets (1 github-token, 1 password) in “start the deploy”" in body
        assert path.read_bytes() == original  # nothing before the answer
        await pilot.press("y")
        await wait_for(pilot, lambda: secrets.findings == [], "no secret left")
        scrubbed = path.read_bytes()
        assert TOKEN.encode() not in scrubbed and PASSWORD.encode() not in scrubbed
        assert "u brings the original back" in _text(app, "#secrets-empty")
        await pilot.press("u")
        await wait_for(pilot, lambda: len(secrets.findings or []) == 2, "the findings again")
        assert path.read_bytes() == original  # byte for byte
        await pilot.press("escape")
        sessions = await _picker(app, pilot)
        await wait_for(pilot, lambda: sessions.shown[0].secret_count == 2, "the row's count")


def _tool_session(base: Path) -> Path:
    """A session whose secret is in a tool's output (``cat .env``), answered on the next turn."""
    folder = project_dir(base, CWD)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = "2026-11-20T11:00:{:02d}Z"
    call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "cat .env"}}
    result = {"toolCallId": "c1", "toolName": "bash", "isError": False,
              "content": f"GITHUB_TOKEN={TOKEN}\nDEBUG=1"}  # fmt: skip
    usage = {"inputTokens": 10, "outputTokens": 5}
    records = [
        {"type": "session", "version": 1, "id": "tooly", "timestamp": stamp.format(0), "cwd": CWD},
        {"type": "message", "id": "u1", "parentId": None, "timestamp": stamp.format(1),
         "message": {"role": "user", "content": "what is in .env?"}},
        {"type": "message", "id": "a1", "parentId": "u1", "timestamp": stamp.format(2),
         "message": {"role": "assistant", "blocks": [call], "usage": usage,
                     "stopReason": "tool_use"}},
        {"type": "message", "id": "r1", "parentId": "a1", "timestamp": stamp.format(3),
         "message": {"role": "toolResult", "results": [result]}},
        {"type": "message", "id": "a2", "parentId": "r1", "timestamp": stamp.format(4),
         "message": {"role": "assistant", "blocks": [{"type": "text", "text": "a token"}],
                     "usage": usage, "stopReason": "stop"}},
        {"type": "message", "id": "u2", "parentId": "a2", "timestamp": stamp.format(5),
         "message": {"role": "user", "content": "thanks"}},
    ]  # fmt: skip
    path = folder / "2026-11-20T11-00-00-000Z-tooly.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    os.utime(path, (OLD, OLD))
    return path


async def test_enter_on_a_secret_in_a_tool_output_goes_to_its_call(
    tmp_path: Path, make_app: Any
) -> None:
    _tool_session(tmp_path / "sessions")
    app = make_app(sessions_dir=tmp_path / "sessions", cwd=CWD)
    async with app.run_test(size=(130, 30)) as pilot:
        await _picker(app, pilot)
        secrets = await _findings(app, pilot)
        assert [(f.entry_id, f.field) for f in secrets.findings or []] == [
            ("r1", "message.results[0].content")
        ]
        await _enter_lands_on(
            app, pilot, "cat .env", "the session, on the call whose output holds the secret"
        )
