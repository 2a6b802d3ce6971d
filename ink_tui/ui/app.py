"""The ink-tui application: screens, global keys, themes and the command palette."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from functools import partial
from pathlib import Path

from textual import on, work
from textual.app import SystemCommand
from textual.binding import Binding
from textual.content import Content
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import Theme

from ink_tui.paths import styles_dir
from ink_tui.safetext import utf8_safe, visible
from ink_tui.secrets import masked_text
from ink_tui.ui.config import save_config
from ink_tui.ui.keymap import key_name
from ink_tui.ui.keys import APP_BINDINGS, working_keys
from ink_tui.ui.messages import GoBack, OpenChat, OpenSession
from ink_tui.ui.options import InkAppBase, LaunchOptions
from ink_tui.ui.render.palette import use_theme

__all__ = ["INK_THEME", "WARM_MODULES", "InkApp", "LaunchOptions"]

WARM_AFTER = 1.5  # seconds after start-up
WARM_MODULES = (
    "ink_tui.ui.session_view.screen",
    "rich.markdown",
    "rich.syntax",
    "pygments.lexers.python",
    "ink_tui.ui.screens.search",
)

INK_THEME = Theme(
    name="ink",
    primary="#7aa2f7",
    secondary="#bb9af7",
    accent="#e0af68",
    warning="#e0af68",
    error="#f7768e",
    success="#9ece6a",
    foreground="#c0caf5",
    background="#16161e",
    surface="#1a1b26",
    panel="#24283b",
    dark=True,
)


class InkApp(InkAppBase):
    """Browse Ink's sessions: the picker, the session view and their helpers."""

    TITLE = "ink-tui"
    CSS_PATH = sorted(styles_dir().glob("*.tcss"))  # app.tcss, then one file per screen
    BINDINGS = APP_BINDINGS

    def __init__(self, options: LaunchOptions) -> None:
        super().__init__(options)
        self.register_theme(INK_THEME)

    def on_mount(self) -> None:
        self.theme = (
            self.ui_config.theme if self.ui_config.theme in self.available_themes else "ink"
        )
        from ink_tui.ui.screens.picker import PickerScreen

        # The picker is installed, not stacked under the session view: a screen left below
        # another keeps repainting the one on top (Textual 8.2.8), which costs CPU when idle.
        options = self.options
        picker = PickerScreen(options.sessions_dir, options.cwd, rows_ahead=options.rows_ahead)
        self.install_screen(picker, "picker")
        self.push_screen("picker")
        if self.options.chat:
            self.open_chat(self.options.open_path)
        elif self.options.open_path is not None:
            self.open_session(self.options.open_path, follow=self.options.follow)
        if self.options.notice:
            self.notify(self.options.notice, timeout=8)
        self.set_timer(WARM_AFTER, self._warm_imports)

    @work(thread=True, group="warm-imports")
    def _warm_imports(self) -> None:
        """Once the first screen is up, import in a thread what the views will need (the
        session view, Markdown, syntax highlighting), so opening one does not import on the
        loop. Not at once: the picker's first rows are read in a thread too, and both would
        compete for the GIL."""
        for name in WARM_MODULES:
            try:
                importlib.import_module(name)
            except ImportError:  # pragma: no cover - an optional piece missing: imported later
                continue

    def watch_theme(self, theme: str) -> None:
        use_theme(self.get_css_variables())  # rendered session content follows the theme
        # (the screens drawing it repaint on theme_changed_signal, published after this)
        if theme != self.ui_config.theme:
            self.ui_config.theme = theme
            try:
                save_config(self.ui_config, self.options.config_path)
            except OSError as error:
                self.notify(f"could not save the theme: {error}", severity="warning")

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notification of the app (``Screen.notify`` and ``Widget.notify`` come here):
        plain text, never markup, secrets masked, controls made visible. Notices quote session
        text (a torn line's type, a reason, a file name), so none may reach the terminal as it
        is."""
        del markup  # never parsed: ``[/]`` in a session would crash the app, ``[b]`` restyle it
        super().notify(
            visible(masked_text(message)),
            title=visible(masked_text(title)),
            severity=severity,
            timeout=timeout,
            markup=False,
        )

    def format_title(self, title: str, sub_title: str) -> Content:
        """A screen's title and sub-title (a session's name, a file name) with secrets masked and
        controls made visible; Textual shows them as plain text already."""
        return super().format_title(visible(masked_text(title)), visible(masked_text(sub_title)))

    def copy_to_clipboard(self, text: str) -> None:
        """Copy ``text``; a lone surrogate (UTF-8 cannot encode it) is copied as U+FFFD."""
        super().copy_to_clipboard(utf8_safe(text))

    def open_session(
        self,
        path: Path,
        *,
        follow: bool = False,
        leaf_id: str | None = None,
        arrival: tuple[str | None, str | None] = (None, None),
        stack: bool = False,
    ) -> None:
        """Show a session in place of the picker (Esc comes back to the picker), or over the
        current screen with ``stack``; ``arrival`` is (the row's entry id, the search to set)."""
        from ink_tui.ui.session_view.screen import SessionScreen

        screen = SessionScreen(path, leaf_id, follow=follow, arrival=arrival)
        if stack:
            self.push_screen(screen)
        else:
            self.switch_screen(screen)

    def _open_within(self, message: OpenSession) -> None:
        """A subagent session over its parent's view (opened on the task call that launched
        it): Esc comes back to the parent, and Esc again to where the request came from."""
        from ink_tui.ui.session_view.children import ChildArrival
        from ink_tui.ui.session_view.screen import SessionScreen

        assert message.within is not None
        child = ChildArrival(message.path, message.leaf_id, message.entry_id, message.search)
        screen = SessionScreen(message.within, child=child)
        self.push_screen(screen) if message.stack else self.switch_screen(screen)

    def open_chat(self, path: Path | None, leaf_id: str | None = None) -> None:
        """The chat pane on ``path`` (from its leaf or ``leaf_id``), or on a new session."""
        from ink_tui.agent.start import ChatRequest
        from ink_tui.ui.screens.chat import ChatScreen

        request = ChatRequest(
            path,
            cwd=self.options.cwd,
            leaf_id=leaf_id,
            model=self.options.model,
            thinking=self.options.thinking,
        )
        self.switch_screen(ChatScreen(request))

    def go_back(self) -> None:
        """Back from a session, branch or error view: to the view below it, else the picker."""
        if len(self.screen_stack) > 2:
            self.pop_screen()
        else:
            self.switch_screen("picker")

    @on(OpenSession)
    def _open_requested(self, message: OpenSession) -> None:
        if message.within is not None:  # a subagent: its parent first, on the task call
            self._open_within(message)
            return
        self.open_session(
            message.path,
            follow=message.follow,
            leaf_id=message.leaf_id,
            arrival=(message.entry_id, message.search),
            stack=message.stack,
        )

    @on(OpenChat)
    def _chat_requested(self, message: OpenChat) -> None:
        self.open_chat(message.path, message.leaf_id)

    @on(GoBack)
    def _back_requested(self, message: GoBack) -> None:
        self.go_back()

    def action_help(self) -> None:
        from ink_tui.ui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    def get_key_display(self, binding: Binding) -> str:
        """A key as the footer shows it, named as the help and the palette name it."""
        return binding.key_display or key_name(binding.key)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Every key that works on the current screen is also a palette command, with its keys
        named as a person names them (``G, End``)."""
        yield from super().get_system_commands(screen)
        seen: set[str] = set()
        for row in working_keys(screen):
            if row.action in seen or row.action in ("quit", "command_palette"):
                continue
            seen.add(row.action)
            yield SystemCommand(
                row.description,
                f"key: {row.key_text}",
                partial(self.run_action, row.action, row.node),
            )
