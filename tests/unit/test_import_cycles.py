"""No import cycle between the modules of ink_tui (issue 20): a module never needs, even for its
types or inside a function, a module that needs it back. A cycle hides the order things must be
read in, and breaks at import time as soon as a name moves.

The graph is static (an AST walk of every module): ``import a.b`` is an edge to ``a.b``;
``from a import b`` is an edge to ``a`` (its namespace is read, so its ``__init__`` must have
run) and, when ``b`` is a module, to ``a.b`` too. Relative imports are resolved, imports under
``TYPE_CHECKING`` and inside functions included. A failure names each cycle, in import order.
(So a module of a package whose ``__init__`` imports it writes ``import pkg.sibling as
sibling``, never ``from pkg import sibling``.)
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[2] / "ink_tui"


def _modules(root: Path = PACKAGE_ROOT) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(module: str, source: str, modules: Iterable[str], *, package: bool) -> set[str]:
    """The modules of ``modules`` that ``module`` (whose code is ``source``) imports."""
    known = set(modules)
    anchor = module if package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = anchor.split(".")[: len(anchor.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            if base in known:
                found.add(base)  # the package's (or module's) namespace is read
            found.update(
                f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known
            )
    found.discard(module)
    return found


def import_graph(root: Path = PACKAGE_ROOT) -> dict[str, set[str]]:
    modules = _modules(root)
    return {
        module: imports_of(
            module, path.read_text("utf-8"), modules, package=path.stem == "__init__"
        )
        for module, path in modules.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of two or more modules, as one cycle through it (each
    module importing the next, the last the first)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    counter = 0

    def visit(start: str) -> None:  # Tarjan's algorithm, without recursion
        nonlocal counter
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group: set[str] = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(group)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return [_loop(graph, group) for group in groups]


def _loop(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A cycle through ``group``'s first module (breadth first: a shortest one)."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(graph[node] & group):
            if target == start:
                return paths[node]
            if target not in paths:
                paths[target] = [*paths[node], target]
                queue.append(target)
    return sorted(group)


def test_no_module_of_ink_tui_is_in_an_import_cycle() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" -> ".join([*c, c[0]]) for c in found)


def test_the_graph_holds_every_kind_of_import(tmp_path: Path) -> None:
    """The walk is not vacuous: each of these imports makes an edge."""
    sources = {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg import b\n",
        "pkg/b.py": "import typing\nif typing.TYPE_CHECKING:\n    from pkg.c import X\n",
        "pkg/c.py": "def f():\n    import pkg.d\n",
        "pkg/d.py": "from . import e\n",
        "pkg/e.py": "from .sub.f import name\n",
        "pkg/sub/__init__.py": "from .. import a\n",
        "pkg/sub/f.py": "",
    }
    for name, text in sources.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    graph = import_graph(tmp_path / "pkg")
    assert graph["pkg.a"] == {"pkg", "pkg.b"}  # the package's namespace, and the module
    assert graph["pkg.b"] == {"pkg.c"}  # under TYPE_CHECKING
    assert graph["pkg.c"] == {"pkg.d"}  # inside a function
    assert graph["pkg.d"] == {"pkg", "pkg.e"}  # relative
    assert graph["pkg.e"] == {"pkg.sub.f"}
    assert graph["pkg.sub"] == {"pkg", "pkg.a"}  # a package's __init__, relative upwards
    assert cycles(graph) == []
    (tmp_path / "pkg" / "sub" / "f.py").write_text("import pkg.a\n")
    assert cycles(import_graph(tmp_path / "pkg")) == [
        ["pkg.a", "pkg.b", "pkg.c", "pkg.d", "pkg.e", "pkg.sub.f"]
    ]


def test_a_package_whose_init_imports_a_module_that_reads_the_package_is_a_cycle(
    tmp_path: Path,
) -> None:
    """``from pkg import sibling`` in a module ``pkg/__init__.py`` imports reads a package still
    being initialized; ``import pkg.sibling as sibling`` does not."""
    sources = {
        "pkg/__init__.py": "from pkg.builder import build\n",
        "pkg/builder.py": "from pkg import content\n",
        "pkg/content.py": "",
    }
    for name, text in sources.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert cycles(import_graph(tmp_path / "pkg")) == [["pkg", "pkg.builder"]]
    (tmp_path / "pkg" / "builder.py").write_text("import pkg.content as content\n")
    assert cycles(import_graph(tmp_path / "pkg")) == []


def test_a_cycle_is_named_in_import_order() -> None:
    graph = {
        "m.a": {"m.b"},
        "m.b": {"m.c"},
        "m.c": {"m.a"},
        "m.d": {"m.a"},
        "m.e": {"m.e"} - {"m.e"},
    }
    assert cycles(graph) == [["m.a", "m.b", "m.c"]]
