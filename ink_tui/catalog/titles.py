"""Session titles exactly as Ink's ``/sessions`` computes them (``inspectSessionFile``).

- the current branch's ``session_info`` name (trimmed; a blank latest name clears it);
- else the FIRST user message in file order (any branch): ``▪ skill: NAME`` when its content text
  is an expanded ``/skill:`` block (``skills.ts`` ``skillBlockSummary``, :func:`skill_summary`),
  else the first line of its content text that JavaScript's ``trim()`` does not empty, cut to 80
  UTF-16 code units (``slice(0, 80)``), not trimmed itself; a user message with no such line
  gives ``""``;
- else ``(model: provider/modelId)`` when the file has no message entries but an explicit model
  selection and a model;
- else ``(empty session)``.

Titles never show a secret: the line is masked (``[REDACTED:<kind>:<fp8>]``) before it is cut,
so a key cut short by the 80 units is masked too (the title then differs from Ink's).

Printable titles: JavaScript's ``slice`` counts UTF-16 code units, so a cut can fall inside a
surrogate pair and keep a lone high surrogate (and a lone ``\\udXXX`` escape in the file gives
one too). Python cannot encode a lone surrogate to UTF-8, and Node itself writes a lone
surrogate to a UTF-8 terminal as U+FFFD. So the title keeps the exact JavaScript cut (same
length in UTF-16 units) with every lone surrogate replaced by U+FFFD: what Ink prints.

"""

from __future__ import annotations

from typing import Any, Final

from ink_tui.safetext import utf8_safe
from ink_tui.secrets import masked_text
from ink_tui.session.conversation.skills import skill_summary
from ink_tui.session.conversation.tree import explicit_model_selection, restored_model
from ink_tui.session.reading.lines import JS_WHITESPACE
from ink_tui.session.reading.reader import SessionFile
from ink_tui.session.rules.content import content_text
from ink_tui.session.rules.modelref import ModelRef

__all__ = [
    "EMPTY_TITLE",
    "TITLE_UNITS",
    "first_line_title",
    "js_slice",
    "js_trim",
    "masked_name",
    "model_title",
    "session_title",
    "skill_summary",
]

TITLE_UNITS: Final = 80
EMPTY_TITLE: Final = "(empty session)"


def js_trim(text: str) -> str:
    """``String.prototype.trim()``: strips JavaScript's whitespace set (not Python's)."""
    return text.strip(JS_WHITESPACE)


def js_slice(text: str, units: int) -> str:
    """``text.slice(0, units)`` counting UTF-16 code units; may end in a lone high surrogate."""
    if len(text) <= units // 2 or (len(text) <= units and text.isascii()):
        return text
    encoded = text.encode("utf-16-le", "surrogatepass")
    if len(encoded) <= 2 * units:
        return text
    return encoded[: 2 * units].decode("utf-16-le", "surrogatepass")


def first_line_title(content: Any) -> str:
    """The title a user message gives: its skill line, else its first non-blank line (80 units)."""
    text = content_text(content)
    skill = skill_summary(text)
    if skill is not None:
        return utf8_safe(skill)
    first = next((line for line in text.split("\n") if js_trim(line)), "")
    return utf8_safe(js_slice(masked_text(first), TITLE_UNITS))


def masked_name(name: str) -> str:
    """A session's name (``session_info``) as shown: its secrets masked."""
    return masked_text(name)


def model_title(model: ModelRef) -> str:
    """``(model: provider/modelId)``, the title of a session holding only a model selection."""
    return utf8_safe(f"(model: {model.provider}/{model.model_id})")


def session_title(session: SessionFile) -> str:
    """The title of an opened session without a name, by Ink's ``/sessions`` rule:
    the first user message in whole-file order, else the model of a session holding only a
    model selection, else ``(empty session)``. Reads one message at most (call it off the loop).
    """
    has_messages = False
    for entry in session.entries:
        if entry.type != "message":
            continue
        has_messages = True
        message = entry.record.get("message")
        if isinstance(message, dict) and message.get("role") == "user":
            return first_line_title(message.get("content"))
    model = restored_model(session)[0]
    if not has_messages and explicit_model_selection(session) and model is not None:
        return model_title(model)
    return EMPTY_TITLE
