"""The pure core never imports Textual (see DESIGN.md section 1).

Two checks: a static one (AST walk of every module in session/, catalog/, agent/) and a dynamic one
(import the core and the CLI module in a fresh interpreter and look at ``sys.modules``).
The import-linter contracts in pyproject.toml say the same; this keeps it true under plain pytest.
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parents[2] / "ink_tui"
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
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stderr


def test_browsing_never_imports_the_model_sdks() -> None:
    """The app, its screens and the chat pane load without ``anthropic`` or ``openai``: the SDKs
    (about a second to import) are imported when a chat sends its first request."""
    code = (
        "import sys\n"
        "import ink_tui.ui.app, ink_tui.ui.screens.picker, ink_tui.ui.screens.session\n"
        "import ink_tui.ui.screens.chat, ink_tui.agent.chat, ink_tui.cli\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('anthropic', 'openai'))\n"
        "assert not loaded, loaded\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stderr
