"""Where things live: the Ink sessions directory, per-cwd folders, config and cache dirs.

The per-cwd folder encoding follows Ink's own (spec/ink-session-format.md, section 1): take the
absolute cwd, drop ONE leading ``/`` or ``\\``, double every ``-``, then replace each ``/``, ``\\``
and ``:`` with ``-``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import platformdirs

APP_NAME = "ink-tui"
SESSIONS_DIR_ENV = "INK_SESSIONS_DIR"
DEFAULT_SESSIONS_DIR = "~/.ink/sessions"
IMP_SESSIONS_DIR = "~/.imp/sessions"
"""Where imp-era builds kept sessions. Ink never reads it (spec §1): nothing there resumes."""
CONFIG_FILE_NAME = "config.toml"
SESSION_SUFFIX = ".jsonl"  # Ink's session files: <project folder>/<timestamp>-<uuid>.jsonl
CHILDREN = "children"  # a project folder's subagent sessions: <project folder>/children/*.jsonl

_WINDOWS_ABSOLUTE = re.compile(r"^[A-Za-z]:[\\/]")
_SEPARATORS = str.maketrans({"/": "-", "\\": "-", ":": "-"})


def _is_absolute(cwd: str) -> bool:
    """True for a POSIX (``/x``), UNC/backslash (``\\x``) or drive (``C:\\x``) absolute path."""
    return cwd.startswith(("/", "\\")) or bool(_WINDOWS_ABSOLUTE.match(cwd))


def cwd_folder_name(cwd: str) -> str:
    """Return the folder name Ink uses for sessions started in ``cwd``.

    >>> cwd_folder_name("/Users/z/my-proj")
    'Users-z-my--proj'
    >>> cwd_folder_name("C:\\\\Users\\\\dev\\\\proj")
    'C--Users-dev-proj'
    """
    path = cwd if _is_absolute(cwd) else os.path.abspath(cwd)
    if path[:1] in ("/", "\\"):
        path = path[1:]
    return path.replace("-", "--").translate(_SEPARATORS)


def sessions_dir(flag: str | os.PathLike[str] | None = None) -> Path:
    """The Ink sessions base directory: ``flag`` > ``$INK_SESSIONS_DIR`` > ``~/.ink/sessions``.

    An empty flag or an empty environment variable counts as unset. ``~`` is expanded.
    """
    chosen: str | os.PathLike[str]
    if flag is not None and os.fspath(flag) != "":
        chosen = flag
    else:
        chosen = os.environ.get(SESSIONS_DIR_ENV) or DEFAULT_SESSIONS_DIR
    return Path(chosen).expanduser()


def ink_sessions_dir() -> Path:
    """Ink's own sessions folder, ``~/.ink/sessions`` (Ink has no variable to move it)."""
    return Path(DEFAULT_SESSIONS_DIR).expanduser()


def imp_sessions_dir() -> Path:
    """The imp-era sessions folder, ``~/.imp/sessions``."""
    return Path(IMP_SESSIONS_DIR).expanduser()


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


def under_imp(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is in ``~/.imp/sessions`` (symlinks followed), where Ink never looks:
    ``ink -r`` cannot resume it. Not when that is where ``~/.ink/sessions`` leads too."""
    where = Path(path).expanduser().resolve()
    imp, ink = imp_sessions_dir().resolve(), ink_sessions_dir().resolve()
    return _inside(where, imp) and not _inside(where, ink)


def project_dir(sessions_dir: str | os.PathLike[str], cwd: str) -> Path:
    """The folder holding the sessions started in ``cwd``."""
    return Path(sessions_dir) / cwd_folder_name(cwd)


def config_dir() -> Path:
    """The user's ink-tui configuration directory (platform-specific)."""
    return platformdirs.user_config_path(APP_NAME, appauthor=False)


def cache_dir() -> Path:
    """The user's ink-tui cache directory (platform-specific), e.g. for the catalog index."""
    return platformdirs.user_cache_path(APP_NAME, appauthor=False)


def data_dir() -> Path:
    """The user's ink-tui data directory (platform-specific): the trash lives there."""
    return platformdirs.user_data_path(APP_NAME, appauthor=False)


MACHINES = "machines"
"""The data dir's folder of mirrors: ``<data dir>/machines/NAME`` holds machine NAME's sessions."""
MACHINE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$")
"""What can name a machine (and so a mirror's folder): letters, digits, ``_``, ``-``."""


def machines_dir(data: Path | None = None) -> Path:
    """``<data dir>/machines``: each mirrored machine's sessions, in Ink's layout, by name."""
    return (data or data_dir()) / MACHINES


def mirrored_machine(path: str | os.PathLike[str]) -> str | None:
    """The machine whose mirror ``path`` is in (``<data dir>/machines/NAME/…``), else ``None``.
    From the path alone: no file is looked at."""
    key = os.fsencode(os.path.abspath(path))
    folder = os.fsencode(os.path.abspath(machines_dir())).rstrip(b"/") + b"/"
    if not key.startswith(folder):
        return None
    name = os.fsdecode(key[len(folder) :].split(b"/", 1)[0])
    return name if MACHINE_NAME.match(name) else None


def config_file() -> Path:
    """The ink-tui configuration file (it may not exist)."""
    return config_dir() / CONFIG_FILE_NAME


def styles_dir() -> Path:
    """The directory of ``.tcss`` stylesheets.

    In a wheel the repository's ``styles/`` is shipped as ``ink_tui/styles``; in an editable
    install or a source checkout it is ``styles/`` beside the package.
    """
    package = Path(__file__).resolve().parent
    shipped = package / "styles"
    if shipped.is_dir():
        return shipped
    return package.parent / "styles"
