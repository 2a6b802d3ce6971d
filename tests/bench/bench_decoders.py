"""Benchmark: orjson, the reader's JSON decoder, beside msgspec (issue 21 asked for the measure).

Run by hand, in an environment that has msgspec too (it is not a dependency of ink-tui):
``pip install msgspec && python tests/bench/bench_decoders.py FILE.jsonl [FILE.jsonl ...]``.

For each file: the CPU time to decode every line with ``orjson.loads`` and with
``msgspec.json.Decoder().decode`` (untyped: the reader keeps every record whole, unknown fields
and key order included, so typed structs cannot stand in for it), median of 5, taking turns;
whether any line decodes differently; then how each treats the inputs where JavaScript's
``JSON.parse`` is the truth (``session/reading/jsoncodec.py`` falls back to the standard library
where orjson refuses what ``JSON.parse`` accepts).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

try:
    import msgspec
except ImportError:  # pragma: no cover - by hand only
    sys.exit("msgspec is not installed here: pip install msgspec")

RUNS = 5
CASES = {
    "duplicate key (JS: the last wins)": b'{"a":1,"a":2}',
    "lone surrogate escape (JS: accepts)": b'"\\ud800"',
    "1e400 (JS: Infinity)": b"1e400",
    "2**70 as an integer (JS: a double)": b"1180591620717411303424",
    "NaN (JS: refuses)": b"NaN",
    "invalid UTF-8 in a string (Node: U+FFFD)": b'"\xff"',
    "nesting 2,000 deep (JS: accepts)": b"[" * 2000 + b"]" * 2000,
}


def _cpu(decode: Callable[[bytes], Any], lines: list[bytes]) -> float:
    started = time.process_time()
    for line in lines:
        decode(line)
    return time.process_time() - started


def _said(decode: Callable[[bytes], Any], raw: bytes) -> str:
    try:
        value = decode(raw)
    except Exception as error:  # each library's own refusal
        return f"refuses ({type(error).__name__})"
    return "a list" if isinstance(value, list) else repr(value)[:28]


def main(paths: list[str]) -> int:
    decoders: dict[str, Callable[[bytes], Any]] = {
        "orjson": orjson.loads,
        "msgspec": msgspec.json.Decoder().decode,
    }
    for path in paths:
        lines = [line for line in Path(path).read_bytes().split(b"\n") if line]
        megabytes = sum(map(len, lines)) / 1e6
        times: dict[str, list[float]] = {name: [] for name in decoders}
        for _ in range(RUNS):
            for name, decode in decoders.items():
                times[name].append(_cpu(decode, lines))
        print(f"{Path(path).name}: {len(lines)} lines, {megabytes:.1f} MB")
        for name, spent in times.items():
            median = statistics.median(spent)
            print(f"  {name:8} {median:.3f} s CPU  {megabytes / median:6.0f} MB/s")
        differ = sum(orjson.loads(line) != decoders["msgspec"](line) for line in lines)
        print(f"  lines decoded differently: {differ}")
    print("where JSON.parse is the truth:")
    for case, raw in CASES.items():
        said = " | ".join(f"{name}: {_said(decode, raw)}" for name, decode in decoders.items())
        print(f"  {case:42} {said}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
