"""The export screen (``e`` in the session view): the branch shown, as Markdown, HTML or JSON,
written to a new file.

A small modal: the format, the tool calls (none, outputs cut, full), thinking, redaction and the
file (by default a new file in the folder ink-tui was started in, named from the session's id
and title; it follows the format until edited). Enter exports in a worker (the session is read
again from the file, as ``ink-tui export`` reads it) and the screen closes with what was written;
a failure is one line on the screen, which stays open. Esc cancels. Nothing is ever replaced.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from rich.text import Text
from textual import getters, on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Input, Label, RadioButton, RadioSet, Static

from ink_tui.export import FORMATS, ExportOptions, default_path
from ink_tui.secrets import masked_text
from ink_tui.ui.keymap import bind
from ink_tui.ui.options import InkAppBase
from ink_tui.ui.render.safe import plain

__all__ = ["ExportDone", "ExportScreen"]

FORMAT_NAMES = {"md": "Markdown", "html": "HTML page", "json": "JSON (context)"}
TOOLS_NAMES = {"cut": "outputs cut", "full": "full", "none": "none"}  # the default first: a
# radio set's highlight starts on its first button


@dataclass(frozen=True, slots=True)
class ExportDone:
    """What was written: the file, and what the notification says."""

    path: Path
    message: str


def _keys_line() -> Text:
    line = Text()
    for index, (key, does) in enumerate(
        (("Enter", "export"), ("Tab", "next"), ("Space", "choose"), ("Esc", "cancel"))
    ):
        line.append("   " if index else "")
        line.append(key, style="bold")
        line.append(f" {does}")
    return line


class ExportScreen(ModalScreen[ExportDone | None]):
    """Export one branch of a session to a new file."""

    BINDINGS = [
        bind("back", "cancel", "Cancel", show=True),
        bind("open", "export", "Export", show=True, priority=True),
    ]
    AUTO_FOCUS = "#export-format"

    app = getters.app(InkAppBase)
    path_input = getters.query_one("#export-path", Input)
    problem = getters.query_one("#export-problem", Static)

    class Done(Message):
        def __init__(self, done: ExportDone) -> None:
            super().__init__()
            self.done = done

    class Failed(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class SecretsHeld(Message):
        """The export would hold secrets (``found``: how many, of what kind) with ``options``."""

        def __init__(self, found: str, options: ExportOptions) -> None:
            super().__init__()
            self.found = found
            self.options = options

    def __init__(self, session_path: Path, leaf_id: str | None, session_id: str, title: str):
        super().__init__()
        self.session_path = session_path
        self.leaf_id = leaf_id
        self.session_id = session_id
        self.title_text = title
        self._auto_path = ""  # the path proposed, while the user has not edited it
        self.busy = False
        self._warned: ExportOptions | None = None  # secrets were found with these options

    @property
    def folder(self) -> Path:
        """The folder ink-tui was started in (the process's, not ``--cwd``'s or the demo's
        project): new files go there."""
        return Path.cwd()

    def compose(self) -> ComposeResult:
        with Vertical(id="export", classes="export-modal"):
            title = masked_text(self.title_text)  # masked before it is cut
            yield Static(plain(f"Export this branch: {title}"[:200], "bold"))
            with Horizontal(classes="export-row"):
                yield Label("Format", classes="export-label")
                with RadioSet(id="export-format"):
                    for name in FORMATS:
                        yield RadioButton(
                            FORMAT_NAMES[name], value=name == "md", name=name, id=f"format-{name}"
                        )
            with Horizontal(classes="export-row"):
                yield Label("Tool calls", classes="export-label")
                with RadioSet(id="export-tools"):
                    for mode in TOOLS_NAMES:
                        yield RadioButton(
                            TOOLS_NAMES[mode], value=mode == "cut", name=mode, id=f"tools-{mode}"
                        )
            with Horizontal(classes="export-row"):
                yield Label("", classes="export-label")
                yield Checkbox("thinking", id="export-thinking")
                yield Checkbox("redact secrets, home as ~", id="export-redact")
            with Horizontal(classes="export-row"):
                yield Label("File", classes="export-label")
                yield Input(id="export-path")
            yield Static("", id="export-problem")
            yield Static(_keys_line(), id="export-keys")

    def on_mount(self) -> None:
        self._propose_path()

    def _chosen(self, selector: str, default: str) -> str:
        pressed = self.query_one(selector, RadioSet).pressed_button
        return pressed.name if pressed is not None and pressed.name else default

    def options(self) -> ExportOptions:
        """What the form says."""
        chosen = self._chosen("#export-format", "md")
        tools = self._chosen("#export-tools", "cut")
        return ExportOptions(
            format="html" if chosen == "html" else "json" if chosen == "json" else "md",
            tools="none" if tools == "none" else "full" if tools == "full" else "cut",
            thinking=self.query_one("#export-thinking", Checkbox).value,
            redact=self.query_one("#export-redact", Checkbox).value,
        )

    def _propose_path(self) -> None:
        """A new file's name for the chosen format, unless the user typed their own."""
        field = self.path_input
        if field.value and field.value != self._auto_path:
            return
        proposed = default_path(
            self.folder, self.session_id, self.title_text, self.options().format
        )
        self._auto_path = str(proposed)
        field.value = self._auto_path
        field.cursor_position = len(field.value)

    @on(RadioSet.Changed, "#export-format")
    def _format_changed(self) -> None:
        self._propose_path()

    def action_cancel(self) -> None:
        if not self.busy:
            self.dismiss(None)

    def action_export(self) -> None:
        if self.busy:
            return
        typed = self.path_input.value.strip()
        if not typed:
            self.problem.update(plain("say which file to write"))
            return
        target = Path(typed).expanduser()
        target = target if target.is_absolute() else self.folder / target
        options = self.options()
        if options == self._warned:  # asked again, knowing: export the secrets as they are
            options = replace(options, allow_secrets=True)
        self.busy = True
        self.problem.update(plain("exporting…"))
        self._export(target, options)

    @work(thread=True, exclusive=True, group="export")
    def _export(self, target: Path, options: ExportOptions) -> None:
        from ink_tui.export import SecretsFound, export_session, write_new
        from ink_tui.humanize import human_size
        from ink_tui.session import SessionError

        try:
            exported = export_session(self.session_path, self.leaf_id, options)
            write_new(target, exported.text)
        except SecretsFound as found:
            self.post_message(self.SecretsHeld(str(found), options))
        except FileExistsError:
            self.post_message(self.Failed(f"{target} already exists: choose another name"))
        except SessionError as error:
            self.post_message(self.Failed(error.one_line()))
        except OSError as error:
            self.post_message(self.Failed(f"{target}: {error.strerror or error}"))
        except Exception as error:  # a bug: its traceback logged, one line shown
            from ink_tui.logs import unforeseen

            self.post_message(self.Failed(unforeseen(error, "exporting the session")))
        else:
            size = human_size(len(exported.text.encode("utf-8")))
            said = f"exported {exported.holds} to {target} ({size})"
            if exported.redaction:
                said += f"; {exported.redaction}"
            self.post_message(self.Done(ExportDone(target, said)))

    @on(Done)
    def _done(self, message: Done) -> None:
        self.busy = False
        self.dismiss(message.done)

    @on(Failed)
    def _failed(self, message: Failed) -> None:
        self.busy = False
        self.problem.update(plain(message.text, "bold"))

    @on(SecretsHeld)
    def _secrets_held(self, message: SecretsHeld) -> None:
        self.busy = False
        self._warned = message.options
        self.problem.update(
            plain(
                f"the export would hold {message.found}: tick “redact secrets”, or press "
                "Enter again to export them as they are",
                "bold",
            )
        )
