"""The provider rules: secrets recognisable by their own shape (a provider's prefix, a fixed
length, a URL of a webhook), whatever surrounds them.

Each rule has a kind (named after the service: what an audit reports), clues (literal text a
match must contain: a text holding none is never searched with the rule, so most text costs a
few ``str.__contains__``), and a pattern whose group ``secret`` is the secret itself (what is
masked and fingerprinted). ``random`` rules also need their secret to look random (a digit and a
letter, no long dictionary-like run): ``sk-learn-compatible`` is not a key.

The set covers what gitleaks' default rules cover for the services developers use: cloud keys,
source hosts and CI tokens, package registries, model providers, chat and its webhooks, payments,
mail, and private keys of every PEM, OpenSSH and PGP form (a block cut short by ``head`` too).
Secrets that only a key name reveals (``password: …``) are :mod:`.keyed`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Final

__all__ = ["RULES", "Rule", "literal_trie"]

_B64: Final = r"[A-Za-z0-9+/]"
_END: Final = r"(?![A-Za-z0-9_\-])"  # the token ends here
_START: Final = r"(?<![A-Za-z0-9_\-])"  # and starts here


@dataclass(frozen=True, slots=True)
class Rule:
    kind: str
    clues: tuple[str, ...]  # none: the pattern runs on every text (it starts with no literal)
    source: str  # the pattern, compiled when first needed (:attr:`pattern`)
    random: bool = False  # the secret must look random (:func:`looks_random`)

    @property
    def pattern(self) -> re.Pattern[str]:
        """The compiled pattern. Compiled the first time a text holds one of the rule's clues:
        most rules never are in a run, and compiling them all cost 10 ms at every start."""
        return _compiled(self.source)


@cache
def _compiled(source: str) -> re.Pattern[str]:
    return re.compile(source)


def _rule(kind: str, clues: tuple[str, ...], pattern: str, *, random: bool = False) -> Rule:
    return Rule(kind, clues, pattern, random)


def _token(prefix: str, body: str) -> str:
    """A token: ``prefix`` then ``body``, standing alone."""
    return rf"{_START}(?P<secret>{prefix}{body}){_END}"


RULES: Final[tuple[Rule, ...]] = (
    # Private keys: a whole block, or a block cut short (``head -5 id_rsa``): from BEGIN to END,
    # else to the last line of key characters.
    _rule(
        "private-key",
        ("PRIVATE KEY",),
        r"(?P<secret>-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
        r"(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
        r"|(?:(?:\\n|\\r|[\r\n\t ])+(?:[A-Za-z0-9+/=:\-]+(?: [A-Za-z0-9+/=:\-]+)*))+))",
    ),
    _rule(
        "putty-private-key",
        ("PuTTY-User-Key-File",),
        r"(?P<secret>PuTTY-User-Key-File-\d: [\s\S]*?Private-MAC: [0-9a-f]+)",
    ),
    _rule("age-secret-key", ("AGE-SECRET-KEY-1",), _token("AGE-SECRET-KEY-1", r"[0-9A-Z]{58}")),
    # Cloud.
    _rule(
        "aws-access-key-id",
        ("AKIA", "ASIA", "ABIA", "ACCA", "A3T"),
        r"(?<![A-Z0-9])(?P<secret>(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})(?![A-Z0-9])",
    ),
    _rule("gcp-api-key", ("AIza",), _token("AIza", r"[0-9A-Za-z_\-]{35}")),
    _rule("gcp-oauth-secret", ("GOCSPX-",), _token("GOCSPX-", r"[A-Za-z0-9_\-]{28}")),
    _rule(
        "azure-storage-key",
        ("AccountKey=", "SharedAccessKey="),
        r"(?:AccountKey|SharedAccessKey)=(?P<secret>[A-Za-z0-9+/]{20,}={0,2})",
    ),
    _rule(
        "azure-sas-signature",
        ("sig=",),
        r"[?&]sig=(?P<secret>[A-Za-z0-9%+/]{30,}(?:%3D|=){0,2})",
    ),
    _rule("digitalocean-token", ("_v1_",), _token("do[opr]_v1_", r"[a-f0-9]{64}")),
    _rule("heroku-api-key", ("HRKU-",), _token("HRKU-", r"[A-Za-z0-9_\-]{60}")),
    _rule("databricks-token", ("dapi",), _token("dapi", r"[a-f0-9]{32}(?:-\d)?")),
    _rule("alibaba-access-key", ("LTAI",), _token("LTAI", r"[A-Za-z0-9]{20}")),
    # Source hosts and CI.
    _rule(
        "github-token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        _token("gh[pousr]_", r"[A-Za-z0-9]{36}"),
    ),
    _rule(
        "github-fine-grained-token",
        ("github_pat_",),
        _token("github_pat_", r"[A-Za-z0-9_]{30,}"),
        random=True,
    ),
    _rule(
        "gitlab-token",
        ("glpat-", "gldt-", "glptt-", "glrt-", "glcbt-", "glft-", "glimt-", "gloas-", "glsoat-"),
        _token(r"gl(?:pat|dt|ptt|rt|cbt|ft|imt|oas|soat)-", r"[A-Za-z0-9_\-]{20,}"),
        random=True,
    ),
    _rule("gitlab-runner-token", ("GR1348941",), _token("GR1348941", r"[A-Za-z0-9_\-]{20}")),
    _rule("bitbucket-app-password", ("ATBB",), _token("ATBB", r"[A-Za-z0-9_=.\-]{28,}")),
    _rule("atlassian-token", ("ATATT",), _token("ATATT", r"[A-Za-z0-9_=.\-]{150,}")),
    _rule("buildkite-token", ("bkua_",), _token("bkua_", r"[a-f0-9]{40}")),
    _rule("circleci-token", ("CCIPAT_",), _token("CCIPAT_", r"[A-Za-z0-9]{22}_[a-f0-9]{40}")),
    _rule("onepassword-token", ("ops_",), _token("ops_", r"eyJ[A-Za-z0-9_\-]{40,}")),
    _rule("pulumi-token", ("pul-",), _token("pul-", r"[a-f0-9]{40}")),
    _rule(
        "terraform-token",
        ("atlasv1",),
        _token(r"[A-Za-z0-9]{14}\.atlasv1\.", r"[A-Za-z0-9_=\-]{60,}"),
    ),
    _rule("vercel-token", ("vercel_",), _token("vercel_", r"[A-Za-z0-9]{24,}"), random=True),
    _rule(
        "doppler-token",
        ("dp.",),
        _token(r"dp\.(?:pt|st|sa|ct|scim|audit)\.", r"[A-Za-z0-9]{40,44}"),
    ),
    _rule("sentry-token", ("sntry", "sntrys_"), _token("sntr(?:ys|yu)_", r"[A-Za-z0-9=_+/]{40,}")),
    _rule(
        "grafana-token",
        ("glc_", "glsa_"),
        _token("(?:glc_|glsa_)", r"[A-Za-z0-9_+/=\-]{32,}"),
        random=True,
    ),
    _rule("postman-key", ("PMAK-",), _token("PMAK-", r"[a-f0-9]{24}-[a-f0-9]{34}")),
    _rule("figma-token", ("figd_",), _token("figd_", r"[A-Za-z0-9_\-]{40}")),
    _rule("linear-key", ("lin_api_",), _token("lin_api_", r"[A-Za-z0-9]{40}")),
    _rule(
        "notion-token",
        ("ntn_", "secret_"),
        _token("(?:ntn_|secret_)", r"[A-Za-z0-9]{43,46}"),
        random=True,
    ),
    _rule("supabase-token", ("sbp_",), _token("sbp_", r"[a-f0-9]{40}")),
    # Package registries.
    _rule("npm-token", ("npm_",), _token("npm_", r"[A-Za-z0-9]{36}"), random=True),
    _rule("pypi-token", ("pypi-",), _token("pypi-AgEIcHlwaS5vcmc", r"[A-Za-z0-9_\-]{50,}")),
    _rule("rubygems-key", ("rubygems_",), _token("rubygems_", r"[a-f0-9]{48}")),
    _rule("docker-hub-token", ("dckr_pat_",), _token("dckr_pat_", r"[A-Za-z0-9_\-]{27}")),
    _rule("nuget-key", ("oy2",), _token("oy2", r"[a-z0-9]{43}"), random=True),
    # Model providers.
    _rule(
        "anthropic-key",
        ("sk-ant-",),
        _token(r"sk-ant-(?:api|admin|sid)\d\d-", r"[A-Za-z0-9_\-]{20,}"),
    ),
    _rule(
        "openai-key",
        ("sk-",),
        _token(r"sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?", r"[A-Za-z0-9_\-]{20,}"),
        random=True,
    ),
    _rule("huggingface-token", ("hf_",), _token("hf_", r"[A-Za-z]{34}"), random=True),
    _rule("groq-key", ("gsk_",), _token("gsk_", r"[A-Za-z0-9]{52}")),
    _rule("xai-key", ("xai-",), _token("xai-", r"[A-Za-z0-9]{80}")),
    _rule("perplexity-key", ("pplx-",), _token("pplx-", r"[A-Za-z0-9]{48}")),
    _rule("replicate-token", ("r8_",), _token("r8_", r"[A-Za-z0-9]{37}"), random=True),
    # Chat and webhooks.
    _rule("slack-token", ("xox",), _token("xox[abposr]-", r"[0-9A-Za-z\-]{10,}"), random=True),
    _rule("slack-app-token", ("xapp-",), _token("xapp-", r"\d-[A-Z0-9]+-\d+-[a-z0-9]+")),
    _rule(
        "slack-webhook",
        ("hooks.slack.com",),
        r"(?P<secret>https?://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_\-]{20,})",
    ),
    _rule(
        "discord-webhook",
        ("/api/webhooks/",),
        r"(?P<secret>https?://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{40,})",
    ),
    _rule(
        "discord-bot-token",
        (),
        r"(?<![A-Za-z0-9_\-.])(?P<secret>[MNO][A-Za-z0-9_\-]{23,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38})"
        r"(?![A-Za-z0-9_\-.])",
        random=True,
    ),
    _rule(
        "telegram-bot-token",
        (":AA",),
        r"(?<![0-9A-Za-z])(?P<secret>\d{8,10}:AA[A-Za-z0-9_\-]{33})(?![A-Za-z0-9_\-])",
    ),
    _rule(
        "teams-webhook",
        ("webhook.office.com",),
        r"(?P<secret>https://[a-z0-9\-]+\.webhook\.office\.com/webhookb2/[A-Za-z0-9@/_\-]{40,})",
    ),
    # Payments, mail, messaging.
    _rule(
        "stripe-key", ("k_live_", "k_test_"), _token(r"[sr]k_(?:live|test)_", r"[A-Za-z0-9]{20,}")
    ),
    _rule("stripe-webhook-secret", ("whsec_",), _token("whsec_", r"[A-Za-z0-9+/]{32,}")),
    _rule(
        "square-token",
        ("EAAA", "sq0"),
        _token(r"(?:EAAA|sq0atp-|sq0csp-)", r"[A-Za-z0-9_\-]{22,60}"),
        random=True,
    ),
    _rule("shopify-token", ("shp",), _token(r"shp(?:at|ss|ca|pa)_", r"[a-fA-F0-9]{32}")),
    _rule("sendgrid-key", ("SG.",), _token(r"SG\.", r"[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}")),
    _rule("mailgun-key", ("key-",), _token("key-", r"[0-9a-zA-Z]{32}"), random=True),
    _rule("mailchimp-key", ("-us",), _token("", r"[0-9a-f]{32}-us\d{1,2}")),
    _rule(
        "twilio-key",
        tuple(f"SK{digit}" for digit in "0123456789abcdefABCDEF"),
        r"(?<![A-Za-z0-9])(?P<secret>SK[0-9a-fA-F]{32})(?![A-Za-z0-9])",
    ),
    _rule(
        "postmark-token", ("X-Postmark",), r"X-Postmark-Server-Token:\s*(?P<secret>[0-9a-f\-]{36})"
    ),
    # Tokens of a known encoding.
    _rule(
        "jwt",
        ("eyJ",),
        r"(?<![A-Za-z0-9_\-])(?P<secret>eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}"
        r"\.[A-Za-z0-9_\-]{10,})",
    ),
)


def literal_trie(words: list[str]) -> str:
    """One pattern matching any of ``words``, their common starts shared (``gh(?:o_|p_)``):
    the regex engine tries a few branches at each place instead of every word."""
    tree: dict[str, dict] = {}  # type: ignore[type-arg]
    for word in words:
        node = tree
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def pattern(node: dict) -> str:  # type: ignore[type-arg]
        branches = [re.escape(char) + pattern(rest) for char, rest in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
        return f"(?:{body})?" if "" in node else body

    return pattern(tree)
