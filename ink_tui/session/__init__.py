"""One Ink session file: strict reading, the entry tree, the rebuilt context, pairing, writing
and crash repair. Pure Python: no Textual, no network.
"""

from ink_tui.session.context import Context, build_context, context_for_branch
from ink_tui.session.errors import EngineError, SessionError
from ink_tui.session.pairing import Pairing, ToolCall, pair_tool_calls
from ink_tui.session.reader import Entry, SessionFile, open_session
from ink_tui.session.repair import Continuation, TornRepair, plan_continuation, repair_session
from ink_tui.session.report import SessionReport, report_session
from ink_tui.session.tree import ModelRef, branch, labels, leaves, restored_model, session_name
from ink_tui.session.writer import ConcurrentWriteError, SessionWriter

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
