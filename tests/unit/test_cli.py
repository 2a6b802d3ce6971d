"""The command line as a user runs it: ``ink-tui list | context | check | repair``.

Every test works on copies of the shared fixtures in ``tmp_path`` (the fixtures are read-only
truth). Most tests call :func:`ink_tui.cli.main` and read stdout/stderr with ``capsys``; a few
run ``python -m ink_tui`` in a subprocess to prove that nothing reaches stderr but one line.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from ink_tui.catalog.scan import read_header_id
from ink_tui.cli import main
from ink_tui.paths import project_dir
from ink_tui.session import ModelRef, open_session
from ink_tui.session.pairing import UNKNOWN_OUTCOME_TEXT
from ink_tui.session.writer import SessionWriter

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures"
HOME_CWD = "/home/ada/code/calc-kit"
TREE_HOME = "home-ada-code-calc--kit"

OK_CASES = ["minimal", "duplicate-ids"]
REPAIRABLE_CASES = [
    "torn-half-json",
    "torn-no-newline",
    "torn-invalid-entry",
    "unknown-type-final",
    "dangling-last-turn",
]
UNREPAIRABLE_CASES = ["dangling-not-last", "duplicate-result", "orphan-result"]
UNREADABLE_CASES = ["interior-corrupt", "broken-chain", "parent-cycle", "bad-header", "empty-file"]
FAILED_CASES = UNREPAIRABLE_CASES + UNREADABLE_CASES

pytestmark = pytest.mark.skipif(not FIXTURES.is_dir(), reason="shared fixtures not available")


# -- helpers ------------------------------------------------------------------------------------


def copy_case(tmp_path: Path, case: str) -> Path:
    """A writable copy of ``case.jsonl`` in ``tmp_path/work``."""
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    target = work / f"{case}.jsonl"
    shutil.copyfile(FIXTURES / f"{case}.jsonl", target)
    target.chmod(0o644)
    return target


def pairs(case: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{case}.pairs.json").read_text("utf-8"))
    return data


def expected(case: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{case}.expected.json").read_text("utf-8"))
    return data


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``main(argv)`` -> ``(exit code, stdout, stderr)``."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_one_error_line(err: str, *, naming: str | None = None) -> str:
    """``err`` is exactly one line, no traceback; it names ``naming`` when given."""
    assert err.endswith("\n"), repr(err)
    assert err.count("\n") == 1, f"expected one stderr line, got:\n{err}"
    assert "Traceback" not in err
    assert err.startswith("ink-tui: ")
    if naming is not None:
        assert naming in err, f"{naming!r} not in {err!r}"
    return err.rstrip("\n")


@pytest.fixture
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No test reads the user's real sessions: ``$INK_SESSIONS_DIR`` points at an empty dir."""
    empty = tmp_path / "no-sessions"
    empty.mkdir()
    monkeypatch.setenv("INK_SESSIONS_DIR", str(empty))
    monkeypatch.delenv("INK_TUI_DEBUG", raising=False)
    return empty


def _iso_to_timestamp(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


@pytest.fixture
def tree(tmp_path: Path, isolated: Path) -> Path:
    """A copy of the ``sessions-tree`` fixture with the mtimes of its expected listings."""
    base = tmp_path / "sessions"
    shutil.copytree(FIXTURES / "sessions-tree", base)
    for folder in [base, *base.iterdir()]:
        folder.chmod(0o755)
    listings = expected("sessions-tree")["listings"]
    for folder, rows in listings.items():
        for row in rows:
            path = base / Path(folder).name / row["file"]
            path.chmod(0o644)
            stamp = _iso_to_timestamp(row["mtime"])
            os.utime(path, (stamp, stamp))
    return base


def subprocess_run(*argv: str, env_dir: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "INK_SESSIONS_DIR": str(env_dir)}
    env.pop("INK_TUI_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "ink_tui", *argv],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )


# -- check --------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", OK_CASES)
def test_check_exit_0_when_continuable_as_is(
    case: str, tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_case(tmp_path, case)
    code, out, err = run(capsys, "check", str(path))
    assert code == 0
    assert err == ""
    assert "verdict   ok" in out


def test_check_prints_the_duplicate_id_warning(
    tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_case(tmp_path, "duplicate-ids")
    code, out, _ = run(capsys, "check", str(path))
    assert code == 0
    warnings = [line for line in out.splitlines() if "used more than once" in line]
    assert len(warnings) == 1
    assert "warning" in warnings[0]


@pytest.mark.parametrize("case", REPAIRABLE_CASES)
def test_check_exit_1_when_repair_can_fix_it(
    case: str, tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_case(tmp_path, case)
    code, out, err = run(capsys, "check", str(path))
    assert code == 1
    assert err == ""
    assert "repairable with `ink-tui repair`" in out
    for repair in pairs(case)["continuation"]["repairs"]:
        assert repair in out


@pytest.mark.parametrize("case", UNREPAIRABLE_CASES)
def test_check_exit_2_when_not_safely_repairable(
    case: str, tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_case(tmp_path, case)
    code, out, _ = run(capsys, "check", str(path))
    assert code == 2
    assert "not repairable" in out
    assert pairs(case)["continuation"]["problem"] in out


@pytest.mark.parametrize("case", UNREADABLE_CASES)
def test_check_exit_2_when_unreadable_with_one_error_line(
    case: str, tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_case(tmp_path, case)
    code, out, err = run(capsys, "check", str(path))
    assert code == 2
    assert out == ""
    line = assert_one_error_line(err, naming=path.name)
    wanted = expected(case)["error"].replace("<path>", str(path))
    assert wanted.split(" (")[0] in line


def test_check_interior_corruption_names_the_line(
    tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_case(tmp_path, "interior-corrupt")
    _, _, err = run(capsys, "check", str(path))
    assert "session line 10: invalid JSON" in err


def test_check_missing_file_exit_2(
    tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.jsonl"
    code, out, err = run(capsys, "check", str(missing))
    assert code == 2
    assert out == ""
    assert_one_error_line(err, naming="nope.jsonl")


@pytest.mark.parametrize(
    ("case", "exit_code"),
    [(case, 0) for case in OK_CASES]
    + [(case, 1) for case in REPAIRABLE_CASES]
    + [(case, 2) for case in FAILED_CASES],
)
def test_check_json_carries_the_exit_code(
    case: str,
    exit_code: int,
    tmp_path: Path,
    isolated: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = copy_case(tmp_path, case)
    code, out, err = run(capsys, "check", "--json", str(path))
    assert code == exit_code
    report = json.loads(out)
    assert report["exit"] == exit_code
    if case in UNREADABLE_CASES:
        assert report["ok"] is False
        assert report["error"] == expected(case)["error"].replace("<path>", str(path))
        assert_one_error_line(err, naming=path.name)
    else:
        assert err == ""
        truth = pairs(case)
        assert report["leafId"] == truth["leafId"]
        assert report["continuation"] == truth["continuation"]
        assert report["tornRepair"] == truth["tornRepair"]


# -- repair -------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", REPAIRABLE_CASES + OK_CASES + FAILED_CASES)
def test_repair_dry_run_changes_no_byte(
    case: str, tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_case(tmp_path, case)
    before = path.read_bytes()
    stat = path.stat()
    code, out, _ = run(capsys, "repair", "--dry-run", str(path))
    assert path.read_bytes() == before
    assert path.stat().st_mtime_ns == stat.st_mtime_ns
    if case in REPAIRABLE_CASES:
        assert code == 0
        assert "would " in out
    elif case in FAILED_CASES:
        assert code == 2


@pytest.mark.parametrize("case", REPAIRABLE_CASES)
def test_repair_makes_check_pass(
    case: str, tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_case(tmp_path, case)
    before = path.read_bytes()
    truth = pairs(case)
    code, out, err = run(capsys, "repair", str(path))
    assert code == 0, err
    assert err == ""
    after = path.read_bytes()

    # one printed action per repair
    actions = [line for line in out.splitlines() if not line.startswith(str(path))]
    assert len(actions) == len(truth["continuation"]["repairs"])
    for repair, action in zip(truth["continuation"]["repairs"], actions, strict=True):
        assert repair in action
        assert not action.startswith("would")

    torn = truth["tornRepair"]
    if torn is not None and torn["action"] == "truncated":
        assert len(before) - len(after) == torn["bytes"]
        assert before.startswith(after)
        assert f"truncate {torn['bytes']} torn byte(s)" in out
    elif torn is not None:
        assert after == before + b"\n"
        assert torn["bytes"] == 1
    if truth["continuation"]["appended"]:
        assert after.startswith(before)
        tail = after[len(before) :]
        assert tail.endswith(b"\n")
        assert tail.count(b"\n") == 1, "exactly one record appended"
        record = json.loads(tail)
        assert record["message"] == {
            **truth["continuation"]["appended"][0],
            **{k: v for k, v in record["message"].items() if k not in ("role", "results")},
        }
        (result,) = record["message"]["results"]
        assert result["content"] == UNKNOWN_OUTCOME_TEXT
        assert result["isError"] is True
        assert result["toolCallId"] == truth["dangling"][0]["id"]

    code, out, _ = run(capsys, "check", str(path))
    assert code == 0, out


def test_repair_dangling_appends_one_result_with_inks_text(
    tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_case(tmp_path, "dangling-last-turn")
    code, _, _ = run(capsys, "repair", str(path))
    assert code == 0
    session = open_session(path, warn=None)
    results = [
        entry
        for entry in session.entries
        if entry.type == "message" and entry.record["message"].get("role") == "toolResult"
    ]
    last = results[-1].record["message"]["results"]
    assert [r["content"] for r in last] == [UNKNOWN_OUTCOME_TEXT]
    assert session.entries[-1] is results[-1]
    # a second repair has nothing left to do
    code, out, _ = run(capsys, "repair", str(path))
    assert code == 0
    assert "nothing to repair" in out


@pytest.mark.parametrize("case", FAILED_CASES)
def test_repair_refuses_with_one_line_and_no_write(
    case: str, tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_case(tmp_path, case)
    before = path.read_bytes()
    code, out, err = run(capsys, "repair", str(path))
    assert code == 2
    assert out == ""
    line = assert_one_error_line(err, naming=path.name)
    assert "nothing was written" in line
    assert path.read_bytes() == before


def test_repair_missing_file_exit_2(
    tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "repair", str(tmp_path / "gone.jsonl"))
    assert code == 2
    assert_one_error_line(err, naming="gone.jsonl")


# -- context ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "case", ["minimal", "sum-fix-compaction", "branch-position", "torn-half-json", "image-block"]
)
def test_context_json_equals_the_expected_output(
    case: str, tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_case(tmp_path, case)
    code, out, err = run(capsys, "context", "--json", str(path))
    assert code == 0
    # Ink warns about a torn final line it drops; nothing else goes to stderr
    assert err == (
        "" if not case.startswith("torn") else f"ink: dropping torn final line in {path}\n"
    )
    assert json.loads(out) == expected(case)


def test_context_json_on_interior_corruption(
    tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_case(tmp_path, "interior-corrupt")
    code, out, err = run(capsys, "context", "--json", str(path))
    assert code == 2
    assert json.loads(out) == expected("interior-corrupt")
    assert json.loads(out)["ok"] is False
    assert_one_error_line(err, naming=path.name)


def test_context_text_lists_every_message(
    tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = copy_case(tmp_path, "sum-fix-compaction")
    code, out, _ = run(capsys, "context", str(path))
    assert code == 0
    count = len(expected("sum-fix-compaction")["messages"])
    assert f"[{count - 1}] " in out
    assert f"[{count}] " not in out
    assert "compacted" in out


# -- escape sequences in session text ----------------------------------------------------------

HOSTILE_PROMPT = "title \x1b]0;pwned\x07 then clear \x1b[2J done"


def write_hostile_session(folder: Path) -> Path:
    writer = SessionWriter.new(folder, HOME_CWD, model=ModelRef("anthropic", "claude-sonnet-4-5"))
    writer.append_message({"role": "user", "content": HOSTILE_PROMPT})
    writer.append_message(
        {
            "role": "assistant",
            "blocks": [{"type": "text", "text": "ok \x1b[31mred\x1b[0m \x9b2J"}],
            "usage": {"inputTokens": 1, "outputTokens": 1},
            "stopReason": "end_turn",
            "model": "claude-sonnet-4-5",
            "modelReference": "anthropic/claude-sonnet-4-5",
        }
    )
    return writer.path


def test_context_text_shows_escape_sequences_visibly(
    tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_hostile_session(tmp_path / "hostile")
    code, out, _ = run(capsys, "context", str(path))
    assert code == 0
    assert "\x1b" not in out
    assert "\x07" not in out
    assert "\x9b" not in out
    assert "␛]0;pwned␇" in out
    assert "␛[2J" in out


def test_context_text_never_emits_a_raw_escape_byte(tmp_path: Path, isolated: Path) -> None:
    path = write_hostile_session(tmp_path / "hostile")
    done = subprocess_run("context", str(path), env_dir=isolated)
    assert done.returncode == 0
    assert b"\x1b" not in done.stdout
    assert b"\x07" not in done.stdout
    assert "␛]0;pwned".encode() in done.stdout
    assert done.stderr == b""


def test_check_text_shows_a_hostile_session_safely(
    tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_hostile_session(tmp_path / "hostile")
    code, out, _ = run(capsys, "check", str(path))
    assert code == 0
    assert "\x1b" not in out


def test_repair_refusal_shows_hostile_call_ids_visibly(
    tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    writer = SessionWriter.new(
        tmp_path / "hostile", HOME_CWD, model=ModelRef("anthropic", "claude-sonnet-4-5")
    )
    hostile_id = "call_\x1b]0;pwned\x07"
    writer.append_message({"role": "user", "content": "go"})
    writer.append_message(
        {
            "role": "toolResult",
            "results": [
                {"toolCallId": hostile_id, "toolName": "bash", "content": "x", "isError": False}
            ],
        }
    )
    code, _, err = run(capsys, "repair", str(writer.path))
    assert code == 2
    assert "\x1b" not in err


def test_check_error_shows_hostile_entry_type_visibly(
    tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stamp = "2026-10-05T12:34:56.789Z"
    records = [
        {"type": "session", "version": 1, "id": "abc", "timestamp": stamp, "cwd": "/p"},
        {"type": "\x1b[2Jweird", "id": "x1", "parentId": None, "timestamp": stamp},
        {
            "type": "message",
            "id": "x2",
            "parentId": None,
            "timestamp": stamp,
            "message": {"role": "user", "content": "hi"},
        },
    ]
    path = tmp_path / "esc-type.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    code, _, err = run(capsys, "check", str(path))
    assert code == 2
    assert "unknown entry type" in err
    assert "\x1b" not in err


# -- list ---------------------------------------------------------------------------------------


def _listing(folder: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = expected("sessions-tree")["listings"][f"sessions-tree/{folder}"]
    return rows


def test_list_json_is_newest_first_with_hidden_reasons(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "--sessions-dir", str(tree), "--cwd", HOME_CWD, "list", "--json")
    assert code == 0
    assert err == ""
    rows = json.loads(out)
    truth = _listing(TREE_HOME)
    assert [row["file"] for row in rows] == [row["file"] for row in truth]
    for row, want in zip(rows, truth, strict=True):
        assert row["listed"] == want["listed"]
        assert row["skip"] == want.get("skip")
        assert row["mtime"] == want["mtime"]
        if "title" in want:
            assert row["title"] == want["title"]
            assert row["id"] == want["id"]
            assert row["messageCount"] == want["messageCount"]
    assert {row["project"] for row in rows} == {TREE_HOME}


def test_list_mtime_decides_the_order(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    oldest = tree / TREE_HOME / _listing(TREE_HOME)[-1]["file"]
    stamp = datetime.fromisoformat("2026-10-25T00:00:00+00:00").timestamp()
    os.utime(oldest, (stamp, stamp))
    _, out, _ = run(capsys, "--sessions-dir", str(tree), "--cwd", HOME_CWD, "list", "--json")
    assert json.loads(out)[0]["file"] == oldest.name


def test_list_text_marks_hidden_rows(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--sessions-dir", str(tree), "--cwd", HOME_CWD, "list")
    assert code == 0
    lines = out.splitlines()
    truth = _listing(TREE_HOME)
    assert len(lines) == len(truth)
    for line, want in zip(lines, truth, strict=True):
        if want["listed"]:
            assert "hidden by Ink" not in line
            assert want["title"][:30] in line
        else:
            assert f"[hidden by Ink: {want['skip']}]" in line


def test_list_all_covers_every_project_newest_first(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys, "--sessions-dir", str(tree), "--cwd", HOME_CWD, "list", "--all", "--json"
    )
    assert code == 0
    rows = json.loads(out)
    listings = expected("sessions-tree")["listings"]
    every = [row for folder_rows in listings.values() for row in folder_rows]
    assert len(rows) == len(every)
    mtimes = [_iso_to_timestamp(row["mtime"]) for row in rows]
    assert mtimes == sorted(mtimes, reverse=True)
    assert len({row["project"] for row in rows}) == len(listings)
    hidden = {row["file"]: row["skip"] for row in rows if not row["listed"]}
    assert hidden == {row["file"]: row["skip"] for row in every if not row["listed"]}

    code, text, _ = run(capsys, "--sessions-dir", str(tree), "--cwd", HOME_CWD, "list", "--all")
    assert len(text.splitlines()) == len(every)
    assert "Users-mei-文档-数据分析" in text


def test_list_of_an_empty_project_says_where_it_looked(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "--sessions-dir", str(tree), "--cwd", "/nowhere/at-all", "list")
    assert code == 0
    assert err == ""
    assert "no sessions in" in out
    assert str(tree) in out


# -- resolving SESSION --------------------------------------------------------------------------


def _home_file(tree: Path, index: int = 3) -> Path:
    """A listed, loadable session of the home project (``perf investigation``)."""
    return tree / TREE_HOME / _listing(TREE_HOME)[index]["file"]


def _resolved_leaf(capsys: pytest.CaptureFixture[str], tree: Path, wanted: str) -> str:
    code, out, err = run(
        capsys, "--sessions-dir", str(tree), "--cwd", HOME_CWD, "context", "--json", wanted
    )
    assert code == 0, err
    leaf: str = json.loads(out)["leafId"]
    return leaf


def _leaf_of(path: Path) -> str:
    folder = path.parent.name
    leaf: str = expected("sessions-tree")["contexts"][f"sessions-tree/{folder}/{path.name}"][
        "leafId"
    ]
    return leaf


@pytest.mark.parametrize("form", ["path", "id", "prefix", "name", "stem"])
def test_session_resolution_forms(
    form: str, tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _home_file(tree)
    session_id = read_header_id(path)
    assert session_id is not None
    wanted = {
        "path": str(path),
        "id": session_id,
        "prefix": session_id[:6],
        "name": path.name,
        "stem": path.stem,
    }[form]
    assert _resolved_leaf(capsys, tree, wanted) == _leaf_of(path)


def test_session_resolution_by_relative_path(
    tree: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _home_file(tree)
    monkeypatch.chdir(path.parent)
    assert _resolved_leaf(capsys, tree, f"./{path.name}") == _leaf_of(path)


def test_session_resolution_reaches_other_projects(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = "home-lin-src-ledger--api"
    path = tree / folder / _listing(folder)[0]["file"]
    session_id = read_header_id(path)
    assert session_id is not None
    assert _resolved_leaf(capsys, tree, session_id[:8]) == _leaf_of(path)


def _ambiguous_prefix(tree: Path) -> tuple[str, list[str]]:
    ids = [read_header_id(path) for path in sorted(tree.glob("*/*.jsonl"))]
    known = [session_id for session_id in ids if session_id]
    for size in range(1, 8):
        groups: dict[str, list[str]] = {}
        for session_id in known:
            groups.setdefault(session_id[:size], []).append(session_id)
        for prefix, members in sorted(groups.items()):
            if len(members) > 1:
                return prefix, members
    raise AssertionError("no shared prefix in the tree")


def test_ambiguous_prefix_is_an_error_listing_the_candidates(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prefix, members = _ambiguous_prefix(tree)
    code, out, err = run(
        capsys, "--sessions-dir", str(tree), "--cwd", "/nowhere/at-all", "check", prefix
    )
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    for session_id in members:
        assert session_id[:8] in err


def test_ambiguous_prefix_error_is_one_line(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prefix, _ = _ambiguous_prefix(tree)
    code, _, err = run(
        capsys, "--sessions-dir", str(tree), "--cwd", "/nowhere/at-all", "check", prefix
    )
    assert code == 2
    assert_one_error_line(err)


def test_unknown_id_names_the_folder_it_looked_in(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys, "--sessions-dir", str(tree), "--cwd", HOME_CWD, "context", "zzzz-not-an-id"
    )
    assert code == 2
    assert out == ""
    line = assert_one_error_line(err, naming="zzzz-not-an-id")
    assert str(project_dir(tree, HOME_CWD)) in line


def test_sessions_dir_from_the_environment(
    tree: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("INK_SESSIONS_DIR", str(tree))
    code, out, _ = run(capsys, "--cwd", HOME_CWD, "list", "--json")
    assert code == 0
    assert [row["file"] for row in json.loads(out)] == [row["file"] for row in _listing(TREE_HOME)]
    path = _home_file(tree)
    assert _resolved_leaf_env(capsys, path.stem) == _leaf_of(path)


def _resolved_leaf_env(capsys: pytest.CaptureFixture[str], wanted: str) -> str:
    code, out, err = run(capsys, "--cwd", HOME_CWD, "context", "--json", wanted)
    assert code == 0, err
    leaf: str = json.loads(out)["leafId"]
    return leaf


def test_sessions_dir_flag_wins_over_the_environment(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("INK_SESSIONS_DIR", str(tree))
    other = tmp_path / "other"
    other.mkdir()
    code, out, _ = run(capsys, "--sessions-dir", str(other), "--cwd", HOME_CWD, "list", "--json")
    assert code == 0
    assert json.loads(out) == []
    code, out, _ = run(capsys, "--cwd", HOME_CWD, "--sessions-dir", str(other), "list")
    assert code == 0
    assert str(other) in out
    path = _home_file(tree)
    code, _, err = run(capsys, "--sessions-dir", str(other), "check", path.stem)
    assert code == 2
    assert str(other) in err


def test_global_options_after_the_command(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["list", "--json", "--sessions-dir", str(tree), "--cwd", HOME_CWD])
    out = capsys.readouterr().out
    assert code == 0
    assert [row["file"] for row in json.loads(out)] == [row["file"] for row in _listing(TREE_HOME)]


def test_usage_error_is_one_line_and_returns(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", "x", "--sessions-dir", str(tree)])
    assert code == 2
    assert_one_error_line(capsys.readouterr().err)


# -- errors through a real process --------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "naming"),
    [
        (["check", "{work}/interior-corrupt.jsonl"], "interior-corrupt.jsonl"),
        (["check", "--json", "{work}/empty-file.jsonl"], "empty-file.jsonl"),
        (["repair", "{work}/dangling-not-last.jsonl"], "dangling-not-last.jsonl"),
        (["context", "{work}/parent-cycle.jsonl"], "parent-cycle.jsonl"),
        (["check", "{work}/missing.jsonl"], "missing.jsonl"),
        (["context", "no-such-id"], "no-such-id"),
    ],
)
def test_errors_in_a_real_process_are_one_line(
    argv: list[str], naming: str, tmp_path: Path, isolated: Path
) -> None:
    for case in ("interior-corrupt", "empty-file", "dangling-not-last", "parent-cycle"):
        copy_case(tmp_path, case)
    work = tmp_path / "work"
    done = subprocess_run(*(arg.format(work=work) for arg in argv), env_dir=isolated)
    assert done.returncode == 2
    err = done.stderr.decode("utf-8")
    assert "Traceback" not in err
    assert_one_error_line(err, naming=naming)


def test_exit_codes_in_a_real_process(tmp_path: Path, isolated: Path) -> None:
    for case, code in (("minimal", 0), ("torn-half-json", 1), ("orphan-result", 2)):
        path = copy_case(tmp_path, case)
        done = subprocess_run("check", str(path), env_dir=isolated)
        assert done.returncode == code
        assert b"Traceback" not in done.stderr


def test_a_directory_as_session_is_one_line(
    tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "dir.jsonl"
    folder.mkdir()
    code, _, err = run(capsys, "check", str(folder))
    assert code == 2
    assert_one_error_line(err)


def test_unreadable_file_is_one_line(
    tmp_path: Path, isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    path = copy_case(tmp_path, "minimal")
    path.chmod(0)
    code, _, err = run(capsys, "check", str(path))
    assert code == 2
    assert_one_error_line(err, naming=path.name)
