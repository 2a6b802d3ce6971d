"""``ink-tui export``: the document on stdout or in a file (never replacing one unless
``--force``), what it says on stderr, and one-line errors for a bad SESSION or LEAF_ID."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from testdata import DATA, copy_session, torn_note

from ink_tui.secrets import mask_value
from ink_tui.session import ModelRef
from ink_tui.session.writing.writer import SessionWriter

FIXTURE = DATA / "export" / "session.jsonl"


def _session(tmp_path: Path) -> Path:
    target = tmp_path / "session.jsonl"
    target.write_bytes(FIXTURE.read_bytes())
    return target


def test_markdown_on_stdout_by_default(tmp_path: Path, cli: Any) -> None:
    code, out, err = cli.run("export", str(_session(tmp_path)), "--allow-secrets")
    assert (code, err) == (0, "")
    assert out == (DATA / "export" / "session.md").read_text(encoding="utf-8")


def test_json_on_stdout_is_the_context(tmp_path: Path, cli: Any) -> None:
    path = _session(tmp_path)
    code, out, _ = cli.run("export", str(path), "--format", "json", "--allow-secrets")
    assert code == 0
    context = json.loads(cli.run("context", "--json", str(path))[1])
    assert mask_value(json.loads(out))[0] == context


def test_redacting_on_stdout_says_the_count_on_stderr(tmp_path: Path, cli: Any) -> None:
    code, out, err = cli.run("export", str(_session(tmp_path)), "--redact")
    assert code == 0
    assert "sk-ant-api03-" not in out  # the .env name is kept, its value masked
    assert "ANTHROPIC_API_KEY=[REDACTED:anthropic-key:" in out
    assert "Bearer [REDACTED:" in out
    assert err.startswith("ink-tui: 2 secrets masked")


def test_output_file_is_written_and_named_on_stderr(tmp_path: Path, cli: Any) -> None:
    target = tmp_path / "out" / "page.html"
    target.parent.mkdir()
    code, out, err = cli.run("export", str(_session(tmp_path)), "-o", str(target), "--redact")
    assert (code, out) == (0, "")
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")  # from the name
    line = cli.one_error_line(err, naming=str(target))
    assert "(html, 3 turns, " in line
    assert line.endswith("; 2 secrets masked")


def test_an_existing_file_is_never_replaced_without_force(tmp_path: Path, cli: Any) -> None:
    target = tmp_path / "notes.md"
    target.write_text("my notes\n")
    code, _, err = cli.run("export", str(_session(tmp_path)), "-o", str(target), "--redact")
    assert code == 2
    assert "already exists; --force replaces it" in cli.one_error_line(err, naming=str(target))
    assert target.read_text() == "my notes\n"
    code, _, _ = cli.run(
        "export", str(_session(tmp_path)), "-o", str(target), "--force", "--redact"
    )
    assert code == 0
    assert target.read_text(encoding="utf-8").startswith("# mean of an empty list")


def test_another_branch_by_its_leaf(tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, "branch-position")
    code, out, _ = cli.run("export", str(path), "--branch", "a4", "--format", "json")
    assert code == 0
    assert json.loads(out)["leafId"] == "a4"


def test_an_unknown_leaf_is_one_line(tmp_path: Path, cli: Any) -> None:
    path = _session(tmp_path)
    code, out, err = cli.run("export", str(path), "--branch", "nope")
    assert (code, out) == (2, "")
    line = cli.one_error_line(err, naming=str(path))
    assert line.endswith("--branch nope: no entry is or starts with nope")


def test_a_leaf_prefix_names_the_branch(tmp_path: Path, cli: Any) -> None:
    """``--branch`` takes an entry id or a prefix of one id only, as ``changes`` and ``replay``."""
    path = copy_session(tmp_path, "branch-position")
    code, out, err = cli.run("export", str(path), "--branch", "a", "--format", "json")
    assert code == 2 and cli.one_error_line(err).endswith("4 entries start with a")
    code, out, _ = cli.run("export", str(path), "--branch", "b", "--format", "json")
    assert json.loads(out)["leafId"] == "b1"


def test_an_unknown_session_is_one_line(tmp_path: Path, cli: Any) -> None:
    code, out, err = cli.run("export", "no-such-session")
    assert (code, out) == (2, "")
    cli.one_error_line(err, naming="no-such-session")


def test_a_session_ink_cannot_open_is_one_line(tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, "interior-corrupt")
    code, out, err = cli.run("export", str(path), "--format", "html")
    assert (code, out) == (2, "")
    assert "session line 6: invalid JSON" in cli.one_error_line(err, naming=path.name)


def test_no_escape_sequence_reaches_the_terminal(tmp_path: Path, cli: Any) -> None:
    writer = SessionWriter.new(tmp_path / "s", "/tmp/x", model=ModelRef("anthropic", "claude"))
    hostile = "title \x1b]0;pwned\x07 clear \x1b[2J bidi \u202e end \x9b31m"
    writer.append_message({"role": "user", "content": hostile})
    for fmt in ("md", "html", "json"):
        process = cli.process("export", str(writer.path), "--format", fmt)
        assert process.returncode == 0, process.stderr
        for byte in (b"\x1b", b"\x07", "\u202e".encode(), "\x9b".encode()):
            assert byte not in process.stdout, (fmt, byte)
    as_json = json.loads(cli.process("export", str(writer.path), "--format", "json").stdout)
    assert as_json["messages"][0]["content"] == hostile  # JSON keeps the value, escaped


def test_redaction_shows_the_users_home_as_a_tilde(
    tmp_path: Path, cli: Any, monkeypatch: Any
) -> None:
    monkeypatch.setenv("HOME", "/home/ada")
    code, out, err = cli.run("export", str(_session(tmp_path)), "--redact", "--thinking")
    assert code == 0
    assert "Project: `~/code/calc-kit`" in out
    assert "/home/ada" not in out
    assert err == "ink-tui: 2 secrets masked, the home folder shown as ~ 3 times\n"


def test_a_dropped_torn_line_is_noted_as_ink_notes_it(tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, "torn-half")
    code, out, err = cli.run("export", str(path))
    assert (code, err) == (0, torn_note(path))
    assert out.startswith("# Run the tests")


def test_secrets_stop_an_export_unless_masked_or_allowed(tmp_path: Path, cli: Any) -> None:
    path = _session(tmp_path)
    target = tmp_path / "page.md"
    code, out, err = cli.run("export", str(path), "-o", str(target))
    assert (code, out) == (2, "") and not target.exists()
    assert cli.one_error_line(err) == (
        "ink-tui: session.jsonl: the export would hold 2 secrets (1 anthropic-key, "
        "1 credential) and nothing was written: --redact masks them, --allow-secrets exports "
        "them as they are"
    )
    code, _, _ = cli.run("export", str(path), "-o", str(target), "--allow-secrets")
    assert code == 0 and "sk-ant-api03-Q3vX9mKp2LwR7tYb4NcZ8hJd6FsA1gUe" in target.read_text()
    code, out, _ = cli.run("export", str(path), "--tools", "none", "--redact")
    assert code == 0 and "sk-ant-api03-Q3vX" not in out
