"""The pure core never imports Textual, and imports run one way (see DESIGN.md section 1).

Static checks (an AST walk of every module, function-level imports included) read the
import-linter contracts of pyproject.toml, so plain pytest fails as ``lint-imports`` would: a core
module importing Textual, or a lower layer importing a higher one. A dynamic check imports the
core and the CLI module in a fresh interpreter and looks at ``sys.modules``.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fresh import held_of, isolated_environment, last_list, run_fresh
from testdata import TREE_HOME_CWD, copy_tree

PACKAGE_ROOT = Path(__file__).resolve().parents[2] / "ink_tui"
PYPROJECT = PACKAGE_ROOT.parent / "pyproject.toml"
PURE_PACKAGES = ("session", "catalog", "agent")
# Modules that must import without pulling in Textual. ink_tui.paths always exists; the others
# are checked whenever they exist.
HEADLESS_MODULES = (
    "ink_tui.paths",
    "ink_tui.session",
    "ink_tui.catalog",
    "ink_tui.agent",
    "ink_tui.cli",
)
FORBIDDEN = "textual"


def _imported_roots(tree: ast.AST) -> set[str]:
    """Top-level package names imported anywhere in a module (including inside functions)."""
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            roots.add(node.args[0].value.split(".")[0])
    return roots


def _existing_pure_packages() -> list[Path]:
    return [PACKAGE_ROOT / name for name in PURE_PACKAGES if (PACKAGE_ROOT / name).is_dir()]


def test_pure_packages_exist() -> None:
    assert _existing_pure_packages(), "none of ink_tui.session, .catalog, .agent found"


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_pure_package_sources_do_not_import_textual(package: str) -> None:
    directory = PACKAGE_ROOT / package
    if not directory.is_dir():
        pytest.skip(f"ink_tui.{package} does not exist yet")
    sources = sorted(directory.rglob("*.py"))
    assert sources, f"ink_tui.{package} has no .py files"
    offenders = [
        str(source.relative_to(PACKAGE_ROOT.parent))
        for source in sources
        if FORBIDDEN in _imported_roots(ast.parse(source.read_text("utf-8"), str(source)))
    ]
    assert not offenders, f"these modules import {FORBIDDEN}: {offenders}"


def test_ast_check_catches_textual_imports() -> None:
    """The static check itself is not vacuous."""
    for code in (
        "import textual",
        "import textual.app as a",
        "from textual.widgets import Static",
        "def f():\n    from textual import on",
        "importlib.import_module('textual.app')",
    ):
        assert FORBIDDEN in _imported_roots(ast.parse(code)), code
    assert FORBIDDEN not in _imported_roots(ast.parse("from . import textual_like\nimport rich"))


def test_headless_modules_do_not_load_textual() -> None:
    modules = [name for name in HEADLESS_MODULES if importlib.util.find_spec(name) is not None]
    assert "ink_tui.paths" in modules
    assert len(modules) >= 2, f"too few headless modules to check: {modules}"
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"loaded = sorted(m for m in sys.modules if m == {FORBIDDEN!r} "
        f"or m.startswith({FORBIDDEN + '.'!r}))\n"
        "assert not loaded, loaded\n"
    )
    run_fresh(code)


def test_browsing_never_imports_the_model_sdks() -> None:
    """The app, its screens and the chat pane load without ``anthropic`` or ``openai``: the SDKs
    (about a second to import) are imported when a chat sends its first request."""
    code = (
        "import sys\n"
        "import ink_tui.ui.app, ink_tui.ui.screens.picker, ink_tui.ui.session_view.screen\n"
        "import ink_tui.ui.screens.chat, ink_tui.agent.chat, ink_tui.cli\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('anthropic', 'openai'))\n"
        "assert not loaded, loaded\n"
    )
    run_fresh(code)


LOADED_WHEN_FIRST_USED = (
    "anthropic",
    "openai",
    "pygments",
    "markdown_it",
    "rich.markdown",
    "rich.syntax",
    "importlib.metadata",
    "ink_tui.agent",
    "ink_tui.ui.screens.chat",
    "ink_tui.ui.session_view",
    "ink_tui.catalog.search",
    "ink_tui.demo",
)


def _loaded_after(code: str, names: Iterable[str]) -> list[str]:
    """Which of ``names`` (modules or packages) a fresh interpreter holds after ``code``."""
    out, _ = run_fresh(f"{code}\n{held_of(names)}")
    return last_list(out)


def test_the_picker_starts_without_what_only_other_views_need() -> None:
    """Start-up imports only what the picker needs: Markdown, syntax highlighting, the session
    view, the chat pane, search and the model SDKs load when first used (the app warms some of
    them up in a worker thread after its first paint)."""
    code = "import ink_tui.cli, ink_tui.ui.app, ink_tui.ui.screens.picker"
    assert _loaded_after(code, LOADED_WHEN_FIRST_USED) == []


def test_a_subcommand_loads_neither_textual_nor_the_index_before_it_runs() -> None:
    names = (
        "textual",
        "sqlite3",
        "ink_tui.catalog.index",
        "ink_tui.catalog.search",
        "ink_tui.catalog.scan",
        "ink_tui.session.reading.reader",
        "ink_tui.cli.app",
        "ink_tui.cli.registry",
        "ink_tui.cli.commands",
        "platformdirs",
    )
    assert _loaded_after("import ink_tui.cli", names) == []


# What building the parser tree (every command registered) and parsing a line never need: each
# command's module imports what its run needs when it runs.
NOT_FOR_THE_PARSER = (
    "textual",
    "rich",
    "sqlite3",
    "pygments",
    "watchfiles",
    "anthropic",
    "openai",
    "importlib.metadata",
    "ink_tui.ui",
    "ink_tui.agent",
    "ink_tui.demo",
    "ink_tui.export",
    "ink_tui.manage",
    "ink_tui.catalog",
    "ink_tui.session.reading.reader",
    "ink_tui.session.conversation.context",
    "ink_tui.session.writing",
    "ink_tui.session.analysis",
    "ink_tui.session.live",
)


def test_the_parser_tree_loads_no_command_s_run_time_needs() -> None:
    """The whole tree (every command's module imported to build it, as ``COMMAND --help`` of
    each does): none of them may pull in at its top what only its run needs (the catalog, the
    writer, Rich, the app)."""
    code = (
        "from ink_tui.cli import registry\n"
        "from ink_tui.cli.parsing import build_parser, parse\n"
        "build_parser(registry.APP, registry.COMMANDS)\n"
        "line = ['search', 'x', '--all']\n"
        "assert parse(line, registry.APP, registry.COMMANDS)[0].name == 'search'\n"
        "assert parse(['-c', '--chat'], registry.APP, registry.COMMANDS)[0] is None\n"
    )
    assert _loaded_after(code, NOT_FOR_THE_PARSER) == []


def _command_modules() -> tuple[str, ...]:
    from ink_tui.cli import registry

    return tuple(sorted({command.module for command in registry.COMMANDS}))


@pytest.mark.parametrize(
    ("line", "imported"),
    [
        (["search", "x", "--all"], ["ink_tui.cli.commands.search"]),
        (["--cwd", "/p", "repair", "x", "--dry-run"], ["ink_tui.cli.commands.check"]),
        (["list", "--help"], ["ink_tui.cli.commands.listing"]),
        (["-c", "--chat"], []),  # the app
        (["--help"], []),  # every command listed, none imported
    ],
)
def test_a_line_imports_the_module_of_the_command_it_names_and_no_other(
    line: list[str], imported: list[str]
) -> None:
    code = (
        "import contextlib, io\n"
        "from ink_tui.cli import registry\n"
        "from ink_tui.cli.parsing import parse\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        f"    parse({line!r}, registry.APP, registry.COMMANDS)\n"
    )
    modules = _command_modules()
    assert len(modules) >= 10
    assert _loaded_after(code, modules) == imported


def test_the_parser_probe_sees_a_command_module_s_imports() -> None:
    """The check above is not vacuous: a module importing the catalog is seen."""
    code = "from ink_tui.cli import registry\nimport ink_tui.catalog.scan\n"
    assert "ink_tui.catalog" in _loaded_after(code, NOT_FOR_THE_PARSER)


def _top_level_imports(tree: ast.Module) -> set[str]:
    """The modules a module imports when it is imported (not inside a function or a class)."""
    found: set[str] = set()
    for node in tree.body:
        for inner in ast.walk(node):
            if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                break
            if isinstance(inner, ast.Import):
                found.update(alias.name for alias in inner.names)
            elif isinstance(inner, ast.ImportFrom) and inner.module and not inner.level:
                found.add(inner.module)
    return found


def test_only_the_app_command_imports_the_ui_and_only_when_it_runs() -> None:
    """``ink_tui.cli.app`` is the command line's one door to the ui, opened inside ``run``; no
    other module of the command line imports the ui or Textual at all."""
    reaches = {}
    for module, path in _module_files():
        if module == "ink_tui.cli" or module.startswith("ink_tui.cli."):
            tree = ast.parse(path.read_text("utf-8"), str(path))
            anywhere = {name for name in _imports_of(module, path) if name.startswith("ink_tui.ui")}
            at_top = {
                name
                for name in _top_level_imports(tree)
                if name.split(".")[0] == FORBIDDEN or name.startswith("ink_tui.ui")
            }
            reaches[module] = (anywhere, at_top, FORBIDDEN in _imported_roots(tree))
    assert len(reaches) >= 15, sorted(reaches)
    anywhere, at_top, textual = reaches.pop("ink_tui.cli.app")
    assert "ink_tui.ui.app" in anywhere and not at_top and not textual
    assert {module: found for module, found in reaches.items() if any(found)} == {}


# What ``ink-tui index`` and ``ink-tui search`` never need: the app and its libraries, the chat,
# the session view's context, writing and repair, the demo, the picker's listing, the version.
NOT_FOR_THE_INDEX_COMMANDS = (
    "textual",
    "rich",
    "pygments",
    "markdown_it",
    "watchfiles",
    "anthropic",
    "openai",
    "importlib.metadata",
    "ink_tui.ui",
    "ink_tui.agent",
    "ink_tui.demo",
    "ink_tui.catalog.index.listing",
    "ink_tui.session.conversation.context",
    "ink_tui.session.writing.report",
    "ink_tui.session.writing.repair",
    "ink_tui.session.writing.writer",
)


def _loaded_after_command(arguments: list[str], home: Path, names: Iterable[str]) -> list[str]:
    """Which of ``names`` a fresh interpreter holds after ``ink-tui ARGUMENTS`` ran there
    (its cache dir in ``home``; the command must succeed or find nothing, exit 0 or 1)."""
    code = (
        "import sys\n"
        "from ink_tui.cli import main\n"
        f"code = main({arguments!r})\n"
        "assert code in (0, 1), code\n"
    )
    probe = code + held_of(names, stream="sys.stderr")  # stdout is the command's
    _, err = run_fresh(probe, environment=isolated_environment(home))
    return last_list(err)


@pytest.mark.parametrize(
    "command",
    [
        ["index", "--all"],
        ["search", "fix", "--all"],
        ["search", "fix", "--json", "--limit", "3"],
        ["search", "nothing-matches-this-zqx"],
    ],
)
def test_the_index_commands_import_only_what_they_need(tmp_path: Path, command: list[str]) -> None:
    """``ink-tui search`` is mostly start-up: it runs without the app, the chat, the session
    view or the repair (a regression here makes every search slower, however small the index)."""
    tree = copy_tree(tmp_path / "sessions")
    arguments = [*command, "--sessions-dir", str(tree), "--cwd", TREE_HOME_CWD]
    assert _loaded_after_command(arguments, tmp_path, NOT_FOR_THE_INDEX_COMMANDS) == []


def test_the_probe_sees_what_a_command_imports(tmp_path: Path) -> None:
    """The check above is not vacuous: ``check`` does read a session and pair its calls."""
    tree = copy_tree(tmp_path / "sessions")
    session = next(tree.rglob("*.jsonl"))
    arguments = ["check", str(session), "--sessions-dir", str(tree)]
    loaded = _loaded_after_command(arguments, tmp_path, NOT_FOR_THE_INDEX_COMMANDS)
    assert "ink_tui.session.writing.report" in loaded and "textual" not in loaded


def test_every_one_line_error_of_the_command_line_exists() -> None:
    """``main`` catches these by name once their module is imported: each must be an error."""
    from ink_tui.cli.entry import ONE_LINE_ERRORS

    for module, name in ONE_LINE_ERRORS:
        error = getattr(importlib.import_module(module), name)
        assert isinstance(error, type) and issubclass(error, Exception), (module, name)


# --- the contracts of pyproject.toml, checked without import-linter ----------------------------


def _contracts(kind: str) -> list[dict[str, Any]]:
    config = tomllib.loads(PYPROJECT.read_text("utf-8"))["tool"]["importlinter"]
    return [contract for contract in config["contracts"] if contract["type"] == kind]


def _module_files() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE_ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        yield ".".join(parts), path


def _imports_of(module: str, path: Path) -> set[str]:
    """The ``ink_tui`` modules ``module`` imports (``from a import b`` counts as ``a`` and
    ``a.b``; relative imports resolved)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name == "ink_tui" or name.startswith("ink_tui.")}


def _layers(contract: dict[str, Any]) -> list[tuple[list[str], bool]]:
    """Each layer's modules (optional ones unwrapped) and whether its siblings are independent."""
    layers = []
    for layer in contract["layers"]:
        separator = ":" if ":" in layer else "|"
        names = [name.strip().strip("()") for name in layer.split(separator)]
        layers.append((names, separator == "|"))
    return layers


def _place(module: str, layers: list[tuple[list[str], bool]]) -> tuple[int, str] | None:
    for index, (names, _) in enumerate(layers):
        for name in names:
            if module == name or module.startswith(name + "."):
                return index, name
    return None


def layer_violations(
    edges: Iterable[tuple[str, str]], layers: list[tuple[list[str], bool]]
) -> list[str]:
    """The imports that go up a layer, or across independent siblings of one layer."""
    broken = []
    for importer, imported in edges:
        low, high = _place(importer, layers), _place(imported, layers)
        if low is None or high is None or low[1] == high[1]:
            continue
        upward = high[0] < low[0]
        across = high[0] == low[0] and layers[low[0]][1]
        if upward or across:
            broken.append(f"{importer} -> {imported}")
    return broken


def _edges() -> list[tuple[str, str]]:
    return [
        (module, imported)
        for module, path in _module_files()
        for imported in sorted(_imports_of(module, path))
    ]


def test_layer_contracts_hold() -> None:
    contracts = _contracts("layers")
    assert len(contracts) >= 2, "the whole-package and the ui contracts are missing"
    edges = _edges()
    for contract in contracts:
        broken = layer_violations(edges, _layers(contract))
        assert not broken, f"{contract['name']}: {broken}"


def test_layer_check_catches_upward_and_sibling_imports() -> None:
    """The static layer check is not vacuous (each of these is a real way to break it)."""
    whole, ui = (_layers(contract) for contract in _contracts("layers")[:2])
    assert layer_violations([("ink_tui.session.reading.reader", "ink_tui.ui.app")], whole)
    assert layer_violations([("ink_tui.catalog.scan", "ink_tui.agent.chat")], whole)
    assert layer_violations([("ink_tui.paths", "ink_tui.session")], whole)
    assert layer_violations([("ink_tui.catalog.scan", "ink_tui.demo")], whole)  # siblings
    assert layer_violations([("ink_tui.ui.screens.help", "ink_tui.ui.app")], ui)
    assert layer_violations([("ink_tui.ui.render.blocks", "ink_tui.ui.widgets.transcript")], ui)
    assert not layer_violations([("ink_tui.ui.app", "ink_tui.session.reading.reader")], whole)
    assert not layer_violations([("ink_tui.ui.screens.help", "ink_tui.ui.keys")], ui)
    cli = _layers(_contracts("layers")[3])  # the command line
    assert layer_violations([("ink_tui.cli.output", "ink_tui.cli.parsing")], cli)
    assert layer_violations([("ink_tui.cli.parsing", "ink_tui.cli.registry")], cli)
    assert layer_violations([("ink_tui.cli.commands.search", "ink_tui.cli.app")], cli)  # siblings
    assert not layer_violations([("ink_tui.cli.registry", "ink_tui.cli.commands.tree")], cli)
    core = _layers(_contracts("layers")[2])  # the session core, by job
    assert layer_violations(
        [("ink_tui.session.reading.reader", "ink_tui.session.rules.rates")], core
    )
    assert layer_violations([("ink_tui.session.writing.writer", "ink_tui.session.live.tail")], core)
    assert not layer_violations(
        [("ink_tui.session.analysis.changes", "ink_tui.session.conversation.view")], core
    )


def test_every_module_sits_in_a_layer_and_every_package_is_one() -> None:
    """A new top-level module must be placed in the whole-package contract, and every folder
    of the package has an ``__init__.py`` (without one the import graph never loads it)."""
    whole = _layers(_contracts("layers")[0])
    unplaced = [
        module for module, _ in _module_files() if module != "ink_tui" and not _place(module, whole)
    ]
    assert not unplaced, f"not in any layer of the whole-package contract: {unplaced}"
    folders = {path.parent for path in PACKAGE_ROOT.rglob("*.py")}
    missing = [str(folder) for folder in folders if not (folder / "__init__.py").exists()]
    assert not missing, f"folders without __init__.py: {missing}"


def test_textual_stays_in_the_ui() -> None:
    """Every module the forbidden contract names (the core and the small helpers) is free of
    Textual, imports inside functions included."""
    (contract,) = [c for c in _contracts("forbidden") if "textual" in c["forbidden_modules"]]
    sources = set(contract["source_modules"])
    assert {"ink_tui.session", "ink_tui.catalog", "ink_tui.agent"} <= sources
    offenders = [
        module
        for module, path in _module_files()
        if any(module == s or module.startswith(s + ".") for s in sources)
        and FORBIDDEN in _imported_roots(ast.parse(path.read_text("utf-8"), str(path)))
    ]
    assert not offenders, f"these modules import {FORBIDDEN}: {offenders}"
