"""Masking on the way to a person (``secrets/masking.py``) and a finding's context
(``structured.Finding.context``): the cheap look first never lets a secret through, text with no
secret comes back as it was, and the context shown around a finding holds no secret."""

from __future__ import annotations

import secretsets
from hypothesis import given
from hypothesis import strategies as st

from ink_tui.secrets import find_in_value, find_secrets, mask_secrets, masked_text
from ink_tui.secrets.masking import SHORTEST

TOKEN = "ghp_" + "Lq4Zx8Rw" * 4 + "Tn2k"


def test_every_planted_secret_is_masked_as_text_on_the_screen() -> None:
    planted = secretsets.planted()
    leaked = [kind for kind, text, secret in planted if secret in masked_text(text)]
    assert leaked == []
    assert all("[REDACTED:" in masked_text(text) for _, text, _ in planted)


def test_look_alikes_and_short_text_come_back_as_they_were() -> None:
    for text in secretsets.lookalikes():
        assert masked_text(text) == text
    assert masked_text("pwd=Hn3J").startswith("pwd=[REDACTED:password:")
    assert len("pwd=Hn3J") == SHORTEST  # the shortest finding: shorter text is not looked at
    assert find_secrets("pwd=Hn3") == []


@given(st.text(max_size=300))
def test_the_cheap_look_first_changes_nothing_the_detector_would_say(text: str) -> None:
    assert masked_text(text) == mask_secrets(text)[0]


@given(st.lists(st.sampled_from([TOKEN, "password=", "pwd=Hn3J", "://u:", "@h", " ", "\n", "x"])))
def test_pieces_of_secrets_in_any_order_are_masked_as_the_detector_says(parts: list[str]) -> None:
    text = "".join(parts)
    assert masked_text(text) == mask_secrets(text)[0]


@given(st.text(max_size=80), st.text(max_size=80))
def test_a_token_anywhere_in_any_text_is_masked(before: str, after: str) -> None:
    text = f"{before} {TOKEN} {after}"
    assert TOKEN not in masked_text(text)


def test_a_finding_s_context_masks_every_secret_around_it_and_cuts_to_its_room() -> None:
    text = ("a long preamble " * 5) + f"GITHUB_TOKEN={TOKEN} and password=Hn3Jk8Lp2Qw then more"
    record = {"message": {"content": text}, "auth": {"password": "Zx9Cv8Bn7Mq"}}
    token, password, whole = find_in_value(record)
    assert (token.field, token.secret.kind) == ("message.content", "github-token")
    context = token.context(before=20, after=20)
    assert context.startswith("…") and context.endswith("…")
    assert f"[REDACTED:github-token:{token.secret.fingerprint}]" in context
    assert TOKEN not in context and len(context) <= 20 + 32 + 20 + 2
    assert token.context().index("[REDACTED:") == 1 + 24  # the mask near the start
    wide = password.context(before=200, after=200)
    assert "Hn3Jk8Lp2Qw" not in wide and TOKEN not in wide  # its neighbour masked too
    assert not wide.startswith("…") and not wide.endswith("…")
    assert whole.field == "auth.password"
    assert whole.context() == f"[REDACTED:password:{whole.secret.fingerprint}]"
