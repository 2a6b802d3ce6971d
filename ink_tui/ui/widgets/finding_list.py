"""The secrets of one session, a line each: where (line, entry, field), what (kind and
fingerprint) and the text around it, every secret masked. Drawn with the Line API
(:class:`~ink_tui.ui.widgets.cursor_list.CursorList`): a session pasted a thousand keys into is
one list like any other. Enter posts :class:`FindingList.Selected` with the finding.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import BindingType
from textual.geometry import Size
from textual.message import Message

from ink_tui.catalog.secretsaudit import SecretFinding
from ink_tui.safetext import one_line
from ink_tui.ui.keymap import bind
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.cursor_list import CursorList

__all__ = ["FindingList", "finding_line"]

KIND_WIDTH = 22  # "slack-webhook-url", "huggingface-token": the kinds fit whole
WHERE_WIDTH = 13  # " line 12,345"


def finding_line(finding: SecretFinding, kind_style: Style | str = "") -> Text:
    """``line 12   github-token  1a2b3c4d  message.content  …GITHUB_TOKEN=[REDACTED:…] && …``."""
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append(f" line {finding.line:,}".ljust(WHERE_WIDTH))
    line.append_text(plain(finding.kind.ljust(KIND_WIDTH), kind_style))
    line.append(f"{finding.fingerprint}  ", "dim")
    line.append_text(plain(f"{finding.field}  ", "dim"))
    line.append_text(plain(one_line(finding.context)))
    return line


class FindingList(CursorList):
    """The findings of one session; Enter goes to the record holding the highlighted one."""

    BINDINGS: ClassVar[list[BindingType]] = [bind("open", "select", "Go to it", show=True)]
    COMPONENT_CLASSES: ClassVar[set[str]] = {"finding-list--cursor", "finding-list--kind"}
    CURSOR_CLASS = "finding-list--cursor"
    DEFAULT_CSS = """
    FindingList { background: $surface; }
    FindingList > .finding-list--cursor { background: $primary 45%; }
    FindingList > .finding-list--kind { color: $warning; text-style: bold; }
    """

    class Selected(Message):
        """Enter on a finding."""

        def __init__(self, finding: SecretFinding) -> None:
            super().__init__()
            self.finding = finding

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.findings: list[SecretFinding] = []

    def show(self, findings: list[SecretFinding]) -> None:
        """Show ``findings`` (in file order), the cursor on the first."""
        self.findings = findings
        self.virtual_size = Size(self.size.width, len(findings))
        self.cursor_row = 0
        self.refresh_styles()

    @property
    def row_count(self) -> int:
        return len(self.findings)

    @property
    def highlighted(self) -> SecretFinding | None:
        row = self.cursor_row
        return self.findings[row] if 0 <= row < len(self.findings) else None

    def select(self, index: int) -> None:
        self.post_message(self.Selected(self.findings[index]))

    def row_text(self, index: int, width: int) -> Text:
        style = self.get_component_rich_style("finding-list--kind", partial=True)
        return finding_line(self.findings[index], style)
