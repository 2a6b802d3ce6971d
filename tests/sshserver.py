"""A real OpenSSH server on 127.0.0.1 for the archive's tests, and an ``ssh`` set up to reach it.

The test makes a host key and a user key, starts ``sshd`` on a free port (its own config, its
own authorized keys, nothing of the machine's), and writes an ``ssh`` config and known-hosts
file naming that host key. ``RSYNC_RSH`` (``ssh -F <that config>``) is what ink-tui runs, as a
user's ``~/.ssh/config`` would be. ``sshd`` and ``rsync`` come from the distribution's packages
(``openssh-server``, ``rsync``; ``.ci/run`` installs them): without them the tests are skipped
with one reason, except under ``INK_TUI_REQUIRE_SSHD=1`` (CI), where that is a failure.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from engines import need

SSHD = "/usr/sbin/sshd"


def missing() -> str | None:
    """Why the server cannot run here (``None``: it can)."""
    if not Path(SSHD).exists() or shutil.which("rsync") is None or shutil.which("ssh") is None:
        return "sshd, ssh or rsync is not installed (Debian: openssh-server, rsync)"
    if os.geteuid() != 0:
        return "sshd's privilege separation needs root here"
    return None


def need_server() -> None:
    """Skip the test (or fail it under ``INK_TUI_REQUIRE_SSHD=1``) when sshd cannot run."""
    need(missing(), "INK_TUI_REQUIRE_SSHD")


@dataclass(frozen=True)
class SshServer:
    port: int
    ssh_config: Path  # Host 127.0.0.1: the user key, the known hosts, the user
    known_hosts: Path

    @property
    def rsh(self) -> str:
        return f"ssh -F {self.ssh_config}"

    def url(self, folder: Path) -> str:
        return f"ssh://127.0.0.1:{self.port}{folder}"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _keygen(path: Path) -> str:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True, timeout=30
    )
    return path.with_suffix(".pub").read_text().strip()


@contextmanager
def ssh_server(folder: Path) -> Iterator[SshServer]:
    """Run ``sshd`` until the block ends (keys and configs in ``folder``)."""
    need_server()
    folder.mkdir(parents=True, exist_ok=True)
    host_public = _keygen(folder / "host_key")
    user_public = _keygen(folder / "user_key")
    (folder / "authorized_keys").write_text(user_public + "\n")
    port = _free_port()
    config = folder / "sshd_config"
    config.write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {folder / 'host_key'}\n"
        f"AuthorizedKeysFile {folder / 'authorized_keys'}\nPidFile {folder / 'sshd.pid'}\n"
        "StrictModes no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
        "UsePAM no\nPermitRootLogin prohibit-password\nLogLevel ERROR\n"
    )
    Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation folder
    known = folder / "known_hosts"
    known.write_text(f"[127.0.0.1]:{port} {host_public}\n")
    client = folder / "ssh_config"
    client.write_text(
        f"Host 127.0.0.1\n  User root\n  IdentityFile {folder / 'user_key'}\n"
        f"  IdentitiesOnly yes\n  UserKnownHostsFile {known}\n  GlobalKnownHostsFile /dev/null\n"
        "  LogLevel ERROR\n"
    )
    server = subprocess.Popen(
        [SSHD, "-D", "-e", "-f", str(config)], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if server.poll() is not None or time.monotonic() > deadline:
                error = server.stderr.read().decode(errors="replace") if server.stderr else ""
                raise RuntimeError(f"sshd did not start: {error.strip()}")
            time.sleep(0.05)
        yield SshServer(port, client, known)
    finally:
        _close_shared_connection(client, port)
        server.terminate()
        server.wait(timeout=10)


def _close_shared_connection(client: Path, port: int) -> None:
    """End the connection ink-tui's ssh kept open to this server (``ControlPersist``), so no
    ssh outlives the test."""
    from ink_tui.archive.sshpull import control_folder

    folder = control_folder()
    if folder is not None:
        control = f"ControlPath={folder}/%C"
        subprocess.run(
            ["ssh", "-F", str(client), "-p", str(port), "-o", control, "-O", "exit", "127.0.0.1"],
            capture_output=True,
            timeout=10,
            check=False,
        )
