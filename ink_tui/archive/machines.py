"""The other machines whose sessions ink-tui mirrors: their names and addresses, kept in the
settings file as ``[machines.NAME]`` tables (``url = "ssh://…"``). Credentials are never kept:
SSH is the user's own ``ssh`` (their ``~/.ssh/config``, agent and known hosts), object storage
the standard AWS variables and files.

An address is ``ssh://[user@]host[:port][/path]`` (the path defaults to the remote user's
``~/.ink/sessions``; a path starting ``/~/`` is under their home) or ``s3://bucket[/prefix]``.
Every part is checked before it reaches a command line: a host or user that ``ssh`` would read
as an option, or any control character, is refused.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal
from urllib.parse import unquote, urlsplit

from ink_tui.catalog.roots import PathMap, Root, mirror_roots
from ink_tui.configfile import (
    read_config_text,
    toml_string,
    with_table,
    without_table,
    write_config_text,
)
from ink_tui.paths import MACHINE_NAME, config_file, machines_dir

__all__ = [
    "Machine",
    "MachineError",
    "MachineUrl",
    "add_machine",
    "archive_mirrors",
    "load_machines",
    "mirror_dir",
    "parse_url",
    "readable_mirrors",
    "remove_machine",
]

DEFAULT_REMOTE_SESSIONS: Final = ".ink/sessions"  # under the remote user's home
_HOST: Final = re.compile(r"^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])$")
_USER: Final = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]*$")
_BUCKET: Final = re.compile(r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")
_UNSAFE: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class MachineError(ValueError):
    """A name, an address or a settings table that cannot be used (said in one line)."""


@dataclass(frozen=True, slots=True)
class MachineUrl:
    """A checked address: ``ssh`` with user, host, port and path, or ``s3`` with bucket and
    prefix (``host`` is then the bucket)."""

    scheme: Literal["ssh", "s3"]
    host: str
    path: str  # ssh: the sessions folder (relative: under the remote home); s3: the prefix
    user: str | None = None
    port: int | None = None
    text: str = ""  # as the user wrote it

    @property
    def destination(self) -> str:
        """``[user@]host`` as ``ssh`` and ``rsync`` take it."""
        return self.host if self.user is None else f"{self.user}@{self.host}"


@dataclass(frozen=True, slots=True)
class Machine:
    """Another machine: its name, its address, and the folder its mirror is kept in."""

    name: str
    url: MachineUrl
    paths: PathMap = ()  # (there, here): a project's folder on that machine and on this one

    def mirror(self, data: Path | None = None) -> Path:
        return mirror_dir(self.name, data)


def mirror_dir(name: str, data: Path | None = None) -> Path:
    """``<data dir>/machines/NAME``: the machine's sessions, in Ink's own layout."""
    return machines_dir(data) / name


def check_name(name: str) -> str:
    """``name`` when it can name a machine (letters, digits, ``_``, ``-``; 63 at most)."""
    if not MACHINE_NAME.match(name):
        raise MachineError(
            f"machine name {name!r}: use letters, digits, '_' and '-' (63 at most), "
            "starting with a letter or digit"
        )
    return name


def parse_url(text: str) -> MachineUrl:
    """Check an address (see the module's text); :class:`MachineError` says what is wrong."""
    if _UNSAFE.search(text):
        raise MachineError(f"address {text!r}: it holds a control character")
    parts = urlsplit(text)
    if parts.scheme == "ssh":
        return _ssh_url(text, parts.netloc, unquote(parts.path))
    if parts.scheme == "s3":
        bucket, prefix = parts.netloc, unquote(parts.path).strip("/")
        if not _BUCKET.match(bucket):
            raise MachineError(f"address {text!r}: {bucket!r} is not an S3 bucket name")
        return MachineUrl("s3", bucket, prefix, text=text)
    raise MachineError(f"address {text!r}: give ssh://[user@]host[:port][/path] or s3://bucket")


def _ssh_url(text: str, netloc: str, path: str) -> MachineUrl:
    user, _, hostport = netloc.rpartition("@")
    host, port = hostport, None
    if hostport.startswith("["):
        host, _, rest = hostport.partition("]")
        host += "]"
        if rest.startswith(":"):
            port = rest[1:]
    elif ":" in hostport:
        host, _, port = hostport.partition(":")
    if not _HOST.match(host):
        raise MachineError(f"address {text!r}: {host!r} is not a host name")
    if user and not _USER.match(user):
        raise MachineError(f"address {text!r}: {user!r} is not a user name")
    number = None
    if port is not None:
        if not port.isdigit() or not 0 < int(port) < 65536:
            raise MachineError(f"address {text!r}: {port!r} is not a port")
        number = int(port)
    if path in ("", "/"):
        folder = DEFAULT_REMOTE_SESSIONS
    elif path.startswith("/~/"):
        folder = path[3:].rstrip("/") or "."
    else:
        folder = path.rstrip("/")
    if any(part == ".." for part in folder.split("/")):
        raise MachineError(f"address {text!r}: the path may not hold '..'")
    return MachineUrl("ssh", host, folder, user or None, number, text)


def load_machines(path: Path | None = None) -> list[Machine]:
    """The machines of the settings file, in its order. Raises :class:`MachineError` naming
    the file and the table when one cannot be used (a file that is not TOML too)."""
    path = path or config_file()
    try:
        data = tomllib.loads(read_config_text(path))
    except tomllib.TOMLDecodeError as error:
        raise MachineError(f"{path}: not valid TOML ({error})") from None
    tables = data.get("machines", {})
    if not isinstance(tables, dict):
        raise MachineError(f"{path}: machines must be tables ([machines.NAME])")
    machines = []
    for name, table in tables.items():
        where = f"{path}: [machines.{name}]"
        url = table.get("url") if isinstance(table, dict) else None
        if not isinstance(url, str):
            raise MachineError(f"{where}: url must be a text (ssh://… or s3://…)")
        try:
            machines.append(Machine(check_name(name), parse_url(url), _path_map(table)))
        except MachineError as error:
            raise MachineError(f"{where}: {error}") from None
    return machines


def _path_map(table: dict[str, object]) -> PathMap:
    """A machine's ``paths = { "/there" = "/here" }``; :class:`MachineError` when a folder is
    not an absolute path."""
    found = table.get("paths", {})
    if not isinstance(found, dict):
        raise MachineError('paths must be a table: paths = { "/home/me/src" = "/Users/me/src" }')
    pairs = []
    for there, here in found.items():
        for folder in (there, here):
            if not isinstance(folder, str) or not folder.startswith("/") or _UNSAFE.search(folder):
                raise MachineError(f"paths: {folder!r} is not an absolute folder path")
        pairs.append((there.rstrip("/") or "/", str(here).rstrip("/") or "/"))
    return tuple(pairs)


def archive_mirrors(path: Path | None = None) -> list[Root]:
    """Every mirror here, each with its machine's path map from the settings (a mirror whose
    machine was removed has none). Raises :class:`MachineError` as :func:`load_machines`."""
    maps = {machine.name: machine.paths for machine in load_machines(path)}
    return mirror_roots(paths=maps)


def readable_mirrors() -> tuple[list[Root], str | None]:
    """:func:`archive_mirrors`; when the settings cannot be read, every mirror without a path
    map, and one line saying why (the archive is still read)."""
    try:
        return archive_mirrors(), None
    except (MachineError, OSError) as error:  # a ConfigFileError is an OSError
        return mirror_roots(), f"{error}: the machines' path maps are not used"


def add_machine(name: str, url: str, path: Path | None = None) -> Machine:
    """Add a machine to the settings file (other lines kept). Raises :class:`MachineError` when
    the name is taken or either is unusable, ``ConfigFileError`` when the file cannot be written."""
    path = path or config_file()
    machine = Machine(check_name(name), parse_url(url))
    if any(known.name == name for known in load_machines(path)):
        raise MachineError(f"a machine named {name} is already set up (remove it first)")
    table = with_table(read_config_text(path), f"machines.{name}", [f"url = {toml_string(url)}"])
    write_config_text(path, table)
    return machine


def remove_machine(name: str, path: Path | None = None) -> Machine:
    """Take a machine out of the settings file (its mirror is the caller's to keep or remove)."""
    path = path or config_file()
    for machine in load_machines(path):
        if machine.name == name:
            write_config_text(path, without_table(read_config_text(path), f"machines.{name}"))
            return machine
    raise MachineError(f"no machine is named {name} (ink-tui machines lists them)")
