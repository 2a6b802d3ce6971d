"""The demo generator: every file opens as Ink would, output is deterministic, content is varied."""

from __future__ import annotations

import io
import json
import struct
import zlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from ink_tui.demo import (
    HOSTILE_STRINGS,
    PROJECTS,
    TOOLS,
    TORN_TAIL,
    generate_demo,
    generate_session,
    make_png,
)
from ink_tui.paths import cwd_folder_name
from ink_tui.session.conversation.context import build_context
from ink_tui.session.reading.reader import open_session

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    base = tmp_path_factory.mktemp("demo")
    return base, generate_demo(base, seed=7, now=NOW)


def _all_files(base: Path) -> list[Path]:
    return sorted(base.rglob("*.jsonl"))


def _records(path: Path) -> Iterator[dict[str, Any]]:
    for line in path.read_bytes().split(b"\n"):
        try:
            record = json.loads(line)
        except ValueError:
            continue  # the deliberately torn tail
        if isinstance(record, dict):
            yield record


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _messages(base: Path) -> Iterator[dict[str, Any]]:
    for path in _all_files(base):
        for record in _records(path):
            if record.get("type") == "message":
                yield record["message"]


def test_every_file_opens_and_builds_a_context(demo: tuple[Path, list[Path]]) -> None:
    base, paths = demo
    files = _all_files(base)
    assert set(paths) < set(files)  # plus the child session
    torn = []
    for path in files:
        warn = io.StringIO()
        session = open_session(path, warn=warn)
        context = build_context(session)
        assert context.messages, path
        if session.dropped_final_line is not None:
            torn.append(path)
            assert "dropping torn final line" in warn.getvalue()
            assert path.read_bytes().endswith(TORN_TAIL)
        else:
            assert session.ends_with_newline, path
    assert len(torn) == 1


def test_layout_and_mtimes(demo: tuple[Path, list[Path]]) -> None:
    base, paths = demo
    assert len(paths) == 12
    folders = {path.parent.name for path in paths}
    assert folders == {cwd_folder_name(project.cwd) for project in PROJECTS}
    children = list(base.glob("*/children/*.jsonl"))
    assert len(children) == 1
    header = next(_records(children[0]))
    assert header["parent"] == header["launch"]["parentSessionId"]
    assert header["launch"]["childId"] == header["id"]
    mtimes = [path.stat().st_mtime for path in paths]
    assert mtimes == sorted(mtimes, reverse=True)
    newest = datetime.fromtimestamp(mtimes[0], UTC)
    assert NOW - timedelta(minutes=5) <= newest <= NOW
    for path in paths:
        name_uuid = path.name[25:-6]
        assert next(_records(path))["id"] != name_uuid  # file uuid differs from the header id


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    first = generate_demo(tmp_path / "a", seed=3, sessions=4, now=NOW)
    second = generate_demo(tmp_path / "b", seed=3, sessions=4, now=NOW)
    third = generate_demo(tmp_path / "c", seed=4, sessions=4, now=NOW)
    files_a, files_b = _all_files(tmp_path / "a"), _all_files(tmp_path / "b")
    assert [p.relative_to(tmp_path / "a") for p in files_a] == [
        p.relative_to(tmp_path / "b") for p in files_b
    ]
    for a, b in zip(files_a, files_b, strict=True):
        assert a.read_bytes() == b.read_bytes()
    assert [p.stat().st_mtime for p in first] == [p.stat().st_mtime for p in second]
    assert [p.name for p in first] != [p.name for p in third]


def test_content_variety(demo: tuple[Path, list[Path]]) -> None:
    base, _ = demo
    calls: set[str] = set()
    errors = images = signed = unsigned = chinese = 0
    for message in _messages(base):
        if message["role"] == "assistant":
            assert list(message)[:4] == ["role", "blocks", "usage", "stopReason"]
            assert list(message["usage"])[:2] == ["inputTokens", "outputTokens"]
            for block in message["blocks"]:
                if block["type"] == "toolCall":
                    calls.add(block["name"])
                elif block["type"] == "thinking":
                    signed += "signature" in block
                    unsigned += "signature" not in block
        elif message["role"] == "toolResult":
            for result in message["results"]:
                errors += result["isError"] is True
                if isinstance(result["content"], list):
                    images += any(b["type"] == "image" for b in result["content"])
        elif isinstance(message["content"], list):
            images += any(b["type"] == "image" for b in message["content"])
        elif any("\u4e00" <= ch <= "\u9fff" for ch in message["content"]):
            chinese += 1
    assert set(TOOLS) <= calls
    assert errors and images and signed and unsigned and chinese


def test_tree_features(demo: tuple[Path, list[Path]]) -> None:
    base, _ = demo
    kinds: dict[str, int] = {}
    for path in _all_files(base):
        for record in _records(path):
            kinds[record["type"]] = kinds.get(record["type"], 0) + 1
    for kind in (
        "compaction",
        "position",
        "branchSummary",
        "session_info",
        "label",
        "thinkingLevelChange",
        "session_model",
    ):
        assert kinds.get(kind), kind
    compacted = [
        build_context(open_session(path, warn=None)).compacted for path in _all_files(base)
    ]
    assert any(compacted)


def test_compaction_shape(tmp_path: Path) -> None:
    path = generate_session(
        tmp_path, PROJECTS[0].cwd, seed=1, entries=30, clock_start=NOW, fork=False
    )
    compaction = next(r for r in _records(path) if r["type"] == "compaction")
    assert list(compaction)[4:] == [
        "summary",
        "retainedTail",
        "tokensBefore",
        "usage",
        "model",
        "modelReference",
    ]
    assert compaction["retainedTail"][0]["role"] in ("user", "assistant")
    context = build_context(open_session(path, warn=None))
    assert context.compaction_boundary == 1 + len(compaction["retainedTail"])


def test_dangling_call_and_hostile_text(demo: tuple[Path, list[Path]]) -> None:
    base, paths = demo
    text = "\n".join(s for path in _all_files(base) for r in _records(path) for s in _strings(r))
    for hostile in HOSTILE_STRINGS:
        assert hostile in text, repr(hostile)
    dangling = 0
    for path in paths:
        session = open_session(path, warn=None)
        last = session.by_id[str(session.leaf_id)].record
        if last["type"] == "message" and last["message"]["role"] == "assistant":
            dangling += last["message"]["stopReason"] == "tool_use"
    assert dangling == 1


def test_size_target(tmp_path: Path) -> None:
    path = generate_session(
        tmp_path, "/srv/other", seed=2, target_bytes=300_000, clock_start=NOW, images=True
    )
    assert path.stat().st_size >= 300_000
    assert open_session(path, warn=None).cwd == "/srv/other"
    build_context(open_session(path, warn=None))


def test_png_is_valid() -> None:
    data = make_png(seed=5)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    position = 8
    kinds = []
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        body = data[position + 8 : position + 8 + length]
        (crc,) = struct.unpack(">I", data[position + 8 + length : position + 12 + length])
        assert zlib.crc32(kind + body) == crc
        kinds.append(kind)
        position += 12 + length
    assert kinds == [b"IHDR", b"IDAT", b"IEND"]
