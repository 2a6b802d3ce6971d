"""agent/start.py's ``start_chat``: a request with a session continues it from its leaf (or the
entry asked for), one without starts a new session that is not on disk until its first record;
the model and thinking level asked for win over what the session would restore."""

from __future__ import annotations

from pathlib import Path

import pytest

from ink_tui.agent.start import ChatRequest, start_chat
from ink_tui.paths import project_dir
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.session.writing.writer import SessionWriter

CWD = "/home/ada/code/calc-kit"
SONNET = ModelRef("anthropic", "claude-sonnet-4-5")
GPT = ModelRef("openai", "gpt-5.1")


def _session(base: Path) -> tuple[Path, list[str]]:
    writer = SessionWriter.new(project_dir(base, CWD), CWD, model=SONNET)
    ids = []
    for prompt in ("first", "second"):
        ids.append(writer.append_message({"role": "user", "content": prompt})["id"])
        answer = {"role": "assistant", "blocks": [{"type": "text", "text": f"re: {prompt}"}]}
        ids.append(writer.append_message(answer | {"stopReason": "end_turn"})["id"])
    return writer.path, ids


def test_a_request_with_a_session_continues_it_from_its_leaf_or_the_entry_asked(
    tmp_path: Path,
) -> None:
    path, ids = _session(tmp_path / "sessions")
    start = start_chat(ChatRequest(path, cwd=CWD))
    assert start.path == path and start.leaf_id == ids[-1]
    assert [m["role"] for m in start.messages] == ["user", "assistant", "user", "assistant"]
    earlier = start_chat(ChatRequest(path, cwd=CWD, leaf_id=ids[1]))
    assert earlier.leaf_id == ids[1] and len(earlier.messages) == 2


def test_a_request_without_a_session_starts_one_nothing_on_disk(tmp_path: Path) -> None:
    base = tmp_path / "sessions"
    start = start_chat(ChatRequest(None, cwd=CWD, model=GPT, thinking="low"), sessions_dir=base)
    assert start.path is None and start.messages == []
    assert start.cwd == CWD and start.model == GPT and start.thinking == "low"
    assert not base.exists() or not any(base.rglob("*.jsonl"))


def test_the_model_and_thinking_asked_for_win_over_the_sessions(tmp_path: Path) -> None:
    path, _ = _session(tmp_path / "sessions")
    assert start_chat(ChatRequest(path, cwd=CWD)).model == SONNET
    start = start_chat(ChatRequest(path, cwd=CWD, model=GPT, thinking="high"))
    assert start.model == GPT and start.thinking == "high"


def test_a_session_mirrored_from_another_machine_is_read_only_and_says_why(
    tmp_path: Path,
) -> None:
    from ink_tui.agent.start import load_chat
    from ink_tui.paths import machines_dir
    from ink_tui.session.writing.writer import WriteBlockedError

    writer = SessionWriter.new(
        tmp_path, "/home/me/api", model=ModelRef("anthropic", "claude-sonnet-4-5")
    )
    writer.append_message({"role": "user", "content": "hello"})
    mirrored = machines_dir() / "devbox" / "home-me-api" / writer.path.name
    mirrored.parent.mkdir(parents=True)
    writer.path.rename(mirrored)  # as a sync brings it
    before = mirrored.read_bytes()
    read_only = load_chat(mirrored).read_only
    assert read_only is not None
    assert "copy of machine devbox's session" in read_only
    assert "go on with it on devbox" in read_only
    writer.path = mirrored
    with pytest.raises(WriteBlockedError, match="never written here"):
        writer.append_message({"role": "user", "content": "one more"})
    assert mirrored.read_bytes() == before
