"""A torture writer process: ``python torture_child.py KIND TARGET SEED BUDGET BIG``.

Opens the session ``TARGET`` (or, when ``TARGET`` is a folder, prepares a new session there),
says ``ready`` on stdout, then appends :func:`torture_plan.drive`'s records with the writer
``KIND`` (``ink-tui`` or ``raw``) until it is done or killed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from torture_plan import drive
from torture_writers import WRITERS, make_writer, new_session_writer

from ink_tui.session.reading.reader import open_session


def main(kind: str, path: str, seed: str, budget: str, big: str) -> None:
    (writer_kind,) = [known for known in WRITERS if known == kind]
    if Path(path).is_dir():
        _, writer = new_session_writer(writer_kind, Path(path), int(seed), None)
    else:
        writer = make_writer(writer_kind, open_session(path, warn=None), int(seed), None)
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    drive(writer, int(seed), budget=int(budget), big=int(big))


if __name__ == "__main__":
    main(*sys.argv[1:])
