"""Tool outputs (coloured test runs, lint, build logs, diffs) and a tiny PNG, made from a seed.

Long outputs are built from repeated, varied chunks, never char by char.
"""

from __future__ import annotations

import base64
import random
import struct
import zlib

# -- tool outputs --

_GREEN_DOT = "\x1b[32m.\x1b[0m"
_RED_F = "\x1b[31mF\x1b[0m"


def pytest_output(rng: random.Random, cwd: str, files: int, fail: bool) -> str:
    """A coloured pytest run over ``files`` test files; one failure when ``fail``."""
    per_file = [rng.randint(3, 40) for _ in range(files)]
    total = sum(per_file)
    lines = [
        "\x1b[1m============================= test session starts "
        "==============================\x1b[0m",
        "platform linux -- Python 3.12.7, pytest-8.3.3, pluggy-1.5.0",
        f"rootdir: {cwd}",
        "configfile: pyproject.toml",
        f"collected {total} items",
        "",
    ]
    done = 0
    names = ("auth", "handlers", "ledger", "report", "stats", "store", "retry", "cli", "models")
    for index, count in enumerate(per_file):
        done += count
        dots = _GREEN_DOT * count
        if fail and index == 0:
            dots = _RED_F + _GREEN_DOT * (count - 1)
        pct = done * 100 // total
        name = names[index % len(names)] + ("" if index < len(names) else str(index))
        lines.append(f"tests/test_{name}.py {dots}    \x1b[32m[{pct:3d}%]\x1b[0m")
    seconds = rng.uniform(0.1, 9.0)
    if fail:
        lines += [
            "",
            "=================================== FAILURES ===================================",
            "\x1b[31m\x1b[1m_______________________________ test_edge_cases "
            "________________________________\x1b[0m",
            "",
            "    def test_edge_cases():",
            ">       assert sum_list([1, 2, 3]) == 6",
            "\x1b[1m\x1b[31mE       assert 5 == 6\x1b[0m",
            "\x1b[1m\x1b[31mE        +  where 5 = sum_list([1, 2, 3])\x1b[0m",
            "",
            f"tests/test_auth.py:{rng.randint(10, 90)}: AssertionError",
            "\x1b[31mFAILED\x1b[0m tests/test_auth.py::test_edge_cases - assert 5 == 6",
            f"\x1b[31m========================= 1 failed, {total - 1} passed in {seconds:.2f}s "
            "==========================\x1b[0m",
            "",
            "",
            "Exit code: 1",
        ]
    else:
        lines.append(
            f"\x1b[32m============================== {total} passed in {seconds:.2f}s "
            "==============================\x1b[0m"
        )
    return "stdout:\n" + "\n".join(lines) + "\n"


def ruff_output(rng: random.Random, files: tuple[str, ...]) -> str:
    """``ruff check`` with colours: a few findings, then the summary."""
    rules = (
        ("F401", "[*] `os` imported but unused"),
        ("E501", "Line too long (104 > 100)"),
        ("B008", "Do not perform function call `Depends` in argument defaults"),
        ("UP006", "[*] Use `list` instead of `List` for type annotation"),
    )
    out: list[str] = []
    count = rng.randint(1, 4)
    for _ in range(count):
        code, text = rng.choice(rules)
        path = rng.choice(files)
        row = rng.randint(1, 120)
        out.append(
            f"\x1b[1m{path}\x1b[0m\x1b[36m:\x1b[0m{row}\x1b[36m:\x1b[0m{rng.randint(1, 40)}"
            f"\x1b[36m:\x1b[0m \x1b[1m\x1b[31m{code}\x1b[0m {text}"
        )
    out.append(f"Found {count} error{'s' if count > 1 else ''}.")
    out.append("[*] 1 fixable with the `--fix` option.")
    return "stdout:\n" + "\n".join(out) + "\n\n\nExit code: 1"


def build_log(rng: random.Random, lines: int) -> str:
    """A verbose bundler log: many similar lines (long tool outputs)."""
    names = ("chunk", "debounce", "merge", "throttle", "cloneDeep", "isEqual")
    parts = ["stdout:"]
    ms = 3
    for index in range(lines):
        ms += rng.randint(0, 9)
        parts.append(
            f"vite:transform {ms:5d}ms node_modules/.pnpm/lodash-es@4.17.21/node_modules/"
            f"lodash-es/{names[index % len(names)]}{index}.js"
        )
    parts.append(f"\x1b[32m✓\x1b[0m built in {ms / 1000:.2f}s")
    return "\n".join(parts) + "\n"


def git_status() -> str:
    return "stdout:\n M calc/stats.py\n M src/calc/retry.py\n?? notes.txt\n"


def ls_output(kind: str) -> str:
    entries: tuple[str, ...]
    if kind == "web":
        entries = ("node_modules/", "public/", "src/", "tests/", "package.json", "vite.config.ts")
    elif kind == "data":
        entries = ("notebooks/", "tests/", "clean.py", "report.py", "销售数据.csv", "说明.md")
    else:
        entries = (".git/", ".github/", "README.md", "calc/", "pyproject.toml", "src/", "tests/")
    return "\n".join(entries)


def grep_output(rng: random.Random, files: tuple[str, ...], pattern: str, lines: int) -> str:
    snippets = (
        "def sum_list(values: Sequence[float]) -> float:",
        'raise ValueError("mean() of an empty list")',
        "return sum_list(values) / len(values)",
        "async def fetch_json(session, url: str, *, retries: int = 3) -> dict:",
    )
    return "\n".join(
        f"{rng.choice(files)}:{rng.randint(1, 200)}:{rng.choice(snippets)}" for _ in range(lines)
    ).replace("sum_list", pattern if pattern.isidentifier() else "sum_list")


def edit_result(path: str, old: str, new: str, line: int) -> str:
    minus = "\n".join("-" + part for part in old.split("\n"))
    plus = "\n".join("+" + part for part in new.split("\n"))
    return f"Edited {path} (1 edit applied):\n@@ line {line} @@\n{minus}\n{plus}"


# -- images --


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def make_png(width: int = 24, height: int = 16, seed: int = 0) -> bytes:
    """A small valid RGB PNG (a gradient), built with zlib and struct only."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter: none
        for x in range(width):
            rows += bytes(((x * 10 + seed) % 256, (y * 15) % 256, (x * y + seed * 7) % 256))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + _png_chunk(b"IEND", b"")
    )


def png_base64(seed: int = 0) -> str:
    return base64.b64encode(make_png(seed=seed)).decode("ascii")
