"""No private API of another library anywhere in ink_tui (issue 20): a name starting with ``_``
is touched only on an object proven to be ink-tui's own, and only when ink-tui defines it.

Every module is parsed; each ``X._name`` (not a dunder) passes only when ``X`` is proven to be
ink_tui's own: an instance of a class ink_tui defines, that class, or a module of ink_tui. The
proofs are those a reader (and mypy, strict, in CI) checks:

- ``self`` / ``cls``: the first parameter of a method of that class (also inside a function
  nested in the method); ``super()`` in it;
- a name annotated with that class (a parameter, ``x: C``, ``C | None``), or an element of a
  name annotated as a container of it (``list[C]``, ``Iterable[C]``…) it is looped over;
- a value made by that class (``C(…)``, ``cls(…)``, ``cls.__new__(cls)``), returned by a function
  or method annotated to return it, or read from an attribute the class declares with that type;
  a name only ever assigned such values;
- a module of ink_tui imported by name (``from ink_tui.x import module``).

Then ``_name`` itself must be ink_tui's: no class outside ink_tui in that class's MRO has it (an
attribute, a slot, or a name its methods use on ``self``), so it is never Textual's (or Rich's,
or the standard library's) private state reached through a subclass of ours. A private name an
ink_tui class defines that a base class from another library has is an override of that
library's private API, and fails the same way. Anything unproven fails.

One exception, named in :data:`NO_PUBLIC_WAY` with its reason: argparse says how help is
wrapped only through its formatter's private methods (its documentation: "all the methods
provided by the class are considered an implementation detail").
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import textwrap
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parents[2] / "ink_tui"
CONTAINERS = frozenset(
    {"list", "set", "frozenset", "tuple", "Iterable", "Iterator", "Sequence", "Collection"}
)
MAPPINGS = frozenset({"dict", "Mapping", "MutableMapping", "defaultdict", "OrderedDict"})
SAME_ITEMS = frozenset({"sorted", "list", "tuple", "reversed", "set", "frozenset", "iter"})
Kind = type | ModuleType | tuple[str, type]  # an instance of, a module, ("items"/"values", C)
NO_PUBLIC_WAY = {
    ("argparse.HelpFormatter", "_split_lines"): "the help's lines: a path is never broken",
    ("argparse.HelpFormatter", "_fill_text"): "the descriptions: a text in lines kept as is",
}
"""Private hooks of another library that it offers no public way around, each with its reason."""


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _ours(obj: Any) -> bool:
    name = obj.__name__ if isinstance(obj, ModuleType) else getattr(obj, "__module__", "")
    return isinstance(name, str) and (name == "ink_tui" or name.startswith("ink_tui."))


@cache
def _used_on_self(cls: type) -> frozenset[str]:
    """The private names a class's own methods use on their first parameter."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return frozenset()
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.args.args:
            first = node.args.args[0].arg
            names.update(
                inner.attr
                for inner in ast.walk(node)
                if isinstance(inner, ast.Attribute)
                and isinstance(inner.value, ast.Name)
                and inner.value.id == first
                and _private(inner.attr)
            )
    return frozenset(names)


def foreign_owner(cls: type, name: str, *, skip_self: bool = False) -> type | None:
    """The first class outside ink_tui in ``cls``'s MRO that has private ``name``, if any."""
    for base in cls.__mro__[1 if skip_self else 0 :]:
        if _ours(base):
            continue
        slots = getattr(base, "__slots__", ())
        slots = (slots,) if isinstance(slots, str) else tuple(slots)
        if name in vars(base) or name in slots or name in _used_on_self(base):
            return None if (_name(base), name) in NO_PUBLIC_WAY else base
    return None


@dataclass
class Scope:
    """What a function knows: its names' proven kinds, and its method's class and ``self``."""

    kinds: dict[str, Kind]
    cls: type | None
    first: str | None


class Checker:
    """One module's private accesses that are not proven ink_tui's own."""

    def __init__(self, module: ModuleType, tree: ast.Module) -> None:
        self.module = module
        self.tree = tree
        self.imported = self._imports()
        self.problems: list[str] = []

    def _imports(self) -> dict[str, tuple[str, str | None]]:
        """Every name the module imports anywhere (TYPE_CHECKING and functions included)."""
        found: dict[str, tuple[str, str | None]] = {}
        package = self.module.__name__
        if not hasattr(self.module, "__path__"):
            package = package.rpartition(".")[0]
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                for alias in node.names:
                    found[alias.asname or alias.name] = (base, alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        found[alias.asname] = (alias.name, None)
        return found

    def resolve(self, name: str) -> Any:
        """What ``name`` stands for at the module's top level (None: unknown)."""
        if name in vars(self.module):
            return vars(self.module)[name]
        if name not in self.imported:
            return getattr(builtins, name, None)
        base, attr = self.imported[name]
        try:
            module = importlib.import_module(base)
            if attr is None:
                return module
            if hasattr(module, attr):
                return getattr(module, attr)
            return importlib.import_module(f"{base}.{attr}")
        except ImportError:
            return None

    def dotted(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Name):
            return self.resolve(node.id)
        if isinstance(node, ast.Attribute):
            owner = self.dotted(node.value)
            return getattr(owner, node.attr, None) if owner is not None else None
        return None

    def annotation(self, node: ast.expr | None) -> Kind | None:
        """The kind an annotation gives: an ink_tui class (``C``, ``C | None``, ``"C"``,
        ``Optional[C]``), or its elements (``list[C]``, ``Iterable[C]``…)."""
        if node is None:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return self.annotation(ast.parse(node.value, mode="eval").body)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            left, right = self.annotation(node.left), self.annotation(node.right)
            if _is_none(node.right):
                return left
            return right if _is_none(node.left) else None
        if isinstance(node, ast.Subscript):
            outer = ast.unparse(node.value).rpartition(".")[2]
            inner = node.slice
            if outer == "Optional":
                return self.annotation(inner)
            if outer in CONTAINERS:
                if isinstance(inner, ast.Tuple):  # tuple[C, ...]
                    if len(inner.elts) != 2 or ast.unparse(inner.elts[1]) != "...":
                        return None
                    inner = inner.elts[0]
                element = self.annotation(inner)
                return ("items", element) if isinstance(element, type) else None
            if outer in MAPPINGS and isinstance(inner, ast.Tuple) and len(inner.elts) == 2:
                value = self.annotation(inner.elts[1])
                return ("values", value) if isinstance(value, type) else None
            return None
        found = self.dotted(node)
        return found if isinstance(found, type) and _ours(found) else None

    # -- walking -------------------------------------------------------------------------------

    def run(self) -> list[str]:
        for node in self.tree.body:
            self.visit(node, Scope({}, None, None))
        return self.problems

    def visit(self, node: ast.AST, scope: Scope) -> None:
        """Check ``node`` in ``scope``; a class, function or comprehension gets its own."""
        if isinstance(node, ast.ClassDef):
            self.visit_class(node, scope)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            self.visit_function(node, scope, None)
        elif isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            self.visit_comprehension(node, scope)
        else:
            if isinstance(node, ast.Attribute) and _private(node.attr):
                problem = self.judge(node, scope)
                if problem is not None:
                    self.report(node, problem)
            for child in ast.iter_child_nodes(node):
                self.visit(child, scope)

    def visit_class(self, node: ast.ClassDef, outer: Scope) -> None:
        owner = outer.cls if outer.cls is not None else self.module
        found = getattr(owner, node.name, None)
        cls = found if isinstance(found, type) and _ours(found) else None
        for statement in node.body:  # a private name of a foreign base, defined here
            for name in _defined(statement):
                base = foreign_owner(cls, name, skip_self=True) if cls and _private(name) else None
                if base is not None and cls is not None:
                    self.report(statement, f"{cls.__name__}.{name} overrides {_name(base)}'s")
        for expr in [*node.decorator_list, *node.bases]:
            self.visit(expr, outer)
        for statement in node.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                for expr in [*statement.decorator_list, *statement.args.defaults]:
                    self.visit(expr, outer)
                self.visit_function(statement, outer, cls)
            elif isinstance(statement, ast.ClassDef):
                self.visit_class(statement, Scope(dict(outer.kinds), cls, None))
            else:
                self.visit(statement, outer)

    def visit_function(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, outer: Scope, cls: Any
    ) -> None:
        """A method of ``cls`` (its first parameter is ``self``/``cls``), or a function nested
        in ``outer`` (it sees the names proven there)."""
        kinds = dict(outer.kinds)
        arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        first, owner = outer.first, outer.cls
        if cls is not None:
            static = any(
                ast.unparse(d) == "staticmethod" for d in getattr(node, "decorator_list", [])
            )
            first, owner = (None if static or not arguments else arguments[0].arg), cls
        for argument in arguments:
            if cls is None and argument.arg == first:
                first = None  # a nested function's own parameter hides the method's self
            kinds.pop(argument.arg, None)
            found = self.annotation(argument.annotation)
            if found is not None:
                kinds[argument.arg] = found
        scope = Scope(kinds, owner, first)
        body = node.body if isinstance(node.body, list) else [node.body]
        self.infer(body, scope)
        for statement in body:
            self.visit(statement, scope)

    def visit_comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, outer: Scope
    ) -> None:
        scope = Scope(dict(outer.kinds), outer.cls, outer.first)
        for generator in node.generators:
            self.visit(generator.iter, scope)
            element = self.items_of(generator.iter, scope)
            for name in _names(generator.target):
                scope.kinds.pop(name, None)
                if element is not None and isinstance(generator.target, ast.Name):
                    scope.kinds[name] = element
            for condition in generator.ifs:
                self.visit(condition, scope)
        parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        for part in parts:
            self.visit(part, scope)

    def infer(self, body: list[ast.stmt], scope: Scope) -> None:
        """Names of this function annotated, or only ever given values of one proven kind."""
        seen: dict[str, Kind | None] = {}
        declared: set[str] = set()
        for statement in _own_statements(body):
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                found = self.annotation(statement.annotation)
                if found is not None:
                    scope.kinds[statement.target.id] = found
                    declared.add(statement.target.id)
        for _ in range(2):  # twice: a name given another's value, found in the first pass
            seen = {}
            for statement in _own_statements(body):
                for name, kind in self._given(statement, scope):
                    if name not in declared:
                        seen[name] = kind if seen.get(name, kind) is kind else None
            for name, kind in seen.items():
                if name not in declared:
                    if kind is None:
                        scope.kinds.pop(name, None)
                    else:
                        scope.kinds[name] = kind

    def _given(self, statement: ast.AST, scope: Scope) -> list[tuple[str, Kind | None]]:
        """The names ``statement`` assigns, and the proven kind of each value (None: unknown)."""
        given: list[tuple[str, Kind | None]] = []
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                single = isinstance(target, ast.Name)
                kind = self.kind_of(statement.value, scope) if single else None
                given += [(name, kind) for name in _names(target)]
        elif isinstance(statement, ast.AugAssign | ast.AnnAssign | ast.NamedExpr):
            given += [(name, None) for name in _names(statement.target)]
        elif isinstance(statement, ast.For | ast.AsyncFor):
            element = self.items_of(statement.iter, scope)
            single = isinstance(statement.target, ast.Name)
            given += [(name, element if single else None) for name in _names(statement.target)]
        elif isinstance(statement, ast.With | ast.AsyncWith):
            for item in statement.items:
                if item.optional_vars is not None:
                    given += [(name, None) for name in _names(item.optional_vars)]
        elif isinstance(statement, ast.ExceptHandler) and statement.name:
            given.append((statement.name, None))
        return given

    def items_of(self, node: ast.expr, scope: Scope) -> type | None:
        kind = self.kind_of(node, scope)
        return kind[1] if isinstance(kind, tuple) else None

    def kind_of(self, node: ast.expr, scope: Scope) -> Kind | None:
        """What ``node`` is proven to be (None: not proven)."""
        if isinstance(node, ast.Name):
            if scope.cls is not None and node.id == scope.first:
                return scope.cls
            if node.id in scope.kinds:
                return scope.kinds[node.id]
            found = self.resolve(node.id)
            return found if isinstance(found, ModuleType) and _ours(found) else None
        if isinstance(node, ast.Attribute):
            outer = self.kind_of(node.value, scope)
            if isinstance(outer, ModuleType):
                found = getattr(outer, node.attr, None)
                return found if isinstance(found, ModuleType) and _ours(found) else None
            return declared_kind(outer, node.attr) if isinstance(outer, type) else None
        if isinstance(node, ast.Call):
            return self.call_kind(node, scope)
        if isinstance(node, ast.Subscript):
            outer = self.kind_of(node.value, scope)
            if isinstance(node.slice, ast.Slice):
                return outer if isinstance(outer, tuple) and outer[0] == "items" else None
            return outer[1] if isinstance(outer, tuple) else None
        if isinstance(node, ast.GeneratorExp | ast.ListComp | ast.SetComp):
            return self.comprehension_kind(node, scope)
        return None

    def comprehension_kind(
        self, node: ast.GeneratorExp | ast.ListComp | ast.SetComp, scope: Scope
    ) -> Kind | None:
        """``(x for x in xs if …)`` over proven items is items of the same class."""
        if len(node.generators) != 1:
            return None
        generator = node.generators[0]
        target, element = generator.target, node.elt
        same = isinstance(target, ast.Name) and isinstance(element, ast.Name)
        if not same or target.id != element.id:  # type: ignore[union-attr]
            return None
        items = self.kind_of(generator.iter, scope)
        return items if isinstance(items, tuple) and items[0] == "items" else None

    def call_kind(self, node: ast.Call, scope: Scope) -> Kind | None:
        """A value made by an ink_tui class, or returned by a function declared to return one."""
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "__new__":
            func = func.value  # C.__new__(C), cls.__new__(cls)
        if isinstance(func, ast.Name) and func.id == "cls" and scope.cls is not None:
            return scope.cls
        if isinstance(func, ast.Name) and func.id in SAME_ITEMS and node.args:
            items = self.kind_of(node.args[0], scope)  # sorted(xs), list(xs): the same items
            return items if isinstance(items, tuple) and items[0] == "items" else None
        if isinstance(func, ast.Attribute):
            owner = self.kind_of(func.value, scope)
            if isinstance(owner, type):
                return _returns(getattr(owner, func.attr, None))
            if isinstance(owner, tuple) and owner[0] == "values":  # a mapping of C
                if func.attr in ("get", "pop", "setdefault"):
                    return owner[1]
                return ("items", owner[1]) if func.attr == "values" else None
        target = self.dotted(func) if isinstance(func, ast.Name | ast.Attribute) else None
        if isinstance(target, type):
            return target if _ours(target) else None
        return _returns(target)

    def judge(self, node: ast.Attribute, scope: Scope) -> str | None:
        value = node.value
        super_call = (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id == "super"
            and not value.args
        )
        if super_call and scope.cls is not None:
            owner: Kind | None = scope.cls
        else:
            owner = self.kind_of(value, scope)
        if owner is None and isinstance(value, ast.Name):
            found = self.resolve(value.id)
            owner = found if isinstance(found, type) and _ours(found) else None  # a class of ours
        if isinstance(owner, ModuleType):
            return None
        if not isinstance(owner, type):
            return f"{ast.unparse(node)}: not proven to be ink_tui's own object"
        base = foreign_owner(owner, node.attr, skip_self=super_call)
        return f"{ast.unparse(node)}: {_name(base)}'s private name" if base is not None else None

    def report(self, node: ast.AST, problem: str) -> None:
        self.problems.append(f"{self.module.__name__}:{getattr(node, 'lineno', 0)}: {problem}")


@cache
def _checker(module_name: str) -> Checker:
    module = importlib.import_module(module_name)
    return Checker(module, _tree(module.__file__ or ""))


@cache
def _tree(path: str) -> ast.Module:
    """A module's syntax tree, parsed once per worker (a check looks at each base class's
    module, so the same few modules were parsed again and again); never changed by a check."""
    return ast.parse(Path(path).read_text("utf-8"))


def declared_kind(cls: type, attribute: str) -> Kind | None:
    """The kind ``cls`` declares its ``attribute`` to be: a class-body annotation (a dataclass
    field), a property declared to return it, or what its methods set it to on ``self`` (an
    annotated parameter, an instance made there, an annotated assignment)."""
    for base in cls.__mro__:
        if not _ours(base):
            continue
        checker = _checker(base.__module__)
        annotation = vars(base).get("__annotations__", {}).get(attribute)
        if annotation is not None:
            text = (
                annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
            )
            return checker.annotation(ast.parse(text, mode="eval").body) if text else None
        member = vars(base).get(attribute)
        if isinstance(member, property):
            return _returns(member.fget)
        found = _set_in_methods(base, attribute)
        if found is not None:
            return found
    return None


@cache
def _set_in_methods(cls: type, attribute: str) -> Kind | None:
    """What ``cls``'s methods set ``self.attribute`` to, when they agree on a proven kind."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        return None
    checker = _checker(cls.__module__)
    kinds: list[Kind | None] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or not node.args.args:
            continue
        first = node.args.args[0].arg
        parameters = {a.arg: a.annotation for a in [*node.args.args, *node.args.kwonlyargs]}
        for statement in ast.walk(node):
            targets: list[ast.expr] = []
            if isinstance(statement, ast.Assign):
                targets = statement.targets
            elif isinstance(statement, ast.AnnAssign):
                targets = [statement.target]
            for target in targets:
                if not (
                    isinstance(target, ast.Attribute)
                    and target.attr == attribute
                    and isinstance(target.value, ast.Name)
                    and target.value.id == first
                ):
                    continue
                value = (
                    statement.value if isinstance(statement, ast.Assign | ast.AnnAssign) else None
                )
                if isinstance(statement, ast.AnnAssign):
                    kinds.append(checker.annotation(statement.annotation))
                elif isinstance(value, ast.Name) and value.id in parameters:
                    kinds.append(checker.annotation(parameters[value.id]))
                elif isinstance(value, ast.Call):
                    made = checker.dotted(value.func)
                    kinds.append(made if isinstance(made, type) and _ours(made) else None)
                else:
                    kinds.append(None)
    return kinds[0] if kinds and all(kind is kinds[0] for kind in kinds) else None


@cache
def _return_kind(function: Any) -> Kind | None:
    """The ink_tui class (or elements of one) ``function`` is annotated to return."""
    annotation = getattr(function, "__annotations__", {}).get("return")
    module_name = getattr(function, "__module__", None)
    if not isinstance(annotation, str) or not module_name or not module_name.startswith("ink_tui"):
        return None
    return _checker(module_name).annotation(ast.parse(annotation, mode="eval").body)


def _returns(function: Any) -> Kind | None:
    function = getattr(function, "__func__", function)
    try:
        return _return_kind(function) if callable(function) else None
    except TypeError:  # not hashable
        return None


def _own_statements(body: list[ast.stmt]) -> list[ast.AST]:
    """The statements of a function body, nested blocks included, not nested functions."""
    found: list[ast.AST] = []
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        found.append(node)
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            stack.extend(
                child
                for child in ast.iter_child_nodes(node)
                if not isinstance(child, ast.comprehension)
                and not isinstance(
                    child, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp
                )
            )
    return found


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _names(target: ast.expr) -> list[str]:
    """The names an assignment to ``target`` binds (not those of an attribute or item set)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [name for element in target.elts for name in _names(element)]
    if isinstance(target, ast.Starred):
        return _names(target.value)
    return []


def _defined(statement: ast.stmt) -> list[str]:
    """The names a class-body statement defines."""
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [statement.name]
    if isinstance(statement, ast.Assign):
        return [name for target in statement.targets for name in _names(target)]
    if isinstance(statement, ast.AnnAssign | ast.AugAssign):
        return _names(statement.target)
    return []


def _modules() -> list[str]:
    names = []
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE_ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts[-1] != "__main__":
            names.append(".".join(parts))
    return names


def private_accesses(module_name: str, source: str | None = None) -> list[str]:
    """The private accesses of module ``module_name`` (its file, or ``source``) not proven
    ink_tui's own."""
    module = importlib.import_module(module_name)
    text = source if source is not None else Path(module.__file__ or "").read_text("utf-8")
    return Checker(module, ast.parse(text)).run()


@pytest.mark.parametrize("module_name", _modules())
def test_no_private_name_of_another_library_is_touched(module_name: str) -> None:
    assert private_accesses(module_name) == []


PROBE = """
from __future__ import annotations
import argparse
from textual.widgets import Tree
from ink_tui.session.reading.reader import SessionFile
from ink_tui.ui.render import palette


class Mine:
    def __init__(self) -> None:
        self._count = 0

    def bump(self, other: Mine, others: list[Mine]) -> int:
        made = Mine()
        for each in others:
            each._count += 1
        return self._count + other._count + made._count


class Branches(Tree[str]):
    def __init__(self) -> None:
        super().__init__("root")
        self._mine = 1

    def _invalidate(self) -> None:  # an override of Tree's private method
        super()._invalidate()

    def lines(self) -> int:
        node = self.root
        return len(self._tree_lines) + len(node._children) + self._mine


def files(session: SessionFile | None, anything) -> object:
    theme = palette._private_helper if False else None
    return session._seq if session else anything._seq, argparse._SubParsersAction, theme
"""


def test_the_check_finds_what_it_must_and_passes_what_is_ours(tmp_path: Path) -> None:
    """The rule is not vacuous: Textual's private names reached through a subclass of ours,
    overridden, or on an object of unknown kind fail; our own names on proven objects pass."""
    import sys

    path = tmp_path / "probe.py"
    path.write_text(PROBE)
    module = ModuleType("ink_tui._probe")
    module.__file__ = str(path)
    sys.modules[module.__name__] = module
    try:
        exec(compile(PROBE, str(path), "exec"), vars(module))
        found = sorted(Checker(module, ast.parse(PROBE)).run())
    finally:
        del sys.modules[module.__name__]
    lines = {text.split(": ", 1)[1].split(":")[0] if ": " in text else text for text in found}
    assert any("overrides textual.widgets._tree.Tree's" in text for text in found)
    assert any("super()._invalidate" in text for text in found)
    assert any("self._tree_lines: textual.widgets._tree.Tree's private name" in t for t in found)
    assert any("node._children" in text for text in found)  # Tree.root: not proven ours
    assert any("anything._seq: not proven" in text for text in found)
    assert any("argparse._SubParsersAction: not proven" in text for text in found)
    assert not any("self._count" in t or "other._count" in t or "each._count" in t for t in found)
    assert not any("made._count" in t or "self._mine" in t or "session._seq" in t for t in found)
    assert not any("palette._private_helper" in text for text in found)  # a module of ours
    assert len(found) == 6, lines
