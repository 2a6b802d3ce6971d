"""Hypothesis strategies for the fuzz suite: session files with every record shape Ink writes,
then bent: any value of a record replaced by any JSON value, lines cut, bytes flipped.

A generated session is a list of JSON-able records (the header first); most pass Ink's
``open()`` checks (the checked fields are left alone unless a mutation hits them), so the
shapes reach everything behind ``open()``: the view, the context, the pairing scan, the
listing, the index, the command line.

``FUZZ_EXAMPLES`` (``$INK_TUI_FUZZ_EXAMPLES``, default 500) sets how many sessions a fuzz test
tries; the full run uses 10,000.
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import strategies as st

__all__ = ["FUZZ_EXAMPLES", "json_values", "session_bytes", "session_records"]

FUZZ_EXAMPLES = int(os.environ.get("INK_TUI_FUZZ_EXAMPLES", "500"))
STAMP = "2026-10-05T12:34:56.789Z"
HEADER = {
    "type": "session",
    "version": 1,
    "id": "f0220000-0000-4000-8000-000000000000",
    "timestamp": STAMP,
    "cwd": "/home/ada/code/fuzz",
}

CHECKED = {
    (key,) for key in ("type", "id", "parentId", "timestamp", "message", "summary", "thinkingLevel")
} | {("name",), ("targetId",), ("label",), ("message", "role"), ("leafId",), ("provider",)}
"""Where Ink's ``open()`` looks: bent only now and then (a session it refuses stops there)."""

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["", "toolCall", "text", "thinking", "image", "user", "assistant", "x"]),
)

json_values: st.SearchStrategy[Any] = st.recursive(
    _scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.sampled_from(["type", "id", "text", "role", "content", "results", "a", "blocks"]),
            children,
            max_size=4,
        ),
    ),
    max_leaves=10,
)


def _call(call_id: str) -> dict[str, Any]:
    return {"type": "toolCall", "id": call_id, "name": "bash", "arguments": {"command": "ls -la"}}


def _templates(n: int) -> list[dict[str, Any]]:
    """One of each record Ink writes (ids ``e{n}…``), parents chained later."""
    user = {"role": "user", "content": f"prompt {n}"}
    assistant = {
        "role": "assistant",
        "blocks": [
            {"type": "thinking", "thinking": "hmm"},
            {"type": "text", "text": "running"},
            _call(f"c{n}"),
        ],
        "usage": {"inputTokens": 10, "outputTokens": 5, "cacheReadTokens": 1},
        "stopReason": "tool_use",
        "model": "claude-sonnet-4-5",
        "modelReference": "anthropic/claude-sonnet-4-5",
    }
    result = {
        "role": "toolResult",
        "results": [
            {
                "toolCallId": f"c{n}",
                "toolName": "bash",
                "content": [{"type": "text", "text": "total 0"}],
                "isError": False,
            }
        ],
    }
    edit = {
        "role": "assistant",
        "blocks": [
            {
                "type": "toolCall",
                "id": f"w{n}",
                "name": "edit",
                "arguments": {"path": "a.py", "oldText": "a", "newText": "b"},
            },
            {
                "type": "toolCall",
                "id": f"v{n}",
                "name": "write",
                "arguments": {"path": "b.py", "content": "print(1)\n"},
            },
        ],
        "usage": {"inputTokens": 1, "outputTokens": 1},
        "stopReason": "tool_use",
    }
    image = {
        "role": "user",
        "content": [
            {"type": "text", "text": "look"},
            {"type": "image", "mimeType": "image/png", "data": "aGVsbG8="},
        ],
    }
    return [
        {"type": "message", "message": user},
        {"type": "message", "message": assistant},
        {"type": "message", "message": result},
        {"type": "message", "message": edit},
        {"type": "message", "message": image},
        {"type": "compaction", "summary": "so far", "retainedTail": [user, assistant, result]},
        {"type": "compaction", "summary": "tokens", "retainedTail": [], "tokensBefore": 900},
        {"type": "branchSummary", "summary": "left a branch"},
        {"type": "label", "targetId": "e0", "label": "start"},
        {"type": "session_info", "name": "fuzzed"},
        {"type": "thinkingLevelChange", "thinkingLevel": "high"},
        {"position": True},
        {"session_model": True},
    ]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside ``value`` a mutation can replace (keys of dicts, items of lists)."""
    found: list[tuple[Any, ...]] = []
    items: list[tuple[Any, Any]] = []
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    for key, child in items:
        found.append((*prefix, key))
        found.extend(_paths(child, (*prefix, key)))
    return found


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        copy = dict(value)
        copy[head] = _replace(value[head], rest, new)
        return copy
    copy_list = list(value)
    copy_list[head] = _replace(value[head], rest, new)
    return copy_list


def _delete(value: Any, path: tuple[Any, ...]) -> Any:
    head, rest = path[0], path[1:]
    if not rest:
        if isinstance(value, dict):
            return {k: v for k, v in value.items() if k != head}
        return [v for i, v in enumerate(value) if i != head]
    return _replace(value, (head,), _delete(value[head], rest))


@st.composite
def session_records(draw: st.DrawFn, *, bend: bool = True) -> list[dict[str, Any]]:
    """A header and up to 10 records chained by ``parentId``, some bent."""
    count = draw(st.integers(min_value=1, max_value=10))
    records: list[dict[str, Any]] = [dict(HEADER)]
    parent: str | None = None
    ids: list[str] = []
    for n in range(count):
        templates = _templates(n)
        template = draw(st.sampled_from(templates))
        if "position" in template:
            record: dict[str, Any] = {
                "type": "position",
                "leafId": draw(st.sampled_from([None, *ids])) if ids else None,
            }
        elif "session_model" in template:
            record = {
                "type": "session_model",
                "provider": "anthropic",
                "modelId": "claude-opus-4-1",
                "explicit": True,
            }
        else:
            record = {"id": f"e{n}", "parentId": parent, "timestamp": STAMP, **template}
            record = {"type": record.pop("type"), **record}
            if draw(st.integers(min_value=0, max_value=9)) == 0 and ids:
                record["parentId"] = draw(st.sampled_from(ids))  # a fork
            ids.append(record["id"])
            if record["type"] != "label":
                parent = record["id"]
        if bend:
            for _ in range(draw(st.integers(min_value=0, max_value=3))):
                places = _paths(record)
                if draw(st.integers(min_value=0, max_value=7)):  # mostly what open() leaves
                    places = [place for place in places if place not in CHECKED]
                if not places:
                    break
                place = draw(st.sampled_from(places))
                if draw(st.booleans()) and len(place) > 1:
                    record = _delete(record, place)
                else:
                    record = _replace(record, place, draw(json_values))
        records.append(record)
    return records


@st.composite
def session_bytes(draw: st.DrawFn) -> bytes:
    """A generated session's bytes, sometimes cut short or with a byte changed."""
    from ink_tui.session.reading.jsoncodec import encode_json

    records = draw(session_records())
    data = b"".join(encode_json(record) + b"\n" for record in records)
    damage = draw(st.sampled_from(["none", "none", "none", "cut", "flip", "no-newline"]))
    if damage == "cut" and len(data) > 1:
        data = data[: draw(st.integers(min_value=1, max_value=len(data) - 1))]
    elif damage == "flip" and data:
        at = draw(st.integers(min_value=0, max_value=len(data) - 1))
        data = data[:at] + bytes([draw(st.integers(min_value=0, max_value=255))]) + data[at + 1 :]
    elif damage == "no-newline":
        data = data.rstrip(b"\n")
    return data
