"""What a branch changed: files reconstructed from edit, write and read calls, against sessions
whose content at every step is known (``tests/changesdata.py``)."""

from __future__ import annotations

from pathlib import Path

import changesdata
import pytest
from changesdata import CWD, MAIN_END, MAIN_START, NOTES_END, SessionScript

from ink_tui.agent.tools._common import ToolFailure
from ink_tui.agent.tools.files import _apply
from ink_tui.paths import project_dir
from ink_tui.session import branch, open_session
from ink_tui.session.analysis.changediff import counts, diff_lines, file_patch, turn_diff
from ink_tui.session.analysis.changes import (
    EditFailure,
    FileChanges,
    apply_edits,
    collect_changes,
    normalise_path,
)
from ink_tui.session.conversation.view import build_turns


def changes_of(path: Path) -> dict[str, FileChanges]:
    session = open_session(path, warn=None)
    found = collect_changes(build_turns(branch(session)), session.cwd)
    return {change.path: change for change in found}


def script(tmp_path: Path) -> SessionScript:
    return SessionScript(project_dir(tmp_path, CWD))


def test_read_then_edits_then_a_failed_edit_reconstruct_the_end(tmp_path: Path) -> None:
    files = changes_of(changesdata.changes_session(tmp_path))
    main = files["calc/main.py"]
    assert (main.start, main.end, main.known, main.created) == (MAIN_START, MAIN_END, True, False)
    assert main.turns == [0, 1, 2]
    assert main.failed == 1
    failed = next(call for call in main.calls if call.failed)
    assert failed.turn == 1 and failed.note == "Error: not found"
    assert counts(main.start, main.end) == (6, 2)


def test_write_creating_a_file_then_edits_then_a_failed_edit(tmp_path: Path) -> None:
    notes = changes_of(changesdata.changes_session(tmp_path))["NOTES.md"]
    assert notes.created and notes.start is None and notes.end == NOTES_END
    assert notes.known and notes.failed == 1
    assert [call.kind for call in notes.calls] == ["write", "edit", "edit"]
    patch = file_patch(notes)
    assert patch.startswith("diff --git a/NOTES.md b/NOTES.md\nnew file mode 100644\n--- /dev/null")
    assert patch.endswith("+No division yet.\n\\ No newline at end of file\n")


def test_an_edit_with_nothing_known_before_leaves_the_file_unknown(tmp_path: Path) -> None:
    old = changes_of(changesdata.changes_session(tmp_path))["calc/old.py"]
    assert not old.known and not old.start_known and not old.end_known
    assert old.why_unknown() == "nothing shows its content before turn 3"
    lines = [line.text for line in turn_diff(old, 2)]
    assert lines[-2:] == ["-x = 1", "+x = 2"]  # the sequence of edits, as asked
    with pytest.raises(ValueError, match=r"calc/old\.py"):
        file_patch(old)


def test_two_paths_naming_the_same_file_are_one_entry(tmp_path: Path) -> None:
    run = script(tmp_path)
    run.prompt("go")
    run.write("./src/../a.txt", "one\n")
    run.edit(f"{CWD}/a.txt", "one", "two")
    run.read("@a.txt", "two\n")
    files = changes_of(run.path)
    assert list(files) == ["a.txt"]
    assert files["a.txt"].end == "two\n" and files["a.txt"].notes == []


def test_an_edit_that_does_not_apply_to_the_known_content_stops_knowing(tmp_path: Path) -> None:
    run = script(tmp_path)
    run.prompt("go")
    run.read("b.py", "x = 1\n")
    run.edit("b.py", "y = 1", "y = 2")  # Ink said it applied: the file changed some other way
    run.edit("b.py", "x = 1", "x = 3")
    change = changes_of(run.path)["b.py"]
    assert change.start == "x = 1\n" and not change.end_known
    assert change.why_unknown().startswith("an edit in turn 1 does not apply to the known content")
    run.read("b.py", "x = 3\ny = 2\n")  # a whole read later brings the content back
    run.edit("b.py", "x = 3", "x = 4")
    again = changes_of(run.path)["b.py"]
    assert again.known and again.end == "x = 4\ny = 2\n"


def test_overwrite_with_nothing_read_before_has_no_start(tmp_path: Path) -> None:
    run = script(tmp_path)
    run.prompt("go")
    run.write("c.txt", "new\n", created=False)
    change = changes_of(run.path)["c.txt"]
    assert change.end == "new\n" and not change.start_known and not change.known


def test_partial_and_cut_reads_give_no_content(tmp_path: Path) -> None:
    run = script(tmp_path)
    run.prompt("go")
    run.read("d.txt", "line 5\n", offset=5)
    run.read("e.txt", "a\nb\n\n[Showing lines 1-2 of 9000 (50KB limit). Use offset=3 to continue.]")
    run.edit("d.txt", "line 5", "line five")
    run.edit("e.txt", "a", "A")
    files = changes_of(run.path)
    assert not files["d.txt"].start_known and not files["e.txt"].start_known


def test_a_call_with_an_unknown_outcome_stops_knowing(tmp_path: Path) -> None:
    run = script(tmp_path)
    run.prompt("go")
    run.write("f.txt", "a\n")
    run.call("edit", {"path": "f.txt", "edits": [{"oldText": "a", "newText": "b"}]},
             "[ink] this tool call was interrupted before a result was recorded — the outcome "
             "is unknown; it may have partially executed.", error=True)  # fmt: skip
    change = changes_of(run.path)["f.txt"]
    assert not change.end_known and "unknown outcome" in change.why_unknown()


def test_a_read_that_the_edits_do_not_explain_is_trusted_and_noted(tmp_path: Path) -> None:
    run = script(tmp_path)
    run.prompt("go")
    run.write("g.txt", "a\n")
    run.read("g.txt", "a\nchanged by bash\n")
    run.edit("g.txt", "a\n", "b\n")
    change = changes_of(run.path)["g.txt"]
    assert change.end == "b\nchanged by bash\n"
    assert change.notes == ["a read shows content that the edits and writes do not explain"]


@pytest.mark.parametrize(
    ("content", "edits"),
    [
        ("a\r\nb\r\nc\r\n", [{"oldText": "b\n", "newText": "B\n"}]),
        ("\ufeffx = 1\n", [{"oldText": "x = 1", "newText": "x = 2"}]),
        ("one two one", [{"oldText": "one", "newText": "1"}]),
        ("abc", [{"oldText": "ab", "newText": "X"}, {"oldText": "bc", "newText": "Y"}]),
        ("abc", [{"oldText": "a", "newText": "A"}, {"oldText": "c", "newText": "C"}]),
        ("abc", [{"oldText": "", "newText": "A"}]),
        ("abc", [{"oldText": "zzz", "newText": "A"}]),
    ],
)
def test_edits_apply_as_the_edit_tool_applies_them(
    content: str, edits: list[dict[str, str]]
) -> None:
    """The replay agrees with ink-tui's own port of Ink's edit tool, success or refusal."""
    pairs = [(e["oldText"], e["newText"]) for e in edits]
    try:
        expected: str | None = _apply(content.removeprefix("\ufeff").replace("\r\n", "\n"), pairs)[
            0
        ]
    except ToolFailure:
        expected = None
    try:
        got: str | None = apply_edits(content, edits)
    except EditFailure:
        got = None
    if expected is None or got is None:
        assert expected is got is None
    else:
        bom = "\ufeff" if content.startswith("\ufeff") else ""
        crlf = "\r\n" in content
        assert got == bom + (expected.replace("\n", "\r\n") if crlf else expected)


def test_paths_normalise_as_the_tools_resolve_them() -> None:
    assert normalise_path("src/../a.py", "/p", tool="edit") == "/p/a.py"
    assert normalise_path("@a.py", "/p", tool="read") == "/p/a.py"
    assert normalise_path("@a.py", "/p", tool="edit") == "/p/@a.py"  # edit keeps the @
    assert normalise_path("/etc/x", "/p", tool="write") == "/etc/x"


def test_diff_lines_mark_a_last_line_without_newline() -> None:
    lines = diff_lines("a\n", "a\nb")
    assert [(line.kind, line.text) for line in lines] == [
        ("hunk", "@@ -1 +1,2 @@"),
        ("same", " a"),
        ("add", "+b"),
        ("note", "\\ No newline at end of file"),
    ]


def test_a_file_only_failed_calls_touched_has_no_change(tmp_path: Path) -> None:
    run = script(tmp_path)
    run.prompt("go")
    run.edit("h.txt", "a", "b", error="edits[0].oldText was not found in the file.")
    change = changes_of(run.path)["h.txt"]
    assert change.known and not change.changed and change.failed == 1
    assert counts(change.start, change.end) == (0, 0) and file_patch(change) == ""


def test_odd_argument_shapes_never_break_the_replay(tmp_path: Path) -> None:
    run = script(tmp_path)
    run.prompt("go")
    run.call("edit", None, "Error: invalid arguments for edit", error=True)  # type: ignore[arg-type]
    run.call("edit", {"path": 5, "edits": []}, "Error", error=True)
    run.write("odd.txt", "a\n")
    run.call("edit", {"path": "odd.txt", "edits": "a->b"}, "Edited odd.txt")
    run.call("edit", {"path": "odd.txt", "edits": [7, {"oldText": 1}]}, "Edited odd.txt")
    run.call("write", {"path": "odd.txt", "content": 7}, "Overwrote odd.txt (1 lines, 1 bytes)")
    run.call("read", {"path": "odd.txt", "offset": "x"}, "7")
    change = changes_of(run.path)["odd.txt"]
    assert change.end == "7" and change.known and len(change.calls) == 4
    assert [line.text for line in turn_diff(change, 0)][-2:] == ["@@ write @@", "+7"]
    assert "odd.txt" in file_patch(change)
