"""The start path's import budget (issue 21): ``ink-tui`` in a fresh interpreter, from the command
line to the picker's first frame, imports exactly the modules ``start_imports.txt`` lists.

A module new to the start path fails the test (every import there is start-up time a user waits
through), and so does a listed module that no longer loads (the budget shrinks with the start).
The app runs headless, started the way the console script starts it, and stops once the picker
shows its rows (no worker left running, so what the workers import is counted every time).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from fresh import isolated_environment, run_fresh
from testdata import TREE_HOME_CWD, copy_tree

BUDGET = Path(__file__).with_name("start_imports.txt")

PROBE = """
import json, sys
from textual.app import App

def headless(self, *args, **kwargs):
    async def until_the_picker(pilot):
        from ink_tui.ui.screens.picker import PickerScreen
        for _ in range(3000):  # the picker, its rows read (no worker left running)
            app = pilot.app
            if isinstance(app.screen, PickerScreen) and all(w.is_finished for w in app.workers):
                break
            await pilot.pause(0.01)
        await pilot.pause()
        pilot.app.exit()
    return App.run(self, headless=True, auto_pilot=until_the_picker)

import ink_tui.ui.app  # the class the command line runs, made headless before it does
ink_tui.ui.app.InkApp.run = headless
from ink_tui.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def _budget() -> tuple[set[str], set[str]]:
    """(ink-tui's own modules, other packages' top-level names) the budget allows."""
    lines = [line for line in BUDGET.read_text("utf-8").splitlines() if not line.startswith("#")]
    split = lines.index("packages:")
    return set(lines[:split]), set(lines[split + 1 :])


def _started(tmp_path: Path) -> list[str]:
    """The modules of an interpreter that ran ``ink-tui`` to the picker's first frame, in a
    project of the test tree (sessions to list, nothing indexed yet)."""
    tree = copy_tree(tmp_path / "sessions")
    arguments = ["--sessions-dir", str(tree), "--cwd", TREE_HOME_CWD]
    out, _ = run_fresh(PROBE, arguments, environment=isolated_environment(tmp_path), timeout=120)
    report = json.loads(out.strip().splitlines()[-1])
    assert report["code"] == 0
    return list(report["modules"])


def test_the_start_path_imports_exactly_its_budget(tmp_path: Path) -> None:
    modules = _started(tmp_path)
    ours = {name for name in modules if name.split(".")[0] == "ink_tui"}
    others = {name.split(".")[0] for name in modules} - set(sys.stdlib_module_names)
    others -= {"ink_tui", "__main__", "_distutils_hack"}  # the probe, and setuptools' shim
    allowed_ours, allowed_others = _budget()
    assert sorted(ours - allowed_ours) == [], "new on the start path: import it where it is used"
    assert sorted(others - allowed_others) == [], "a package new on the start path"
    assert sorted(allowed_ours - ours) == [], "no longer imported at start: take it out"
    assert sorted(allowed_others - others) == [], "no longer imported at start: take it out"
