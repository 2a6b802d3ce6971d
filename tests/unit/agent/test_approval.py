"""Approval previews: what the modal shows before bash, edit or write runs."""

from __future__ import annotations

import json
from pathlib import Path

from ink_tui.agent.approval import CallPreview, preview_call


def _changes(preview: CallPreview) -> list[str]:
    """The diff's -/+ lines without the ---/+++ labels."""
    return [
        line
        for line in preview.body.split("\n")
        if line[:1] in "-+" and not line.startswith(("--- ", "+++ "))
    ]


# --- bash -------------------------------------------------------------------------------------


def test_bash_shows_command_cwd_and_timeout(tmp_path: Path) -> None:
    preview = preview_call("bash", {"command": "rm -rf build\nmake all"}, tmp_path)
    assert preview.tool == "bash"
    assert preview.body == "rm -rf build\nmake all"
    assert preview.title == f"bash  ·  in {tmp_path}"
    assert preview.problem is None
    timed = preview_call("bash", {"command": "sleep 100", "timeout": 30}, tmp_path)
    assert "timeout 30s" in timed.title


# --- edit -------------------------------------------------------------------------------------


def test_edit_diff_shows_old_and_new_lines_with_labels(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    target = tmp_path / "src" / "app.py"
    target.write_text("".join(f"line {i}\n" for i in range(1, 21)))
    edits = [{"oldText": "line 10\n", "newText": "line ten\n"}]
    preview = preview_call("edit", {"path": "src/app.py", "edits": edits}, tmp_path)
    assert preview.problem is None
    assert preview.title == "edit  src/app.py"
    lines = preview.body.split("\n")
    assert lines[:2] == ["--- a/src/app.py", "+++ b/src/app.py"]
    assert lines[2].startswith("@@ ")
    assert _changes(preview) == ["-line 10", "+line ten"]
    assert " line 7" in lines and " line 13" in lines and " line 6" not in lines  # n=3
    assert target.read_text().count("line 10") == 1  # nothing written


def test_edit_crlf_and_bom_file_diffs_cleanly(tmp_path: Path) -> None:
    (tmp_path / "w.txt").write_bytes(b"\xef\xbb\xbfalpha\r\nbeta\r\ngamma\r\n")
    args = {"path": "w.txt", "edits": [{"oldText": "beta", "newText": "BETA"}]}
    preview = preview_call("edit", args, tmp_path)
    assert preview.problem is None
    assert _changes(preview) == ["-beta", "+BETA"]
    assert "\r" not in preview.body and "\ufeff" not in preview.body


def test_edit_missing_old_text_uses_tool_wording(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello\n")
    args = {"path": "a.txt", "edits": [{"oldText": "bye", "newText": "ciao"}]}
    preview = preview_call("edit", args, tmp_path)
    assert preview.problem is not None
    assert preview.problem.startswith("Error: edits[0].oldText was not found in the file.")
    assert "\n" not in preview.problem
    assert '"oldText": "bye"' in preview.body  # the user still sees what was asked


def test_edit_ambiguous_and_missing_file(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x\nx\n")
    twice = preview_call(
        "edit", {"path": "a.txt", "edits": [{"oldText": "x", "newText": "y"}]}, tmp_path
    )
    assert twice.problem is not None and "matches 2 times" in twice.problem
    gone = preview_call(
        "edit", {"path": "nope.txt", "edits": [{"oldText": "x", "newText": "y"}]}, tmp_path
    )
    assert gone.problem is not None
    assert gone.problem.startswith("Error reading nope.txt: ENOENT: no such file or directory")
    empty = preview_call("edit", {"path": "a.txt", "edits": []}, tmp_path)
    assert empty.problem == "Error: edits must contain at least one replacement."


def test_edit_binary_and_huge_files_are_not_diffed(tmp_path: Path) -> None:
    (tmp_path / "b.bin").write_bytes(b"abc\x00def\xff\xfe")
    args = {"path": "b.bin", "edits": [{"oldText": "abc", "newText": "x"}]}
    binary = preview_call("edit", args, tmp_path)
    assert binary.problem is not None and "binary" in binary.problem
    (tmp_path / "big.txt").write_bytes(b"a" * (3 * 1024 * 1024))
    big = preview_call("edit", {**args, "path": "big.txt"}, tmp_path)
    assert big.problem is not None and "3.0 MB" in big.problem and "2 MB" in big.problem


def test_odd_bytes_never_raise(tmp_path: Path) -> None:
    (tmp_path / "odd.txt").write_bytes(b"caf\xe9 ok\n")
    args = {"path": "odd.txt", "edits": [{"oldText": "ok", "newText": "fine"}]}
    preview = preview_call("edit", args, tmp_path)
    assert preview.problem is None
    assert _changes(preview) == ["-caf\ufffd ok", "+caf\ufffd fine"]
    nul = preview_call("write", {"path": "a\x00b", "content": "x"}, tmp_path)
    assert isinstance(nul, CallPreview)


# --- write ------------------------------------------------------------------------------------


def test_write_new_file_is_all_additions(tmp_path: Path) -> None:
    preview = preview_call("write", {"path": "notes.md", "content": "# Notes\n\n- one\n"}, tmp_path)
    assert preview.title == "write  notes.md (new file)"
    assert preview.problem is None
    lines = preview.body.split("\n")
    assert lines[:2] == ["--- a/notes.md", "+++ b/notes.md"]
    assert lines[2].startswith("@@ ")
    assert lines[3:] == ["+# Notes", "+", "+- one"]
    assert not (tmp_path / "notes.md").exists()


def test_write_over_existing_file_is_a_diff(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("keep\nold\n")
    preview = preview_call("write", {"path": "notes.md", "content": "keep\nnew\n"}, tmp_path)
    assert preview.title == "write  notes.md"
    assert "new file" not in preview.title
    assert _changes(preview) == ["-old", "+new"]
    assert " keep" in preview.body.split("\n")


def test_write_outside_cwd_and_into_directory(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    outside = preview_call("write", {"path": "../x.txt", "content": "x"}, work)
    real = tmp_path.resolve()
    assert outside.title == (
        f"write  {tmp_path / 'x.txt'} (new file)  ·  ⚠ outside {work.resolve()}: "
        f"writes {real / 'x.txt'}"
    )
    into_dir = preview_call("write", {"path": ".", "content": "x"}, work)
    assert into_dir.problem is not None and "EISDIR" in into_dir.problem


def test_a_write_or_edit_through_a_symlink_says_where_it_really_lands(tmp_path: Path) -> None:
    work, elsewhere = tmp_path / "work", tmp_path / "elsewhere"
    work.mkdir()
    elsewhere.mkdir()
    (elsewhere / "notes.txt").write_text("old\n")
    (work / "link").symlink_to(elsewhere)
    landing = elsewhere.resolve() / "notes.txt"
    write = preview_call("write", {"path": "link/notes.txt", "content": "new\n"}, work)
    assert write.title.endswith(f"⚠ outside {work.resolve()} through a symlink: writes {landing}")
    edits = [{"oldText": "old", "newText": "new"}]
    edit = preview_call("edit", {"path": "link/notes.txt", "edits": edits}, work)
    assert edit.title.endswith(f"through a symlink: writes {landing}")
    inside = preview_call("write", {"path": "plain.txt", "content": "x"}, work)
    assert "outside" not in inside.title


# --- invalid arguments, other tools, cutting --------------------------------------------------


def test_invalid_arguments_show_json_and_validation_message(tmp_path: Path) -> None:
    args = {"path": "a.txt", "edits": [{"oldText": 1}]}
    preview = preview_call("edit", args, tmp_path)
    assert preview.problem is not None
    assert preview.problem.startswith("Error: invalid arguments for edit")
    assert "/edits/0/oldText: must be string" in preview.problem
    assert json.loads(preview.body) == args
    not_object = preview_call("bash", ["ls"], tmp_path)
    assert not_object.problem == 'Error: tool arguments must be a JSON object, got: ["ls"]'


def test_other_tools_show_arguments(tmp_path: Path) -> None:
    preview = preview_call("read", {"path": "a.txt"}, tmp_path)
    assert preview.problem is None and json.loads(preview.body) == {"path": "a.txt"}
    unknown = preview_call("mystery", {}, tmp_path)
    assert unknown.problem is not None and 'unknown tool "mystery"' in unknown.problem


def test_long_diff_is_cut_with_count(tmp_path: Path) -> None:
    content = "".join(f"row {i}\n" for i in range(100))
    preview = preview_call("write", {"path": "n.txt", "content": content}, tmp_path, max_lines=20)
    lines = preview.body.split("\n")
    # 3 header lines + 100 added lines = 103, 20 kept.
    assert len(lines) == 21
    assert lines[-1] == "… 83 more lines"
    full = preview_call("write", {"path": "n.txt", "content": content}, tmp_path)
    assert "more lines" not in full.body and len(full.body.split("\n")) == 103
