"""``ink-tui check`` as a user runs it, on copies of the project's own sessions (tests/data).

Exit 0: Ink continues the file as it is; 1: ``repair`` can fix it; 2: not safely repairable,
or unreadable (then one line on stderr). The expectations are written out by hand from
``tests/data/README.md``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from testdata import boundary_refusal, copy_session

OK = {"minimal": "a1", "duplicate-ids": "a2"}  # case -> leaf
TORN_TAIL = "terminated an unterminated final record"
REPAIRABLE = {  # case -> (leaf, the one repair note)
    "torn-half": ("r2", "dropped a 152-byte torn tail"),
    "torn-no-newline": ("a4", TORN_TAIL),
    "torn-invalid-entry": ("r2", "dropped a 137-byte torn tail"),
    "unknown-type-final": ("r2", "dropped a 116-byte torn tail"),
    "dangling-last-turn": (
        "r2",
        "1 interrupted tool call(s) closed with an explicit unknown-outcome result",
    ),
    "position-bad-then-unterminated": ("a4", TORN_TAIL),
}
WOULD = {  # Ink's repair note -> what check says repair would do
    TORN_TAIL: "would add the missing newline after the final record",
    REPAIRABLE["dangling-last-turn"][1]: (
        "would close 1 interrupted tool call with an explicit unknown-outcome result"
    ),
}
NOT_CONTINUABLE = "the transcript is not continuable (start a new task instead)"
UNREPAIRABLE = {  # case -> (leaf, Ink's refusal)
    "duplicate-result": (
        "a2",
        f"the tool result for call_1 is recorded more than once — {NOT_CONTINUABLE}",
    ),
    "orphan-result": (
        "a2",
        f"a tool result for call_ghost has no preceding tool call — {NOT_CONTINUABLE}",
    ),
    "dangling-not-last": ("a2", boundary_refusal("user", "call_1")),
    "boundary-assistant-pending": ("a2", boundary_refusal("assistant", "call_2")),
}
UNREADABLE = {  # case -> Ink's error (``<path>`` is the file)
    "interior-corrupt": "session line 6: invalid JSON",
    "unknown-type-mid": 'session line 4: unknown entry type "checkpoint"',
    "broken-chain": "broken parentId chain at entry r2",
    "parent-cycle": "parentId cycle at entry r2",
    "bad-header": "session file <path>: missing or unsupported session header",
    "empty-file": "empty session file: <path>",
}


@pytest.mark.parametrize("case", OK)
def test_check_exit_0_when_continuable_as_is(case: str, tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, case)
    code, out, err = cli.run("check", str(path))
    assert (code, err) == (0, "")
    assert f"leaf      {OK[case]};" in out
    assert "verdict   ok: Ink opens and continues it as it is" in out


def test_check_prints_the_duplicate_id_warning_once(tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, "duplicate-ids")
    code, out, _ = cli.run("check", str(path))
    assert code == 0
    warnings = [line for line in out.splitlines() if "used more than once" in line]
    assert warnings == ["  warning   entry id a1 is used more than once (later wins)"]


@pytest.mark.parametrize("case", REPAIRABLE)
def test_check_exit_1_when_repair_can_fix_it(case: str, tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, case)
    code, out, err = cli.run("check", str(path))
    assert (code, err) == (1, "")
    leaf, note = REPAIRABLE[case]
    assert f"leaf      {leaf};" in out
    # what repair would do, in the conditional: check writes nothing (Ink's note is for --json)
    would = WOULD.get(note) or note.replace("dropped a", "would drop a")
    if case == "unknown-type-final":  # a complete record: cut only when asked to
        assert (
            "verdict   repairable with `ink-tui repair --force` (the last line is a complete "
            'record that fails Ink\'s checks (unknown entry type "checkpoint"; from a newer '
            f"Ink?): Ink's repair would cut it): {would}"
        ) in out
    else:
        assert f"verdict   repairable with `ink-tui repair`: {would}" in out
    assert "dropped" not in out and "closed with" not in out


def test_check_names_the_dropped_torn_line(tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, "torn-half")
    _, out, _ = cli.run("check", str(path))
    assert "  torn tail line 9 is not read: " in out
    assert "  context   7 messages" in out


@pytest.mark.parametrize("case", UNREPAIRABLE)
def test_check_exit_2_when_not_safely_repairable(case: str, tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, case)
    code, out, err = cli.run("check", str(path))
    assert (code, err) == (2, "")
    assert f"  verdict   not repairable: {UNREPAIRABLE[case][1]}" in out.splitlines()


@pytest.mark.parametrize("case", UNREADABLE)
def test_check_exit_2_when_unreadable_with_one_error_line(
    case: str, tmp_path: Path, cli: Any
) -> None:
    path = copy_session(tmp_path, case)
    code, out, err = cli.run("check", str(path))
    assert (code, out) == (2, "")
    line = cli.one_error_line(err, naming=path.name)
    assert UNREADABLE[case].replace("<path>", str(path)) in line


def test_check_missing_file_exit_2(tmp_path: Path, cli: Any) -> None:
    code, out, err = cli.run("check", str(tmp_path / "nope.jsonl"))
    assert (code, out) == (2, "")
    cli.one_error_line(err, naming="nope.jsonl")


# -- check --json --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "exit_code"),
    [(case, 0) for case in OK]
    + [(case, 1) for case in REPAIRABLE]
    + [(c, 2) for c in UNREPAIRABLE],
)
def test_check_json_of_a_readable_session(
    case: str, exit_code: int, tmp_path: Path, cli: Any
) -> None:
    path = copy_session(tmp_path, case)
    code, out, err = cli.run("check", "--json", str(path))
    assert (code, err) == (exit_code, "")
    report = json.loads(out)
    leaf = {
        **OK,
        **{c: v[0] for c, v in REPAIRABLE.items()},
        **{c: v[0] for c, v in UNREPAIRABLE.items()},
    }
    assert (report["ok"], report["exit"], report["leafId"]) == (True, exit_code, leaf[case])
    continuation = report["continuation"]
    assert continuation["ok"] is (exit_code < 2)
    if exit_code == 1:
        assert continuation["repairs"] == [REPAIRABLE[case][1]]
    elif exit_code == 0:
        assert continuation["repairs"] == []


@pytest.mark.parametrize("case", UNREPAIRABLE)
def test_check_json_gives_inks_refusal(case: str, tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, case)
    _, out, _ = cli.run("check", "--json", str(path))
    assert json.loads(out)["continuation"] == {"ok": False, "problem": UNREPAIRABLE[case][1]}


@pytest.mark.parametrize("case", UNREADABLE)
def test_check_json_of_an_unreadable_session(case: str, tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, case)
    code, out, err = cli.run("check", "--json", str(path))
    assert code == 2
    report = json.loads(out)
    assert (report["ok"], report["exit"]) == (False, 2)
    assert report["error"].startswith(UNREADABLE[case].replace("<path>", str(path)))
    cli.one_error_line(err, naming=path.name)


@pytest.mark.parametrize(
    ("case", "repair"),
    [
        ("minimal", None),
        ("torn-half", {"action": "truncated", "bytes": 152}),
        ("torn-no-newline", {"action": "terminated", "bytes": 1}),
        ("torn-invalid-entry", {"action": "truncated", "bytes": 137}),
        ("unknown-type-final", {"action": "truncated", "bytes": 116}),
        # current Ink's repair accepts every position marker: terminated, nothing lost
        ("position-bad-then-unterminated", {"action": "terminated", "bytes": 1}),
    ],
)
def test_check_json_predicts_inks_torn_repair(
    case: str, repair: dict[str, Any] | None, tmp_path: Path, cli: Any
) -> None:
    path = copy_session(tmp_path, case)
    _, out, _ = cli.run("check", "--json", str(path))
    assert json.loads(out)["tornRepair"] == repair
