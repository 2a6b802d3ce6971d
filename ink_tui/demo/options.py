"""What a generated session contains (its options, the tools it may call) and what it held."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ink_tui.session.rules.modelref import ModelRef

__all__ = ["CHILD_TOOLS", "TOOLS", "Options", "Stats"]

Record = dict[str, Any]
TOOLS = ("bash", "read", "edit", "write", "grep", "find", "ls", "task")
CHILD_TOOLS = ("bash", "find", "grep", "ls", "read")


@dataclass
class Options:
    """What one generated session contains (beyond its random turns)."""

    model: ModelRef | None = None
    compact: bool = True  # a manual /compact at ~half (plus automatic ones when large)
    fork: bool = True  # a /fork and a /tree move with a branch summary
    images: bool = False
    hostile: bool = False
    dangling: bool = False  # end on an assistant tool call with no result
    torn: bool = False  # append a half record after the writer is done
    metadata: bool = True  # session_info, labels, thinkingLevelChange, session_model
    child: bool = False  # the first task call launches a real child session in children/
    child_launch: Record | None = None  # set when this session IS the child
    fork_rate: float | None = None  # chance of a fork after each turn (None: ~3% when big)
    tools: tuple[str, ...] = TOOLS


@dataclass
class Stats:
    entries: int = 0
    compactions: int = 0
    forks: int = 0
    tools: set[str] = field(default_factory=set)
    children: list[Path] = field(default_factory=list)
