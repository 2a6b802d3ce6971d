"""Exporting one branch of a session as Markdown, a self-contained HTML page, or JSON (the
``ink-tui context --json`` shape). Pure: no Textual; the command line (``ink-tui export``) and the
app's export screen (``e`` in the session view) both call :func:`export_session`.

Nothing here writes a session file; :func:`write_new` writes the export, refusing to replace an
existing file unless asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, TextIO

from ink_tui.export.document import CUT_LINES, ExportOptions, Format, ToolsMode, build_document
from ink_tui.export.redact import Redactor
from ink_tui.humanize import plural

if TYPE_CHECKING:
    from ink_tui.session.reading.reader import SessionFile

__all__ = [
    "CUT_LINES",
    "FORMATS",
    "TOOLS_MODES",
    "ExportOptions",
    "Exported",
    "Format",
    "SecretsFound",
    "ToolsMode",
    "default_path",
    "export_session",
    "format_for",
    "write_new",
]

FORMATS: Final[tuple[Format, ...]] = ("md", "html", "json")
TOOLS_MODES: Final[tuple[ToolsMode, ...]] = ("none", "cut", "full")
_SLUG_DROP: Final = re.compile(r"[^\w]+")


class SecretsFound(Exception):
    """The export would hold secrets, and neither redaction nor ``allow_secrets`` was asked."""

    def __init__(self, count: int, kinds: str) -> None:
        super().__init__(f"{plural(count, 'secret')} ({kinds})")
        self.count = count
        self.kinds = kinds


@dataclass(frozen=True, slots=True)
class Exported:
    """An export's text, and what was masked in it."""

    text: str
    masked: int  # secrets masked (0 without redaction)
    redaction: str  # ``2 secrets masked, …`` (empty without redaction)
    holds: str  # ``3 turns`` (``9 messages`` for JSON)


def export_session(
    path: Path,
    leaf_id: str | None,
    options: ExportOptions,
    *,
    home: str | None = None,
    warn: TextIO | None = None,
) -> Exported:
    """Read ``path`` and export the branch to ``leaf_id`` (``None``: the one Ink resumes).

    Raises ``SessionError`` (a file Ink cannot open, an entry not found) or ``OSError``;
    :class:`SecretsFound` when the export would hold secrets, with neither ``options.redact``
    nor ``options.allow_secrets``.
    ``home`` overrides the home folder that redaction shows as ``~`` (tests); a torn final line
    dropped is noted on ``warn`` (as Ink notes it).
    """
    from ink_tui.session import open_session

    session = open_session(path, warn=warn)
    redactor = Redactor.for_user(options.redact)
    if options.redact and home is not None:
        redactor.home = home
    redactor.watch = not options.redact and not options.allow_secrets
    exported = _exported(session, leaf_id, options, redactor)
    if redactor.watch and redactor.found:
        raise SecretsFound(redactor.masked, redactor.kinds())
    return exported


def _exported(
    session: SessionFile, leaf_id: str | None, options: ExportOptions, redactor: Redactor
) -> Exported:
    from ink_tui.session.conversation.tree import entry_named

    target = session.leaf_id if leaf_id is None else entry_named(session, leaf_id)
    if options.format == "json":
        return _json_export(session, target, redactor)
    from ink_tui.catalog.titles import session_title
    from ink_tui.session.conversation.branchview import load_branch

    loaded = load_branch(session, target, models=True)
    title = loaded.header.get("name") or session_title(session)
    document = build_document(loaded, title, options, redactor)
    if options.format == "html":
        from ink_tui.export.html import html_document

        text = html_document(document)
    else:
        from ink_tui.export.markdown import markdown_document

        text = markdown_document(document)
    turns = sum(1 for turn in document.turns if turn.number)
    return Exported(text, redactor.masked, redactor.summary(), plural(turns, "turn"))


def _json_export(session: SessionFile, leaf_id: str | None, redactor: Redactor) -> Exported:
    from ink_tui.safetext import json_visible
    from ink_tui.session.conversation.context import build_context
    from ink_tui.session.reading.jsoncodec import encode_json

    context = build_context(session, leaf_id)
    value = redactor.value(context.to_json())
    text = json_visible(encode_json(value, indent=True).decode("utf-8")) + "\n"
    holds = plural(len(context.messages), "message")
    return Exported(text, redactor.masked, redactor.summary(), holds)


def format_for(path: str | Path) -> Format:
    """The format a file name asks for: ``.html``/``.htm`` HTML, ``.json`` JSON, else Markdown."""
    suffix = Path(path).suffix.lower()
    if suffix in (".html", ".htm"):
        return "html"
    return "json" if suffix == ".json" else "md"


def default_path(folder: Path, session_id: str, title: str, format: Format) -> Path:
    """A new file in ``folder`` named from the session's id and title
    (``0c9a7e21-run-the-tests.md``); ``-2``, ``-3``… when the name is taken. A secret in the
    title is named by its kind (``…-deploy-with-github-token``): a file name never holds one."""
    from ink_tui.secrets import mask_secrets

    title, _ = mask_secrets(title, lambda secret: secret.kind)
    slug = _SLUG_DROP.sub("-", title.lower()).strip("-_")[:48].rstrip("-_")
    stem = "-".join(part for part in (session_id[:8], slug) if part) or "session"
    candidate = folder / f"{stem}.{format}"
    number = 2
    while candidate.exists() or candidate.is_symlink():
        candidate = folder / f"{stem}-{number}.{format}"
        number += 1
    return candidate


def write_new(target: Path, text: str, *, force: bool = False) -> None:
    """Write ``text`` to ``target`` (UTF-8). Raises ``FileExistsError`` when the file exists
    and not ``force``."""
    with target.open("w" if force else "x", encoding="utf-8", newline="\n") as stream:
        stream.write(text)
