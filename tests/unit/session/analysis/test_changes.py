"""What a branch changed: files reconstructed from edit, write and read calls, against sessions
whose content at every step is known (``tests/changesdata.py``)."""

from __future__ import annotations

import os
from pathlib import Path

import changesdata
import pytest
from changesdata import CWD, MAIN_END, MAIN_START, NOTES_END, SessionScript

from ink_tui.agent.tools.common import resolve_path
from ink_tui.agent.tools.files import run_edit, run_read
from ink_tui.paths import project_dir
from ink_tui.session import branch, open_session
from ink_tui.session.analysis.changediff import counts, diff_lines, file_patch, turn_diff
from ink_tui.session.analysis.changes import FileChanges, collect_changes, normalise_path
from ink_tui.session.conversation.view import build_turns
from ink_tui.session.rules.edits import EditRefused, edit_pairs, edit_text


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


def test_a_read_the_read_tool_cut_gives_no_content(tmp_path: Path) -> None:
    """The read tool's own continuation note (written by ink-tui's chat as Ink writes it) is
    what the replay recognises: a read cut at 2000 lines never passes for the whole file."""
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "big.txt").write_text("x\n" * 2500)
    cut = run_read({"path": "big.txt"}, folder)
    assert cut.content.endswith("Use offset=2001 to continue.]")
    run = script(tmp_path)
    run.prompt("go")
    run.read("big.txt", cut.content)
    run.edit("big.txt", "x", "y")
    assert not changes_of(run.path)["big.txt"].start_known


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
    ("content", "edits", "expected"),
    [
        ("a\r\nb\r\nc\r\n", [{"oldText": "b\n", "newText": "B\n"}], "a\r\nB\r\nc\r\n"),
        ("\ufeffx = 1\n", [{"oldText": "x = 1", "newText": "x = 2"}], "\ufeffx = 2\n"),
        ("one two one", [{"oldText": "one", "newText": "1"}], None),
        ("abc", [{"oldText": "ab", "newText": "X"}, {"oldText": "bc", "newText": "Y"}], None),
        ("abc", [{"oldText": "a", "newText": "A"}, {"oldText": "c", "newText": "C"}], "AbC"),
        ("abc", [{"oldText": "", "newText": "A"}], None),
        ("abc", [{"oldText": "zzz", "newText": "A"}], None),
        ("abc", [{"oldText": "b", "newText": "b"}], None),
        ("a\nb\r\nc\r\n", [{"oldText": "a\r\nb", "newText": "x\ny"}], "x\r\ny\r\nc\r\n"),
    ],
)
def test_edits_apply_as_the_edit_tool_applies_them(
    tmp_path: Path, content: str, edits: list[dict[str, str]], expected: str | None
) -> None:
    """The replay's content after an edit is the file the edit tool writes, byte for byte, and
    an edit the tool refuses does not apply in the replay either."""
    target = tmp_path / "f.txt"
    target.write_bytes(content.encode())
    outcome = run_edit({"path": "f.txt", "edits": edits}, tmp_path)
    try:
        replayed: str | None = edit_text(content, edit_pairs(edits)).content
    except EditRefused:
        replayed = None
    assert replayed == expected
    assert outcome.is_error == (expected is None)
    assert target.read_bytes() == (content if expected is None else expected).encode()


@pytest.mark.parametrize(
    ("edits", "note"),
    [
        ([{"oldText": "zzz", "newText": "A"}], "edits[0].oldText was not found"),
        ([{"oldText": "b", "newText": "B"}, {"oldText": "x", "newText": "X"}],
         "edits[1].oldText matches 2 times"),
        ([{"oldText": "", "newText": "A"}], "edits[0] is empty or changes nothing"),
        ([{"oldText": "b", "newText": "b"}], "edits[0] is empty or changes nothing"),
        ([{"oldText": "b", "newText": "B"}, {"oldText": "bx", "newText": "Y"}], "edits overlap"),
        ([{"oldText": "b", "newText": "B"}, 7], "edits[1] is not an object"),
        ([], "edits must contain at least one replacement"),
    ],
)  # fmt: skip
def test_an_edit_that_does_not_apply_says_why(
    tmp_path: Path, edits: list[object], note: str
) -> None:
    run = script(tmp_path)
    run.prompt("go")
    run.write("g.txt", "bx\nx\n")
    run.call("edit", {"path": "g.txt", "edits": edits}, "Edited g.txt")
    change = changes_of(run.path)["g.txt"]
    assert change.calls[-1].note == f"does not apply to the known content: {note}"
    assert change.why_unknown() == f"an edit in turn 1 does not apply to the known content: {note}"


def test_paths_normalise_as_the_tools_resolve_them() -> None:
    assert normalise_path("src/../a.py", "/p", tool="edit") == "/p/a.py"
    assert normalise_path("@a.py", "/p", tool="read") == "/p/a.py"
    assert normalise_path("@a.py", "/p", tool="edit") == "/p/@a.py"  # edit keeps the @
    assert normalise_path("/etc/x", "/p", tool="write") == "/etc/x"
    spaced = "my\u00a0notes\u3000.md"  # pasted from rich text: the read tool makes them plain
    assert normalise_path(spaced, "/p", tool="read") == "/p/my notes .md"
    assert normalise_path(spaced, "/p", tool="write") == f"/p/{spaced}"
    home = os.path.expanduser("~")
    assert normalise_path("~/a.py", "/p", tool="read") == f"{home}/a.py"
    assert normalise_path("~/a.py", "/p", tool="edit") == "/p/~/a.py"
    assert normalise_path("~bob/a.py", "/p", tool="read") == "/p/~bob/a.py"  # only ~ and ~/
    for tool, normalize in (("read", True), ("edit", False), ("write", False)):
        for requested in ("@a.py", spaced, "~/a.py", "../x/./y", "/abs/z"):
            tool_path = resolve_path(requested, Path("/p"), normalize=normalize)
            assert normalise_path(requested, "/p", tool=tool) == str(tool_path)


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
