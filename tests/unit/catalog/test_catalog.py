"""Tests for ink_tui.catalog: listing rows (titles, Ink's verdict), the cheap scan, resolving."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ink_tui.catalog.scan as scan_module
import ink_tui.catalog.summary as summary_module
from ink_tui.catalog import (
    ResolveError,
    SessionSummary,
    iter_summaries,
    list_sessions,
    newest_session,
    resolve_session,
    summarize_file,
)
from ink_tui.catalog.titles import js_slice
from ink_tui.paths import project_dir
from ink_tui.session import open_session
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.session.writing.writer import SessionWriter

CWD = "/home/ada/proj"
TS = "2026-10-05T12:34:56.789Z"
USAGE = {"inputTokens": 10, "outputTokens": 5}


def dumps(record: Any) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def header(
    session_id: str = "0b4f6a52-5a43-4a8e-9a55-0c6f6c3c2f11", **extra: Any
) -> dict[str, Any]:
    return {"type": "session", "version": 1, "id": session_id, "timestamp": TS, "cwd": CWD, **extra}


def entry(kind: str, entry_id: str, parent: str | None, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "id": entry_id, "parentId": parent, "timestamp": TS, **fields}


def user(entry_id: str, parent: str | None, content: Any) -> dict[str, Any]:
    return entry("message", entry_id, parent, message={"role": "user", "content": content})


def assistant(entry_id: str, parent: str | None, text: str = "ok", **extra: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "blocks": [{"type": "text", "text": text}]}
    if "usage" not in extra:
        message["usage"] = USAGE
    message.update(extra)
    message.setdefault("stopReason", "end_turn")
    return entry("message", entry_id, parent, message=message)


def write(path: Path, records: list[Any], *, raw_lines: list[str] | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [dumps(record) for record in records] + (raw_lines or [])
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def session(tmp_path: Path, records: list[Any], name: str = "s.jsonl", **kw: Any) -> Path:
    return write(tmp_path / "proj" / name, [header(), *records], **kw)


def exchange(prompt: Any = "hello") -> list[Any]:
    return [user("u1", None, prompt), assistant("a1", "u1")]


# -- titles ------------------------------------------------------------------------------------


def title_of(tmp_path: Path, records: list[Any]) -> str:
    return summarize_file(session(tmp_path, records)).title


def test_title_is_first_non_blank_line_of_first_user_message(tmp_path: Path) -> None:
    assert title_of(tmp_path, exchange("\n  \n\u3000\nFix the bug\nplease")) == "Fix the bug"


def test_title_from_text_blocks_skips_images(tmp_path: Path) -> None:
    blocks = [
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
        {"type": "text", "text": "   "},
        {"type": "text", "text": "Look at this screenshot"},
    ]
    assert title_of(tmp_path, exchange(blocks)) == "Look at this screenshot"


def test_title_of_blank_only_first_message_is_empty(tmp_path: Path) -> None:
    assert title_of(tmp_path, exchange(" \n\t\n")) == ""


def test_title_is_cut_at_80_utf16_units_not_trimmed(tmp_path: Path) -> None:
    assert title_of(tmp_path, exchange("  " + "x" * 100)) == "  " + "x" * 78
    assert title_of(tmp_path, exchange("中" * 100)) == "中" * 80


def test_title_cut_inside_surrogate_pair_is_printable(tmp_path: Path) -> None:
    # 79 ASCII units then an emoji (2 units): JS keeps a lone high surrogate, printed as U+FFFD.
    title = title_of(tmp_path, exchange("a" * 79 + "😀 tail"))
    assert title == "a" * 79 + "\ufffd"
    title.encode("utf-8")  # printable
    assert js_slice("a" * 79 + "😀", 80) == "a" * 79 + "\ud83d"
    # an emoji that fits whole stays whole: 78 + 2 units
    assert title_of(tmp_path, exchange("a" * 78 + "😀😀")) == "a" * 78 + "😀"


def test_title_uses_first_user_message_in_file_order_any_branch(tmp_path: Path) -> None:
    records = [
        user("u1", None, "first, later abandoned"),
        assistant("a1", "u1"),
        user("u2", None, "second root"),
        assistant("a2", "u2"),
    ]
    summary = summarize_file(session(tmp_path, records))
    assert summary.leaf_id == "a2"
    assert summary.title == "first, later abandoned"
    assert (summary.message_count, summary.turn_count, summary.leaf_count) == (2, 1, 2)


def test_name_wins_and_blank_name_clears(tmp_path: Path) -> None:
    named = [*exchange(), entry("session_info", "n1", "a1", name="  my name \u3000")]
    assert title_of(tmp_path, named) == "my name"
    cleared = [*named, entry("session_info", "n2", "n1", name=" ")]
    summary = summarize_file(session(tmp_path, cleared, name="t.jsonl"))
    assert (summary.title, summary.name) == ("hello", None)


def test_name_on_another_branch_is_ignored(tmp_path: Path) -> None:
    records = [
        *exchange(),
        entry("session_info", "n1", "a1", name="old branch"),
        user("u2", "a1", "new branch"),
    ]
    assert title_of(tmp_path, records) == "hello"


def test_model_title_and_empty_session(tmp_path: Path) -> None:
    model = {"type": "session_model", "provider": "zai", "modelId": "glm-5.3", "explicit": True}
    summary = summarize_file(session(tmp_path, [model]))
    assert (summary.title, summary.listed_by_ink, summary.explicit_model) == (
        "(model: zai/glm-5.3)",
        True,
        True,
    )
    assert summary.model == ModelRef("zai", "glm-5.3")
    legacy = dict(model, explicit=False)
    empty = summarize_file(session(tmp_path, [legacy], name="e.jsonl"))
    assert empty.title == "(empty session)"
    assert empty.hidden_reason == "no message entries and no explicit model selection"
    assert empty.to_json()["title"] == "(empty session)"  # Ink read it: counts are shown


# -- Ink's verdict -----------------------------------------------------------------------------


def test_assistant_without_usage_on_branch_hides_row(tmp_path: Path) -> None:
    old = {"role": "assistant", "blocks": [{"type": "text", "text": "hi"}], "stopReason": None}
    records = [user("u1", None, "q"), entry("message", "a1", "u1", message=old)]
    summary = summarize_file(session(tmp_path, records))
    assert summary.hidden_reason == (
        "EngineError: Cannot read properties of undefined (reading 'inputTokens')"
    )
    assert summary.to_json() == {
        "file": "s.jsonl",
        "mtime": summary.to_json()["mtime"],
        "listed": False,
        "skip": summary.hidden_reason,
    }
    # null usage throws with V8's other wording
    nulled = [user("u1", None, "q"), assistant("a1", "u1", usage=None)]
    reason = summarize_file(session(tmp_path, nulled, name="n.jsonl")).hidden_reason
    assert reason == "EngineError: Cannot read properties of null (reading 'inputTokens')"


def test_assistant_without_usage_off_branch_is_fine(tmp_path: Path) -> None:
    old = {"role": "assistant", "blocks": [{"type": "text", "text": "hi"}], "stopReason": None}
    records = [
        user("u1", None, "q"),
        entry("message", "a1", "u1", message=old),
        user("u2", None, "again"),
        assistant("a2", "u2"),
    ]
    summary = summarize_file(session(tmp_path, records))
    assert summary.listed_by_ink and summary.turn_count == 1


def test_usage_missing_flag_tail_is_accepted(tmp_path: Path) -> None:
    records = [
        user("u1", None, "q"),
        assistant("a1", "u1", usageMissing=True, model="glm-5.3", modelReference="zai/glm-5.3"),
        user("u2", "a1", "more"),
    ]
    assert summarize_file(session(tmp_path, records)).listed_by_ink


def test_broken_chain_and_cycle(tmp_path: Path) -> None:
    broken = [user("u1", None, "q"), assistant("a1", "gone")]
    summary = summarize_file(session(tmp_path, broken))
    assert summary.hidden_reason == "SessionError: broken parentId chain at entry a1"
    assert set(summary.to_json()) == {"file", "mtime", "listed", "skip"}
    cycle = [user("u1", "a1", "q"), assistant("a1", "u1")]
    reason = summarize_file(session(tmp_path, cycle, name="c.jsonl")).hidden_reason
    assert reason == "SessionError: parentId cycle at entry a1"  # leaf a1 -> u1 -> a1


def test_interior_bad_line_hides_row_and_torn_final_line_is_dropped(tmp_path: Path) -> None:
    bad = session(tmp_path, [*exchange()], raw_lines=['{"type":"message","id":', "{}"])
    assert summarize_file(bad).hidden_reason is not None
    assert summarize_file(bad).hidden_reason.startswith(  # type: ignore[union-attr]
        "SessionError: session line 4: invalid JSON ("
    )
    torn = tmp_path / "proj" / "torn.jsonl"
    torn.write_bytes(bad.read_bytes()[:-4])  # "...\n{" then cut: the last line is torn
    summary = summarize_file(torn)
    assert summary.listed_by_ink
    assert (summary.message_count, summary.leaf_id) == (2, "a1")


def test_unknown_type_mid_file_is_fatal(tmp_path: Path) -> None:
    records = [*exchange(), entry("checkpoint", "k1", "a1"), user("u2", "a1", "x")]
    reason = summarize_file(session(tmp_path, records)).hidden_reason
    assert reason == 'SessionError: session line 4: unknown entry type "checkpoint"'


def test_position_marker_rules(tmp_path: Path) -> None:
    records: list[Any] = [*exchange(), user("u2", "a1", "more"), assistant("a2", "u2")]
    moved = [*records, {"type": "position", "leafId": "a1"}]
    assert summarize_file(session(tmp_path, moved)).leaf_id == "a1"
    label = entry("label", "l1", "a2", targetId="u1", label="start")
    relabeled = [*moved, label]  # a label after the position: back to the last content entry
    assert summarize_file(session(tmp_path, relabeled, name="l.jsonl")).leaf_id == "a2"
    missing = [*records, {"type": "position", "leafId": "nope"}]
    assert summarize_file(session(tmp_path, missing, name="m.jsonl")).leaf_id == "a2"
    null = [*records, {"type": "position", "leafId": None}]
    summary = summarize_file(session(tmp_path, null, name="z.jsonl"))
    assert (summary.leaf_id, summary.message_count, summary.listed_by_ink) == (None, 0, True)


def test_header_problems(tmp_path: Path) -> None:
    path = write(tmp_path / "proj" / "h.jsonl", [dict(header(), version=2)])
    summary = summarize_file(path)
    assert summary.id is None
    assert summary.hidden_reason == (
        f"SessionError: session file {path}: missing or unsupported session header"
    )
    empty = tmp_path / "proj" / "e.jsonl"
    empty.write_bytes(b"\n  \n")
    assert summarize_file(empty).hidden_reason == f"SessionError: empty session file: {empty}"


def test_child_header_marks_is_child(tmp_path: Path) -> None:
    path = write(tmp_path / "c.jsonl", [header(parent="p-id"), *exchange()])
    assert summarize_file(path).is_child


# -- the fast path -----------------------------------------------------------------------------


def test_listing_parses_only_small_records_first_user_and_last_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = SessionWriter.new(tmp_path / "proj", CWD, model=ModelRef("zai", "glm-5.3"))
    writer.append_message({"role": "user", "content": "first prompt"})
    for turn in range(30):
        writer.append_message(
            {
                "role": "assistant",
                "blocks": [{"type": "text", "text": "x" * 2000}],
                "usage": USAGE,
                "stopReason": "end_turn",
                "model": "glm-5.3",
                "modelReference": "zai/glm-5.3",
            }
        )
        result = {"toolCallId": f"c{turn}", "toolName": "bash", "content": "y" * 500}
        writer.append_message({"role": "toolResult", "results": [{**result, "isError": False}]})
        writer.append_message({"role": "user", "content": f"prompt {turn}"})
    writer.append_entry("session_info", {"name": "named"})
    writer.append_entry("thinkingLevelChange", {"thinkingLevel": "high"})
    writer.append_entry("label", {"targetId": writer.leaf_id, "label": "here"})
    writer.append_session_model(ModelRef("zai", "glm-5.3"))
    writer.append_message({"role": "user", "content": "last prompt"})
    writer.append_position(writer.leaf_id)

    parsed: list[Any] = []
    real = summary_module.decode_line

    def counting(raw: bytes) -> Any:
        record = real(raw)
        parsed.append(record)
        return record

    monkeypatch.setattr(summary_module, "decode_line", counting)
    summary = summarize_file(writer.path)
    kinds = [
        record["type"] if record["type"] != "message" else record["message"]["role"]
        for record in parsed
    ]
    assert kinds == [
        "user",  # the first user message: the title
        "session_info",
        "thinkingLevelChange",
        "label",
        "session_model",
        "position",  # the last line (it may be torn)
    ]
    assert parsed[0]["message"]["content"] == "first prompt"
    assert summary.title == "named"
    assert (summary.message_count, summary.turn_count) == (92, 30)
    reference = open_session(writer.path, warn=None)
    assert summary.leaf_id == reference.leaf_id


def test_non_canonical_lines_fall_back_to_a_full_parse(tmp_path: Path) -> None:
    reordered = '{"parentId":"u1","id":"a1","type":"message","timestamp":"t","message":' + dumps(
        {"role": "assistant", "blocks": [], "stopReason": None, "usage": USAGE}
    )
    path = session(
        tmp_path, [user("u1", None, "q")], raw_lines=[reordered + "}", dumps(user("u2", "a1", "x"))]
    )
    summary = summarize_file(path)
    assert summary.listed_by_ink
    assert (summary.message_count, summary.turn_count, summary.leaf_id) == (3, 1, "u2")


# -- listing -----------------------------------------------------------------------------------


def set_mtime(path: Path, mtime: float) -> None:
    os.utime(path, (mtime, mtime))


def test_listing_order_children_and_directories(tmp_path: Path) -> None:
    folder = project_dir(tmp_path, CWD)
    a = write(folder / "a.jsonl", [header("aaaa"), *exchange()])
    b = write(folder / "b.jsonl", [header("bbbb"), *exchange()])
    c = write(folder / "c.jsonl", [header("cccc"), *exchange()])
    set_mtime(a, 2_000_000_000)
    set_mtime(b, 1_000_000_000)
    set_mtime(c, 1_000_000_000)
    write(folder / "children" / "kid.jsonl", [header("kid", parent="aaaa"), *exchange()])
    (folder / "children" / "kid.jsonl.lease").mkdir()
    (folder / "dir.jsonl").mkdir()
    (folder / "notes.txt").write_text("x")
    rows = list_sessions(tmp_path, CWD)
    assert [row.file_name for row in rows] == ["a.jsonl", "c.jsonl", "b.jsonl"]
    assert all(isinstance(row, SessionSummary) and not row.is_child for row in rows)
    assert rows[0].project_folder == folder.name
    assert rows[0].to_json()["mtime"] == "2033-05-18T03:33:20.000000+00:00"
    assert list_sessions(tmp_path, "/nowhere") == []


def test_listing_all_projects_and_hidden_filter(tmp_path: Path) -> None:
    one = write(project_dir(tmp_path, "/p/one") / "x.jsonl", [header("one"), *exchange()])
    two = write(project_dir(tmp_path, "/p/two") / "y.jsonl", [header("two")])
    set_mtime(one, 1_000_000_000)
    set_mtime(two, 1_500_000_000)
    (tmp_path / "stray.jsonl").write_text("not a folder")
    rows = list_sessions(tmp_path, None)
    assert [row.id for row in rows] == ["two", "one"]
    assert [row.id for row in list_sessions(tmp_path, None, include_hidden=False)] == ["one"]
    assert isinstance(iter_summaries(tmp_path, None), Iterator)
    assert newest_session(tmp_path, "/p/one") == one
    assert newest_session(tmp_path, "/p/two") is None


def test_vanished_or_unreadable_files_do_not_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = project_dir(tmp_path, CWD)
    keep = write(folder / "keep.jsonl", [header("keep"), *exchange()])
    gone = write(folder / "gone.jsonl", [header("gone"), *exchange()])
    real = scan_module._file_times

    def vanishing(entry: os.DirEntry[str]) -> tuple[float, int]:
        if entry.name == "gone.jsonl":
            Path(entry.path).unlink()
        return real(entry)

    monkeypatch.setattr(scan_module, "_file_times", vanishing)
    rows = {row.file_name: row for row in list_sessions(tmp_path, CWD)}
    assert rows["keep.jsonl"].listed_by_ink
    assert not rows["gone.jsonl"].listed_by_ink
    assert (rows["gone.jsonl"].hidden_reason or "").startswith("OSError: [Errno 2]")
    assert not gone.exists() and keep.exists()
    # removed between stat and read
    row = summarize_file(folder / "also-gone.jsonl", mtime=1.0, size=10)
    assert (row.hidden_reason or "").startswith("OSError: ") and row.to_json()["listed"] is False


def test_to_dict_has_the_extras(tmp_path: Path) -> None:
    summary = summarize_file(session(tmp_path, exchange()))
    extras = summary.to_dict()
    assert extras["size"] == summary.size > 0
    assert (
        extras["model"] is None and extras["leafCount"] == 1 and extras["path"].endswith("s.jsonl")
    )
    assert set(summary.to_json()) == {
        "file",
        "mtime",
        "listed",
        "id",
        "title",
        "messageCount",
        "turnCount",
    }


# -- resolving ---------------------------------------------------------------------------------


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    here = project_dir(tmp_path, CWD)
    files = {
        "abc1": write(here / "2026-f1.jsonl", [header("abc11111-0000"), *exchange()]),
        "abc2": write(here / "2026-f2.jsonl", [header("abc22222-0000")]),  # empty: still found
        "def": write(here / "2026-f3.jsonl", [header("def33333-0000"), *exchange()]),
        "broken": write(here / "2026-f4.jsonl", [dict(header("bro"), version=9)]),
        "other": write(project_dir(tmp_path, "/else") / "2026-f5.jsonl", [header("fff55555-0000")]),
    }
    for offset, path in enumerate(files.values()):
        set_mtime(path, 1_000_000_000 + offset)
    return files


def test_resolve_by_path_id_prefix_and_file_name(
    tmp_path: Path, tree: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert resolve_session(tmp_path, CWD, str(tree["def"])) == tree["def"]
    monkeypatch.chdir(tree["def"].parent)
    assert resolve_session(tmp_path, CWD, tree["def"].name) == Path(tree["def"].name)
    monkeypatch.chdir(tmp_path)
    assert resolve_session(tmp_path, CWD, "def33333-0000") == tree["def"]
    assert resolve_session(tmp_path, CWD, "def") == tree["def"]
    assert resolve_session(tmp_path, CWD, "abc2") == tree["abc2"]
    assert resolve_session(tmp_path, CWD, "2026-f4") == tree["broken"]
    assert resolve_session(tmp_path, CWD, "2026-f4.jsonl") == tree["broken"]


def test_resolve_falls_back_to_other_projects(tmp_path: Path, tree: dict[str, Path]) -> None:
    assert resolve_session(tmp_path, CWD, "fff5") == tree["other"]


def test_resolve_ambiguous_prefix_lists_candidates(tmp_path: Path, tree: dict[str, Path]) -> None:
    with pytest.raises(ResolveError) as info:
        resolve_session(tmp_path, CWD, "abc")
    message = str(info.value)
    assert "\n" not in message  # one line, as every error
    assert message.startswith(
        '"abc" matches 2 sessions (abc22222, abc11111…) — use more characters; candidates: '
    )
    assert f"abc22222-0000 ({tree['abc2']}); abc11111-0000 ({tree['abc1']})" in message


def test_resolve_no_match_names_the_folder(tmp_path: Path, tree: dict[str, Path]) -> None:
    with pytest.raises(ResolveError, match="no session matching") as info:
        resolve_session(tmp_path, CWD, "zzz")
    assert str(project_dir(tmp_path, CWD)) in str(info.value)
    with pytest.raises(ResolveError):
        resolve_session(tmp_path, CWD, "")
