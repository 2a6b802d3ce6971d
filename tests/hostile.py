"""Hostile session files, built on demand at a chosen size (issue 11, item 4).

Importable from every test folder as ``import hostile`` (``pythonpath`` in pyproject.toml), and
used at full size by ``tests/bench/bench_hostile.py``. :func:`build` writes one kind into a
folder and returns a :class:`Hostile` saying what every reader must make of it: the session
opens (``error is None``), or Ink refuses it with ``error``, the one line ``ink-tui`` prints (the
path is spelt ``{path}`` there).

:data:`CI` keeps the suite quick (a 5 MB line, 100,000 tiny records); :data:`FULL` is the size
the issue names (a 50 MB line, a million tiny records), for the figures script. Chains, forks and
nesting are at full depth in both: they are what recursion would trip on.

Kinds:

- ``long-line``: one prompt of ``long_line`` bytes on one line; ``long-junk``: as many bytes of
  non-JSON and no newline at all.
- ``tiny-records``: ``records`` one-line entries (a chain), ids of a few characters.
- ``parent-chain``: ``chain`` entries, each parented on the one before.
- ``fork-star``: ``chain`` forks off one prompt; ``fork-chain``: a chain in which every entry
  forks (a second child that ends at once), so ``chain`` leaves, ``chain`` deep.
- ``deep-json``: tool-call arguments and an extra field nested ``nesting`` levels deep.
- ``bad-utf8``: invalid UTF-8 inside strings (read as U+FFFD, as Node decodes the file) and a
  final line of raw invalid bytes (dropped as torn); ``bad-utf8-line``: such a line mid-file.
- ``nul-bytes``: ``\\u0000`` inside strings and a tail of raw NUL bytes (what a crash can leave
  on some file systems), dropped as torn; ``nul-line``: a line of NULs mid-file.
- ``huge-image``: a prompt and a tool result holding a base64 image of ``image`` bytes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ink_tui.paths import project_dir

__all__ = [
    "CI",
    "CWD",
    "DEEP_KINDS",
    "FILE_KINDS",
    "FULL",
    "KINDS",
    "SPECIAL_KINDS",
    "Built",
    "Hostile",
    "Sizes",
    "build",
    "slow_if_deep",
    "snapshot",
    "within",
]

CWD: Final = "/home/ada/code/hostile"
SESSION_ID: Final = "b0571e00-0000-4000-8000-00000000cafe"
STAMP: Final = "2026-11-02T10:00:00.000Z"
MARKER: Final = "HOSTILEENDMARKER"
"""The text of the last answer of every session that opens (the view's last row)."""


@dataclass(frozen=True, slots=True)
class Sizes:
    long_line: int  # bytes of the one long line
    records: int  # tiny records
    chain: int  # entries of the parent chain, forks of the fork star and fork chain
    nesting: int  # levels of nested JSON
    image: int  # bytes of each base64 image


CI: Final = Sizes(
    long_line=5_000_000, records=100_000, chain=100_000, nesting=10_000, image=5_000_000
)
FULL: Final = Sizes(
    long_line=50_000_000, records=1_000_000, chain=100_000, nesting=10_000, image=50_000_000
)

FILE_KINDS: Final = (
    "long-line",
    "long-junk",
    "tiny-records",
    "parent-chain",
    "fork-star",
    "fork-chain",
    "deep-json",
    "bad-utf8",
    "bad-utf8-line",
    "nul-bytes",
    "nul-line",
    "huge-image",
)
DEEP_KINDS: Final = ("tiny-records", "parent-chain", "fork-star", "fork-chain")
"""The kinds of 100,000 records or entries: the cases reading them through the app or the
catalog take seconds (marked ``slow``)."""
SPECIAL_KINDS: Final = ("fifo", "directory", "device", "loop", "dangling")
"""Paths named ``*.jsonl`` that are not regular files."""
KINDS: Final = FILE_KINDS + SPECIAL_KINDS


@dataclass(frozen=True, slots=True)
class Hostile:
    kind: str
    path: Path
    error: str | None  # the one line ink-tui prints (``{path}`` for the path); None: it opens
    dropped_tail: bool = False  # it opens, with Ink's note about a torn final line
    prompt: str | None = None  # a word of a prompt, for search (None: nothing to find)

    def error_line(self) -> str | None:
        """``ink-tui: <error>``, as stderr holds it."""
        return None if self.error is None else "ink-tui: " + self.error.format(path=self.path)


def _line(record: dict[str, Any]) -> bytes:
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def _header() -> dict[str, Any]:
    return {"type": "session", "version": 1, "id": SESSION_ID, "timestamp": STAMP, "cwd": CWD}


def _entry(entry_id: str, parent: str | None, message: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": STAMP,
        "message": message,
    }


def _user(content: Any) -> dict[str, Any]:
    return {"role": "user", "content": content}


def _assistant(text: str, *calls: dict[str, Any]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "blocks": [{"type": "text", "text": text}, *calls],
        "usage": {"inputTokens": 10, "outputTokens": 5},
        "stopReason": "tool_use" if calls else "end_turn",
    }


def _call(call_id: str, arguments: Any) -> dict[str, Any]:
    return {"type": "toolCall", "id": call_id, "name": "bash", "arguments": arguments}


def _result(call_id: str, content: Any) -> dict[str, Any]:
    results = [{"toolCallId": call_id, "toolName": "bash", "content": content, "isError": False}]
    return {"role": "toolResult", "results": results}


def _ending(parent: str) -> bytes:
    """The last answer, holding :data:`MARKER`."""
    return _line(_entry("end", parent, _assistant(f"All done: {MARKER}.")))


def _write(path: Path, parts: Iterable[bytes]) -> None:
    """Write ``parts`` in batches of a few megabytes (the full sizes are 100 MB files)."""
    with path.open("wb") as stream:
        batch: list[bytes] = []
        size = 0
        for part in parts:
            batch.append(part)
            size += len(part)
            if size >= 4_000_000:
                stream.write(b"".join(batch))
                batch, size = [], 0
        stream.write(b"".join(batch))


def _chunks(byte: bytes, total: int, step: int = 4_000_000) -> Iterator[bytes]:
    block = byte * step
    for start in range(0, total, step):
        yield block[: min(step, total - start)]


# -- the kinds ------------------------------------------------------------------------------------


def _long_line(sizes: Sizes) -> Iterator[bytes]:
    yield _line(_header())
    word = "longline "
    text = (word * (sizes.long_line // len(word) + 1))[: sizes.long_line]
    yield _line(_entry("u1", None, _user(text)))
    yield _ending("u1")


def _long_junk(sizes: Sizes) -> Iterator[bytes]:
    yield from _chunks(b"x", sizes.long_line)  # no newline at all


def _tiny_records(sizes: Sizes) -> Iterator[bytes]:
    yield _line(_header())
    yield _line(_entry("0", None, _user("tiny first")))
    for n in range(1, sizes.records - 1):
        role = '"user","content":"t"' if n % 2 == 0 else '"user","content":""'
        yield (
            f'{{"type":"message","id":"{n:x}","parentId":"{n - 1:x}","timestamp":"t",'
            f'"message":{{"role":{role}}}}}\n'
        ).encode()
    yield _ending(f"{sizes.records - 2:x}")


def _parent_chain(sizes: Sizes) -> Iterator[bytes]:
    yield _line(_header())
    parent: str | None = None
    for n in range(sizes.chain - 1):
        message = _user(f"chain prompt {n}") if n % 2 == 0 else _assistant(f"chain answer {n}")
        yield _line(_entry(f"c{n}", parent, message))
        parent = f"c{n}"
    assert parent is not None
    yield _ending(parent)


def _fork_star(sizes: Sizes) -> Iterator[bytes]:
    yield _line(_header())
    yield _line(_entry("root", None, _user("star prompt")))
    for n in range(sizes.chain - 1):
        yield _line(_entry(f"s{n}", "root", _assistant(f"star answer {n}")))
    yield _ending("root")


def _fork_chain(sizes: Sizes) -> Iterator[bytes]:
    yield _line(_header())
    parent: str | None = None
    for n in range(sizes.chain // 2):
        message = _user(f"fork prompt {n}") if n % 2 == 0 else _assistant(f"fork answer {n}")
        yield _line(_entry(f"f{n}", parent, message))
        if parent is not None:  # a side branch of one entry at every step
            yield _line(_entry(f"x{n}", parent, _assistant(f"side answer {n}")))
        parent = f"f{n}"
    assert parent is not None
    yield _ending(parent)


def _nested(levels: int) -> str:
    return "[" * levels + '"deep"' + "]" * levels


def _deep_json(sizes: Sizes) -> Iterator[bytes]:
    yield _line(_header())
    yield _line(_entry("u1", None, _user("deep prompt")))
    deep = _nested(sizes.nesting)
    call = json.dumps(_entry("a1", "u1", _assistant("calling", _call("call_1", {"x": 0}))))
    call = call.replace('{"x": 0}', '{"x": ' + deep + "}")
    yield call.encode() + b"\n"
    result = json.dumps({**_entry("r1", "a1", _result("call_1", "ok")), "extra": 0})
    yield result.replace('"extra": 0', '"extra": ' + deep).encode() + b"\n"
    yield _ending("r1")


_BAD: Final = b"\xff\xfe\xc3\x28\xe2\x82\xf0\x9f\x98"  # no valid UTF-8 sequence among them


def _bad_utf8(sizes: Sizes) -> Iterator[bytes]:
    header = _line({**_header(), "cwd": CWD + "/BADCWD"}).replace(b"BADCWD", _BAD)
    yield header
    yield _line(_entry("u1", None, _user("bad BADTEXT prompt"))).replace(b"BADTEXT", _BAD)
    info = {"type": "session_info", "id": "n1", "parentId": "u1", "timestamp": STAMP}
    yield _line({**info, "name": "named BADNAME"}).replace(b"BADNAME", _BAD)
    yield _ending("n1")
    yield _BAD * 3  # a torn final line: Ink drops it


def _bad_utf8_line(sizes: Sizes) -> Iterator[bytes]:
    yield _line(_header())
    yield _line(_entry("u1", None, _user("before the bad line")))
    yield _BAD * 3 + b"\n"
    yield _ending("u1")


def _nul_bytes(sizes: Sizes) -> Iterator[bytes]:
    yield _line(_header())
    yield _line(_entry("u1", None, _user("nul \x00 inside")))
    yield _line(_entry("a1", "u1", _assistant("nul \x00 answer", _call("c\x00", {"k": "\x00"}))))
    yield _line(_entry("r1", "a1", _result("c\x00", "out\x00put")))
    yield _ending("r1")
    yield b"\x00" * 4096  # a crash's zero-filled tail, no newline


def _nul_line(sizes: Sizes) -> Iterator[bytes]:
    yield _line(_header())
    yield _line(_entry("u1", None, _user("before the NUL line")))
    yield b"\x00" * 64 + b"\n"
    yield _ending("u1")


def _image_data(size: int) -> str:
    raw = bytes(range(256)) * (size * 3 // 4 // 256 + 1)
    return base64.b64encode(raw).decode()[:size]


def _huge_image(sizes: Sizes) -> Iterator[bytes]:
    data = _image_data(sizes.image)
    yield _line(_header())
    blocks = [
        {"type": "text", "text": "image prompt"},
        {"type": "image", "data": data, "mimeType": "image/png"},
    ]
    yield _line(_entry("u1", None, _user(blocks)))
    yield _line(_entry("a1", "u1", _assistant("looking", _call("call_1", {"command": "shot"}))))
    content = [{"type": "image", "data": data, "mimeType": "image/png"}]
    yield _line(_entry("r1", "a1", _result("call_1", content)))
    yield _ending("r1")


_WRITERS: Final = {
    "long-line": _long_line,
    "long-junk": _long_junk,
    "tiny-records": _tiny_records,
    "parent-chain": _parent_chain,
    "fork-star": _fork_star,
    "fork-chain": _fork_chain,
    "deep-json": _deep_json,
    "bad-utf8": _bad_utf8,
    "bad-utf8-line": _bad_utf8_line,
    "nul-bytes": _nul_bytes,
    "nul-line": _nul_line,
    "huge-image": _huge_image,
}

_ERRORS: Final[dict[str, str | None]] = {
    "long-junk": "{path}:1: session file {path}: first line is not valid JSON",
    "bad-utf8-line": "{path}: session line 3: invalid JSON (Expecting value: line 1 column 1 "
    "(char 0))",
    "nul-line": "{path}: session line 3: invalid JSON (Expecting value: line 1 column 1 (char 0))",
    "fifo": "{path}: a FIFO (named pipe), not a session file",
    "directory": "{path}: a directory, not a session file",
    "device": "{path}: a character device, not a session file",
    "loop": "{path}: Too many levels of symbolic links",
    "dangling": "{path}: a symlink to nothing, not a session file",
}

_PROMPTS: Final = {
    "long-line": "longline",
    "tiny-records": "tiny",
    "parent-chain": "chain",
    "fork-star": "star",
    "fork-chain": "fork",
    "deep-json": "deep",
    "bad-utf8": "bad",
    "nul-bytes": "nul",
    "huge-image": "image",
}


def _special(path: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    elif kind == "device":
        path.symlink_to("/dev/zero")
    elif kind == "loop":
        path.symlink_to(path.name)
    else:
        path.symlink_to(path.parent / "nothing-here")


def build(folder: Path, kind: str, sizes: Sizes = CI) -> Hostile:
    """Write the hostile file ``kind`` into ``folder`` (made if missing), named as Ink names
    session files, and say what readers must make of it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"2026-11-02T10-00-00-000Z-{kind}.jsonl"
    if kind in SPECIAL_KINDS:
        _special(path, kind)
    else:
        _write(path, _WRITERS[kind](sizes))
    dropped = kind in ("bad-utf8", "nul-bytes")
    return Hostile(kind, path, _ERRORS.get(kind), dropped, _PROMPTS.get(kind))


class Built(dict[str, Hostile]):
    """Every kind, each in its own sessions folder ``root/<kind>`` (its project folder inside),
    built the first time it is looked up: ``built["fork-star"]``. A test worker builds only the
    kinds its cases use (a chain takes a second)."""

    def __init__(self, root: Path, sizes: Sizes = CI) -> None:
        super().__init__()
        self.root = root
        self.sizes = sizes

    def __missing__(self, kind: str) -> Hostile:
        item = self[kind] = build(project_dir(self.root / kind, CWD), kind, self.sizes)
        return item


def slow_if_deep(kinds: Iterable[str]) -> list[Any]:
    """``kinds`` as parametrize cases, those of :data:`DEEP_KINDS` marked ``slow``."""
    import pytest

    slow = pytest.mark.slow
    return [pytest.param(kind, marks=slow) if kind in DEEP_KINDS else kind for kind in kinds]


def snapshot(folder: Path) -> dict[str, tuple[int, int, int, str]]:
    """Every path under ``folder`` (never followed): its mode, mtime (ns), size and, for a
    regular file, the SHA-256 of its bytes. A reader must leave them exactly so."""
    seen: dict[str, tuple[int, int, int, str]] = {}
    for root, dirs, files in os.walk(folder):
        for name in sorted([*dirs, *files]):
            path = Path(root) / name
            info = path.lstat()
            digest = ""
            if stat.S_ISREG(info.st_mode):
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            seen[str(path)] = (info.st_mode, info.st_mtime_ns, info.st_size, digest)
    return seen


def within(seconds: float, action: Callable[[], Any]) -> Any:
    """Run ``action`` in a thread; fail (rather than hang the suite) if it blocks."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = action()
        except BaseException as error:
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"it blocked for {seconds:g} s"
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")
