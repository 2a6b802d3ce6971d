"""Values Ink's ``JSON.parse`` accepts and Python may not, through every screen.

Hypothesis writes sessions holding lone surrogates (a model cut mid-emoji writes ``"\\ud83d"``;
Ink keeps it), ``1e400``, ``-0``, ``1.0``, integers past 64 bits, escapes and markup, in every
free field, then walks them as a user would: the picker's row and preview, the session view and
``y`` on each row, the error view of a file holding them on a bad line, and the chat pane started
on the session with a fake model (``fake_llm``) whose reply holds a lone surrogate too, then a
second message. Nothing may crash, nothing unsafe may be handed to Textual, the clipboard and
every request body stay valid UTF-8, and the file keeps Ink's escapes.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from textual.widgets import Static
from waiting import wait_for

from ink_tui.paths import project_dir
from ink_tui.session import ModelRef
from ink_tui.ui.app import InkApp
from ink_tui.ui.modals.chat import ForkScreen
from ink_tui.ui.modals.keeping import CopyScreen
from ink_tui.ui.screens.chat import ChatScreen
from ink_tui.ui.screens.error import ErrorScreen
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.widgets.preview import SessionPreview
from ink_tui.ui.widgets.session_list import SessionList

STAMP = "2026-10-05T12:34:56.789Z"
SIZE = (120, 40)
MODEL = ModelRef("anthropic", "claude-sonnet-4-5")
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
SURROGATE = re.compile("[\ud800-\udfff]")

ODD_NUMBERS = ["1e400", "-1e400", "-0", "1.0", "1e-400", "18446744073709551616", "1" * 400]
ODD_PIECES = ["\ud83d", "\ude00", "x\udbff", "[/]", "[bold]", "\x1b]2;t\x07", "\x9b", "é"]
ODD_TEXT = st.lists(st.sampled_from(ODD_PIECES), min_size=1, max_size=4).map("".join)


# -- what the app hands Textual ------------------------------------------------------------------


def screen_text(app: InkApp) -> str:
    """Every segment of the screen as the compositor renders it."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def assert_safe(app: InkApp) -> None:
    assert app.is_running
    found = UNSAFE.search(screen_text(app))
    assert found is None, f"raw {found.group()!r} on {type(app.screen).__name__}"
    for note in app._notifications:
        assert UNSAFE.search(note.message.replace("\n", " ")) is None, note.message


# -- sessions with odd values, as raw JSON text --------------------------------------------------


def session_lines(text: Callable[[], str], number: Callable[[], str]) -> list[str]:
    """The lines of a session (header, prompts, a tool call and its result, a name, a label)
    whose free fields hold ``text()`` (a string) and ``number()`` (raw JSON number text)."""

    def quoted() -> str:
        return json.dumps(text())  # controls and surrogates escaped, as Ink writes them

    def entry(entry_id: str, parent: str | None, kind: str, body: str) -> str:
        parent_text = "null" if parent is None else f'"{parent}"'
        return (
            f'{{"type":"{kind}","id":"{entry_id}","parentId":{parent_text},'
            f'"timestamp":"{STAMP}",{body}}}'
        )

    call_id = quoted()
    return [
        f'{{"type":"session","version":1,"id":"0dd00000-odd","timestamp":"{STAMP}",'
        f'"cwd":CWD_JSON,"model":{{"provider":"anthropic","modelId":"{MODEL.model_id}"}}}}',
        entry("u1", None, "message", f'"message":{{"role":"user","content":{quoted()}}}'),
        entry(
            "a1",
            "u1",
            "message",
            '"message":{"role":"assistant","blocks":['
            f'{{"type":"thinking","thinking":{quoted()}}},{{"type":"text","text":{quoted()}}},'
            f'{{"type":"toolCall","id":{call_id},"name":"bash","arguments":'
            f'{{"command":{quoted()},"n":{number()},{quoted()}:[{number()},{quoted()}]}}}}],'
            f'"usage":{{"inputTokens":{number()},"outputTokens":{number()}}},'
            f'"stopReason":"tool_use","model":"{MODEL.model_id}"}}',
        ),
        entry(
            "r1",
            "a1",
            "message",
            f'"message":{{"role":"toolResult","results":[{{"toolCallId":{call_id},'
            f'"toolName":"bash","content":{quoted()},"isError":false}}]}}',
        ),
        entry("u2", "r1", "message", f'"message":{{"role":"user","content":{quoted()}}}'),
        entry(
            "a2",
            "u2",
            "message",
            f'"message":{{"role":"assistant","blocks":[{{"type":"text","text":{quoted()}}}],'
            f'"usage":{{"inputTokens":{number()},"outputTokens":1}},"stopReason":"end_turn"}}',
        ),
        entry("n1", "a2", "session_info", f'"name":{quoted()}'),
        entry("l1", "n1", "label", f'"targetId":"u1","label":{quoted()}'),
    ]


@st.composite
def odd_sessions(draw: st.DrawFn) -> list[str]:
    return session_lines(lambda: draw(ODD_TEXT), lambda: draw(st.sampled_from(ODD_NUMBERS)))


# Every field at once: a lone high surrogate with markup and an escape, and Infinity.
WORST = session_lines(lambda: "\ud83d[/]\x1b]2;t\x07", lambda: "1e400")


def write(path: Path, lines: list[str], cwd: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = "".join(line.replace("CWD_JSON", json.dumps(str(cwd))) + "\n" for line in lines)
    path.write_text(body, encoding="utf-8")
    return path


# -- the walk ------------------------------------------------------------------------------------


async def walk_picker_session_and_chat(make_app: Any, cwd: Path, path: Path, llm: Any) -> None:
    app = make_app(cwd=cwd)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PickerScreen), "the picker")
        table = app.screen.query_one(SessionList)
        await wait_for(pilot, lambda: table.row_count == 1, "the session's row")
        assert_safe(app)
        await pilot.press("space")
        preview = app.screen.query_one(SessionPreview)
        await wait_for(pilot, lambda: preview.loaded_path == path, "the preview")
        assert_safe(app)

        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.loaded is not None,
            "the session view",
        )
        await pilot.press("g")
        for _ in range(8):  # y then m (the message) on every row, top to bottom
            await pilot.press("y", "m")
            if isinstance(app.screen, CopyScreen):  # a row with no message to copy
                await pilot.press("escape")
            app.clipboard.encode("utf-8")  # the clipboard holds valid UTF-8
            await pilot.press("j")
        assert_safe(app)

        llm.anthropic(text="half an emoji \ud83d and on")
        llm.anthropic(text="fine")
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ChatScreen | ForkScreen), "the chat")
        if isinstance(app.screen, ForkScreen):  # c on an earlier row: continue from the leaf
            await pilot.press("l")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ChatScreen) and app.screen.engine is not None,
            "the chat pane",
        )
        chat = app.screen
        assert_safe(app)
        for sent, message in enumerate(("go on", "and again"), start=1):
            chat.query_one("#chat-input").focus()
            await pilot.press(*message, "enter")
            await wait_for(
                pilot,
                lambda sent=sent: len(llm.requests) == sent and not chat.busy,
                f"turn {sent} to end",
            )
        assert len(llm.requests) == 2, [str(s.content) for s in chat.query(Static)]
        for request in llm.requests:
            assert SURROGATE.search(json.dumps(request.body, ensure_ascii=False)) is None
        assert_safe(app)
    raw = path.read_bytes()
    raw.decode("utf-8")
    assert b'"text":"half an emoji \\ud83d and on"' in raw  # Ink's escape, kept in the file
    assert raw.count(b'"role":"assistant"') == 4


async def walk_error_view(make_app: Any, cwd: Path, path: Path) -> None:
    app = make_app(cwd=cwd, open_path=path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ErrorScreen), "the error view")
        screen = app.screen
        await wait_for(pilot, lambda: bool(screen.rows), "the raw lines")
        assert_safe(app)


# The two walks are separate cases (each with the same examples) so the runner spreads them.
@pytest.mark.parametrize(
    "walk", [pytest.param("picker-session-chat", marks=pytest.mark.slow), "error-view"]
)
@given(odd_sessions())
@example(WORST)
@settings(
    max_examples=2,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_every_screen_handles_odd_values(
    make_app: Any, tmp_path: Path, llm: Any, workdir: Path, walk: str, lines: list[str]
) -> None:
    if walk == "error-view":
        broken = tmp_path / "broken" / "broken.jsonl"
        bad = lines[2].replace('"type":"message"', '"type":42', 1)  # an interior line Ink refuses
        write(broken, [lines[0], lines[1], bad, *lines[3:]], workdir)
        asyncio.run(walk_error_view(make_app, workdir, broken))
        return
    base = tmp_path / "sessions"
    folder = project_dir(base, str(workdir))
    for old in folder.glob("*.jsonl") if folder.is_dir() else ():
        old.unlink()
    llm.requests.clear()
    path = write(folder / "2026-10-05T12-34-56-789Z-odd.jsonl", lines, workdir)
    asyncio.run(walk_picker_session_and_chat(make_app, workdir, path, llm))


def test_tool_arguments_show_as_ink_would_send_them(tmp_path: Path) -> None:
    """The replay shows a call's arguments as JSON.stringify writes them (what Ink sends): not
    ``Infinity`` or ``1.0``, which no JSON reader accepts or Ink writes; a lone surrogate as its
    escape."""
    from rich.console import Console

    from ink_tui.session import open_session
    from ink_tui.session.conversation.branchview import load_branch
    from ink_tui.ui.render.blocks import RenderOptions, item_block

    header = f'{{"type":"session","version":1,"id":"a","timestamp":"{STAMP}","cwd":CWD_JSON}}'
    common = f'"timestamp":"{STAMP}","type":"message"'
    call = (
        f'{{"id":"a1","parentId":"u1",{common},"message":{{"role":"assistant","blocks":['
        '{"type":"toolCall","id":"c1","name":"custom","arguments":'
        '{"inf":1e400,"one":1.0,"neg":-0,"\\ud83d":"cut \\ud83d"}}],'
        '"usage":{"inputTokens":1,"outputTokens":1},"stopReason":"tool_use"}}'
    )
    prompt = f'{{"id":"u1","parentId":null,{common},"message":{{"role":"user","content":"go"}}}}'
    path = write(tmp_path / "args.jsonl", [header, prompt, call], tmp_path)
    turns = load_branch(open_session(path), None).turns
    (tool,) = [item for turn in turns for item in turn.items if item.tool is not None]
    console = Console(width=100, color_system=None, record=True)
    console.print(item_block(tool, RenderOptions(output="full")))
    shown = console.export_text()
    assert '"inf": null,' in shown and '"one": 1,' in shown and '"neg": 0,' in shown
    assert '"\\ud83d": "cut \\ud83d"' in shown
    assert "Infinity" not in shown
