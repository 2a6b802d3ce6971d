"""``ink-tui changes --patch`` with hostile file names (issue 19): every patch it prints is applied
with both ``git apply`` and GNU ``patch -p1`` in a scratch git repository, and writes only the
safe files, at exactly their names, with their content; nothing outside the repository, nothing
in ``.git``, no executable bit. Every file left out is one stderr line, and the exit code is 1.
"""

from __future__ import annotations

import itertools
import os
import posixpath
import shutil
import stat
import subprocess
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from changesdata import CWD, SessionScript
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from ink_tui.safetext import one_line
from ink_tui.session.analysis.changediff import edit_arguments_diff, git_quoted

# The write from the issue: a name that carries its own patch header, creating an executable hook.
PAYLOAD = (
    "q\nnew file mode 100755\n--- /dev/null\n+++ b/.git/hooks/pre-commit\n@@ -0,0 +1,2 @@\n"
    "+#!/bin/sh\n+touch pwned\ndiff --git a/r"
)
CONTROL = "not in the patch: its name holds a control character"
OUTSIDE = "not in the patch: outside the session's folder"
FOLDER = "not in the patch: its name is a folder's, not a file's"
DOTGIT = "not in the patch: inside a .git folder (git's own files)"


def _gnu_patch() -> str | None:
    found = shutil.which("patch")
    if found is None:
        return None
    done = subprocess.run([found, "--version"], capture_output=True, text=True, check=False)
    return found if done.stdout.startswith("GNU patch") else None


GIT, PATCH = shutil.which("git"), _gnu_patch()
pytestmark = pytest.mark.skipif(
    GIT is None or PATCH is None, reason="needs git and GNU patch to apply the patches"
)
TOOLS = ("git", "patch")


def _no_controls(line: str) -> bool:
    return not any(unicodedata.category(char) == "Cc" for char in line)


def _content(index: int) -> str:
    return f"file {index}\n"


def _tree(root: Path) -> dict[str, tuple[int, bytes]]:
    """Every file and folder under ``root``: mode and bytes (folders: b"")."""
    found: dict[str, tuple[int, bytes]] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder, name)
            info = path.lstat()
            data = path.read_bytes() if stat.S_ISREG(info.st_mode) else b""
            found[str(path.relative_to(root))] = (info.st_mode, data)
    return found


@dataclass
class Applied:
    """What applying one patch with one tool did to a fresh scratch repository."""

    files: dict[str, bytes]  # the work tree's files (outside .git), relative names
    modes: dict[str, int]


class Jail:
    """A scratch git repository six folders deep inside a folder that is watched whole: any
    file a patch writes outside the repository, or inside its ``.git``, is seen."""

    def __init__(self, root: Path, start: dict[str, str] | None = None) -> None:
        self.root = root
        self.repo = root.joinpath("w", "1", "2", "3", "4", "5", "repo")
        self.repo.mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(self.repo)], check=True)
        for name, text in (start or {}).items():
            (self.repo / name).parent.mkdir(parents=True, exist_ok=True)
            (self.repo / name).write_bytes(text.encode("utf-8"))

    def apply(self, tool: str, patch: str) -> Applied:
        before = _tree(self.root)
        patch_file = self.root.parent / f"{self.root.name}.patch"
        patch_file.write_bytes(patch.encode("utf-8"))
        if tool == "git":
            command = ["git", "apply", str(patch_file)]
        else:
            assert PATCH is not None
            command = [PATCH, "-p1", "--batch", "--no-backup-if-mismatch", "-i", str(patch_file)]
        done = subprocess.run(command, cwd=self.repo, capture_output=True, check=False)
        after = _tree(self.root)
        inside = str(self.repo.relative_to(self.root))
        git_dir = f"{inside}/.git"
        changed = {
            path for path in before.keys() | after.keys() if before.get(path) != after.get(path)
        }
        outside = {path for path in changed if not path.startswith(inside + "/")}
        assert not outside, f"{tool} wrote outside the repository: {sorted(outside)}"
        in_git = {path for path in changed if path == git_dir or path.startswith(git_dir + "/")}
        assert not in_git, f"{tool} wrote in .git: {sorted(in_git)}"
        assert done.returncode == 0, f"{tool}: {done.stdout.decode()} {done.stderr.decode()}"
        work_tree = {
            path[len(inside) + 1 :]: (mode, data)
            for path, (mode, data) in after.items()
            if path.startswith(inside + "/") and not path.startswith(git_dir + "/")
        }
        files = {name: data for name, (mode, data) in work_tree.items() if stat.S_ISREG(mode)}
        modes = {name: mode for name, (mode, _) in work_tree.items() if stat.S_ISREG(mode)}
        return Applied(files, modes)


_counter = itertools.count()


def run_patch(
    cli: Any, tmp_path: Path, writes: list[str], *, cwd: str = CWD
) -> tuple[int, str, str]:
    """A session that creates each of ``writes`` (``file i`` as content), and its patch."""
    script = SessionScript(tmp_path / f"sessions-{next(_counter)}", cwd)
    script.prompt("go")
    for index, path in enumerate(writes):
        script.write(path, _content(index))
    result: tuple[int, str, str] = cli.run("changes", str(script.path), "--patch")
    return result


def apply_both(
    tmp_path: Path, patch: str, start: dict[str, str] | None = None, tools: tuple[str, ...] = TOOLS
) -> list[Applied]:
    """``patch`` applied by each tool in a fresh jail; checks no file is executable."""
    results = []
    for tool in tools:
        jail = Jail(tmp_path / f"{tool}-{next(_counter)}", start)
        applied = jail.apply(tool, patch)
        for name, mode in applied.modes.items():
            assert not mode & 0o111, f"{tool} made {name!r} executable"
        results.append(applied)
    return results


def test_the_payload_from_the_issue_writes_no_hook_with_either_tool(
    cli: Any, tmp_path: Path
) -> None:
    code, out, err = run_patch(cli, tmp_path, [PAYLOAD, "safe.txt"])
    for applied in apply_both(tmp_path, out, tools=("patch", "git")):
        assert applied.files == {"safe.txt": b"file 1\n"}
    assert "new file mode 100755" not in out and ".git/hooks" not in out
    assert code == 1
    assert err == f"ink-tui: {one_line(PAYLOAD)}: {CONTROL}\n"


def test_the_bytes_a_real_process_prints_apply_alike(cli: Any, tmp_path: Path) -> None:
    script = SessionScript(tmp_path / "sessions", CWD)
    script.prompt("go")
    script.write(PAYLOAD, "x\n")
    script.write("数据/naïve name.py", "print('数据')\n")
    done = cli.process("changes", str(script.path), "--patch")
    assert done.returncode == 1
    assert done.stderr.decode("utf-8") == f"ink-tui: {one_line(PAYLOAD)}: {CONTROL}\n"
    assert done.stdout.decode("utf-8").startswith(
        'diff --git "a/\\346\\225\\260\\346\\215\\256/na\\303\\257ve name.py" '
    )
    for applied in apply_both(tmp_path, done.stdout.decode("utf-8")):
        assert applied.files == {"数据/naïve name.py": "print('数据')\n".encode()}


HOSTILE = [
    (PAYLOAD, CONTROL),
    ("../../../../x", OUTSIDE),
    ("../sibling/x.txt", OUTSIDE),
    ("/etc/cron.d/ink-tui-test", OUTSIDE),
    ("tab\tname.txt", CONTROL),
    ("new\nline.txt", CONTROL),
    ("cr\rname.txt", CONTROL),
    ("esc\x1b]0;pwned\x07.txt", CONTROL),
    ("nul\x00.txt", CONTROL),
    ("c1\x85.txt", CONTROL),
    ("bidi\u202etxt.exe", CONTROL),
    (".", FOLDER),
    ("a/", FOLDER),
    ("src/..", FOLDER),
    ("", "not in the patch: its name is empty"),
    (".git/hooks/pre-commit", DOTGIT),
    (".git", DOTGIT),
    ("vendor/lib/.git/config", DOTGIT),
    (".GIT/hooks/x", DOTGIT),
    (".git./hooks/x", DOTGIT),
    ("git~1/hooks/x", DOTGIT),
    ("x\\.git\\hooks\\y", DOTGIT),
    (".git::$INDEX_ALLOCATION/hooks/x", DOTGIT),
    ("a/.git :x", DOTGIT),
    (".g\u200cit/hooks/x", DOTGIT),
    ("trail ", "not in the patch: its name ends in a space (GNU patch would drop it)"),
    ("long/" + "n" * 256, "not in the patch: a part of its name is longer than 255 bytes"),
]

SAFE = {  # what the call names -> where it must land
    "with space.txt": "with space.txt",
    "dir with space/file name.txt": "dir with space/file name.txt",
    'q"uote.txt': 'q"uote.txt',
    'sp "both" \\ back.txt': 'sp "both" \\ back.txt',
    "back\\slash.txt": "back\\slash.txt",
    "数据/naïve.py": "数据/naïve.py",
    "emoji 🎉.md": "emoji 🎉.md",
    "src/../plain.txt": "plain.txt",
    f"{CWD}/abs/inside.txt": "abs/inside.txt",
    "./dot/./slash//twice.txt": "dot/slash/twice.txt",
    "-dash": "-dash",
    " lead": " lead",
    ".gitignore": ".gitignore",
    "a/.gitx/b": "a/.gitx/b",
    "end.": "end.",
    "x b/y": "x b/y",
}


def test_hostile_names_are_left_out_each_said_once_and_safe_ones_land_exactly(
    cli: Any, tmp_path: Path
) -> None:
    writes = [path for path, _ in HOSTILE] + list(SAFE)
    code, out, err = run_patch(cli, tmp_path, writes)
    assert code == 1
    shown = {
        path: path if path.startswith("/") else posixpath.normpath(path or ".")
        for path, _ in HOSTILE
    }
    shown["../../../../x"], shown["../sibling/x.txt"] = "/x", "/home/ada/code/sibling/x.txt"
    shown["."], shown["src/.."] = ".", "."
    lines = err.splitlines()
    expected = [f"ink-tui: {one_line(shown[path])}: {why}" for path, why in HOSTILE]
    # "." and "src/.." and "" name one file (the folder itself): said once, by the first call
    expected = [expected[i] for i, (path, _) in enumerate(HOSTILE) if path not in ("src/..", "")]
    assert lines == expected
    assert all(_no_controls(line) for line in lines)
    landing = {name: _content(writes.index(path)).encode() for path, name in SAFE.items()}
    for applied in apply_both(tmp_path, out):
        assert applied.files == landing


def test_an_absolute_name_in_a_session_run_in_root_is_left_out(cli: Any, tmp_path: Path) -> None:
    code, out, err = run_patch(cli, tmp_path, ["/etc/cron.d/x", "etc/motd"], cwd="/")
    assert (code, out) == (1, "")
    why = "not in the patch: the session ran in / (a patch is made for a project's folder)"
    assert err.splitlines() == [f"ink-tui: /etc/cron.d/x: {why}", f"ink-tui: /etc/motd: {why}"]


@pytest.mark.parametrize("cwd", ["proj", ""])
def test_a_session_whose_folder_is_not_absolute_makes_no_patch(
    cli: Any, tmp_path: Path, cwd: str
) -> None:
    code, out, err = run_patch(cli, tmp_path, ["../../../../x", "a.txt"], cwd=cwd)
    assert (code, out) == (1, "")
    lines = err.splitlines()
    assert len(lines) == 2
    assert all(line.endswith(": not in the patch: the session's folder is not an absolute path")
               for line in lines)  # fmt: skip


def test_a_file_inside_another_file_of_the_patch_is_left_out(cli: Any, tmp_path: Path) -> None:
    code, out, err = run_patch(cli, tmp_path, ["a", "a/b/c", "d"])
    assert code == 1
    assert err == "ink-tui: a/b/c: not in the patch: a is a file in it\n"
    for applied in apply_both(tmp_path, out):
        assert applied.files == {"a": b"file 0\n", "d": b"file 2\n"}


# -- the names are written as git writes them ----------------------------------------------------

ODD_NAMES = ["with space.txt", 'q"uote.txt', "back\\slash", "数据.py", 'sp "q".txt', "plain.txt"]


def _headers(patch: str) -> list[str]:
    return [
        line
        for line in patch.splitlines()
        if line.startswith(("diff --git ", "--- ", "+++ ", "new file mode"))
    ]


def test_names_are_quoted_exactly_as_git_diff_quotes_them(cli: Any, tmp_path: Path) -> None:
    start = {name: "one\ntwo\n" for name in ODD_NAMES}
    script = SessionScript(tmp_path / "sessions", CWD)
    script.prompt("go")
    for name in ODD_NAMES:
        script.read(name, "one\ntwo\n")
        script.edit(name, "two", "three")
        script.write(f"new {name}", "fresh\n")
    code, out, err = cli.run("changes", str(script.path), "--patch")
    assert (code, err) == (0, "")
    reference = Jail(tmp_path / "reference", start).repo
    subprocess.run(["git", "add", "-A"], cwd=reference, check=True)
    for name in ODD_NAMES:
        (reference / name).write_text("one\nthree\n", encoding="utf-8")
        (reference / f"new {name}").write_text("fresh\n", encoding="utf-8")
    subprocess.run(["git", "add", "-N", "."], cwd=reference, check=True)
    git_diff = subprocess.run(
        ["git", "-c", "core.quotePath=true", "diff"],
        cwd=reference, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert sorted(_headers(out)) == sorted(_headers(git_diff))
    assert "+++ b/with space.txt\t" in out.splitlines()  # GNU patch reads the name to the tab
    for applied in apply_both(tmp_path, out, start):
        assert applied.files == {
            **{name: b"one\nthree\n" for name in ODD_NAMES},
            **{f"new {name}": b"fresh\n" for name in ODD_NAMES},
        }


def test_git_quoted_quotes_every_byte_as_git_does(tmp_path: Path) -> None:
    names = ["tab\tx", "nl\nx", "bell\x07", "soh\x01", "del\x7f", "esc\x1b", "é", "q\"", "b\\s",
             "sp ace", "plain", "数据", "\u202e", "cr\rx", "vt\x0bff\x0c"]  # fmt: skip
    repo = Jail(tmp_path / "quoting", {name: "x\n" for name in names}).repo
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    listed = subprocess.run(
        ["git", "-c", "core.quotePath=true", "ls-files"],
        cwd=repo, capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    assert sorted(listed) == sorted(git_quoted(name) for name in names)


def test_a_name_is_judged_before_its_content(cli: Any, tmp_path: Path) -> None:
    script = SessionScript(tmp_path / "sessions", CWD)
    script.prompt("go")
    script.edit("../outside.txt", "a", "b")  # nothing known: the name is what matters
    script.edit("bad\nname.txt", "a", "b", error="not found")  # changed nothing: not named
    code, out, err = cli.run("changes", str(script.path), "--patch")
    assert (code, out) == (1, "")
    assert err == f"ink-tui: /home/ada/code/outside.txt: {OUTSIDE}\n"


def test_a_name_with_a_newline_is_one_line_in_the_report(cli: Any, tmp_path: Path) -> None:
    fake = "x.py\n  calc/main.py  +0 -0  turn 1"
    script = SessionScript(tmp_path / "sessions", CWD)
    script.prompt("go")
    script.write(fake, "a\n")
    script.edit(fake, "b", "c", error="not found\tin x.py␊")
    code, out, err = cli.run("changes", str(script.path))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[1] == "  x.py␊  calc/main.py  +0 -0  turn 1  +1 -0  new  turn 1  ✗ 1 failed"
    assert "  turn 1: go" in lines
    assert "── x.py␊  calc/main.py  +0 -0  turn 1  +1 -0  new  turn 1  ✗ 1 failed" in lines
    assert "✗ failed edit in turn 1: Error: not found␉in x.py␊" in lines
    assert not any(line.startswith("  calc/main.py") for line in lines)  # no line faked


# -- any name at all ---------------------------------------------------------------------------

_PIECES = st.sampled_from(
    ["a", "b", "数", "é", "e\u0301", " ", "  ", ".", "..", "/", "//", "\\", '"', "'", "\t", "\n",
     "\r", "\x00", "\x1b", "\x7f", "\x85", "\u202e", "\u200c", "\u00a0", "\u3000", "\ufeff",
     "\u2028", "~", "-", "+", ":", "*", "?", "@", "#", "$", "%", ".git", ".GIT", "git~1", "🎉",
     "\ud800", "a/", "b/", "/dev/null", "--- ", "+++ ", "@@ ", "diff --git "]
)  # fmt: skip
_NAMES = st.one_of(
    st.lists(_PIECES, min_size=1, max_size=8).map("".join),  # names made of hostile pieces
    st.text(st.characters(codec="utf-8"), min_size=1, max_size=12),  # any character at all
    st.lists(st.sampled_from(["a", "b", " ", "/", '"', "\\", "é", "数", "."]), min_size=1).map(
        "".join
    ),  # plain but odd: spaces, quotes, backslashes, non-ASCII
)


def _intended(path: str, cwd: str) -> str | None:
    """Where a call's file is in the session's folder, if inside it (the oracle)."""
    absolute = posixpath.normpath(posixpath.join(cwd, path))
    return absolute[len(cwd) + 1 :] if absolute.startswith(cwd + "/") else None


def _is_safe(name: str) -> bool:
    parts = name.split("/")
    return all(p not in ("", ".", "..") and p.lower().rstrip(". ") != ".git" for p in parts)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(paths=st.lists(_NAMES, min_size=1, max_size=3))
def test_any_names_apply_alike_with_both_tools_and_land_only_where_intended(
    cli: Any, tmp_path: Path, paths: list[str]
) -> None:
    code, out, err = run_patch(cli, tmp_path, paths)
    last: dict[str, int] = {}  # one file per normalised name: its last write wins
    for index, path in enumerate(paths):
        last[posixpath.normpath(posixpath.join(CWD, path))] = index
    lines = err.splitlines()
    assert all(line.startswith("ink-tui: ") and _no_controls(line) for line in lines)
    assert code == (1 if lines else 0)
    event(f"{out.count(chr(10) + 'diff --git ') + out.startswith('diff')} of {len(last)} emitted")
    if not out:
        assert len(lines) == len(last)
        return
    by_content = {_content(index).encode(): paths[index] for index in last.values()}
    for applied in apply_both(tmp_path, out):
        assert len(applied.files) + len(lines) == len(last)
        for name, data in applied.files.items():
            intended = _intended(by_content[data], CWD)
            assert intended == name and _is_safe(name)


def test_an_edit_shown_as_a_diff_keeps_its_path_on_its_header_line() -> None:
    edits = [{"oldText": "a", "newText": "b"}]
    shown = edit_arguments_diff({"path": "x.py\n+++ b/.git/hooks/pre-commit", "edits": edits})
    assert shown.splitlines()[:2] == [
        "--- x.py␊+++ b/.git/hooks/pre-commit",
        "+++ x.py␊+++ b/.git/hooks/pre-commit",
    ]
