"""Current Ink's rules (0.2 and later, spec §1-§7), each on the project's own session files.

The shared fixtures check the same rules again when ``../shared`` is there; these tests carry
their own small files so that they run on any clone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ink_tui.agent.start import load_chat
from ink_tui.agent.windows import ContextWindow, context_window, should_compact, trigger_tokens
from ink_tui.catalog import ResolveError, list_sessions, resolve_resume
from ink_tui.catalog.titles import first_line_title
from ink_tui.cli import main
from ink_tui.cli.app import LaunchError, startup_thinking
from ink_tui.paths import project_dir
from ink_tui.session import ModelRef, open_session
from ink_tui.session.conversation.pairing import UNKNOWN_OUTCOME_TEXT, is_unknown_outcome
from ink_tui.session.conversation.tree import branch
from ink_tui.session.conversation.view import build_turns
from ink_tui.session.writing.repair import plan_torn_repair, repair_session

BOUNDARY = (
    "a new {role} message begins a turn while tool call(s) {ids} are still awaiting results — "
    "the transcript cannot be paired unambiguously (start a new task instead)"
)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- the turn boundary -------------------------------------------------------------------------


def boundary_session(sf: Any) -> Path:
    """A call left without a result, then a new user turn: Ink refuses to pair it."""
    return sf.write(
        sf.user("u1", None),
        sf.assistant("a1", "u1", calls=(("call_1", "bash"), ("call_2", "read"))),
        sf.results("r1", "a1", ("call_2", "read")),
        sf.user("u2", "r1", "and now?"),
        sf.assistant("a2", "u2"),
    )


def test_check_reports_the_turn_boundary_and_exits_2(
    sf: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = boundary_session(sf)
    code, out, _ = run(["check", str(path)], capsys)
    assert code == 2
    assert BOUNDARY.format(role="user", ids="call_1") in out
    code, out, _ = run(["check", str(path), "--json"], capsys)
    report = json.loads(out)
    assert report["exit"] == 2
    assert report["problem"] == BOUNDARY.format(role="user", ids="call_1")
    assert report["continuation"] == {"ok": False, "problem": report["problem"]}


def test_repair_refuses_the_turn_boundary_and_writes_nothing(
    sf: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = boundary_session(sf)
    before = path.read_bytes()
    code, _, err = run(["repair", str(path)], capsys)
    assert code == 2
    assert "not repairable, nothing was written" in err
    assert BOUNDARY.format(role="user", ids="call_1") in err
    assert path.read_bytes() == before


def test_a_new_assistant_message_while_calls_pend_is_a_boundary(sf: Any) -> None:
    path = sf.write(
        sf.user("u1", None),
        sf.assistant("a1", "u1", calls=(("call_1", "bash"),)),
        sf.assistant("a2", "a1", calls=(("call_2", "bash"),)),
        sf.results("r2", "a2", ("call_2", "bash")),
    )
    _, plan = repair_session(path)
    assert plan.problem == BOUNDARY.format(role="assistant", ids="call_1")


def test_the_chat_pane_opens_a_boundary_session_read_only_saying_why(sf: Any) -> None:
    start = load_chat(boundary_session(sf))
    assert start.read_only == BOUNDARY.format(role="user", ids="call_1")
    assert start.dangling == []  # nothing would be closed: nothing is written at all


# -- the unknown-outcome closure ---------------------------------------------------------------


def closed_session(sf: Any, tag: str) -> Path:
    text = UNKNOWN_OUTCOME_TEXT.replace("[ink]", f"[{tag}]", 1)
    closure = sf.entry(
        "message",
        "r1",
        "a1",
        message={
            "role": "toolResult",
            "results": [
                {"toolCallId": "call_1", "toolName": "bash", "content": text, "isError": True}
            ],
        },
    )
    return sf.write(
        sf.user("u1", None),
        sf.assistant("a1", "u1", calls=(("call_1", "bash"),)),
        closure,
        sf.user("u2", "r1", "next"),
    )


def test_ink_writes_its_closure_with_the_ink_tag(sf: Any) -> None:
    path = sf.write(sf.user("u", None), sf.assistant("a", "u", calls=(("call_1", "bash"),)))
    repair_session(path)
    last = json.loads(path.read_bytes().splitlines()[-1])
    result = last["message"]["results"][0]
    assert result["content"].startswith("[ink] this tool call was interrupted")
    assert is_unknown_outcome(result)


@pytest.mark.parametrize("tag", ["ink", "imp"])
def test_both_closures_read_as_unknown_outcome_and_paired(
    sf: Any, tag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = closed_session(sf, tag)
    session = open_session(path, warn=None)
    turns = build_turns(branch(session))
    (tool,) = [t for turn in turns for t in turn.tools()]
    assert tool.status == "unknown"
    code, out, _ = run(["check", str(path), "--json"], capsys)
    assert code == 0
    report = json.loads(out)
    assert report["dangling"] == [] and report["problem"] is None
    code, out, _ = run(["check", str(path)], capsys)
    assert code == 0
    assert "1 tool call, 0 dangling, 1 closed with unknown outcome" in out


def test_an_ordinary_error_result_is_not_an_unknown_outcome() -> None:
    result = {"toolCallId": "c", "toolName": "bash", "content": "[ink] exit 1", "isError": True}
    assert not is_unknown_outcome(result)
    closure = {"content": UNKNOWN_OUTCOME_TEXT, "isError": False}
    assert not is_unknown_outcome(closure)  # Ink's closure is always an error result
    blocks = {"content": [{"type": "text", "text": UNKNOWN_OUTCOME_TEXT}], "isError": True}
    assert is_unknown_outcome(blocks)


# -- the torn-tail repair and its note ---------------------------------------------------------


def test_repair_accepts_every_position_marker(sf: Any) -> None:
    """An earlier marker with a bad leafId plus a missing final newline: terminate, keep all."""
    path = sf.write(
        sf.user("u1", None),
        sf.position({"not": "an id"}),
        sf.assistant("a1", "u1"),
        sf.user("u2", "a1"),
        newline=False,
    )
    before = path.read_bytes()
    session = open_session(path, warn=None)
    repair = plan_torn_repair(session)
    assert repair is not None and (repair.action, repair.bytes) == ("terminated", 1)
    repair_session(path)
    assert path.read_bytes() == before + b"\n"
    assert [e.id for e in open_session(path, warn=None).entries] == ["u1", "a1", "u2"]


def test_the_torn_line_note_is_inks(sf: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = sf.write(sf.user("u1", None), b'{"type":"message","id":"x"', newline=False)
    code, _, err = run(["context", str(path)], capsys)
    assert code == 0
    assert f"ink: dropping torn final line in {path}" in err
    assert "imp:" not in err


# -- titles and the replay of a skill block ----------------------------------------------------

SKILL = '<skill name="release-notes" location="/home/ada/.ink/skills/release-notes/SKILL.md">\nbody'


@pytest.mark.parametrize(
    ("content", "title"),
    [
        (SKILL, "▪ skill: release-notes"),
        ([{"type": "text", "text": SKILL}], "▪ skill: release-notes"),
        ('<skill name="" location="/x">\nbody', '<skill name="" location="/x">'),
        ('<skill name="unclosed', '<skill name="unclosed'),
        ('  <skill name="x">', '  <skill name="x">'),  # not at the very start: a plain line
    ],
)
def test_a_skill_block_titles_as_its_name(content: Any, title: str) -> None:
    assert first_line_title(content) == title


def test_the_replay_shows_a_skill_prompt_as_its_one_line(sf: Any) -> None:
    path = sf.write(sf.user("u1", None, SKILL), sf.assistant("a1", "u1"))
    (turn,) = build_turns(branch(open_session(path, warn=None)))
    assert turn.title == "▪ skill: release-notes"


def test_the_title_is_the_first_user_message_in_file_order(sf: Any, tmp_path: Path) -> None:
    """A fork whose current branch starts elsewhere: the file's first user message titles it."""
    folder = project_dir(tmp_path / "sessions", "/home/ada/proj")
    folder.mkdir(parents=True)
    sf.root = folder
    sf.write(
        sf.user("u1", None, "first prompt in the file"),
        sf.assistant("a1", "u1"),
        sf.user("v1", None, "a later root, now the current branch"),
        sf.assistant("b1", "v1"),
    )
    (row,) = list_sessions(tmp_path / "sessions", "/home/ada/proj")
    assert row.title == "first prompt in the file"


@pytest.mark.parametrize(
    ("names", "title"),
    [
        (["  padded name \u3000"], "padded name"),  # JS trim() also strips U+3000
        (["kept", "   "], "the prompt"),  # a blank latest name clears, no fallback to "kept"
    ],
)
def test_session_names_as_ink_treats_them(
    sf: Any, tmp_path: Path, names: list[str], title: str
) -> None:
    folder = project_dir(tmp_path / "sessions", "/home/ada/proj")
    folder.mkdir(parents=True)
    sf.root = folder
    items: list[Any] = [sf.user("u1", None, "the prompt"), sf.assistant("a1", "u1")]
    parent = "a1"
    for index, name in enumerate(names):
        items.append(sf.entry("session_info", f"n{index}", parent, name=name))
        parent = f"n{index}"
    sf.write(*items)
    (row,) = list_sessions(tmp_path / "sessions", "/home/ada/proj")
    assert row.title == title


# -- child sessions ----------------------------------------------------------------------------


def child_session(sf: Any, version_key: str) -> Path:
    launch = {
        "version": 1,
        "parentSessionId": "p",
        "childId": "c",
        version_key: "0.2.2",
        "model": {"providerName": "anthropic", "wireModelId": "m", "reference": "anthropic/m"},
        "cwd": "/home/ada/proj",
        "tools": [],
        "system": {"sha256": "0" * 64},
        "extensions": [],
    }
    header = sf.header(parent="p", launch=launch)
    lines = [header, sf.user("u1", None), sf.assistant("a1", "u1")]
    data = b"\n".join(sf.line(item) for item in lines) + b"\n"
    return sf.write_bytes(data)


def test_an_imp_era_child_reads_normally_but_is_read_only_for_continuing(
    sf: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = child_session(sf, "impVersion")
    assert len(build_turns(branch(open_session(path, warn=None)))) == 1
    start = load_chat(path)
    assert start.read_only is not None and "impVersion" in start.read_only
    code, out, _ = run(["check", str(path)], capsys)
    assert code == 2 and "impVersion" in out


def test_a_current_child_can_be_continued(sf: Any) -> None:
    assert load_chat(child_session(sf, "inkVersion")).read_only is None


def test_a_staging_file_in_the_lease_folder_is_never_a_claim(sf: Any) -> None:
    path = child_session(sf, "inkVersion")
    lease = path.with_name(path.name + ".lease")
    lease.mkdir()
    (lease / ".staging-4821-6eedecd9-ac199b49-0bcfb368").write_text("")
    assert load_chat(path).read_only is None
    (lease / "lease-4821-6eedecd9-ac199b49").write_text("")
    assert "lease held by process 4821" in (load_chat(path).read_only or "")


# -- compaction trigger and thinking -----------------------------------------------------------


@pytest.mark.parametrize(
    ("window", "known", "trigger"),
    [
        (1_000_000, True, 850_000),  # 85 % comes first
        (200_000, True, 167_232),  # the full reserve comes first
        (100_000, True, 67_232),  # Ink's own test value
        (32_768, True, 27_852),  # tiny: the reserve cannot fit, 85 %
        (10, True, 8),
        (1, True, 1),  # never below one token
        (131_072, False, 98_304),  # unknown model: the legacy W - 32768
    ],
)
def test_the_compaction_trigger(window: int, known: bool, trigger: int) -> None:
    assert trigger_tokens(window, known=known) == trigger


def test_context_windows_come_from_env_catalog_static_then_fallback(tmp_path: Path) -> None:
    claude = ModelRef("anthropic", "claude-haiku-4-5")
    env = {"HOME": str(tmp_path)}
    assert context_window(claude, env) == ContextWindow(200_000, "static")
    assert context_window(ModelRef("openai", "local-7b"), env) == ContextWindow(131_072, "fallback")
    catalog = tmp_path / ".ink" / "models-catalog.json"
    catalog.parent.mkdir()
    entry = {"id": "local-7b", "contextWindow": 32_000}
    catalog.write_text(
        json.dumps({"version": 1, "providers": {"openai": {"models": {"x": entry}}}})
    )
    assert context_window(ModelRef("openai", "local-7b"), env) == ContextWindow(32_000, "catalog")
    assert context_window(claude, {**env, "INK_CONTEXT_WINDOW": "50000"}).tokens == 50_000
    assert context_window(claude, {**env, "INK_CONTEXT_WINDOW": "nope"}).source == "static"
    catalog.write_text("{ not json")
    assert context_window(ModelRef("openai", "local-7b"), env).source == "fallback"


def test_should_compact_is_strictly_above_the_trigger() -> None:
    window = ContextWindow(200_000, "static")
    assert not should_compact(167_232, window)
    assert should_compact(167_233, window)


def test_ink_thinking_is_a_startup_level_like_the_flag() -> None:
    assert startup_thinking(None, {"INK_THINKING": "high"}) == "high"
    assert startup_thinking("low", {"INK_THINKING": "high"}) == "low"  # the flag wins
    assert startup_thinking(None, {"INK_THINKING": " "}) is None
    with pytest.raises(LaunchError, match="INK_THINKING"):
        startup_thinking(None, {"INK_THINKING": "loud"})


# -- -r ID as Ink's --resume -------------------------------------------------------------------


def two_projects(sf: Any, tmp_path: Path) -> tuple[Path, Path, Path]:
    base = tmp_path / "sessions"
    home = project_dir(base, "/home/ada/proj")
    other = project_dir(base, "/home/ada/other")
    home.mkdir(parents=True)
    other.mkdir(parents=True)
    sf.root = home
    mine = sf.write(sf.user("u1", None), sf.assistant("a1", "u1"))
    sf.root = other
    theirs = sf.write_bytes(
        b"\n".join(
            sf.line(item)
            for item in (
                sf.header(id="7d1c0e2a-0000-4000-8000-000000000001"),
                sf.user("u1", None),
                sf.assistant("a1", "u1"),
            )
        )
        + b"\n"
    )
    return base, mine, theirs


def test_resume_finds_this_projects_session_as_ink_does(sf: Any, tmp_path: Path) -> None:
    base, mine, _ = two_projects(sf, tmp_path)
    found = resolve_resume(base, "/home/ada/proj", "0b4f6a52")
    assert found.path == mine and found.beyond_ink is None


def test_resume_falls_back_to_other_projects_and_says_ink_would_not(
    sf: Any, tmp_path: Path
) -> None:
    base, _, theirs = two_projects(sf, tmp_path)
    found = resolve_resume(base, "/home/ada/proj", "7d1c0e2a")
    assert found.path == theirs
    assert found.beyond_ink is not None and "another project" in found.beyond_ink


def test_resume_skips_what_ink_cannot_open_but_finds_it_as_a_fallback(
    sf: Any, tmp_path: Path
) -> None:
    base = tmp_path / "sessions"
    home = project_dir(base, "/home/ada/proj")
    home.mkdir(parents=True)
    sf.root = home
    broken = sf.write(sf.user("u1", None), sf.assistant("a1", "missing-parent"))
    found = resolve_resume(base, "/home/ada/proj", "0b4f")
    assert found.path == broken
    assert found.beyond_ink is not None and "Ink cannot open it" in found.beyond_ink


def test_resume_with_no_match_names_the_folder(sf: Any, tmp_path: Path) -> None:
    base, _, _ = two_projects(sf, tmp_path)
    with pytest.raises(ResolveError, match='no session matching "ffff"'):
        resolve_resume(base, "/home/ada/proj", "ffff")
