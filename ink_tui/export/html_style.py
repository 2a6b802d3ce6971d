"""The exported HTML page's own style and script: inline, offline, light and dark by
``prefers-color-scheme``. Code colours are Pygments' (``default`` light, ``monokai`` dark)."""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from typing import Final

__all__ = ["PAGE_SCRIPT", "page_style", "script_hash"]

_LAYOUT: Final = """
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #59636e;
  --panel: #f6f8fa; --line: #d1d9e0; --accent: #0969da; --ok: #1a7f37; --error: #cf222e;
  --warn: #9a6700; --you: #ddf4ff; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --panel: #151b23; --line: #3d444d;
    --accent: #4493f8; --ok: #3fb950; --error: #f85149; --warn: #d29922; --you: #12263f; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); display: flex;
  font: 15px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; }
nav { position: sticky; top: 0; height: 100vh; overflow-y: auto; width: 17rem; flex: none;
  padding: 1rem .75rem; border-right: 1px solid var(--line); background: var(--panel);
  font-size: 13px; }
nav h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted);
  margin: 0 0 .5rem; }
nav ol { margin: 0; padding-left: 0; list-style-position: inside; }
nav li::marker { color: var(--muted); }
nav li { margin: .2rem 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
nav a { color: var(--fg); text-decoration: none; }
nav a:hover { color: var(--accent); }
main { flex: 1; min-width: 0; max-width: 60rem; padding: 1rem 2rem 4rem; }
header h1 { font-size: 1.5rem; margin: .5rem 0; overflow-wrap: anywhere; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem;
  color: var(--muted); font-size: 13px; margin: 0 0 1rem; }
dl.meta dt { font-weight: 600; } dl.meta dd { margin: 0; overflow-wrap: anywhere; }
section.turn { border-top: 1px solid var(--line); padding-top: .5rem; margin-top: 1.5rem; }
section.turn > h2 { font-size: 1.1rem; margin: .5rem 0; display: flex; gap: .75rem;
  align-items: baseline; }
h2 .when, h2 .label { font-size: 12px; font-weight: 400; color: var(--muted); }
.prompt { background: var(--you); border-radius: 6px; padding: .6rem .9rem; margin: .5rem 0; }
.text, .prompt-text, .thinking-text, .note-detail { white-space: pre-wrap;
  overflow-wrap: anywhere; }
.assistant { margin: .5rem 0; overflow-wrap: anywhere; }
.assistant pre, .tool pre { background: var(--panel); border: 1px solid var(--line);
  border-radius: 6px; padding: .6rem .8rem; overflow-x: auto; font-size: 13px;
  line-height: 1.45; }
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
:not(pre) > code { background: var(--panel); padding: .1em .3em; border-radius: 4px;
  font-size: 90%; }
details.tool, details.thinking { border: 1px solid var(--line); border-radius: 6px;
  margin: .5rem 0; padding: 0 .8rem; }
details[open] { padding-bottom: .5rem; }
summary { cursor: pointer; padding: .35rem 0; overflow-wrap: anywhere; }
summary .name { font-weight: 600; font-family: ui-monospace, monospace; }
summary .arg { color: var(--muted); font-family: ui-monospace, monospace; font-size: 13px; }
.status-ok { color: var(--ok); } .status-error { color: var(--error); }
.status-missing, .status-unknown, .status-fill-in { color: var(--warn); }
pre.output { white-space: pre-wrap; overflow-wrap: anywhere; }
.error pre.output { border-color: var(--error); }
.cut, .thinking summary, .image-note { color: var(--muted); font-style: italic; font-size: 13px; }
.thinking-text { color: var(--muted); font-style: italic; }
aside.note { border-left: 3px solid var(--accent); padding: .2rem .8rem; margin: .5rem 0;
  color: var(--muted); font-size: 14px; }
aside.note b { color: var(--fg); }
img.inline { max-width: 100%; border: 1px solid var(--line); border-radius: 4px;
  display: block; margin: .4rem 0; }
.toggle-all { float: right; font-size: 12px; }
.assistant table { border-collapse: collapse; } .assistant td, .assistant th {
  border: 1px solid var(--line); padding: .2rem .5rem; }
@media (max-width: 50rem) { nav { display: none; } main { padding: 1rem; } }
@media print { nav, .toggle-all { display: none; } details { border: none; } }
"""

PAGE_SCRIPT: Final = """
document.querySelectorAll("button.toggle-all").forEach(function (button) {
  button.hidden = false;
  button.addEventListener("click", function () {
    var tools = document.querySelectorAll("details.tool");
    var open = !Array.prototype.every.call(tools, function (d) { return d.open; });
    tools.forEach(function (d) { d.open = open; });
    button.textContent = open ? "collapse tool calls" : "expand tool calls";
  });
});
""".strip()


def script_hash() -> str:
    """The page script's hash for the Content-Security-Policy (no other script may run)."""
    digest = hashlib.sha256(PAGE_SCRIPT.encode("utf-8")).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")


@cache
def page_style() -> str:
    """The whole stylesheet: the layout, then code colours for light and dark."""
    from pygments.formatters import HtmlFormatter

    light: str = HtmlFormatter(style="default").get_style_defs(".code")
    dark: str = HtmlFormatter(style="monokai").get_style_defs(".code")
    return (
        _LAYOUT
        + light
        + "\n@media (prefers-color-scheme: dark) {\n"
        + dark
        + "\n.code { background: var(--panel); }\n}\n"
    )
