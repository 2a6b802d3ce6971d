"""Session data reaches the app's screen only through the safe door, and never as markup.

A session's torn final line, a line appended while following and the name of a newer session
file are quoted in notices; each is fed the probe's hostile strings (a terminal title and an
OSC 52 clipboard write ended by ``ESC \\``, a screen clear, markup that does not parse, markup
that would restyle) and a lone surrogate reaches the clipboard with ``y``. What Textual is handed
(the notices, the toasts' content, every segment of the screen) must hold no control character,
show the text literally, and the app must keep running.

Textual's headless driver writes nothing, so the checks read what the app hands Textual: the
notifications, each toast's rendered content, and the screen's strips as the compositor renders
them (``run_test(notifications=True)`` mounts the toasts).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from waiting import wait_for, workers_finished

from ink_tui.paths import project_dir
from ink_tui.ui.app import InkApp
from ink_tui.ui.session_view.screen import SessionScreen

CWD = "/home/ada/code/hostile"
STAMP = "2026-10-05T12:34:56.789Z"
SIZE = (120, 40)

OSC_TYPE = "\u001b]2;PWNED\u001b\\\u001b]52;c;UFdORUQ=\u001b\\"
OSC_SHOWN = "␛]2;PWNED␛\\␛]52;c;UFdORUQ=␛\\"
CLEAR = "x\u001b[2J"
# (type of the bad line, how a notice shows it)
HOSTILE_TYPES = [
    (OSC_TYPE, OSC_SHOWN),
    (CLEAR, "x␛[2J"),
    ("[/]", "[/]"),
    ("[bold]loud", "[bold]loud"),
    ('[a="]', '[a="]'),
]
TYPE_IDS = ["osc-title-clipboard", "clear", "closing-tag", "style", "bad-attribute"]

UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


# -- what the app hands Textual ------------------------------------------------------------------


def screen_text(app: InkApp) -> str:
    """Every segment of the screen as the compositor renders it (toasts included)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def toast_texts(app: InkApp) -> list[str]:
    return [toast.render().plain for toast in app.screen.query("Toast")]  # by type name


def notices(app: InkApp) -> list[str]:
    return [f"{note.title}\n{note.message}" for note in app._notifications]


def assert_safe(app: InkApp) -> None:
    assert app.is_running
    for text in [*notices(app), *toast_texts(app), *screen_text(app).split("\n")]:
        found = UNSAFE.search(text)
        assert found is None, f"raw {found.group()!r} handed to Textual in {text!r}"


def toast_shows(app: InkApp, text: str) -> bool:
    """A toast shows ``text`` literally (toasts wrap: compared without line breaks)."""
    return any(text in toast.replace("\n", "") for toast in toast_texts(app))


# -- sessions written by hand ----------------------------------------------------------------------


def record(kind: str, entry_id: str, parent: str | None, **fields: Any) -> str:
    value = {"type": kind, "id": entry_id, "parentId": parent, "timestamp": STAMP, **fields}
    return json.dumps(value)


def session_lines(session_id: str = "h0000000-hostile") -> list[str]:
    header = {"type": "session", "version": 1, "id": session_id, "timestamp": STAMP, "cwd": CWD}
    return [
        json.dumps(header),
        record("message", "u1", None, message={"role": "user", "content": "hello"}),
        record(
            "message",
            "a1",
            "u1",
            message={
                "role": "assistant",
                "blocks": [{"type": "text", "text": "cut mid-emoji \ud83d"}],
                "usage": {"inputTokens": 1, "outputTokens": 1},
                "stopReason": "end_turn",
            },
        ),
    ]


def write_session(folder: Path, lines: list[str], name: str = "session.jsonl") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def folder(tmp_path: Path) -> Path:
    return project_dir(tmp_path / "sessions", CWD)


# -- notices --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "shown"), HOSTILE_TYPES, ids=TYPE_IDS)
async def test_a_hostile_torn_final_line_is_a_literal_notice_on_open(
    make_app: Any, tmp_path: Path, kind: str, shown: str
) -> None:
    torn = record(kind, "x1", "a1")  # an unknown type: Ink drops the final line
    path = write_session(folder(tmp_path), [*session_lines(), torn])
    app = make_app(cwd=CWD, open_path=path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: toast_shows(app, shown), "the torn-line notice")
        assert any(shown in notice for notice in notices(app))
        assert_safe(app)


@pytest.mark.parametrize(("kind", "shown"), HOSTILE_TYPES[::2], ids=TYPE_IDS[::2])
async def test_a_hostile_line_appended_while_following_is_a_literal_notice(
    make_app: Any, tmp_path: Path, kind: str, shown: str
) -> None:
    path = write_session(folder(tmp_path), session_lines())
    app = make_app(cwd=CWD, open_path=path, follow=True)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.live.following,
            "following",
        )
        with path.open("a", encoding="utf-8") as stream:
            stream.write(record(kind, "x1", "a1") + "\n")
        await wait_for(pilot, lambda: toast_shows(app, shown), "the notice of the bad line")
        assert any("is not a valid record" in notice for notice in notices(app))
        assert_safe(app)


NEWER_NAMES = [
    ("2026-10-05T13-00-00-000Z-\x1b]2;NAMED\x1b\\\x1b[2J.jsonl", "␛]2;NAMED␛\\␛[2J.jsonl"),
    ('notes[a="]draft.jsonl', 'notes[a="]draft.jsonl'),
    ("[bold]new[i].jsonl", "[bold]new[i].jsonl"),
]


@pytest.mark.parametrize(("name", "shown"), NEWER_NAMES, ids=["escapes", "attribute", "tags"])
async def test_a_newer_session_with_a_hostile_file_name_is_a_literal_notice(
    make_app: Any, tmp_path: Path, name: str, shown: str
) -> None:
    path = write_session(folder(tmp_path), session_lines())
    app = make_app(cwd=CWD, open_path=path, follow=True)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.live.following,
            "following",
        )
        screen = app.screen
        prompt = record("message", "u2", "a1", message={"role": "user", "content": "again"})
        with path.open("a", encoding="utf-8") as stream:  # the watch is on once it arrives
            stream.write(prompt + "\n")
        await wait_for(pilot, lambda: screen.loaded.leaf_id == "u2", "the prompt")
        newer = write_session(folder(tmp_path), session_lines("n0000000-newer"), name)
        await wait_for(pilot, lambda: screen.live.newer_session == newer, "the newer session")
        await wait_for(pilot, lambda: toast_shows(app, shown), "the newer-session notice")
        assert_safe(app)


# -- the clipboard ---------------------------------------------------------------------------


async def test_y_copies_a_message_holding_a_lone_surrogate(make_app: Any, tmp_path: Path) -> None:
    path = write_session(folder(tmp_path), session_lines())
    app = make_app(cwd=CWD, open_path=path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, SessionScreen) and app.screen.loaded is not None,
            "the session view",
        )
        await pilot.press("G")  # the last row: the reply cut mid-emoji
        await pilot.press("y", "m")  # the copy menu: the message
        await wait_for(pilot, lambda: "cut mid-emoji" in app.clipboard, "the copy")
        texts = app.clipboard
        assert "cut mid-emoji \ufffd" in texts
        texts.encode("utf-8")  # the clipboard is always valid UTF-8
        assert_safe(app)


# -- titles ----------------------------------------------------------------------------------------


async def test_a_hostile_title_and_sub_title_are_shown_visibly(
    make_app: Any, tmp_path: Path
) -> None:
    """What a Header would show for a screen titled with session text (a name, a file name)."""
    path = write_session(folder(tmp_path), session_lines())
    app = make_app(cwd=CWD, open_path=path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the session view")
        app.screen.title = f"{OSC_TYPE} \ud83d"
        app.screen.sub_title = "[/] x\u001b[2J"
        shown = app.format_title(app.screen.title, app.screen.sub_title).plain
        assert shown == f"{OSC_SHOWN} \ufffd — [/] x␛[2J"


# -- one hostile session through every screen ----------------------------------------------

EVIL = '[/] \u001b]2;T\u0007 [bold]x\u009b [a="] \u001b[2J'


def hostile_everywhere(cwd: Path) -> list[str]:
    """A session whose every free field is hostile, ending in a torn line of a hostile type."""
    header = {
        "type": "session",
        "version": 1,
        "id": "e0000000-evil",
        "timestamp": STAMP,
        "model": {"provider": "anthropic", "modelId": "claude-sonnet-4-5"},
    }
    call = {"type": "toolCall", "id": f"call{EVIL}", "name": "bash", "arguments": {"command": EVIL}}
    return [
        json.dumps({**header, "cwd": str(cwd)}),
        record("message", "u1", None, message={"role": "user", "content": EVIL}),
        record(
            "message",
            "a1",
            "u1",
            message={
                "role": "assistant",
                "blocks": [
                    {"type": "thinking", "thinking": EVIL},
                    {"type": "text", "text": f"{EVIL} {OSC_TYPE}"},
                    call,
                ],
                "usage": {"inputTokens": 1, "outputTokens": 1},
                "stopReason": "tool_use",
                "model": f"m{EVIL}",
            },
        ),
        record(
            "message",
            "r1",
            "a1",
            message={
                "role": "toolResult",
                "results": [
                    {
                        "toolCallId": f"call{EVIL}",
                        "toolName": "bash",
                        "content": f"\u001b[31mred\u001b[0m {EVIL}",
                        "isError": False,
                    }
                ],
            },
        ),
        record("session_info", "n1", "r1", name=EVIL),
        record("label", "l1", "n1", targetId="u1", label=EVIL),
        record(OSC_TYPE, "x1", "l1"),
    ]


async def test_one_hostile_session_through_every_screen(
    make_app: Any, tmp_path: Path, llm: Any, workdir: Path
) -> None:
    """Notices, the session view, branches, help, the chat pane (notes, header, the approval
    dialog of a hostile command, the reply) and the error view: nothing raw, nothing parsed."""
    from ink_tui.ui.modals.chat import ApprovalScreen
    from ink_tui.ui.screens.branches import BranchesScreen
    from ink_tui.ui.screens.chat import ChatScreen
    from ink_tui.ui.screens.error import ErrorScreen
    from ink_tui.ui.screens.help import HelpScreen

    name = '2026-10-05T12-00-00-000Z-\x1b]2;F\x07[a="].jsonl'
    path = write_session(project_dir(tmp_path / "sessions", str(workdir)), [], name)
    path.write_text("".join(line + "\n" for line in hostile_everywhere(workdir)))
    app = make_app(cwd=workdir, open_path=path)
    llm.anthropic(tool_calls=[("toolu_1", "bash", {"command": f"echo {EVIL}"})])
    llm.anthropic(text=f"denied {EVIL} {OSC_TYPE}")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: toast_shows(app, OSC_SHOWN), "the torn-line notice")
        assert_safe(app)
        for key, kind in (("b", BranchesScreen), ("question_mark", HelpScreen)):
            await pilot.press(key)
            await wait_for(pilot, lambda kind=kind: isinstance(app.screen, kind), kind.__name__)
            await wait_for(pilot, workers_finished(app), f"the {kind.__name__}'s workers")
            assert_safe(app)
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, SessionScreen), "the session")

    # The chat pane on the same session without its torn line (one Ink can continue).
    path.write_text("".join(line + "\n" for line in hostile_everywhere(workdir)[:-1]))
    app = make_app(cwd=workdir, open_path=path, chat=True)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, ChatScreen) and app.screen.engine is not None,
            "the chat pane",
        )
        chat = app.screen
        assert_safe(app)
        await pilot.press(*"go", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ApprovalScreen), "the approval")
        assert_safe(app)
        await pilot.press("n")
        await wait_for(pilot, lambda: len(llm.requests) == 2 and not chat.busy, "the reply")
        await wait_for(pilot, lambda: app.screen is chat, "the chat pane again")
        assert_safe(app)

    broken = write_session(tmp_path / "broken", hostile_everywhere(workdir)[:3], name)
    with broken.open("a") as stream:  # an interior line Ink refuses, then a good one
        stream.write(record(OSC_TYPE, "x1", "a1") + "\n" + hostile_everywhere(workdir)[3] + "\n")
    app = make_app(cwd=CWD, open_path=broken)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ErrorScreen), "the error view")
        error_view = app.screen
        await wait_for(pilot, lambda: bool(error_view.rows), "the raw lines")
        assert_safe(app)
