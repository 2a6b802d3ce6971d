"""One Ink session file: strict reading, the entry tree, the rebuilt context, pairing, writing
and crash repair. Pure Python: no Textual, no network.

The names below are imported from their modules when first used (PEP 562), so importing one module
of the package (say ``ink_tui.session.conversation.tree``) does not import them all: a command that
needs the reader never pays for the writer, the repair or the context.

The core is in packages by job, layered (an import-linter contract): ``reading`` (the codec
and the strict ``open()``) < ``rules`` (Ink's rules over records: fill-ins, task records,
leases, rates, ``/status`` totals) < ``conversation`` (tree, branch, context, pairing, the
view's turns) < ``writing`` (the writer, repair), ``live`` (following) and ``analysis``
(changes, playback, turn times, subagents).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ink_tui.session.conversation.context import Context, build_context, context_for_branch
    from ink_tui.session.conversation.pairing import Pairing, ToolCall, pair_tool_calls
    from ink_tui.session.conversation.tree import (
        branch,
        labels,
        leaves,
        restored_model,
        session_name,
    )
    from ink_tui.session.reading.errors import EngineError, SessionError
    from ink_tui.session.reading.reader import Entry, SessionFile, open_session
    from ink_tui.session.rules.modelref import ModelRef
    from ink_tui.session.writing.repair import (
        Continuation,
        TornRepair,
        plan_continuation,
        repair_session,
    )
    from ink_tui.session.writing.report import SessionReport, report_session
    from ink_tui.session.writing.writer import ConcurrentWriteError, SessionWriter

_HOMES = {
    "conversation.context": ("Context", "build_context", "context_for_branch"),
    "reading.errors": ("EngineError", "SessionError"),
    "conversation.pairing": ("Pairing", "ToolCall", "pair_tool_calls"),
    "reading.reader": ("Entry", "SessionFile", "open_session"),
    "writing.repair": ("Continuation", "TornRepair", "plan_continuation", "repair_session"),
    "writing.report": ("SessionReport", "report_session"),
    "conversation.tree": ("branch", "labels", "leaves", "restored_model", "session_name"),
    "rules.modelref": ("ModelRef",),
    "writing.writer": ("ConcurrentWriteError", "SessionWriter"),
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "ConcurrentWriteError",
    "Context",
    "Continuation",
    "EngineError",
    "Entry",
    "ModelRef",
    "Pairing",
    "SessionError",
    "SessionFile",
    "SessionReport",
    "SessionWriter",
    "ToolCall",
    "TornRepair",
    "branch",
    "build_context",
    "context_for_branch",
    "labels",
    "leaves",
    "open_session",
    "pair_tool_calls",
    "plan_continuation",
    "repair_session",
    "report_session",
    "restored_model",
    "session_name",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # found once, then an ordinary attribute
    return value
