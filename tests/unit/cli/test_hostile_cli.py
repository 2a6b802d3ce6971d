"""Session data reaches the terminal only through the command line's one door.

Every subcommand's stdout and stderr is fed hostile session data: escape sequences that retitle
the terminal (``ESC ] 2``), write its clipboard (``ESC ] 52``) or clear the screen (``ESC [ 2J``),
the 8-bit CSI (U+009B), text that looks like markup, file names holding all of these, and lone
surrogates (which UTF-8 cannot encode). Nothing may reach the terminal as it is and nothing may
crash; ``--json`` keeps every value exactly (escaped, as ``JSON.stringify`` escapes it).

The sessions are written here, by hand, into ``tmp_path``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ink_tui.cli import main
from ink_tui.paths import project_dir

CWD = "/home/ada/code/hostile"
STAMP = "2026-10-05T12:34:56.789Z"

# The probe's strings (issue 9, section 2).
OSC_TYPE = "\u001b]2;PWNED\u001b\\\u001b]52;c;UFdORUQ=\u001b\\"
CLEAR_ID = "c\u001b]2;TITLE\u0007\u001b[2J"
C1_ID = "call_\x9b2J[/]"
MARKUP = "[/]"
LONE = "cut \ud83d here"

# What must never reach a terminal: C0 but newline and tab, DEL, C1, bidi controls, surrogates.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def assert_terminal_safe(text: str) -> None:
    found = UNSAFE.search(text)
    assert found is None, f"raw {found.group()!r} reaches the terminal in:\n{text!r}"


def header(session_id: str) -> dict[str, Any]:
    return {"type": "session", "version": 1, "id": session_id, "timestamp": STAMP, "cwd": CWD}


def entry(entry_id: str, parent: str | None, message: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": STAMP,
        "message": message,
    }


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def calls(*call_ids: str) -> dict[str, Any]:
    return {
        "role": "assistant",
        "blocks": [
            {"type": "toolCall", "id": call_id, "name": "bash", "arguments": {"command": "ls"}}
            for call_id in call_ids
        ],
        "usage": {"inputTokens": 1, "outputTokens": 1},
        "stopReason": "tool_use",
    }


def write(path: Path, lines: list[str]) -> Path:
    """``lines`` (JSON texts) as a session file, each ended by a newline."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes("".join(line + "\n" for line in lines).encode("utf-8", "surrogatepass"))
    return path


def records(*values: dict[str, Any]) -> list[str]:
    """Records as Ink writes them (controls and lone surrogates as ``\\uXXXX`` escapes)."""
    return [json.dumps(value, separators=(",", ":")) for value in values]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The sessions folder of ``CWD``; the commands look there (``$INK_SESSIONS_DIR``)."""
    base = tmp_path / "sessions"
    monkeypatch.setenv("INK_SESSIONS_DIR", str(base))
    monkeypatch.chdir(tmp_path)
    folder = project_dir(base, CWD)
    folder.mkdir(parents=True)
    return folder


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["--cwd", CWD, *argv])
    captured = capsys.readouterr()
    assert "internal error" not in captured.err, captured.err
    assert "Traceback" not in captured.err, captured.err
    assert_terminal_safe(captured.out)
    assert_terminal_safe(captured.err)
    return code, captured.out, captured.err


# -- refusal reasons, call ids ------------------------------------------------------------------


def test_check_shows_a_refusal_reason_holding_escapes_visibly(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(
        home / "dup.jsonl",
        records(
            header("d0000000-dup"),
            entry("u1", None, user("go")),
            entry("a1", "u1", calls(CLEAR_ID, CLEAR_ID)),
        ),
    )
    code, out, _ = run(capsys, "check", "d0000000")
    assert code == 2
    verdict = next(line for line in out.splitlines() if "verdict" in line)
    assert "c␛]2;TITLE␇␛[2J is declared more than once" in verdict


@pytest.mark.parametrize("dry_run", [True, False], ids=["dry-run", "repair"])
def test_repair_shows_unanswered_call_ids_visibly(
    home: Path, capsys: pytest.CaptureFixture[str], dry_run: bool
) -> None:
    path = write(
        home / "dangling.jsonl",
        records(
            header("e0000000-dangling"),
            entry("u1", None, user("go")),
            entry("a1", "u1", calls(CLEAR_ID, C1_ID)),
        ),
    )
    before = path.read_bytes()
    code, out, _ = run(capsys, "repair", *(["--dry-run"] if dry_run else []), "e0000000")
    assert code == 0
    assert "closing c␛]2;TITLE␇␛[2J, call_<U+009B>2J[/]" in out
    if dry_run:
        assert path.read_bytes() == before
    else:  # the ids written back are the session's own, byte for byte
        assert before in path.read_bytes()
        assert path.read_bytes().count(b'"toolCallId":"c\\u001b]2;TITLE\\u0007\\u001b[2J"') == 1


# -- file names ---------------------------------------------------------------------------------

HOSTILE_NAMES = [
    "2026-10-05T12-00-00-000Z-\x1b]2;NAMED\x07\x1b[2J.jsonl",
    'notes[a="]draft\x9b.jsonl',
]


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=["escapes", "markup-c1"])
def test_check_and_repair_print_a_session_found_by_id_visibly(
    home: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    write(home / name, records(header("f0000000-named"), entry("u1", None, user("hi"))))
    _, out, _ = run(capsys, "check", "f0000000")
    assert out.splitlines()[0] == str(home / name).replace("\x1b", "␛").replace(
        "\x07", "␇"
    ).replace("\x9b", "<U+009B>")
    code, out, _ = run(capsys, "repair", "f0000000")
    assert code == 0
    assert out.endswith(": nothing to repair\n")


def test_a_torn_line_of_a_hostile_file_name_is_noted_and_reported_visibly(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = HOSTILE_NAMES[0]
    torn = {"type": OSC_TYPE, "id": "x", "parentId": "u1", "timestamp": STAMP}
    lines = records(header("a0000000-torn"), entry("u1", None, user(f"{MARKUP} [bold]x\x9b")))
    write(home / name, [*lines, json.dumps(torn)])
    code, out, err = run(capsys, "context", "a0000000")
    assert code == 0
    assert "dropping torn final line in" in err
    assert "␛]2;NAMED␇␛[2J.jsonl" in err
    assert "[0] user\n    [/] [bold]x<U+009B>\n" in out  # never markup; C1 made visible
    code, out, _ = run(capsys, "check", "a0000000")
    assert code == 1
    assert "␛]2;NAMED␇␛[2J.jsonl" in out.splitlines()[0]
    assert 'unknown entry type "␛]2;PWNED␛\\␛]52;c;UFdORUQ=␛\\"' in out


# -- --json ------------------------------------------------------------------------------------


def test_json_outputs_escape_what_a_terminal_obeys_and_keep_every_value(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    odd = f"{C1_ID}\x7f\u202e{LONE}"
    write(
        home / "odd.jsonl",
        records(
            {**header("c0000000-odd"), "cwd": f"/p/{odd}"},
            entry("u1", None, user(odd)),
            entry("a1", "u1", calls(odd)),
            {"type": "session_info", "id": "n1", "parentId": "a1", "timestamp": STAMP, "name": odd},
        ),
    )
    for argv in (("check", "--json", "c0000000"), ("context", "--json", "c0000000")):
        _, out, _ = run(capsys, *argv)
        assert "\\u009b2J[/]\\u007f\\u202ecut \\ud83d here" in out
        text = json.dumps(json.loads(out))  # valid JSON holding the session's exact values
        assert json.dumps(odd)[1:-1] in text
    _, out, _ = run(capsys, "list", "--json")
    (row,) = json.loads(out)
    assert row["name"] == odd


# -- lone surrogates in text output ---------------------------------------------------------------


def test_text_outputs_show_lone_surrogates_as_replacement_characters(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(
        home / "lone.jsonl",
        records(
            header("90000000-lone"),
            entry("u1", None, user(LONE)),
            entry("a1", "u1", calls(f"id{LONE}")),
            {
                "type": "session_info",
                "id": "n1",
                "parentId": "a1",
                "timestamp": STAMP,
                "name": LONE,
            },
        ),
    )
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert "cut \ufffd here" in out  # the name titles the session
    code, out, _ = run(capsys, "context", "90000000")
    assert code == 0
    assert "    cut \ufffd here\n" in out
    assert '{"command":"ls"}  [idcut \ufffd here]' in out
    code, out, _ = run(capsys, "check", "90000000")
    assert code == 1
    assert "dangling  idcut \ufffd here (bash)" in out
    code, out, _ = run(capsys, "repair", "--dry-run", "90000000")
    assert code == 0


# -- the real terminal --------------------------------------------------------------------------


def test_no_escape_byte_reaches_a_real_stdout_or_stderr(home: Path, tmp_path: Path) -> None:
    name = HOSTILE_NAMES[0]
    write(
        home / name,
        records(
            header("80000000-real"),
            entry("u1", None, user("go")),
            entry("a1", "u1", calls(CLEAR_ID, CLEAR_ID)),
        ),
    )
    env = {**os.environ, "INK_SESSIONS_DIR": str(home.parent), "PYTHONIOENCODING": "utf-8"}
    for argv in (["check", "80000000"], ["repair", "80000000"]):
        done = subprocess.run(
            [sys.executable, "-m", "ink_tui", "--cwd", CWD, *argv],
            capture_output=True,
            env=env,
            cwd=tmp_path,
            check=False,
            timeout=60,
        )
        assert done.returncode == 2
        assert b"\x1b" not in done.stdout + done.stderr
        assert b"\x07" not in done.stdout + done.stderr
        assert "␛]2;TITLE␇␛[2J".encode() in done.stdout + done.stderr
