"""Nothing the command line prints shows a secret: its one door (``cli/output.py``) masks text
and JSON alike (JSON value by value, so it stays the JSON it was), ``context``, ``changes
--patch``, ``replay`` and ``list`` included; ``read --no-redact`` and ``export --allow-secrets``
print them as they are, when asked."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from inksessions import ink_session

from ink_tui.cli.output import SafeOutput

CWD = "/home/ada/code/deploy"
TOKEN = "ghp_" + "Vb3Nm8Qw" * 4 + "Zr7p"
PASSWORD = "Hn3Jk8Lp2Qw"


def _leaky(cli: Any) -> Path:
    prompts = [f"push with {TOKEN} please", f'use {{"password": "{PASSWORD}"}} for the db']
    return ink_session(cli.sessions, CWD, "leaky", prompts, reply="done")


def test_the_door_masks_text_and_json_value_by_value() -> None:
    stream = io.StringIO()
    out = SafeOutput(stream)
    out.line(f"token {TOKEN} \x1b]52;c;eA==\x07")
    out.json({"auth": {"password": PASSWORD}, "note": f"see {TOKEN}", "n": 1})
    printed = stream.getvalue()
    assert TOKEN not in printed and PASSWORD not in printed
    first, rest = printed.split("\n", 1)
    assert first.startswith("token [REDACTED:github-token:") and "␛]52" in first
    value = json.loads(rest)
    assert value["auth"]["password"].startswith("[REDACTED:password:")
    assert value["note"].startswith("see [REDACTED:github-token:") and value["n"] == 1
    shown = io.StringIO()
    raw = SafeOutput(shown)
    raw.show_secrets()
    raw.line(f"token {TOKEN} \x1b[2J")
    assert shown.getvalue() == f"token {TOKEN} ␛[2J\n"  # controls still made visible


def test_context_text_and_json_are_masked(cli: Any) -> None:
    path = _leaky(cli)
    code, out, _ = cli.run("context", str(path))
    assert code == 0 and "push with [REDACTED:github-token:" in out
    assert TOKEN not in out and PASSWORD not in out
    code, out, _ = cli.run("context", "--json", str(path))
    assert code == 0 and TOKEN not in out and PASSWORD not in out
    messages = json.loads(out)["messages"]
    assert [message["role"] for message in messages] == ["user", "assistant"] * 2
    assert messages[0]["content"].startswith("push with [REDACTED:github-token:")


def test_read_no_redact_and_export_allow_secrets_print_them_as_asked(cli: Any) -> None:
    path = _leaky(cli)
    assert TOKEN not in cli.run("--cwd", CWD, "read", "leaky")[1]
    assert TOKEN in cli.run("--cwd", CWD, "read", "leaky", "--no-redact")[1]
    code, out, _ = cli.run("export", str(path), "--allow-secrets")
    assert code == 0 and TOKEN in out and PASSWORD in out
    code, out, _ = cli.run("export", str(path), "--redact")
    assert code == 0 and TOKEN not in out
