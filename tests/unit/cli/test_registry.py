"""One command line: ``ink-tui --help`` lists exactly the commands of the registry, a command
added to the registry is in the parser tree (help, arguments, run), the first word decides
between a command and the app as the app's own options read the line, and the global options
work before and after every command."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from ink_tui.cli import main, registry
from ink_tui.cli.output import SafeOutput
from ink_tui.cli.parsing import APP_NAME, Command, parse


def _help(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """What ``ink-tui ARGV`` prints for help (it exits 0)."""
    with pytest.raises(SystemExit) as exited:
        main(list(argv))
    assert exited.value.code == 0
    return capsys.readouterr().out


def _listed_commands(help_text: str) -> list[tuple[str, str]]:
    """The ``commands (…):`` section of the app's help, as (name, help line), a help wrapped
    over several lines joined again."""
    listed: list[list[str]] = []
    for line in help_text[help_text.index("commands (") :].splitlines()[1:]:
        if line.startswith("   "):
            listed[-1][1] += " " + line.strip()
        elif line.strip():
            name, help_line = line.split(None, 1)
            listed.append([name, help_line])
    return [(name, help_line) for name, help_line in listed]


# -- --help and the registry --------------------------------------------------------------------


def test_help_lists_exactly_the_registered_commands_with_their_help_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = _help(capsys, "--help")
    registered = [(command.name, command.help) for command in registry.COMMANDS]
    assert len(registered) >= 17
    assert all(help_line and "\n" not in help_line for _, help_line in registered)
    assert _listed_commands(out) == registered  # every one, in order, and nothing else
    assert "--chat" in out and "--follow" in out and "SESSION" in out  # the app's own options


def test_every_registered_command_has_its_help_and_takes_the_global_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    names = [command.name for command in registry.COMMANDS]
    assert len(set(names)) == len(names) and APP_NAME not in names  # the app's node is unnamed
    for command in registry.COMMANDS:
        out = _help(capsys, command.name, "--help")
        assert out.startswith(f"usage: ink-tui {command.name} "), command.name
        for option in ("--sessions-dir DIR", "--cwd DIR", "--demo"):
            assert option in out, (command.name, option)
        assert command.module.startswith("ink_tui.cli.commands."), command.name


def test_every_registered_command_names_functions_its_module_has() -> None:
    """The registry names each command's module and functions, imported only when the line
    names the command: a misspelt name would fail only then, so each is looked up here."""
    import importlib

    from ink_tui.cli.parsing import Lazy

    for command in registry.COMMANDS:
        for function in (command.add_arguments, command.run):
            assert isinstance(function, Lazy), command.name
            module = importlib.import_module(function.module)
            assert callable(getattr(module, function.name, None)), (command.name, function)


@pytest.fixture
def hello(monkeypatch: pytest.MonkeyPatch) -> list[argparse.Namespace]:
    """A command ``hello WORD [--loud]`` added to the registry, nowhere else; the arguments each
    of its runs got."""
    runs: list[argparse.Namespace] = []

    def add_arguments(parser: argparse.ArgumentParser) -> None:
        parser.description = "Says hello to WORD, in the project."
        parser.add_argument("word", metavar="WORD", help="who to greet")
        parser.add_argument("--loud", action="store_true", help="in capitals")

    def run(args: argparse.Namespace, base: Path, cwd: str, out: SafeOutput) -> int:
        runs.append(args)
        greeting = f"hello {args.word} in {cwd} of {base}"
        out.line(greeting.upper() if args.loud else greeting)
        return 3

    command = Command(name="hello", help="greet someone", add_arguments=add_arguments, run=run)
    monkeypatch.setattr(registry, "COMMANDS", (*registry.COMMANDS, command))
    return runs


def test_a_command_added_to_the_registry_is_in_the_parser_tree(
    hello: list[argparse.Namespace], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert ("hello", "greet someone") in _listed_commands(_help(capsys, "--help"))
    own = _help(capsys, "hello", "--help")
    assert "Says hello to WORD, in the project." in own and "--loud" in own and "--cwd" in own
    code = main(["--sessions-dir", str(tmp_path), "hello", "ada", "--cwd", "/p", "--loud"])
    assert (code, capsys.readouterr().out) == (3, f"HELLO ADA IN /P OF {tmp_path}\n".upper())
    assert [args.command for args in hello] == ["hello"]
    assert main(["hello"]) == 2  # its usage error is one line, as every command's
    err = capsys.readouterr().err
    assert err == "ink-tui: the following arguments are required: WORD (see ink-tui hello --help)\n"


def test_without_its_registry_line_a_command_is_a_session_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``hello`` is no command unless registered: the app reads it as SESSION."""
    assert main(["--sessions-dir", "/nonexistent-ink", "hello"]) == 2
    assert 'no session matching "hello"' in capsys.readouterr().err


# -- the first word: a command, or the app's SESSION --------------------------------------------


def _named(*argv: str) -> tuple[str | None, argparse.Namespace]:
    command, args = parse(argv, registry.APP, registry.COMMANDS)
    return (None if command is None else command.name), args


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["list", "--all"], "list"),
        (["--demo", "stats", "--json"], "stats"),
        (["--cwd", "/p", "search", "--limit", "3", "fix"], "search"),
        (["--sessions-dir=/s", "export", "x", "--thinking"], "export"),  # export's --thinking
        (["--sess", "/s", "tree", "x"], "tree"),  # an abbreviated global option
    ],
)
def test_a_first_word_naming_a_command_runs_it(argv: list[str], command: str) -> None:
    assert _named(*argv)[0] == command


@pytest.mark.parametrize(
    ("argv", "session", "resume", "cwd"),
    [
        (["-r", "list"], None, "list", None),  # -r takes a value: no command named
        (["--cwd", "list", "-c"], None, None, "list"),
        (["--model", "a/b", "notes", "--chat"], "notes", None, None),
        (["--", "list"], "list", None, None),  # after --, a word names no command
        ([], None, None, None),
    ],
)
def test_otherwise_the_line_is_the_app_s(
    argv: list[str], session: str | None, resume: str | None, cwd: str | None
) -> None:
    command, args = _named(*argv)
    assert command is None
    assert (args.session, args.resume, args.cwd) == (session, resume, cwd)


def test_global_options_before_and_after_the_command_agree() -> None:
    before = _named("--sessions-dir", "/s", "--cwd", "/p", "--demo", "check", "x")[1]
    after = _named("check", "x", "--sessions-dir", "/s", "--cwd", "/p", "--demo")[1]
    split = _named("--sessions-dir", "/s", "check", "--cwd", "/p", "x")[1]
    for args in (before, after):
        assert (args.sessions_dir, args.cwd, args.demo) == ("/s", "/p", True)
    assert (split.sessions_dir, split.cwd, split.demo) == ("/s", "/p", False)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--thinking", "nope", "list"], "argument --thinking: invalid choice: 'nope'"),
        (["--chat", "list"], "unrecognized arguments: --chat (see ink-tui --help)"),
        (["list", "--chat"], "unrecognized arguments: --chat (see ink-tui --help)"),
        (["-c", "-r", "x"], "argument -r/--resume: not allowed with argument -c/--continue"),
    ],
)
def test_a_usage_error_is_one_line_exit_2(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith("ink-tui: ") and said in captured.err
