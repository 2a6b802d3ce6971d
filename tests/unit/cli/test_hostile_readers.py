"""Every reader of the command line over every hostile file (issue 11, item 4).

``list --all``, ``context`` (and ``--json``), ``check`` (and ``--json``), ``repair --dry-run``,
``index`` and ``search`` run over each file that ``tests/hostile.py`` builds (at its CI sizes: a
5 MB line, 100,000 tiny records, chains and forks 100,000 deep, JSON nested 10,000 levels). None
may print a traceback or an internal error (nor log one), block, or write to the sessions folder;
what Ink cannot open is said in exactly one line naming the file (and line).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import hostile
import pytest

from ink_tui.cli import main
from ink_tui.paths import project_dir
from ink_tui.session.reading.jsoncodec import decode_line

TIMEOUT = 300.0  # seconds: a reader that blocks fails the test rather than hang the suite


@pytest.fixture
def built(hostile_files: hostile.Built) -> hostile.Built:
    """Each hostile kind alone in its own sessions folder (built once per worker)."""
    return hostile_files


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The log folder's parent: the log file must never appear there."""
    folder = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    return folder


def run(
    capsys: pytest.CaptureFixture[str], item: hostile.Hostile, *argv: str
) -> tuple[int, str, str]:
    """``ink-tui --sessions-dir <its folder> --cwd <its project> ARGV``; checks what holds for
    every reader: within the time, no traceback, nothing written."""
    base = item.path.parent.parent
    before = hostile.snapshot(base)
    code = hostile.within(
        TIMEOUT, lambda: main(["--sessions-dir", str(base), "--cwd", hostile.CWD, *argv])
    )
    out, err = capsys.readouterr()
    assert "internal error" not in err and "Traceback" not in err, err
    assert hostile.snapshot(base) == before, "the sessions folder changed"
    return code, out, err


def _json(text: str) -> Any:
    """The output as JSON (nested past the standard library's recursion: read as Ink reads)."""
    return decode_line(text.encode())


def _expect_error(item: hostile.Hostile, code: int, err: str, suffix: str = "") -> None:
    assert code == 2
    assert err == f"{item.error_line()}{suffix}\n"


def _torn_note(item: hostile.Hostile) -> str:
    return f"ink: dropping torn final line in {item.path}\n" if item.dropped_tail else ""


FILE_KINDS = list(hostile.FILE_KINDS)


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_context(
    built: dict[str, hostile.Hostile], capsys: pytest.CaptureFixture[str], state: Path, kind: str
) -> None:
    item = built[kind]
    code, out, err = run(capsys, item, "context", str(item.path))
    if item.error is not None:
        _expect_error(item, code, err)
        assert out == ""
    else:
        assert code == 0
        assert err == _torn_note(item)
        assert out.rstrip().endswith(f"All done: {hostile.MARKER}.")
    assert not state.exists()


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_context_json(
    built: dict[str, hostile.Hostile], capsys: pytest.CaptureFixture[str], state: Path, kind: str
) -> None:
    item = built[kind]
    code, out, err = run(capsys, item, "context", "--json", str(item.path))
    value = _json(out)
    if item.error is not None:
        _expect_error(item, code, err)
        assert value["ok"] is False
    else:
        assert code == 0
        assert err == _torn_note(item)
        last = value["messages"][-1]
        assert last["blocks"][0]["text"] == f"All done: {hostile.MARKER}."
    assert not state.exists()


@pytest.mark.parametrize("json_output", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("kind", FILE_KINDS)
def test_check(
    built: dict[str, hostile.Hostile],
    capsys: pytest.CaptureFixture[str],
    state: Path,
    kind: str,
    json_output: bool,
) -> None:
    item = built[kind]
    flags = ["--json"] if json_output else []
    code, out, err = run(capsys, item, "check", *flags, str(item.path))
    if item.error is not None:
        _expect_error(item, code, err)
    else:
        assert err == ""
        assert code == (1 if item.dropped_tail else 0)  # a torn tail is repairable
        if json_output:
            assert _json(out)["exit"] == code
        else:
            assert out.splitlines()[0] == str(item.path)
    assert not state.exists()


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_repair_dry_run(
    built: dict[str, hostile.Hostile], capsys: pytest.CaptureFixture[str], state: Path, kind: str
) -> None:
    item = built[kind]
    code, out, err = run(capsys, item, "repair", "--dry-run", str(item.path))
    if item.error is not None:
        _expect_error(item, code, err, " — not repaired, nothing was written")
    else:
        assert code == 0 and err == ""
        last = out.splitlines()[-1]
        if item.dropped_tail:
            assert (
                last
                == f"{item.path}: dry run, nothing was written (`ink-tui repair` does the above)"
            )
        else:
            assert last == f"{item.path}: nothing to repair"
    assert not state.exists()


@pytest.mark.parametrize("kind", hostile.KINDS)
def test_list_all(
    built: dict[str, hostile.Hostile], capsys: pytest.CaptureFixture[str], state: Path, kind: str
) -> None:
    item = built[kind]
    code, out, err = run(capsys, item, "list", "--all", "--json")
    assert code == 0 and err == ""
    rows = _json(out)
    if kind == "loop":  # a file that cannot be read, and why
        (row,) = rows
        assert row["listed"] is False and "Too many levels of symbolic links" in row["skip"]
        assert not row["mtime"].startswith("1970-")  # the link's own time, never the epoch
        return
    if kind in hostile.SPECIAL_KINDS:
        assert rows == []  # not a file: passed over
        return
    (row,) = rows
    assert row["path"] == str(item.path)
    if item.error is not None:  # listed, with the reason Ink hides it
        assert row["listed"] is False and row["skip"].startswith("SessionError: ")
    else:
        assert row["id"] == hostile.SESSION_ID
    code, out, err = run(capsys, item, "list", "--all")
    assert code == 0 and err == "" and len(out.splitlines()) == 1
    assert not state.exists()


@pytest.mark.parametrize("kind", hostile.slow_if_deep(hostile.KINDS))
def test_index_and_search(
    built: dict[str, hostile.Hostile], capsys: pytest.CaptureFixture[str], state: Path, kind: str
) -> None:
    item = built[kind]
    code, out, err = run(capsys, item, "index", "--all")
    assert code == 0 and err == ""
    assert out.splitlines()[0].startswith("indexed: ")
    word = item.prompt or "anything"
    code, out, err = run(capsys, item, "search", "--all", "--json", word)
    if item.prompt is not None and item.error is None:
        assert code == 0 and err == ""
        assert {hit["file"] for hit in _json(out)["hits"]} == {str(item.path)}
    else:
        assert code in (0, 1)
        assert "internal error" not in err
    assert not state.exists()


def test_invalid_utf8_and_nul_bytes_read_as_node_reads_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], state: Path
) -> None:
    """Node decodes the file as UTF-8, each maximal invalid sequence one U+FFFD (as Python's
    ``errors="replace"``); a NUL escaped in a string is a character, shown as ``␀``."""
    bad = hostile.build(project_dir(tmp_path / "bad", hostile.CWD), "bad-utf8")
    code, out, _ = run(capsys, bad, "context", "--json", str(bad.path))
    assert code == 0
    assert _json(out)["messages"][0]["content"] == "bad \ufffd\ufffd\ufffd(\ufffd\ufffd prompt"
    code, out, _ = run(capsys, bad, "list", "--all", "--json")
    (row,) = _json(out)
    assert row["name"] == "named \ufffd\ufffd\ufffd(\ufffd\ufffd"
    assert row["cwd"] == hostile.CWD + "/\ufffd\ufffd\ufffd(\ufffd\ufffd"
    nul = hostile.build(project_dir(tmp_path / "nul", hostile.CWD), "nul-bytes")
    code, out, _ = run(capsys, nul, "context", "--json", str(nul.path))
    assert code == 0
    assert _json(out)["messages"][0]["content"] == "nul \x00 inside"
    code, out, _ = run(capsys, nul, "context", str(nul.path))
    assert "    nul ␀ inside\n" in out and "\x00" not in out
    assert not state.exists()
