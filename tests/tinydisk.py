"""A small real file system for tests of a full disk: a ``tmpfs`` of a given size.

Mounting needs root (``id -u`` 0) and a system that allows it (a container may not); otherwise
the tests using :func:`tiny_disk` are skipped, saying why. The fault-injection tests
(``tests/reliability/test_trash_faults.py``) cover every failure point without it.

Use: ``from tinydisk import tiny_disk`` in a test module, then ``folder = tiny_disk(size)``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

__all__ = ["tiny_disk"]


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Callable[[int], Path]]:
    """``tiny_disk(size)``: a fresh folder that is a tmpfs of ``size`` bytes (unmounted after
    the test)."""
    mounted: list[Path] = []

    def mount(size: int) -> Path:
        if os.geteuid() != 0:
            pytest.skip("a full disk needs a small tmpfs, and mounting one needs root")
        if shutil.which("mount") is None:
            pytest.skip("no mount command to make a small tmpfs")
        folder = tmp_path / f"tiny-disk-{len(mounted)}"
        folder.mkdir()
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(folder)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            pytest.skip(f"this system does not let the tests mount a tmpfs: {done.stderr.strip()}")
        mounted.append(folder)
        return folder

    yield mount
    for folder in reversed(mounted):
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)
