"""The secrets detector: every planted secret found (its whole span), no look-alike taken for
one, and each gap the export's old masking had closed with its own test."""

from __future__ import annotations

import base64
import itertools
import re
import string

import pytest
import secretsets
from hypothesis import given
from hypothesis import strategies as st

from ink_tui.secrets import find_in_value, find_secrets, mask_secrets, mask_value

PLANTED = secretsets.planted()
LOOKALIKES = secretsets.lookalikes()
TOKEN = "ghp_" + "Ab3" * 12  # a GitHub token's shape (not a real one)


def _covered(text: str, secret: str) -> bool:
    """Whether one finding covers the whole planted secret (a wrapped one: with its break)."""
    position = text.find(secret)
    for found in find_secrets(text):
        if position >= 0 and found.start <= position and found.end >= position + len(secret):
            return True
        if position < 0 and secret in re.sub(r"\n[ \t]*", "", text[found.start : found.end]):
            return True
    return False


def test_the_planted_set_is_broad_enough() -> None:
    assert len(PLANTED) >= 70
    assert len({kind for kind, _, _ in PLANTED}) >= secretsets.KINDS_AT_LEAST
    assert len(LOOKALIKES) >= 30


def test_every_planted_secret_is_found_whole() -> None:
    missed = [(kind, text[:60]) for kind, text, secret in PLANTED if not _covered(text, secret)]
    assert missed == []


@pytest.mark.parametrize("text", LOOKALIKES, ids=[text[:30] for text in LOOKALIKES])
def test_a_lookalike_is_not_a_secret(text: str) -> None:
    assert find_secrets(text) == []


def test_a_fine_grained_github_token_is_found_without_gh_nearby() -> None:
    token = f"github_pat_11{'AbC9' * 5}_{'b7Xq' * 14}x"
    (found,) = find_secrets(f"the new one: {token}")
    assert found.kind == "github-fine-grained-token" and found.value == token


def test_colour_codes_around_a_token_do_not_hide_it() -> None:
    text = f"src/app.ts\x1b[0m:\x1b[32m3\x1b[0m:\x1b[1;31m{TOKEN}\x1b[0m"
    masked, (found,) = mask_secrets(text)
    assert found.kind == "github-token" and TOKEN not in masked
    assert masked.endswith(f"\x1b[1;31m[REDACTED:github-token:{found.fingerprint}]\x1b[0m")


def test_structured_arguments_are_read_with_their_keys() -> None:
    password = "pa55-w0rd-" + "q" * 6
    arguments = {
        "url": "https://api.example.com",
        "headers": {"X-Api-Key": "a8F3kq93LmZ0pw2x", "Authorization": "Basic dXNlcjpodW50ZXIy"},
        "auth": {"username": "ada", "password": password},
    }
    findings = find_in_value({"arguments": arguments}, "message.blocks[0]")
    assert {(finding.field, finding.secret.kind) for finding in findings} == {
        ("message.blocks[0].arguments.headers.X-Api-Key", "key"),
        ("message.blocks[0].arguments.headers.Authorization", "credential"),
        ("message.blocks[0].arguments.auth.password", "password"),
    }
    masked, count = mask_value(arguments)
    assert count == 3 and password not in str(masked) and "a8F3kq93" not in str(masked)
    assert masked["auth"]["username"] == "ada" and masked["url"] == arguments["url"]


def test_an_image_is_never_read() -> None:
    data = base64.b64encode(f"token={TOKEN}".encode()).decode()
    assert find_in_value({"type": "image", "data": data, "mimeType": "image/png"}) == []


def test_the_fingerprint_names_a_secret_without_showing_it() -> None:
    (first,) = find_secrets(f"GH_TOKEN={TOKEN}")
    (again,) = find_secrets(f"push with {TOKEN} please")
    assert first.fingerprint == again.fingerprint and re.fullmatch(
        r"[0-9a-f]{8}", first.fingerprint
    )
    assert TOKEN not in repr(first) and TOKEN not in first.fingerprint


def test_placeholders_references_and_code_are_not_passwords() -> None:
    for text in (
        "password: ${DB_PASSWORD}",
        "password = getpass()",
        "password=settings.DB_PASSWORD",
        'password: "<your password>"',
        "password: ********",
        "--password $PW",
    ):
        assert find_secrets(text) == [], text
    assert [s.kind for s in find_secrets('password = "letmein"')] == ["password"]  # quoted
    assert [s.kind for s in find_secrets("password=hunter2")] == ["password"]  # a digit


_TEXT = st.text(alphabet=string.printable + "\x1b\u202e─é", max_size=300)


@given(st.lists(st.one_of(_TEXT, st.sampled_from([s for _, _, s in PLANTED])), max_size=5))
def test_any_text_gives_ordered_spans_and_masking_removes_them(parts: list[str]) -> None:
    text = " ".join(parts)
    found = find_secrets(text)
    assert all(0 <= a.start < a.end <= len(text) for a in found)
    assert all(a.end <= b.start for a, b in itertools.pairwise(found))
    masked, again = mask_secrets(text)
    assert len(again) == len(found)
    for secret in found:
        if len(secret.value) >= 12:
            assert secret.value not in masked


def test_a_dotenv_file_is_not_read_as_one_wrapped_token() -> None:
    openai = "sk-proj-" + "Ab3dE5fG7h" * 7
    anthropic = "sk-ant-api03-" + "Xy7Kq2" * 16 + "AA"
    text = f"OPENAI_API_KEY={openai}\nANTHROPIC_API_KEY={anthropic}\nDEBUG=true\n"
    masked, found = mask_secrets(text)
    assert [s.kind for s in found] == ["openai-key", "anthropic-key"]
    assert masked.endswith("\nDEBUG=true\n") and "ANTHROPIC_API_KEY=[REDACTED:" in masked
    assert found[0].fingerprint == find_secrets(openai)[0].fingerprint  # the same key


def test_a_url_parameter_ends_at_the_next_one() -> None:
    masked, _ = mask_secrets("https://app/cb#access_token=Zx9Kq2Lm7Wq3Vb8N&token_type=Bearer&x=1")
    assert masked.endswith("&token_type=Bearer&x=1")
    masked, (found,) = mask_secrets("https://x-access-token:Zx9Kq2Lm7Wq3Vb8NxQ@github.com/o/r.git")
    assert found.kind == "url-password" and masked.endswith("@github.com/o/r.git")


def test_twenty_thousand_findings_in_one_text_are_all_kept() -> None:
    text = "".join(f"password: x{n:06d}Q\n" for n in range(20_000))
    assert len(find_secrets(text)) == 20_000
