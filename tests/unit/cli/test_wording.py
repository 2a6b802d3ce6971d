"""What ``check`` and ``repair`` say: a report or a dry run says what a repair *would* do; only
a real repair says what it did (Ink's own notes, verbatim); counts take the right plural."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ink_tui.cli import main

TORN_TAIL = b'{"type":"message","id":"torn","parentId":"b","timestamp":"2026-1'
assert len(TORN_TAIL) == 64


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test reads the user's real sessions."""
    monkeypatch.setenv("INK_SESSIONS_DIR", str(tmp_path / "no-sessions"))
    monkeypatch.delenv("INK_TUI_DEBUG", raising=False)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def torn_session(sf: Any) -> Path:
    """Two complete records, then a 64-byte torn tail."""
    complete = b"".join(
        sf.line(item) + b"\n" for item in (sf.header(), sf.user("a", None), sf.assistant("b", "a"))
    )
    return sf.write_bytes(complete + TORN_TAIL)


def dangling_session(sf: Any, calls: int) -> Path:
    """The last assistant turn asked for ``calls`` tools and got no result."""
    asked = tuple((f"call_{n}", "bash") for n in range(calls))
    return sf.write(sf.user("a", None), sf.assistant("b", "a", calls=asked))


# -- check: a report, nothing done ---------------------------------------------------------------


def test_check_says_what_repair_would_drop(sf: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = torn_session(sf)
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1
    verdict = next(line for line in out.splitlines() if "verdict" in line)
    assert "would drop a 64-byte torn tail" in verdict
    assert "`ink-tui repair`" in verdict
    assert "dropped" not in out  # nothing was dropped: check only reads


def test_check_says_what_repair_would_close(sf: Any, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(dangling_session(sf, 1)))
    assert code == 1
    assert "would close 1 interrupted tool call with an explicit unknown-outcome result" in out
    assert "closed" not in out


# -- repair --dry-run: the conditional ---------------------------------------------------------


def test_dry_run_says_would_and_writes_nothing(sf: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = torn_session(sf)
    before = path.read_bytes()
    code, out, _ = run(capsys, "repair", "--dry-run", str(path))
    assert code == 0
    assert path.read_bytes() == before
    lines = out.splitlines()
    offset = len(before) - len(TORN_TAIL)
    assert lines[0] == (
        f"would drop a 64-byte torn tail: truncate the file at byte {offset} (line 4), "
        "keeping the bytes cut in a backup beside it"
    )
    assert "dry run, nothing was written" in lines[-1]
    assert "dropped" not in out


def test_dry_run_on_dangling_calls_says_would_close(
    sf: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = dangling_session(sf, 2)
    code, out, _ = run(capsys, "repair", "--dry-run", str(path))
    assert code == 0
    assert out.splitlines()[0] == (
        "would close 2 interrupted tool calls with an explicit unknown-outcome result: "
        "append one toolResult closing call_0, call_1"
    )
    assert "closed" not in out


# -- a real repair: what was done, in Ink's words ---------------------------------------------


def test_repair_says_dropped_once_done(sf: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = torn_session(sf)
    offset = len(path.read_bytes()) - len(TORN_TAIL)
    code, out, _ = run(capsys, "repair", str(path))
    assert code == 0
    assert (
        out.splitlines()[0] == f"dropped a 64-byte torn tail: truncated at byte {offset} (line 4)"
    )
    assert "would" not in out
    assert len(path.read_bytes()) == offset


def test_repair_reports_inks_closure_note_verbatim(
    sf: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = dangling_session(sf, 1)
    code, out, _ = run(capsys, "repair", str(path))
    assert code == 0
    # Ink's own note keeps its "(s)": it is Ink's exact text (spec §6)
    assert out.splitlines()[0] == (
        "1 interrupted tool call(s) closed with an explicit unknown-outcome result: "
        "appended one toolResult closing call_0"
    )


# -- plurals ---------------------------------------------------------------------------------------


def test_check_counts_take_the_singular_for_one(
    sf: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = sf.write(
        sf.user("a", None),
        sf.assistant("b", "a", calls=(("call_1", "read"),)),
        sf.results("c", "b", ("call_1", "read")),
        sf.position("c"),
    )
    code, out, _ = run(capsys, "check", str(path))
    assert code == 0
    assert "; 1 branch\n" in out
    assert "1 tool call, 0 dangling" in out
    assert "3 entries, 1 position marker, 0 session_model markers" in out
    assert "(s)" not in out and "(es)" not in out


def test_check_counts_take_the_plural_for_many(sf: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = sf.write(sf.user("a", None), sf.assistant("b", "a"), sf.assistant("c", "a"))
    _, out, _ = run(capsys, "check", str(path))
    assert "; 2 branches\n" in out
    assert "0 tool calls, 0 dangling" in out
    assert "3 entries, 0 position markers" in out


def test_list_says_1_msg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ink_tui.paths import project_dir
    from ink_tui.session.writing.writer import SessionWriter

    base = tmp_path / "sessions"
    for count in (1, 2):
        writer = SessionWriter.new(project_dir(base, "/p"), "/p")
        for index in range(count):
            writer.append_message({"role": "user", "content": f"prompt {count}.{index}"})
    code, out, _ = run(capsys, "list", "--sessions-dir", str(base), "--cwd", "/p")
    assert code == 0
    rows = {line.split()[-1].split(".")[0]: line for line in out.splitlines()}
    assert "    1 msg " in rows["1"] and "    2 msgs " in rows["2"]
