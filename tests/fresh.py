"""Run code in a fresh Python interpreter and read what it printed: the import tests' probe
(``tests/unit/test_import_hygiene.py``, ``tests/ui/test_start_imports.py``). A module a test
has imported cannot be un-imported, so what a start imports is only seen in a new process."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

__all__ = ["held_of", "isolated_environment", "last_list", "run_fresh"]

HELD = (
    "import sys\n"
    "names = {names!r}\n"
    "print(repr(sorted(n for n in names if any(m == n or m.startswith(n + '.') "
    "for m in sys.modules))), file={stream})\n"
)


def run_fresh(
    code: str,
    arguments: Sequence[str] = (),
    *,
    environment: Mapping[str, str] | None = None,
    timeout: float = 60,
) -> tuple[str, str]:
    """``python -c CODE ARGUMENTS`` in a new interpreter: its stdout and stderr (it must exit
    0; the assertion shows its stderr)."""
    result = subprocess.run(
        [sys.executable, "-c", code, *arguments],
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
        env=None if environment is None else dict(environment),
    )
    assert result.returncode == 0, result.stderr
    return result.stdout, result.stderr


def held_of(names: Iterable[str], *, stream: str = "sys.stdout") -> str:
    """Code printing, on ``stream``, which of ``names`` (modules or packages) ``sys.modules``
    holds: append it to a probe, read it back with :func:`ast.literal_eval`."""
    return HELD.format(names=tuple(names), stream=stream)


def isolated_environment(home: Path) -> dict[str, str]:
    """This environment with every XDG folder under ``home`` and no sessions folder set: a
    probe reads and writes nothing of the user's."""
    environment = dict(os.environ)
    for name in ("XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        environment[name] = str(home / name)
    environment.pop("INK_SESSIONS_DIR", None)
    return environment


def last_list(text: str) -> list[str]:
    """The list a probe printed last."""
    return list(ast.literal_eval(text.strip().splitlines()[-1]))
