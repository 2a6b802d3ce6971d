"""``ink-tui replay``: the records printed as they played, sleeping per the plan (a fake sleep
moves a fake clock: nothing waits), at once when stdout is no terminal, Ctrl-C, safe text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from timedsession import ANSWER, FakeClock, conversation, write_timed

import ink_tui.cli.commands.replay as replay_command
from ink_tui.session.analysis.playback import MACHINE_IDLE_CAP, USER_IDLE_CAP

TRANSCRIPT = f"""\
[10:00:00] user
    why do the tests fail?
[10:00:20] assistant anthropic/claude-sonnet-4-5
    Running them.
    → bash pytest -q
[10:00:25] result of bash
    ← bash ok
    3 passed
[10:03:20] assistant anthropic/claude-sonnet-4-5
    {ANSWER}
[10:03:50] user
    thanks
"""


@pytest.fixture
def session(tmp_path: Path) -> Path:
    return write_timed(tmp_path / "timed.jsonl", conversation())


class Terminal:
    """stdout taken for a terminal; sleeping moves the fake clock and is recorded."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.clock = FakeClock()
        self.sleeps: list[float] = []
        self.interrupt_after: int | None = None
        monkeypatch.setattr(replay_command, "_is_terminal", lambda out: True)
        monkeypatch.setattr(replay_command, "_clock", self.clock)
        monkeypatch.setattr(replay_command, "_sleep", self.sleep)

    def sleep(self, seconds: float) -> None:
        if self.interrupt_after is not None and len(self.sleeps) >= self.interrupt_after:
            raise KeyboardInterrupt
        assert seconds > 0
        self.sleeps.append(seconds)
        self.clock.advance(seconds)


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Terminal:
    return Terminal(monkeypatch)


def test_not_a_terminal_prints_everything_at_once(
    cli: Any, session: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(replay_command, "_sleep", lambda seconds: pytest.fail("slept"))
    assert cli.run("replay", str(session)) == (0, TRANSCRIPT, "")


@pytest.mark.parametrize("speed", [1, 5, 50])
def test_a_terminal_waits_the_plan_at_each_speed(
    cli: Any, session: Path, terminal: Terminal, speed: int
) -> None:
    code, out, err = cli.run("replay", str(session), "--speed", str(speed))
    assert (code, out, err) == (0, TRANSCRIPT, "")
    skipped = 20 + 5 + MACHINE_IDLE_CAP + USER_IDLE_CAP
    assert sum(terminal.sleeps) == pytest.approx(skipped / speed)
    assert len(terminal.sleeps) > 10  # the replies streamed in, many small steps


def test_a_long_branch_plays_a_part_at_a_time(
    cli: Any, session: Path, terminal: Terminal, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ink_tui.session.analysis.playback as playback

    monkeypatch.setattr(playback, "PLAN_LIMIT", 2)
    code, out, err = cli.run("replay", str(session), "--no-skip-idle")
    assert (code, out, err) == (0, TRANSCRIPT, "")
    assert sum(terminal.sleeps) == pytest.approx(230)  # the gaps between the parts too
    terminal.interrupt_after = len(terminal.sleeps) - 1  # at the last sleep: the last part
    terminal.sleeps.clear()
    code, _, err = cli.run("replay", str(session), "--no-skip-idle")
    assert code == 130
    assert cli.one_error_line(err, naming="replay stopped at record 5 of 5")


def test_no_skip_idle_waits_every_gap(cli: Any, session: Path, terminal: Terminal) -> None:
    code, out, _ = cli.run("replay", str(session), "--no-skip-idle", "--speed", "10")
    assert (code, out) == (0, TRANSCRIPT)
    assert sum(terminal.sleeps) == pytest.approx(230 / 10)


def test_text_streams_in_before_its_record_is_over(
    cli: Any, session: Path, terminal: Terminal, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[str] = []
    sleep = terminal.sleep

    def look_then_sleep(seconds: float) -> None:
        seen.append(capsys.readouterr().out)
        sleep(seconds)

    replay_command._sleep = look_then_sleep  # the fixture's monkeypatch restores it
    cli.run("replay", str(session))
    parts = [chunk.strip() for chunk in seen if chunk.strip() and chunk.strip() in ANSWER]
    assert len(parts) >= 3  # the answer came in pieces, between sleeps
    assert ANSWER not in parts


def test_ctrl_c_stops_cleanly(cli: Any, session: Path, terminal: Terminal) -> None:
    terminal.interrupt_after = 3
    code, out, err = cli.run("replay", str(session))
    assert code == 130
    assert out.startswith("[10:00:00] user\n")
    assert cli.one_error_line(err, naming="replay stopped at record 2 of 5")


def test_bad_speed_and_missing_branch_are_one_line(cli: Any, session: Path) -> None:
    code, _, err = cli.run("replay", str(session), "--speed", "100")
    assert code == 2 and cli.one_error_line(err, naming="--speed must be from 1 to 50")
    code, _, err = cli.run("replay", str(session), "--branch", "nope")
    assert code == 2 and cli.one_error_line(err, naming="nope")


def test_a_branch_and_a_bad_timestamp(cli: Any, tmp_path: Path) -> None:
    path = write_timed(tmp_path / "t.jsonl", conversation((0, 20, "soon", 200, 230)))
    code, out, err = cli.run("replay", str(path), "--branch", "e1")
    assert code == 0
    assert out.splitlines()[-2:] == ["    Running them.", "    → bash pytest -q"]
    assert "[line 3]" not in out and "e2" not in out
    code, out, err = cli.run("replay", str(path))
    assert "[line 4] result of bash" in out
    assert cli.one_error_line(err, naming="line 4: timestamp unreadable")


def test_session_text_never_reaches_the_terminal_raw(cli: Any, tmp_path: Path) -> None:
    hostile = "before \x1b]0;pwned\x07 \x1b[2J after"
    path = write_timed(
        tmp_path / "h.jsonl", [(0, {"role": "user", "content": hostile}), *conversation()[1:2]]
    )
    code, out, _ = cli.run("replay", str(path))
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out
    assert "pwned" in out


def test_an_empty_branch_says_so(cli: Any, tmp_path: Path) -> None:
    path = write_timed(tmp_path / "empty.jsonl", [])
    code, out, err = cli.run("replay", str(path))
    assert (code, err) == (0, "")
    assert out.endswith("the branch is empty: nothing to replay\n")
