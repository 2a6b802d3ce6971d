"""``--redact``: what the one detector takes for a secret becomes ``[REDACTED:<kind>:<fp>]``
(the kind says what it was, the fingerprint which ones are the same), what only resembles one
is left alone, the home folder becomes ``~``, and the count is of distinct secrets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ink_tui.export.redact import MASK, Redactor

HOME = "/home/ada"

MASKED = {  # text -> (what stays before the mask, the kind, what stays after)
    "key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789 end": ("key ", "anthropic-key", " end"),
    "OPENAI_KEY is sk-proj-abcdefghijklmnopqrstuvwx12": ("OPENAI_KEY is ", "openai-key", ""),
    "old style sk-abcdefghijklmnopqrstuvwxyz012345": ("old style ", "openai-key", ""),
    "git push https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com": (
        "git push https://", "github-token", "@github.com"
    ),
    "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz": (
        "", "github-fine-grained-token", ""
    ),
    "SLACK=xoxb-1234567890-abcdefghijklmnop": ("SLACK=", "slack-token", ""),
    "aws_access_key_id = AKIAQ4ZD7N2LMBX3TY6W.": ("aws_access_key_id = ", "aws-access-key-id", "."),
    "curl -H 'Authorization: Bearer abc.def-ghi_jkl123456' x": (
        "curl -H 'Authorization: Bearer ", "credential", "' x"
    ),
    '{"Authorization": "Basic dXNlcjpwYXNzd29yZA=="}': (
        '{"Authorization": "Basic ', "credential", '"}'
    ),
    "authorization: 0123456789abcdef0123": ("authorization: ", "credential", ""),
    "API_KEY=supersecretvalue123": ("API_KEY=", "key", ""),
    'export ANTHROPIC_API_KEY="sk-ant-xyz"': ('export ANTHROPIC_API_KEY="', "key", '"'),
    "DB_PASSWORD='hunter2hunter2'": ("DB_PASSWORD='", "password", "'"),
    "CLIENT_SECRET=abcd1234": ("CLIENT_SECRET=", "secret", ""),
    "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9P": (
        "jwt ", "jwt", ""
    ),
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----": (
        "", "private-key", ""
    ),
}  # fmt: skip
_MASKED = re.compile(r"\[REDACTED:(?P<kind>[a-z0-9\-]+):[0-9a-f]{8}\]")

KEPT = (
    "risk-free task-management-system-overview-document",
    "MAX_TOKENS=4096",
    "API_KEY=$API_KEY and API_KEY=${API_KEY}",
    "api_key = os.environ['API_KEY']",
    "max_key=3",
    "MONKEY=banana",
    "BYPASS=1234",
    "GITHUB_TOKEN: x",
    "commit 3f2a9c1b7e8d4f6a0b2c3d4e5f6a7b8c9d0e1f2a",
    "session 0c9a7e21-4f3b-4d5a-8e6f-1a2b3c4d5e6f",
    "Authorization: required for this endpoint",
    "the header is Authorization: Bearer <token>",
    "sk-short ghp_short",
    "the word akiaiosfodnn7example is lower case",
    "AKIAIOSFODNN7EXAMPLE, the documentation's example key id",
    "/home/adam/notes and /home/ada.backup",
)


@pytest.mark.parametrize("text", MASKED)
def test_a_secret_is_masked_saying_what_it_was(text: str) -> None:
    redactor = Redactor(home=HOME)
    before, kind, after = MASKED[text]
    said = redactor.text(text)
    assert said.startswith(before + MASK) and said.endswith(after)
    mask = _MASKED.fullmatch(said[len(before) : len(said) - len(after)])
    assert mask is not None and mask.group("kind") == kind
    assert redactor.masked == 1


@pytest.mark.parametrize("text", KEPT)
def test_what_only_resembles_a_secret_is_kept(text: str) -> None:
    redactor = Redactor(home=HOME)
    assert redactor.text(text) == text
    assert (redactor.masked, redactor.homes) == (0, 0)


def test_the_home_folder_becomes_a_tilde() -> None:
    redactor = Redactor(home=HOME + "/")
    said = redactor.text("cd /home/ada/code/calc-kit && ls /home/ada")
    assert said == "cd ~/code/calc-kit && ls ~"
    assert (redactor.masked, redactor.homes) == (0, 2)
    assert redactor.summary() == "0 secrets masked, the home folder shown as ~ 2 times"


def test_the_count_is_of_distinct_secrets() -> None:
    redactor = Redactor(home=HOME)
    key = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789"
    for _ in range(3):  # a prompt, the title made from it, a compaction's retained copy
        redactor.text(f"my key is {key}")
    redactor.text("and ghp_abcdefghijklmnopqrstuvwxyz0123456789")
    assert redactor.masked == 2
    assert redactor.summary() == "2 secrets masked"


def test_json_values_are_redacted_but_not_image_data() -> None:
    redactor = Redactor(home=HOME)
    data = "AKIAQ4ZD7N2LMBX3TY6W" + "A" * 8  # base64 that happens to look like a key id
    value = {
        "role": "user",
        "content": [
            {"type": "text", "text": "API_KEY=supersecretvalue123 in /home/ada/x"},
            {"type": "image", "data": data, "mimeType": "image/png"},
        ],
        "n": 3,
    }
    redacted = redactor.value(value)
    text = redacted["content"][0]["text"]
    assert _MASKED.fullmatch(text.removeprefix("API_KEY=").removesuffix(" in ~/x"))
    assert redacted["content"][1]["data"] == data
    assert redacted["n"] == 3
    assert redactor.masked == 1


def test_without_redaction_nothing_changes() -> None:
    redactor = Redactor.for_user(False)
    text = "API_KEY=supersecretvalue123 in /home/ada"
    assert redactor.text(text) == text
    assert redactor.summary() == ""


def test_a_proposed_file_name_never_holds_a_secret(tmp_path: Path) -> None:
    from ink_tui.export import default_path

    title = "deploy it with ghp_" + "Vb3Nm8Qw" * 4 + "Zr7p please"
    proposed = default_path(tmp_path, "0c9a7e21-4f3b", title, "md")
    assert proposed.name == "0c9a7e21-deploy-it-with-github-token-please.md"
