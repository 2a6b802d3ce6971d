"""No module of ink-tui imports another package's private names.

A name starting with ``_`` (a function, a constant, or a module such as ``tools/_x.py``) is
private to the package that holds it: its modules, and the packages below it, may import it;
nothing else may. When two packages need the same thing, it moves down to a layer both may
import (an Ink rule: the session layer) and gets a public name. ruff's ``PLC2701`` (run by
``.ci/run``) catches tests and scripts importing ink-tui's private names, but it lets any module
of ink-tui import any other's; this test holds the package boundaries inside ink-tui.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[2] / "ink_tui"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_and_package(path: Path, root: Path) -> tuple[str, str]:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
        return ".".join(parts), ".".join(parts)
    return ".".join(parts), ".".join(parts[:-1])


def _inside(package: str, owner: str) -> bool:
    return package == owner or package.startswith(owner + ".")


def private_imports(source: str, module_package: str, root: Path) -> list[str]:
    """Each private name (or private module) of ``root``'s package that ``source``, a module
    of package ``module_package``, imports from outside the package owning it."""
    found: list[str] = []
    top = root.name
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom | ast.Import):
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = module_package.split(".")[: len(module_package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            targets = [(target, [alias.name for alias in node.names])]
        else:
            targets = [(alias.name, []) for alias in node.names]
        for dotted, names in targets:
            segments = dotted.split(".")
            if segments[0] != top:
                continue
            for index, segment in enumerate(segments):
                owner = ".".join(segments[:index])
                if _private(segment) and not _inside(module_package, owner):
                    found.append(f"{dotted} (private to {owner})")
            is_package = (root.parent.joinpath(*segments) / "__init__.py").is_file()
            owner = dotted if is_package else ".".join(segments[:-1])
            found += [
                f"{dotted}.{name} (private to {owner})"
                for name in names
                if _private(name) and not _inside(module_package, owner)
            ]
    return found


def test_no_module_imports_another_packages_private_names() -> None:
    offenders: list[str] = []
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        module, package = _module_and_package(path, PACKAGE_ROOT)
        for found in private_imports(path.read_text("utf-8"), package, PACKAGE_ROOT):
            offenders.append(f"{module} imports {found}")
    assert offenders == []


def test_the_check_catches_private_names_across_packages() -> None:
    def check(source: str, package: str) -> list[str]:
        return private_imports(source, package, PACKAGE_ROOT)

    across = "from ink_tui.agent.tools.files import _sniff_image\n"
    assert check(across, "ink_tui.agent") == [
        "ink_tui.agent.tools.files._sniff_image (private to ink_tui.agent.tools)"
    ]
    assert check(across, "ink_tui.agent.tools") == []  # its own package may
    assert check("from ink_tui.session.reading import _x\n", "ink_tui.ui") == [
        "ink_tui.session.reading._x (private to ink_tui.session.reading)"
    ]
    assert check("import ink_tui.agent._hidden.mod\n", "ink_tui.ui") == [
        "ink_tui.agent._hidden.mod (private to ink_tui.agent)"
    ]
    assert check("from . import _helper\n", "ink_tui.ui.widgets") == []  # relative, inside
    assert check("from ink_tui.session.__init__ import x\n", "ink_tui.ui") == []  # dunder
