"""``ink-tui secrets``: the audit finds a secret in every field a session has, says where it is
and what kind, never prints it, and exits 1; a clean archive exits 0."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inksessions import ink_session

from ink_tui.paths import project_dir

CWD = "/home/ada/code/retry"


def _every_field(base: Path) -> tuple[Path, dict[str, str]]:
    """A session with a secret in each field Ink writes text into; returns where each is."""
    s = [
        "sk-ant-api03-" + "Xy7Kq2" * 16 + "AA",
        "ghp_" + "Vb3Nm8Qw" * 4 + "Zr7p",
        "AKIAQ4ZD7N2LMBX3TY6W",
        "xoxb-2048093421-9981723361-" + "Hq2Lw8Zp" * 3,
        "glpat-" + "Tk9Wq3Xz5Lm2Pv7Rb4Nc",
        "sk_live_" + "Pa8Wd2Ku" * 3,
        "npm_" + "Jr4Fs8Hc" * 4 + "Qm2X",
        "hf_" + "QwErTyUiOpAsDfGhJkLzXcVbNmQwErTyUi",
        "SG." + "Aa1Bb2Cc3Dd4Ee5Ff6Gg7H" + "." + "Ii8Jj9Kk0Ll1Mm2Nn3Oo4Pp5Qq6Rr7Ss8Tt9Uu0Vv1W",
        "dop_v1_" + "ab12cd34" * 8,
        "pa55-w0rd-" + "Kq7z",
    ]
    folder = project_dir(base, CWD)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = "2026-11-21T09:00:00Z"

    def entry(kind: str, entry_id: str, parent: str | None, **fields: Any) -> dict[str, Any]:
        return {"type": kind, "id": entry_id, "parentId": parent, "timestamp": stamp, **fields}

    records = [
        {"type": "session", "version": 1, "id": "leaky", "timestamp": stamp, "cwd": CWD},
        entry("message", "u1", None, message={"role": "user", "content": f"deploy with {s[0]}"}),
        entry("message", "u2", "u1", message={"role": "user", "content": [
            {"type": "text", "text": f"and the token {s[1]}"}]}),
        entry("message", "a1", "u2", message={"role": "assistant", "blocks": [
            {"type": "thinking", "thinking": f"the key id is {s[2]}"},
            {"type": "text", "text": f"I will use {s[3]}"},
            {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {
                "command": "deploy", "env": {"GITLAB_TOKEN": s[4]},
                "auth": {"username": "ci", "password": s[10]}}},
        ]}),
        entry("message", "r1", "a1", message={"role": "toolResult", "results": [
            {"toolCallId": "c1", "toolName": "bash", "isError": False,
             "content": f"\x1b[31mSTRIPE={s[5]}\x1b[0m"}]}),
        entry("compaction", "c1", "r1", summary=f"## Goal\nuse {s[6]}", tokensBefore=10,
              retainedTail=[{"role": "user", "content": f"keep {s[7]}"}]),
        entry("branchSummary", "b1", "c1", summary=f"tried {s[8]}"),
        entry("session_info", "n1", "b1", name=f"leak {s[9]}"),
        entry("label", "l1", "n1", targetId="u1", label="fine"),
    ]  # fmt: skip
    path = folder / "2026-11-21T09-00-00-000Z-leaky.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records) + '{"type": "mess')
    fields = {
        "message.content": "anthropic-key",
        "message.content[0].text": "github-token",
        "message.blocks[0].thinking": "aws-access-key-id",
        "message.blocks[1].text": "slack-token",
        "message.blocks[2].arguments.env.GITLAB_TOKEN": "gitlab-token",
        "message.blocks[2].arguments.auth.password": "password",
        "message.results[0].content": "stripe-key",
        "summary": "npm-token",
        "retainedTail[0].content": "huggingface-token",
        "name": "digitalocean-token",
    }
    return path, fields


def test_a_secret_in_every_field_is_found_and_never_printed(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = tmp_path / "sessions"
    path, fields = _every_field(base)
    ink_session(base, CWD, "clean", ["nothing to see"], reply="ok")
    monkeypatch.setenv("INK_SESSIONS_DIR", str(base))
    code, out, err = cli.run("--cwd", CWD, "secrets", "--json")
    assert (code, err) == (1, "")
    found = json.loads(out)
    got = {(f["field"], f["kind"]) for f in found}
    assert set(fields.items()) <= got
    assert ("summary", "sendgrid-key") in got  # the branch summary's
    assert all(f["sessionId"] == "leaky" and f["file"] == str(path) for f in found)
    assert all(f["machine"] is None and len(f["fingerprint"]) == 8 for f in found)
    code, text, err = cli.run("--cwd", CWD, "secrets")
    assert code == 1 and err == ""
    assert text.splitlines()[0] == str(path)
    assert text.splitlines()[-1].startswith("11 secrets (11 distinct) in 1 of 2 sessions: ")
    assert "    u1  message.content  anthropic-key  " in text
    for secret in ("Xy7Kq2", "Vb3Nm8Qw", "AKIAQ4ZD7N2", "Pa8Wd2Ku", "pa55-w0rd"):
        assert secret not in text and secret not in out


def test_a_clean_archive_exits_0(cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = tmp_path / "sessions"
    ink_session(base, CWD, "clean", ["MAX_TOKENS=4096 and SORT_KEY=created_at"], reply="ok")
    monkeypatch.setenv("INK_SESSIONS_DIR", str(base))
    assert cli.run("--cwd", CWD, "secrets") == (0, "no secret found in 1 session\n", "")
    assert cli.run("--cwd", CWD, "secrets", "--all", "--json") == (0, "[]\n", "")


def test_one_session_and_a_bad_call(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = tmp_path / "sessions"
    path, _ = _every_field(base)
    monkeypatch.setenv("INK_SESSIONS_DIR", str(base))
    code, out, _ = cli.run("--cwd", "/elsewhere", "secrets", str(path), "--json")
    assert code == 1 and len(json.loads(out)) == 11
    code, _, err = cli.run("--cwd", CWD, "secrets", "leaky", "--all")
    assert code == 2 and "give a SESSION or --all / --machines, not both" in cli.one_error_line(err)
