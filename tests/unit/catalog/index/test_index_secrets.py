"""The index never holds a secret: every text, title and name is masked as it is read, the row
counts the secrets by kind (the audit's count), and search finds the mask, never the secret."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import secretsets

from ink_tui.catalog.index import CatalogIndex, load_rows, update_index
from ink_tui.catalog.search import search_index
from ink_tui.catalog.secretsaudit import audit_files
from ink_tui.catalog.textpieces import unpack_text

TOKEN = "ghp_" + "Lq4Zx8Rw" * 4 + "Tn2k"
OTHER = "ghp_" + "Wd7Kp3Ys" * 4 + "Hq9m"


def _indexed(tmp_path: Path, base: Path) -> CatalogIndex:
    index = CatalogIndex.open(tmp_path / "cache" / "index.sqlite3")
    update_index(index, base, None)
    return index


def _stored_text(index: CatalogIndex) -> str:
    """Everything the index holds of session text: bodies, rows (titles, names), entry names."""
    connection = index.connection
    bodies = [unpack_text(packed) for (packed,) in connection.execute("SELECT body FROM bodies")]
    rows = [row for (row,) in connection.execute("SELECT row FROM files")]
    names = [name or "" for (name,) in connection.execute("SELECT name FROM entries")]
    return "\n".join([*bodies, *rows, *names])


def test_no_planted_secret_is_stored_and_the_row_counts_them(tmp_path: Path) -> None:
    planted = secretsets.planted()
    path = secretsets.session_file(
        tmp_path / "sessions" / "proj" / "s.jsonl", [text for _, text, _ in planted]
    )
    with _indexed(tmp_path, tmp_path / "sessions") as index:
        stored = _stored_text(index)
        (row,) = load_rows(index, None)
    leaked = [kind for kind, _, secret in planted if secret in stored]
    assert leaked == []
    assert stored.count("[REDACTED:") >= len(planted)
    (audited,) = audit_files([(path, None, path.stat().st_size)])
    assert row.secrets == Counter(finding.kind for finding in audited.findings)
    assert row.secret_count == len(audited.findings) >= len(planted)


def test_look_alikes_are_stored_as_written(tmp_path: Path) -> None:
    texts = secretsets.lookalikes()
    secretsets.session_file(tmp_path / "sessions" / "proj" / "s.jsonl", texts)
    with _indexed(tmp_path, tmp_path / "sessions") as index:
        stored = _stored_text(index)
        (row,) = load_rows(index, None)
        hits = search_index(index, "authenticationMiddleware")
    assert "[REDACTED:" not in stored
    assert row.secrets == {}
    assert [hit.entry_id for hit in hits] == ["e8"]


def _line(entry_id: str, parent: str | None, text: str) -> str:
    message = {"role": "user", "content": text}
    record = {"type": "message", "id": entry_id, "parentId": parent,
              "timestamp": secretsets.STAMP, "message": message}  # fmt: skip
    return json.dumps(record) + "\n"


def test_the_title_is_masked_and_search_finds_the_fingerprint_not_the_token(
    tmp_path: Path,
) -> None:
    path = secretsets.session_file(tmp_path / "sessions" / "proj" / "s.jsonl", [])
    with path.open("a") as stream:
        stream.write(_line("u1", None, f"use {TOKEN} for the release"))
    with _indexed(tmp_path, tmp_path / "sessions") as index:
        (row,) = load_rows(index, None)
        assert TOKEN not in row.title
        masked = re.fullmatch(r"use \[REDACTED:github-token:([0-9a-f]{8})\] for the release",
                              row.title)  # fmt: skip
        assert masked is not None
        assert search_index(index, TOKEN) == []
        assert search_index(index, TOKEN[:12] + "*") == []
        (hit,) = search_index(index, masked.group(1))
    assert hit.entry_id == "u1" and hit.secrets == 1
    assert hit.to_json()["sessionSecrets"] == 1


def test_a_name_holding_a_secret_is_masked(tmp_path: Path) -> None:
    texts = ["hello", "", "", "", "", "", "", "", f"deploy with {TOKEN}"]  # the 9th: a name
    secretsets.session_file(tmp_path / "sessions" / "proj" / "s.jsonl", texts)
    with _indexed(tmp_path, tmp_path / "sessions") as index:
        (row,) = load_rows(index, None)
        stored = _stored_text(index)
    assert row.name is not None and row.name.startswith("deploy with [REDACTED:github-token:")
    assert row.title == row.name
    assert TOKEN not in stored


def test_an_appended_session_counts_each_secret_once(tmp_path: Path) -> None:
    path = secretsets.session_file(tmp_path / "sessions" / "proj" / "s.jsonl", [])
    with path.open("a") as stream:
        stream.write(_line("u1", None, f"first {TOKEN}"))
        stream.write(_line("u2", "u1", f"the last line, read as provisional: {OTHER}"))
    with _indexed(tmp_path, tmp_path / "sessions") as index:
        assert load_rows(index, None)[0].secrets == {"github-token": 2}
        with path.open("a") as stream:
            stream.write(_line("u3", "u2", "password = Hn3Jk8Lp2Qw"))
        report = update_index(index, tmp_path / "sessions", None)
        assert report.appended == 1  # read on from where the first read stopped
        (row,) = load_rows(index, None)
        stored = _stored_text(index)
    assert row.secrets == {"github-token": 2, "password": 1}
    assert OTHER not in stored and "Hn3Jk8Lp2Qw" not in stored
