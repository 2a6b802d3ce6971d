"""The checks after a writer creating a new session was killed (the chat's first message).

Ink (and ink-tui) write a new session's header and first record in one write, to a file
created exclusively. A kill leaves no file, a file ``open`` refuses in one clear line (the
header torn: nothing complete was written, as Ink's own ``open`` says), or a session that
:func:`torture_checks.check_crash` checks as any other.
"""

from __future__ import annotations

import json
from pathlib import Path

from torture_checks import Figures, check_crash
from torture_plan import Written

from ink_tui.catalog.index import CatalogIndex, update_index
from ink_tui.catalog.index.opening import open_from_index
from ink_tui.session import EngineError, SessionError, SessionFile, open_session, repair_session

__all__ = ["check_new_session_crash"]


def check_new_session_crash(
    path: Path,
    written: Written,
    figures: Figures,
    *,
    index: CatalogIndex | None = None,
    base: Path | None = None,
) -> SessionFile | None:
    """The checks after a crash of a writer creating a new session (header and first record
    in one write): no file, a file ``open`` refuses in one clear line (nothing complete was
    written), or a session checked as :func:`check_crash` checks any other."""
    if not path.exists():
        figures.new_sessions["not created"] += 1
        return None
    data = path.read_bytes()
    header_end = written.data.index(b"\n") + 1
    if not bytes(written.data).startswith(data):
        figures.not_a_prefix += 1
        figures.fail(f"{path.name}: the new file is not what was written")
        return None
    if len(data) < header_end - 1:  # the header is torn: Ink's open() refuses the file
        figures.new_sessions["torn header" if data else "empty"] += 1
        _check_refused(path, figures, index, base)
        path.unlink()
        return None
    header = json.loads(written.data[: header_end - 1])
    before = SessionFile(path=path, header=header, header_end=header_end, size=header_end)
    if len(data) == header_end - 1:  # only the header's newline is missing
        figures.new_sessions["header without newline"] += 1
        figures.crashes += 1
        _, plan = repair_session(path)
        if not plan.ok or plan.torn is None or plan.torn.action != "terminated":
            figures.fail(f"{path.name}: a header without newline was not terminated")
        return open_session(path, warn=None)
    figures.new_sessions["created"] += 1
    after_header = Written(header_end)
    after_header.data = written.data[header_end:]
    after_header.ends = [end - header_end for end in written.ends]
    return check_crash(path, before, after_header, figures, index=index, base=base)


def _check_refused(
    path: Path, figures: Figures, index: CatalogIndex | None, base: Path | None
) -> None:
    figures.crashes += 1
    expected = (f"empty session file: {path}", f"session file {path}: first line is not valid JSON")
    try:
        open_session(path, warn=None)
        figures.fail(f"{path.name}: a torn header was opened")
    except SessionError as error:
        if isinstance(error, EngineError) or error.message not in expected:
            figures.fail(f"{path.name}: a torn header refused as {error.message!r}")
    except Exception as error:
        figures.reader_crashes += 1
        figures.fail(f"{path.name}: open raised {error!r} on a torn header")
    if index is None or base is None:
        return
    figures.index_checks += 1
    try:
        update_index(index, base, None)
        found = open_from_index(index, path)
    except SessionError:
        found = None
    except Exception as error:
        figures.index_disagreements += 1
        figures.fail(f"{path.name}: the index raised {error!r} on a torn header")
        return
    if found is not None:
        figures.index_disagreements += 1
        figures.fail(f"{path.name}: the index opened a file open() refuses")
