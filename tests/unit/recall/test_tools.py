"""``session_context`` and ``session_changes`` as an agent meets them, and what every tool
promises whatever the session holds: every cited entry is in its file, no answer is over its
budget (a 5 MB message, a 200,000-line write), no planted secret and no escape sequence comes
back, and a session still being written is read as far as it is whole."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import changesdata
import pytest
from inksessions import entry_ids, ink_session
from mcpclient import CWD, call, connected, error_line

from ink_tui.paths import project_dir

SECRET = "ghp_" + "R8x2" * 9  # a planted GitHub token shape (not a real one)
HOSTILE = "done \x1b]52;c;cm0gLXJmIH4=\x07 \x1b[2J\x1b[H \u202egnp.exe\u202c \x9b31m"


def _strings(value: Any) -> list[str]:
    """Every string an answer holds, keys and values."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [*value, *(s for item in value.values() for s in _strings(item))]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def _compacted(base: Path) -> Path:
    """A session compacted once: two turns, the compaction (summary, one retained message),
    a thinking change, a model change, then a third turn."""
    folder = project_dir(base, CWD)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = "2026-11-21T09:{:02d}:00Z".format
    tail = {"role": "user", "content": "the retained request"}
    records: list[dict[str, Any]] = [
        {"type": "session", "version": 1, "id": "compacted", "timestamp": stamp(0), "cwd": CWD,
         "model": {"provider": "anthropic", "modelId": "claude-sonnet-4-5"}},
        {"type": "message", "id": "u1", "parentId": None, "timestamp": stamp(1),
         "message": {"role": "user", "content": "first request"}},
        {"type": "message", "id": "a1", "parentId": "u1", "timestamp": stamp(2),
         "message": {"role": "assistant", "blocks": [{"type": "text", "text": "first answer"}]}},
        {"type": "thinkingLevelChange", "id": "t1", "parentId": "a1", "timestamp": stamp(3),
         "thinkingLevel": "high"},
        {"type": "compaction", "id": "c1", "parentId": "t1", "timestamp": stamp(4),
         "summary": "## Goal\nmake retry calmer", "retainedTail": [tail], "tokensBefore": 900},
        {"type": "session_model", "provider": "openai", "modelId": "gpt-5.1", "explicit": True,
         "timestamp": stamp(5)},
        {"type": "thinkingLevelChange", "id": "t2", "parentId": "c1", "timestamp": stamp(6),
         "thinkingLevel": "low"},
        {"type": "message", "id": "u2", "parentId": "t2", "timestamp": stamp(7),
         "message": {"role": "user", "content": "second request"}},
    ]  # fmt: skip
    path = folder / "2026-11-21T09-00-00-000Z-compacted.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


@pytest.fixture
def sessions(tmp_path: Path) -> Path:
    return tmp_path / "sessions"


async def test_session_context_is_what_the_model_saw_at_each_point(sessions: Path) -> None:
    path = _compacted(sessions)
    async with connected(sessions) as client:
        leaf = await call(client, "session_context", session="compacted")
        early = await call(client, "session_context", session=str(path), at_entry="a1")
        unknown = await error_line(client, "session_context", session="compacted", at_entry="zz")
    assert leaf["compacted"] is True and leaf["compactionBoundary"] == 2
    assert [(m["entryId"], m["head"]) for m in leaf["messages"]] == [
        ("c1", "compaction summary"),
        ("c1", "user"),
        ("u2", "user"),
    ]
    assert leaf["messages"][0]["text"] == "## Goal\nmake retry calmer"
    assert (leaf["model"], leaf["thinkingLevel"]) == ("openai/gpt-5.1", "low")
    assert leaf["atEntry"] == "u2" and leaf["omitted"] is None
    # Before the compaction, the model, thinking level and messages were those of then.
    assert early["compacted"] is False and early["atEntry"] == "a1"
    assert [m["text"] for m in early["messages"]] == ["first request", "first answer"]
    assert (early["model"], early["thinkingLevel"]) == ("anthropic/claude-sonnet-4-5", "medium")
    assert {m["entryId"] for m in leaf["messages"] + early["messages"]} <= entry_ids(path)
    assert "no entry 'zz'" in unknown


async def test_session_changes_gives_each_file_net_lines_and_diffs(sessions: Path) -> None:
    path = changesdata.changes_session(sessions)
    async with connected(sessions) as client:
        whole = await call(client, "session_changes", session=str(path), budget_tokens=20_000)
        small = await call(client, "session_changes", session=str(path), budget_tokens=300)
    files = {change["path"]: change for change in whole["files"]}
    assert (whole["filesChanged"], whole["added"], whole["removed"]) == (3, 10, 2)
    main = files["calc/main.py"]
    assert (main["added"], main["removed"], main["turns"], main["failedCalls"]) == (
        6,
        2,
        [1, 2, 3],
        1,
    )
    assert "+def mul(a, b):" in main["diff"] and "-def add(a, b):" in main["diff"]
    assert files["NOTES.md"]["created"] is True
    old = files["calc/old.py"]
    assert old["added"] is None and "nothing shows its content" in old["notReconstructed"]
    assert whole["notReconstructed"] == 1 and whole["diffsOmitted"] == []
    # A small budget keeps the list and says which diffs were cut or left out.
    assert small["filesChanged"] == 3
    listed = small["files"]
    cut = [f for f in listed if f["diff"] and "more lines cut (the budget)" in f["diff"]]
    assert cut or small["diffsOmitted"] or small["filesOmitted"]


def _huge(base: Path) -> tuple[Path, Path]:
    """A session with a 5 MB message, and one whose write holds 200,000 lines."""
    big = ink_session(base, CWD, "big", ["x" * 5_000_000, "and then?"], reply="ok")
    script = changesdata.SessionScript(project_dir(base, CWD), CWD)
    script.prompt("write the table")
    script.write("table.txt", "".join(f"row {n}\n" for n in range(200_000)))
    script.answer("written")
    return big, script.path


@pytest.mark.parametrize("budget", [200, 777, 4000])
async def test_no_answer_is_over_its_budget_even_for_huge_records(
    sessions: Path, budget: int
) -> None:
    big, table = _huge(sessions)
    async with connected(sessions) as client:  # ``call`` checks each text against the budget
        for session in (str(big), str(table)):
            read = await call(client, "read_session", session=session, budget_tokens=budget)
            context = await call(client, "session_context", session=session, budget_tokens=budget)
            changes = await call(client, "session_changes", session=session, budget_tokens=budget)
            assert read["blocks"] or read["omitted"]
            assert context["messages"] or context["omitted"]
            assert {b["entryId"] for b in read["blocks"]} <= entry_ids(Path(session))
        found = await call(
            client, "search_sessions", query="row", scope="all", budget_tokens=budget
        )
        await call(client, "list_sessions", scope="all", budget_tokens=budget)
    assert changes["filesChanged"] == 1
    assert found["found"] is True


async def test_a_5_mb_message_is_cut_to_fit_and_a_budget_too_small_refused(
    sessions: Path,
) -> None:
    big, _ = _huge(sessions)
    async with connected(sessions) as client:
        read = await call(client, "read_session", session=str(big), budget_tokens=1000)
        refused = await error_line(client, "read_session", session="big", budget_tokens=50)
    first, *_, last = read["blocks"]
    assert first["entryId"] == "u1" and "more characters cut (the budget)" in first["text"]
    assert last["entryId"] == "a2"
    assert refused.endswith("budget_tokens is at least 200, not 50")


async def test_no_planted_secret_and_no_escape_sequence_comes_back(sessions: Path) -> None:
    script = changesdata.SessionScript(project_dir(sessions, CWD), CWD)
    script.prompt(f"deploy with {SECRET} please {HOSTILE}")
    script.read("deploy.sh", f"export GITHUB_TOKEN={SECRET}\n")
    script.write("deploy.sh", f"export GITHUB_TOKEN={SECRET}\necho {HOSTILE}\n", created=False)
    script.call("bash", {"command": "rg token"}, f"\x1b[31m{SECRET}\x1b[0m {HOSTILE}")
    script.answer(f"deployed {HOSTILE}")
    session = str(script.path)
    async with connected(sessions) as client:
        answers = [
            await call(client, "search_sessions", query="deploy"),
            await call(client, "list_sessions"),
            await call(client, "read_session", session=session),
            await call(client, "session_context", session=session),
            await call(client, "session_changes", session=session),
        ]
    strings = _strings(answers)
    assert not [s for s in strings if "R8x2R8x2" in s]
    assert [answer["secretsMasked"] for answer in answers[2:]] == [1, 1, 1]  # one token, masked
    assert not [s for s in strings if any(c in s for c in "\x1b\x07\x9b\u202e")]
    shown = json.dumps(answers, ensure_ascii=False)
    assert "␛]52;c;cm0gLXJmIH4=␇" in shown  # the attempt stays visible, as text
    assert "<U+202E>gnp.exe" in shown


async def test_a_session_still_being_written_is_read_as_far_as_it_is_whole(
    sessions: Path,
) -> None:
    path = ink_session(sessions, CWD, "growing", ["first prompt"], reply="first reply")
    half = json.dumps(
        {"type": "message", "id": "u2", "parentId": "a1", "timestamp": "2026-11-20T11:02:00Z",
         "message": {"role": "user", "content": "second prompt"}}
    )  # fmt: skip
    with path.open("a") as file:
        file.write(half[:40])  # Ink is mid-write
    async with connected(sessions) as client:
        before = await call(client, "read_session", session="growing")
        context = await call(client, "session_context", session="growing")
        with path.open("a") as file:
            file.write(half[40:] + "\n")
        after = await call(client, "read_session", session="growing")
    assert [b["entryId"] for b in before["blocks"]] == ["u1", "a1"]
    assert context["atEntry"] == "a1"
    assert [b["entryId"] for b in after["blocks"]] == ["u1", "a1", "u2"]
    assert after["turns"] == 2


async def test_arguments_and_written_keys_are_masked_whole(sessions: Path) -> None:
    script = changesdata.SessionScript(project_dir(sessions, CWD), CWD)
    script.prompt("set up the deploy")
    body = "\n".join("Tq9Lm2Xw" * 8 for _ in range(5))
    key = f"-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----\n"
    script.write("deploy/id_ed25519", key)
    script.call("bash", {"command": 'export API_TOKEN="Zx9Kq2Lm7Wq3Vb8N" && ./deploy'}, "ok")
    script.answer("done")
    async with connected(sessions) as client:
        context = await call(client, "session_context", session=str(script.path))
        changes = await call(client, "session_changes", session=str(script.path))
    assert "Zx9Kq2Lm7Wq3Vb8N" not in json.dumps(context)
    assert "Tq9Lm2Xw" not in json.dumps(changes) and changes["filesChanged"] == 1
