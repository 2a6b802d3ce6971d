"""``--redact``: what looks like a secret is masked (its prefix kept, so a reader knows what it
was), what only resembles one is left alone, the home folder becomes ``~``, and the count is of
distinct secrets."""

from __future__ import annotations

import pytest

from ink_tui.export.redact import MASK, Redactor

HOME = "/home/ada"

MASKED = {  # text -> what it becomes
    "key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789 end": f"key sk-ant-api03-{MASK} end",
    "OPENAI_KEY is sk-proj-abcdefghijklmnopqrstuvwx12": f"OPENAI_KEY is sk-proj-{MASK}",
    "old style sk-abcdefghijklmnopqrstuvwxyz012345": f"old style sk-{MASK}",
    "git push https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com": (
        f"git push https://ghp_{MASK}@github.com"
    ),
    "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz": f"github_pat_{MASK}",
    "SLACK=xoxb-1234567890-abcdefghijklmnop": f"SLACK=xoxb-{MASK}",
    "aws_access_key_id = AKIAIOSFODNN7EXAMPLE.": f"aws_access_key_id = AKIA{MASK}.",
    "curl -H 'Authorization: Bearer abc.def-ghi_jkl123456' x": (
        f"curl -H 'Authorization: Bearer {MASK}' x"
    ),
    '{"Authorization": "Basic dXNlcjpwYXNzd29yZA=="}': f'{{"Authorization": "Basic {MASK}"}}',
    "authorization: 0123456789abcdef0123": f"authorization: {MASK}",
    "API_KEY=supersecretvalue123": f"API_KEY={MASK}",
    'export ANTHROPIC_API_KEY="sk-ant-xyz"': f'export ANTHROPIC_API_KEY="{MASK}"',
    "DB_PASSWORD='hunter2hunter2'": f"DB_PASSWORD='{MASK}'",
    "CLIENT_SECRET=abcd1234": f"CLIENT_SECRET={MASK}",
    "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9P": (
        f"jwt eyJ{MASK}"
    ),
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----": (
        f"-----BEGIN OPENSSH PRIVATE KEY-----{MASK}"
    ),
}

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
    "/home/adam/notes and /home/ada.backup",
)


@pytest.mark.parametrize("text", MASKED)
def test_a_secret_is_masked_keeping_what_it_was(text: str) -> None:
    redactor = Redactor(home=HOME)
    assert redactor.text(text) == MASKED[text]
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
    data = "AKIAIOSFODNN7EXAMPLE" + "A" * 8  # base64 that happens to look like a key id
    value = {
        "role": "user",
        "content": [
            {"type": "text", "text": "API_KEY=supersecretvalue123 in /home/ada/x"},
            {"type": "image", "data": data, "mimeType": "image/png"},
        ],
        "n": 3,
    }
    redacted = redactor.value(value)
    assert redacted["content"][0]["text"] == f"API_KEY={MASK} in ~/x"
    assert redacted["content"][1]["data"] == data
    assert redacted["n"] == 3
    assert redactor.masked == 1


def test_without_redaction_nothing_changes() -> None:
    redactor = Redactor.for_user(False)
    text = "API_KEY=supersecretvalue123 in /home/ada"
    assert redactor.text(text) == text
    assert redactor.summary() == ""
