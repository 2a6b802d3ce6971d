"""Exports of one session compared with committed expected files (``tests/data/export``), and
the HTML page over a session full of hostile text, parsed with ``html.parser``: every piece of
session text lands as text in its element, no script or event handler comes from the session,
nothing leaves the page.

Set ``INK_TUI_UPDATE_EXPORT=1`` to write the expected files again (then read the diff).
"""

from __future__ import annotations

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from testdata import DATA, session_file

from ink_tui.demo.content import HOSTILE_STRINGS
from ink_tui.export import ExportOptions, export_session
from ink_tui.export.html_style import PAGE_SCRIPT
from ink_tui.safetext import visible
from ink_tui.session import ModelRef
from ink_tui.session.writing.writer import SessionWriter

EXPORT = DATA / "export"
SESSION = EXPORT / "session.jsonl"
HOME = "/home/ada"
CASES = {  # expected file -> options
    "session.md": ExportOptions("md", allow_secrets=True),
    "session-full-redacted.md": ExportOptions("md", "full", thinking=True, redact=True),
    "session.html": ExportOptions("html", "full", thinking=True, redact=True),
    "session.json": ExportOptions("json", redact=True),
}


def _normalised(name: str, text: str) -> str:
    """The page's stylesheet (Pygments' colours, which change with its version) left out."""
    if name.endswith(".html"):
        return re.sub(r"<style>.*?</style>", "<style>…</style>", text, flags=re.DOTALL)
    return text


@pytest.mark.parametrize("name", CASES)
def test_export_matches_the_expected_file(name: str) -> None:
    exported = export_session(SESSION, None, CASES[name], home=HOME)
    got = _normalised(name, exported.text)
    expected = EXPORT / name
    if os.environ.get("INK_TUI_UPDATE_EXPORT"):
        expected.write_text(got, encoding="utf-8")
    assert got == expected.read_text(encoding="utf-8")


def test_redaction_counts_the_secrets_of_the_branch() -> None:
    exported = export_session(SESSION, None, CASES["session.html"], home=HOME)
    assert exported.masked == 2  # the key in the first prompt, the token in the third
    assert exported.redaction == "2 secrets masked, the home folder shown as ~ 3 times"
    assert "sk-ant-api03-EXAMPLE" not in exported.text
    assert "ghp_EXAMPLE" not in exported.text
    assert HOME + "/" not in exported.text


def test_json_is_the_context_of_the_branch() -> None:
    exported = export_session(SESSION, None, ExportOptions("json", allow_secrets=True))
    context = json.loads(exported.text)
    assert list(context) == ["ok", "leafId", "compacted", "compactionBoundary", "messages"]
    assert (context["leafId"], context["compacted"], context["compactionBoundary"]) == (
        "a6",
        True,
        3,
    )
    assert exported.holds == "7 messages"


def test_another_branch_is_exported_up_to_its_entry() -> None:
    exported = export_session(SESSION, "a2", ExportOptions("md", allow_secrets=True))
    assert "leaf `a2`, not the current branch, 1 turn" in exported.text
    assert "Yes, do that." not in exported.text


def test_tools_none_leaves_tool_calls_out_and_cut_says_what_it_cut() -> None:
    none = export_session(SESSION, None, ExportOptions("md", "none", allow_secrets=True)).text
    assert "<details>" not in none and "pytest -v" not in none
    cut = export_session(SESSION, None, ExportOptions("md", "cut", allow_secrets=True)).text
    assert "test_case_38 PASSED" in cut and "test_case_39 PASSED" not in cut
    assert "… 8 more lines (--tools full shows all)" in cut
    full = export_session(SESSION, None, ExportOptions("md", "full", allow_secrets=True)).text
    assert "1 failed, 45 passed" in full and "more lines" not in full


def test_thinking_only_when_asked() -> None:
    thought = "The user wants the failing tests."
    assert (
        thought not in export_session(SESSION, None, ExportOptions("html", allow_secrets=True)).text
    )
    assert (
        thought
        in export_session(
            SESSION, None, ExportOptions("html", thinking=True, allow_secrets=True)
        ).text
    )


def test_a_fence_is_longer_than_any_backtick_run_inside() -> None:
    from ink_tui.export.markdown import fence

    assert fence("a ``` b", "text") == "````text\na ``` b\n````\n"


# -- hostile text in the HTML page -----------------------------------------------------------

HTML_HOSTILE = (
    "<script>alert('prompt')</script>",
    '"><img src=x onerror=alert(1)>',
    "</pre></details></section><script>alert(2)</script>",
    "<!-- open comment",
    "<style>body{display:none}</style>",
    "javascript:alert(3)",
)
ALL_HOSTILE = (*HOSTILE_STRINGS, *HTML_HOSTILE)
SESSION_TEXT = " | ".join(ALL_HOSTILE)
# fmt: off
ALLOWED_TAGS = frozenset({
    "html", "head", "meta", "title", "style", "body", "nav", "h1", "h2", "h3", "h4", "ol", "ul",
    "li", "a", "main", "header", "button", "dl", "dt", "dd", "section", "span", "div", "details",
    "summary", "pre", "code", "p", "img", "aside", "b", "em", "strong", "blockquote", "hr", "br",
    "table", "thead", "tbody", "tr", "th", "td", "del", "s", "script",
})
# fmt: on


SVG = "PHN2ZyBvbmxvYWQ9YWxlcnQoNSk+"  # <svg onload=alert(5)>


def _hostile_session(folder: Path) -> Path:
    writer = SessionWriter.new(folder, "/home/ada/x", model=ModelRef("anthropic", "claude"))
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQ"
    png += "AAAABJRU5ErkJggg=="
    writer.append_message(
        {
            "role": "user",
            "content": [
                {"type": "text", "text": f"prompt {SESSION_TEXT}"},
                {"type": "image", "data": png, "mimeType": 'image/png" onerror="alert(4)'},
                {
                    "type": "image",
                    "data": "PHN2ZyBvbmxvYWQ9YWxlcnQoNSk+",
                    "mimeType": "image/svg+xml",
                },
                {"type": "image", "data": png, "mimeType": "image/png"},
            ],
        }
    )
    reply = (
        f"text {SESSION_TEXT}\n\n[click](javascript:alert(6)) ![x](https://example.com/x.png)\n\n"
        f'```python" onmouseover="alert(7)\n{SESSION_TEXT}\n```\n\n<iframe src="https://x"></iframe>'
    )
    call = {
        "type": "toolCall",
        "id": "call_1",
        "name": "bash",
        "arguments": {"command": f"echo {SESSION_TEXT}"},
    }
    odd = {
        "type": "toolCall",
        "id": "call_4",
        "name": "bash<script>alert(8)</script>",
        "arguments": {"<b>": SESSION_TEXT},
    }
    edit = {
        "type": "toolCall",
        "id": "call_2",
        "name": "edit",
        "arguments": {
            "path": "<script>x</script>.py",
            "edits": [{"oldText": "a", "newText": f"b {SESSION_TEXT}"}],
        },
    }
    write = {
        "type": "toolCall",
        "id": "call_3",
        "name": "write",
        "arguments": {"path": "page.html", "content": f"<html>{SESSION_TEXT}</html>"},
    }
    blocks = [
        {"type": "thinking", "thinking": f"thinking {SESSION_TEXT}"},
        {"type": "text", "text": reply},
        call,
        edit,
        write,
        odd,
    ]
    writer.append_message(_assistant(blocks))
    results = [
        {
            "toolCallId": cid,
            "toolName": "bash",
            "content": f"output {SESSION_TEXT}",
            "isError": False,
        }
        for cid in ("call_1", "call_2", "call_3", "call_4")
    ]
    writer.append_message({"role": "toolResult", "results": results})
    writer.append_message(_assistant([{"type": "text", "text": "done"}]))
    return writer.path


def _assistant(blocks: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "blocks": blocks,
        "usage": {"inputTokens": 1, "outputTokens": 1},
        "stopReason": "end_turn",
        "model": "claude",
        "modelReference": "anthropic/claude",
    }


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.texts: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False
        self.comments: list[str] = []
        self.pres: list[str] = []  # the whole text of each <pre> (highlighting splits it)
        self._pre_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"
        if tag == "pre":
            self._pre_depth += 1
            if self._pre_depth == 1:
                self.pres.append("")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False
        if tag == "pre":
            self._pre_depth -= 1

    def handle_data(self, data: str) -> None:
        (self.scripts if self._in_script else self.texts).append(data)
        if self._pre_depth:
            self.pres[-1] += data

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> _Page:
    path = _hostile_session(tmp_path_factory.mktemp("hostile"))
    options = ExportOptions("html", "full", thinking=True)
    parsed = _Page()
    parsed.feed(export_session(path, None, options).text)
    parsed.close()
    return parsed


def test_the_only_script_is_the_pages_own(page: _Page) -> None:
    assert [tag for tag, _ in page.tags if tag == "script"] == ["script"]
    assert page.scripts == [PAGE_SCRIPT]
    assert page.comments == []


def test_no_event_handler_and_no_unknown_tag_come_from_the_session(page: _Page) -> None:
    for tag, attributes in page.tags:
        assert tag in ALLOWED_TAGS, tag
        assert not [name for name in attributes if name.startswith("on")], (tag, attributes)


def test_nothing_leaves_the_page(page: _Page) -> None:
    policy = next(
        attributes["content"]
        for tag, attributes in page.tags
        if tag == "meta" and attributes.get("http-equiv") == "Content-Security-Policy"
    )
    assert policy is not None and "default-src 'none'" in policy and "img-src data:" in policy
    images = [attributes for tag, attributes in page.tags if tag == "img"]
    assert [image["src"][:22] for image in images] == ["data:image/png;base64,"]
    for tag, attributes in page.tags:
        if tag == "a":
            assert not str(attributes.get("href")).startswith("javascript:"), attributes
        assert tag not in ("iframe", "link", "object", "embed")


def test_every_hostile_string_is_text_in_its_element(page: _Page) -> None:
    texts = page.texts
    shown = visible(SESSION_TEXT)
    for where in ("prompt", "thinking", "output", "text"):  # text in one element
        assert any(f"{where} {shown}" in text for text in texts), where
    for where in ("$ echo ", "+b ", "<html>"):  # highlighted: text in one <pre>
        assert any(f"{where}{shown}" in pre for pre in page.pres), where
    assert any(shown + "\n" == pre for pre in page.pres)  # the reply's fenced code
    assert any("bash<script>alert(8)</script>" in text for text in texts)
    assert any("<script>x</script>.py" in text for text in texts)
    assert any("[image image/svg+xml, 21 B]" in text for text in texts)


def test_cut_output_stops_at_40_lines_and_8000_characters(tmp_path: Path) -> None:
    writer = SessionWriter.new(tmp_path, "/tmp/x", model=ModelRef("anthropic", "claude"))
    writer.append_message({"role": "user", "content": "minify it"})
    call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "cat a.js"}}
    writer.append_message(_assistant([call]))
    output = "x" * 20_000 + "\nsecond line"
    result = {"toolCallId": "c1", "toolName": "bash", "content": output, "isError": False}
    writer.append_message({"role": "toolResult", "results": [result]})
    text = export_session(writer.path, None, ExportOptions("md", "cut")).text
    assert "x" * 8_000 + "\n```" in text and "x" * 8_001 not in text
    assert "*… 12,012 more characters (--tools full shows all)*" in text
    assert "x" * 20_000 in export_session(writer.path, None, ExportOptions("md", "full")).text


@pytest.mark.parametrize("form", ["md", "html"])
def test_a_call_without_a_result_and_one_answered_twice_say_so(form: str) -> None:
    """The notes after a call's output are worded once (``ToolPart.notes``) for both forms."""
    dangling = export_session(session_file("dangling-last-turn"), None, ExportOptions(form))
    assert "no result (interrupted)" in dangling.text
    twice = export_session(session_file("duplicate-result"), None, ExportOptions(form))
    assert "⚠ result recorded 2 times" in twice.text
