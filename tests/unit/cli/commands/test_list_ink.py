"""``ink-tui list --ink``: exactly what ``ink sessions`` prints for the project (spec §7,
``cli.ts@b1deda4d`` ``printSessionList``).

The sessions are made by hand here; every expected line is written out from the spec's rules,
not from ink-tui's output: which sessions Ink lists (newest mtime first; a file Ink's ``open()``
or ``stats()`` rejects, or one with no message entry and no explicit model, is left out;
``children/`` and other projects never), the date (the mtime in UTC, ``YYYY-MM-DD HH:MM``, the
seconds cut), the first 8 characters of the id, ``<M> msgs · <T> turns`` (the message entries
and the assistant messages of the current branch, always plural), the title, and the footer."""

from __future__ import annotations

import json
import os
from calendar import timegm
from pathlib import Path
from typing import Any

import pytest

from ink_tui.catalog.inklist import ink_date
from ink_tui.paths import project_dir

CWD = "/home/ada/code/ledger"
OTHER_CWD = "/home/ada/code/other"
FOOTER = [
    "",
    "Resume with: ink -c            (most recent)",
    "             ink -r <id>       (specific)",
]


def stamp(day: int, hour: int, minute: int, second: int = 0) -> int:
    """Nanoseconds since the epoch of 2026-10-<day> <hour>:<minute>:<second> UTC."""
    return timegm((2026, 10, day, hour, minute, second)) * 1_000_000_000


def header(session_id: str) -> dict[str, Any]:
    return {
        "type": "session",
        "version": 1,
        "id": session_id,
        "timestamp": "2026-10-05T09:00:00.000Z",
        "cwd": CWD,
    }


def entry(entry_id: str, parent: str | None, **fields: Any) -> dict[str, Any]:
    record = {"type": "message", "id": entry_id, "parentId": parent}
    record["timestamp"] = "2026-10-05T09:00:01.000Z"
    record.update(fields)
    return record


def user(entry_id: str, parent: str | None, content: Any) -> dict[str, Any]:
    return entry(entry_id, parent, message={"role": "user", "content": content})


def reply(entry_id: str, parent: str | None, *, usage: bool = True) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "blocks": [{"type": "text", "text": "ok"}]}
    if usage:
        message["usage"] = {"inputTokens": 3, "outputTokens": 2}
    message["stopReason"] = "end_turn"
    return entry(entry_id, parent, message=message)


def results(entry_id: str, parent: str) -> dict[str, Any]:
    result = {"toolCallId": "c1", "toolName": "ls", "content": "x", "isError": False}
    return entry(entry_id, parent, message={"role": "toolResult", "results": [result]})


def named(entry_id: str, parent: str, name: str) -> dict[str, Any]:
    record = entry(entry_id, parent, name=name)
    record["type"] = "session_info"
    return record


def write(folder: Path, name: str, records: list[dict[str, Any]], mtime_ns: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    os.utime(path, ns=(mtime_ns, mtime_ns))
    return path


@pytest.fixture
def home(cli: Any) -> Path:
    return project_dir(cli.sessions, CWD)


def run(cli: Any, *extra: str, cwd: str = CWD) -> tuple[int, str, str]:
    return cli.run("--cwd", cwd, "list", "--ink", *extra)


def test_it_prints_inks_lines_for_the_sessions_ink_lists(cli: Any, home: Path) -> None:
    # listed, oldest first here (Ink sorts them newest first)
    long_prompt = "Refactor " + "the ledger module " * 6  # over 80 characters: Ink cuts at 80
    write(
        home,
        "plain",
        [
            header("11111111-aaaa-4aaa-8aaa-000000000001"),
            user("u1", None, "Why does the total drift?\nsecond line"),
            reply("a1", "u1"),
            results("r1", "a1"),
            reply("a2", "r1"),
        ],
        stamp(1, 8, 5, 59) + 999_000_000,  # 08:05:59.999: the minute is cut, never rounded
    )
    write(
        home,
        "forked",
        [
            header("22222222-bbbb-4bbb-8bbb-000000000002"),
            user("u1", None, long_prompt),
            reply("a1", "u1"),
            user("u2", "a1", "the branch left behind"),
            reply("a2", "u2", usage=False),  # no usage, but not on the current branch: fine
            {"type": "position", "leafId": "a1"},
            user("u3", "a1", "the current branch"),
        ],
        stamp(2, 23, 59, 30),
    )
    write(
        home,
        "renamed",
        [
            header("33333333-cccc-4ccc-8ccc-000000000003"),
            user("u1", None, '<skill name="tidy">\nclean up</skill>'),
            reply("a1", "u1"),
            named("n1", "a1", "  Ledger cleanup  "),
        ],
        stamp(3, 0, 0),
    )
    write(
        home,
        "skill",
        [
            header("44444444-dddd-4ddd-8ddd-000000000004"),
            user("u1", None, [{"type": "text", "text": '<skill name="tidy">\nsteps</skill>'}]),
        ],
        stamp(4, 10, 1),
    )
    model = {"type": "session_model", "provider": "zai", "modelId": "glm-5.3", "explicit": True}
    write(
        home, "model-only", [header("55555555-eeee-4eee-8eee-000000000005"), model], stamp(5, 7, 0)
    )
    # hidden by Ink
    staged = {**model, "explicit": False}
    write(home, "empty", [header("66666666-0000-4000-8000-000000000006")], stamp(6, 1, 0))
    write(home, "seed", [header("77777777-0000-4000-8000-000000000007"), staged], stamp(6, 2, 0))
    write(
        home,
        "old-format",
        [
            header("88888888-0000-4000-8000-000000000008"),
            user("u1", None, "hi"),
            reply("a1", "u1", usage=False),
        ],
        stamp(6, 3, 0),
    )
    write(
        home,
        "broken-chain",
        [header("99999999-0000-4000-8000-000000000009"), user("u1", "gone", "hi")],
        stamp(6, 4, 0),
    )
    child = [header("aaaaaaaa-0000-4000-8000-00000000000a"), user("u1", None, "a subagent")]
    write(home / "children", "child", child, stamp(6, 5, 0))
    other = [header("bbbbbbbb-0000-4000-8000-00000000000b"), user("u1", None, "elsewhere")]
    write(project_dir(cli.sessions, OTHER_CWD), "other", other, stamp(6, 6, 0))

    code, out, err = run(cli)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "2026-10-05 07:00  55555555  0 msgs · 0 turns  (model: zai/glm-5.3)",
        "2026-10-04 10:01  44444444  1 msgs · 0 turns  ▪ skill: tidy",
        "2026-10-03 00:00  33333333  2 msgs · 1 turns  Ledger cleanup",
        "2026-10-02 23:59  22222222  3 msgs · 1 turns  " + long_prompt[:80],
        "2026-10-01 08:05  11111111  4 msgs · 2 turns  Why does the total drift?",
        *FOOTER,
    ]
    assert out.endswith("(specific)\n")


@pytest.mark.parametrize("what", ["no folder", "only sessions ink hides"])
def test_nothing_listed_is_inks_one_line(cli: Any, home: Path, what: str) -> None:
    if what != "no folder":
        write(home, "empty", [header("66666666-0000-4000-8000-000000000006")], stamp(6, 1, 0))
        child = [header("aaaaaaaa-0000-4000-8000-00000000000a"), user("u1", None, "a subagent")]
        write(home / "children", "child", child, stamp(6, 5, 0))
    assert run(cli) == (0, "No saved sessions for this directory yet.\n", "")


def test_a_title_or_id_never_spans_lines_or_reaches_the_terminal_raw(cli: Any, home: Path) -> None:
    write(
        home,
        "hostile",
        [
            header("c\x1b]0;x\x07ccccccc-0000"),
            user("u1", None, "hi"),
            named("n1", "u1", "two\nlines \x1b[2J"),
        ],
        stamp(7, 9, 30),
    )
    code, out, _ = run(cli)
    assert code == 0
    first = out.splitlines()[0]
    assert first == "2026-10-07 09:30  c␛]0;x␇c  1 msgs · 0 turns  two␊lines ␛[2J"
    assert "\x1b" not in out


def test_ink_is_for_one_project_in_inks_words_only(cli: Any) -> None:
    for flag in ("--all", "--json"):
        code, out, err = run(cli, flag)
        assert code != 0 and out == ""
        cli.one_error_line(err, naming="ink sessions")


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (0.0, "1970-01-01 00:00"),
        (-0.0004, "1970-01-01 00:00"),  # new Date(-0.4) is the epoch: ms are cut toward zero
        (-0.001, "1969-12-31 23:59"),
        (timegm((2026, 2, 28, 23, 59, 59)) + 0.9999, "2026-02-28 23:59"),
        (timegm((2028, 2, 29, 12, 0, 0)), "2028-02-29 12:00"),
        (253402300800.0, "+010000-01-01 00"),  # toISOString's six-digit year, then slice(0, 16)
        (-62198755200.0, "-000001-01-01 00"),
    ],
)
def test_the_date_is_inks_iso_minute(seconds: float, shown: str) -> None:
    assert ink_date(seconds) == shown
