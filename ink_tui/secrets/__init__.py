"""Secrets in session text: one detector for export, the index, the MCP server, sync and push.

- :func:`find_secrets` / :func:`mask_secrets`: the secrets of a text (:mod:`.detect`: provider
  rules, :mod:`.rules`; keyed rules, :mod:`.keyed`), read past escape codes, line wraps and
  URL or base64 encoding.
- :func:`find_in_value` / :func:`mask_value`: the same over a JSON value, key-aware, each
  finding with its field path (:mod:`.structured`).
- :func:`masked_text`: text on its way to the screen, the cheap look first (:mod:`.masking`).

Below every other layer but the helpers: nothing here reads a file or knows a session.
"""

from ink_tui.secrets.detect import find_secrets, mask_secrets
from ink_tui.secrets.found import Secret, redaction
from ink_tui.secrets.masking import masked_text
from ink_tui.secrets.structured import Finding, find_in_value, mask_value

__all__ = [
    "Finding",
    "Secret",
    "find_in_value",
    "find_secrets",
    "mask_secrets",
    "mask_value",
    "masked_text",
    "redaction",
]
