"""The session view's header and timeline say figures that are right (issue 19): a rename a day
later lengthens nothing; while a big session loads, nothing partial passes for final; the
whole file's work is shown as Ink's ``/status`` shows it, and grows while following."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest
from figurestree import CWD, append_later, assistant, entry, timed_turns, user, write_session
from viewtext import header_text
from waiting import DEFAULT_TIMEOUT, wait_for

import ink_tui.ui.session_view.loader as session_load
from ink_tui.ui.screens.timeline import TimelineScreen
from ink_tui.ui.session_view.header import READING_MODEL
from ink_tui.ui.session_view.screen import SessionScreen
from ink_tui.ui.session_view.tree import SessionTree


def _screen(app: Any) -> SessionScreen | None:
    screen = app.screen
    if isinstance(screen, SessionScreen) and screen.loaded is not None:
        return screen
    return None


def _whole(app: Any) -> SessionScreen | None:
    screen = _screen(app)
    return screen if screen is not None and not screen.loaded.partial else None  # type: ignore[union-attr]


async def test_a_rename_a_day_later_lengthens_no_time_shown(tmp_path: Path, make_app: Any) -> None:
    path = timed_turns(tmp_path / "sessions" / "time")
    append_later(path, "session_info", {"name": "the build"})
    app = make_app(cwd=CWD, open_path=path)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await wait_for(pilot, lambda: _whole(app), "the session")
        assert "2 turns over 5m38s" in header_text(screen)  # not "over 1d00h"
        tree = screen.query_one(SessionTree)
        await wait_for(pilot, lambda: len(tree.top_rows) == 2, "the turns")
        assert tree.top_rows[1].text.endswith("3m58s · 30 tok")  # not 23h56m
        await pilot.press("T")
        await wait_for(pilot, lambda: isinstance(app.screen, TimelineScreen), "the timeline")
        title = app.screen.query_one("#timeline-title")
        await wait_for(pilot, lambda: "slowest" in str(title.render()), "the measured turns")
        text = str(title.render())
        assert "model 2m25s" in text and "slowest: turn 2 (3m58s)" in text  # not model 1d00h


def _model_session(folder: Path, turns: int = 20) -> Path:
    """Header model deepseek-chat; early on, ``/model moonshotai/kimi-k3`` and ``/thinking
    minimal``; then ``turns`` turns: the whole-file rules give kimi-k3 and minimal."""
    level = entry("thinkingLevelChange", "t0", None, "2026-10-05T09:00:01.000Z")
    records: list[Any] = [
        {"type": "session_model", "provider": "moonshotai", "modelId": "kimi-k3", "explicit": True},
        level | {"thinkingLevel": "minimal"},
    ]
    parent = "t0"
    for number in range(turns):
        when = f"2026-10-05T{10 + number // 60:02d}:{number % 60:02d}:00.000Z"
        records.append(user(f"u{number}", parent, when, f"prompt {number}"))
        answer = assistant(f"a{number}", f"u{number}", when, reference="moonshotai/kimi-k3")
        answer["message"]["blocks"][0]["text"] = "ok " * 1000  # long enough to read in parts
        records.append(answer)
        parent = f"a{number}"
    path = write_session(folder / "2026-10-05T09-00-00-000Z-m.jsonl", records, session_id="300")
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0]) | {"model": {"provider": "deepseek", "modelId": "deepseek-chat"}}
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    return path


def _hold_whole_read(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Every file opens from its end, and the whole read waits for the returned event."""
    release = threading.Event()
    original = session_load.open_session

    def held(*args: Any, **kwargs: Any) -> Any:
        assert release.wait(DEFAULT_TIMEOUT), "the test never released the whole read"
        return original(*args, **kwargs)

    monkeypatch.setattr(session_load, "TAIL_FIRST_BYTES", 0)
    monkeypatch.setattr(session_load, "open_session", held)
    return release


async def test_the_end_read_first_shows_no_model_and_no_count_as_final(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _model_session(tmp_path / "sessions" / "p", turns=600)
    release = _hold_whole_read(monkeypatch)
    app = make_app(cwd=CWD, open_path=path)
    async with app.run_test(size=(200, 40)) as pilot:
        screen = await wait_for(pilot, lambda: _screen(app), "the last turns, read from the end")
        assert screen.loaded is not None and screen.loaded.from_tail
        first, second = header_text(screen).splitlines()
        assert first.rstrip().endswith(f"/home/u/odd  {READING_MODEL}")
        assert "deepseek" not in first  # never the header's model as the session's
        shown = screen.loaded.stats.turns
        assert shown < 600
        assert second.startswith(f"the last {shown} turns (reading the whole session…): ")
        release.set()
        screen = await wait_for(pilot, lambda: _whole(app), "the whole session")
        first, second = header_text(screen).splitlines()
        assert "moonshotai/kimi-k3  thinking minimal" in first
        assert second.startswith("600 turns over 9h59m · 1,200 messages")


async def test_a_long_branch_shown_first_by_its_end_says_its_counts_are_partial(
    tmp_path: Path, make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bigload import hold_the_full_load

    path = _model_session(tmp_path / "sessions" / "p", turns=40)
    release = hold_the_full_load(monkeypatch)  # a branch over 40 entries: its end first
    app = make_app(cwd=CWD, open_path=path)
    async with app.run_test(size=(200, 40)) as pilot:
        screen = await wait_for(pilot, lambda: _screen(app), "the last turns")
        assert screen.loaded is not None and screen.loaded.earlier > 0
        first, second = header_text(screen).splitlines()
        assert "moonshotai/kimi-k3  thinking minimal" in first  # the whole file was read
        shown = screen.loaded.stats.turns
        assert second.startswith(f"the last {shown} turns (reading the whole session…): ")
        assert "work" not in second  # the whole file's totals come with the whole branch
        release.set()
        screen = await wait_for(pilot, lambda: _whole(app), "the whole branch")
        assert header_text(screen).splitlines()[1].startswith("40 turns over 39m00s")


def _work_session(folder: Path) -> Path:
    """Two sonnet replies on two branches (1000 in, 200 out, cache 5000 read, 2000 written:
    $0.015; then 500 in, 50 out: $0.00225): Ink's /status sums both, $0.01725 (Node prints
    0.017)."""
    cached = {"inputTokens": 1000, "outputTokens": 200, "cacheReadTokens": 5000}
    cached["cacheWriteTokens"] = 2000
    records = [
        user("u1", None, "2026-10-05T10:00:00.000Z"),
        assistant("a1", "u1", "2026-10-05T10:00:05.000Z", cached),
        user("u2", None, "2026-10-05T10:01:00.000Z"),  # another branch: the current one
        assistant("a2", "u2", "2026-10-05T10:01:05.000Z", {"inputTokens": 500, "outputTokens": 50}),
    ]
    return write_session(folder / "2026-10-05T10-00-00-000Z-w.jsonl", records, session_id="400")


async def test_the_work_is_inks_status_over_the_whole_file_and_grows_when_followed(
    tmp_path: Path, make_app: Any
) -> None:
    path = _work_session(tmp_path / "sessions" / "w")
    app = make_app(cwd=CWD, open_path=path, follow=True)
    async with app.run_test(size=(200, 40)) as pilot:
        screen = await wait_for(pilot, lambda: _whole(app), "the session")
        await wait_for(pilot, lambda: screen.live.following, "following")
        second = header_text(screen).splitlines()[1]
        assert "work ↑1.5k ↓250 $0.017 (estimate)" in second  # both branches
        assert "branch tokens in 500 out 50" in second  # the shown branch's own
        zero = {"inputTokens": 0, "outputTokens": 0}
        reply = assistant("a3", "a2", "2026-10-05T10:02:00.000Z", zero, usageMissing=True)
        with path.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(reply) + "\n")
        await wait_for(
            pilot, lambda: "work ↑1.5k ↓250 $0.017! (estimate)" in header_text(screen), "the !"
        )


def test_only_dollars_are_called_an_estimate(tmp_path: Path) -> None:
    from ink_tui.session import open_session
    from ink_tui.session.conversation.branchview import load_branch
    from ink_tui.ui.session_view.header import work_text

    def shown(reference: str) -> str:
        records = [user("u1", None, "2026-10-05T10:00:00.000Z")]
        records.append(assistant("a1", "u1", "2026-10-05T10:00:01.000Z", reference=reference))
        path = write_session(tmp_path / f"{len(list(tmp_path.iterdir()))}.jsonl", records)
        return work_text(load_branch(open_session(path, warn=None), None))

    assert shown("anthropic/claude-sonnet-4-5") == "work ↑10 ↓1 $0.000 (estimate)"  # 45 µ$
    assert shown("openai/gpt-5.1") == "work ↑10 ↓1 $?"  # no static rate: nothing to estimate
    assert shown("zai/glm-5.3") == "work ↑10 ↓1 $0.000 (sub) (estimate)"
