"""Planted secrets and look-alikes, generated at run time with the right shapes (never real
keys), for the secrets tests and the audit's benchmark.

Importable from every test folder as ``import secretsets`` (``pythonpath`` in pyproject.toml).
:func:`planted` gives ``(kind, text, secret)``: a realistic line holding one secret of a kind, as
it would sit in a prompt, a ``.env`` read by a tool, a bash command or its output, a config file
(JSON, YAML, TOML, INI), a URL, a header, a flag, or split, coloured or encoded. :func:`lookalikes`
gives text that only resembles a secret: hashes, UUIDs, git SHAs, base64 images, ``*_KEY``
settings, identifiers that start like a prefix. A detector must find every secret of the one
(its exact span) and nothing in the other.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import urllib.parse
import uuid
from pathlib import Path
from typing import Any, Final

__all__ = ["KINDS_AT_LEAST", "STAMP", "lookalikes", "placed_record", "planted", "session_file"]

KINDS_AT_LEAST: Final = 30

_ALNUM = string.ascii_letters + string.digits


def _random(rng: random.Random, length: int, alphabet: str = _ALNUM) -> str:
    """``length`` characters of ``alphabet``, with a digit and both cases (a generated token)."""
    while True:
        text = "".join(rng.choice(alphabet) for _ in range(length))
        if alphabet != _ALNUM or (
            any(c.isdigit() for c in text)
            and any(c.islower() for c in text)
            and any(c.isupper() for c in text)
        ):
            return text


def _hex(rng: random.Random, length: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(length))


def _password(rng: random.Random) -> str:
    return _random(rng, 6) + rng.choice("!#%&*+") + _random(rng, 5)


def planted(seed: int = 2412) -> list[tuple[str, str, str]]:
    """Realistic lines each holding one secret: ``(kind, text, secret)``."""
    rng = random.Random(seed)

    def r(length: int, alphabet: str = _ALNUM) -> str:
        return _random(rng, length, alphabet)

    def h(length: int) -> str:
        return _hex(rng, length)

    def pw() -> str:
        return _password(rng)

    b64 = string.ascii_letters + string.digits + "+/"
    cases: list[tuple[str, str, str]] = []

    def add(kind: str, template: str, secret: str) -> None:
        cases.append((kind, template.replace("{S}", secret), secret))

    # Model providers.
    add("anthropic-key", "export ANTHROPIC_API_KEY={S}", f"sk-ant-api03-{r(93)}AA")
    add("anthropic-key", "my key is {S} keep it safe", f"sk-ant-api03-{r(93)}AA")
    add("openai-key", 'client = OpenAI(api_key="{S}")', f"sk-proj-{r(74)}")
    add("openai-key", "OPENAI_API_KEY={S}", f"sk-{r(20)}T3BlbkFJ{r(20)}")
    add(
        "huggingface-token",
        "huggingface-cli login --token {S}",
        f"hf_{r(34, string.ascii_letters)}",
    )
    add("groq-key", "GROQ_API_KEY={S}", f"gsk_{r(52)}")
    add("xai-key", "xai key: {S}", f"xai-{r(80)}")
    add("perplexity-key", "PPLX={S}", f"pplx-{r(48)}")
    add("replicate-token", "REPLICATE_API_TOKEN={S}", f"r8_{r(37)}")
    # Source hosts and CI.
    add("github-token", "git remote set-url origin https://x:{S}@github.com/o/r", f"ghp_{r(36)}")
    add("github-token", "GH_TOKEN={S} gh pr list", f"gho_{r(36)}")
    add("github-fine-grained-token", "Use this token: {S}", f"github_pat_{r(22)}_{r(59)}")
    add("gitlab-token", "PRIVATE-TOKEN: {S}", f"glpat-{r(20)}")
    add(
        "gitlab-runner-token",
        "gitlab-runner register --registration-token {S}",
        f"GR1348941{r(20)}",
    )
    add("buildkite-token", "BUILDKITE_TOKEN={S}", f"bkua_{h(40)}")
    add("pulumi-token", "PULUMI_ACCESS_TOKEN={S}", f"pul-{h(40)}")
    add("doppler-token", "DOPPLER_TOKEN={S}", f"dp.pt.{r(43)}")
    add("linear-key", "LINEAR_API_KEY={S}", f"lin_api_{r(40)}")
    add("figma-token", "X-Figma-Token: {S}", f"figd_{r(40)}")
    add("sentry-token", "SENTRY_AUTH_TOKEN={S}", f"sntrys_{r(60)}")
    add("vercel-token", "vercel deploy --token {S}", f"vercel_{r(24)}")
    add("atlassian-token", "JIRA_API_TOKEN={S}", f"ATATT3xFfGF0{r(180)}")
    # Cloud.
    add(
        "aws-access-key-id",
        "aws_access_key_id = {S}",
        "AKIA" + r(16, string.ascii_uppercase + "234567"),
    )
    add("secret", "aws_secret_access_key = {S}", r(40, b64))
    add("secret", '{"AccessKeyId": "ASIA…", "SecretAccessKey": "{S}"}', r(40, b64))
    add("gcp-api-key", "https://maps.googleapis.com/maps/api/js?key={S}", f"AIza{r(35)}")
    add("gcp-oauth-secret", '"client_secret": "{S}"', f"GOCSPX-{r(28)}")
    add(
        "azure-storage-key",
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={S};EndpointSuffix=core.windows.net",
        r(86, b64) + "==",
    )
    add(
        "azure-storage-key",
        "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey={S}",
        r(43, b64) + "=",
    )
    add("digitalocean-token", "doctl auth init -t {S}", f"dop_v1_{h(64)}")
    add("databricks-token", "DATABRICKS_TOKEN={S}", f"dapi{h(32)}")
    add("heroku-api-key", "HEROKU_API_KEY={S}", f"HRKU-{r(60)}")
    # Package registries.
    add("npm-token", "//registry.npmjs.org/:_authToken={S}", f"npm_{r(36)}")
    add("token", "//npm.pkg.github.com/:_authToken={S}", r(40))
    add("pypi-token", "twine upload -p {S} dist/*", f"pypi-AgEIcHlwaS5vcmc{r(70)}")
    add("docker-hub-token", "echo {S} | docker login -u me --password-stdin", f"dckr_pat_{r(27)}")
    add("rubygems-key", "GEM_HOST_API_KEY={S}", f"rubygems_{h(48)}")
    # Chat and webhooks.
    add(
        "slack-token",
        "SLACK_BOT_TOKEN={S}",
        f"xoxb-{rng.randint(10**11, 10**12)}-{rng.randint(10**11, 10**12)}-{r(24)}",
    )
    add(
        "slack-webhook",
        "curl -X POST {S} -d '{}'",
        f"https://hooks.slack.com/services/T{r(10, string.ascii_uppercase + string.digits)}/B{r(10, string.ascii_uppercase + string.digits)}/{r(24)}",
    )
    add(
        "discord-webhook",
        "webhook = '{S}'",
        f"https://discord.com/api/webhooks/{rng.randint(10**17, 10**18)}/{r(68)}",
    )
    add("discord-bot-token", "DISCORD_TOKEN={S}", f"MT{r(24)}.{r(6)}.{r(38)}")
    add("telegram-bot-token", "TELEGRAM_BOT_TOKEN={S}", f"{rng.randint(10**8, 10**9)}:AA{r(33)}")
    # Payments, mail, messaging.
    add("stripe-key", "stripe.api_key = '{S}'", f"sk_live_{r(24)}")
    add("stripe-key", "STRIPE_KEY={S}", f"rk_test_{r(99)}")
    add("stripe-webhook-secret", "STRIPE_WEBHOOK_SECRET={S}", f"whsec_{r(32)}")
    add("shopify-token", "X-Shopify-Access-Token: {S}", f"shpat_{h(32)}")
    add("sendgrid-key", "SENDGRID_API_KEY={S}", f"SG.{r(22)}.{r(43)}")
    add("mailgun-key", "-u 'api:{S}'", f"key-{r(32)}")
    add("mailgun-key", "MAILGUN_KEY={S}", f"{h(32)}-{h(8)}-{h(8)}")
    add("mailchimp-key", "MAILCHIMP_KEY={S}", f"{h(32)}-us{rng.randint(1, 20)}")
    add("twilio-key", "TWILIO_API_KEY={S}", f"SK{h(32)}")
    add("token", "TWILIO_AUTH_TOKEN={S}", h(32))
    # Private keys, whole and cut short.
    body = "\n".join(r(64, b64) for _ in range(6))
    add(
        "private-key",
        "{S}",
        f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----",
    )
    add(
        "private-key",
        "$ head -5 ~/.ssh/id_rsa\n{S}",
        f"-----BEGIN OPENSSH PRIVATE KEY-----\n{body[:260].rstrip()}",
    )
    add(
        "private-key",
        "{S}",
        f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{body}\n-----END PGP PRIVATE KEY BLOCK-----",
    )
    add(
        "private-key",
        '"private_key": "{S}\\n"',
        f"-----BEGIN PRIVATE KEY-----\\n{r(64, b64)}\\n-----END PRIVATE KEY-----",
    )
    add(
        "age-secret-key",
        "# created\n{S}",
        f"AGE-SECRET-KEY-1{r(58, string.ascii_uppercase + string.digits)}",
    )
    # Credentials in URLs.
    add("database-password", "DATABASE_URL=postgres://app:{S}@db.internal:5432/prod", pw())
    add("database-password", "mysql://root:{S}@127.0.0.1/shop", pw())
    add("database-password", "mongodb+srv://admin:{S}@cluster0.abc.mongodb.net/test", pw())
    add("database-password", "REDIS_URL=redis://default:{S}@cache:6379/0", pw())
    add("url-password", "git clone https://deploy:{S}@git.example.org/team/app.git", pw())
    # Keyed: config files, headers, flags.
    add("password", '{"host": "db", "password": "{S}"}', pw())
    add("key", '{"api_key": "{S}", "region": "eu"}', r(32))
    add("secret", '"client_secret": "{S}",', r(40))
    add("password", "database:\n  user: app\n  password: {S}\n", pw())
    add("password", '[database]\npassword = "{S}"', pw())
    add("password", "[client]\nuser=root\npassword={S}", pw())
    add("password", "db_password={S}", pw())
    add("password", "PGPASSWORD={S} psql -h db -U app", pw())
    add("key", "X-Api-Key: {S}", r(40))
    add("password", "curl -u admin:{S} https://jenkins.local/api/json", pw())
    add("password", "mysql -u root -p{S} shop", pw())
    add("password", 'mysqldump -u backup -p"{S}" --all-databases', pw())
    add("password", "machine api.heroku.com login ada@example.org password {S}", pw())
    add("password", "<server>\n  <id>nexus</id>\n  <password>{S}</password>\n</server>", pw())
    add("token", "auth:\n  token: |\n    {S}\n  user: ci", r(40))
    add("password", "sshpass -p {S} ssh deploy@10.0.0.5", pw())
    add("password", "psql --password {S}", pw())
    add("password", "docker login -u ci -p {S} registry.local", pw())
    add(
        "basic-auth",
        '{"auths": {"registry.local": {"auth": "{S}"}}}',
        base64.b64encode(f"ci:{pw()}".encode()).decode(),
    )
    add(
        "key",
        "client-key-data: {S}",
        base64.b64encode(b"-----BEGIN RSA PRIVATE KEY-----\n" + r(120, b64).encode()).decode(),
    )
    add("token", "users:\n- name: ci\n  user:\n    token: {S}", r(48))
    add(
        "credential", "Authorization: Basic {S}", base64.b64encode(f"user:{pw()}".encode()).decode()
    )
    add("jwt", "Authorization: Bearer {S}", f"eyJ{r(20)}.eyJ{r(40)}.{r(43)}")
    # Hidden by the terminal, the line wrap, an encoding.
    secret = f"ghp_{r(36)}"
    add("github-token", "src/app.ts:3:\x1b[1;31m{S}\x1b[0m", secret)
    secret = f"sk-ant-api03-{r(93)}AA"
    cases.append(("anthropic-key", f"key: {secret[:40]}\n{secret[40:]}", secret))
    secret = f"AKIA{r(16, string.ascii_uppercase + '234567')}"
    add(
        "aws-access-key-id",
        "echo {S} | base64 -d",
        base64.b64encode(f"aws_access_key_id={secret}".encode()).decode(),
    )
    caps = string.ascii_uppercase
    webhook = f"https://hooks.slack.com/services/T{r(10, caps)}/B{r(10, caps)}/{r(24)}"
    add(
        "slack-webhook",
        "https://ci.example.net/notify?to={S}",
        urllib.parse.quote(webhook, safe=""),
    )
    return cases


def lookalikes(seed: int = 2412) -> list[str]:
    """Text that only resembles a secret: nothing in it may be found."""
    rng = random.Random(seed)
    png = base64.b64encode(bytes(rng.randrange(256) for _ in range(600))).decode()
    return [
        "SORT_KEY=created_at",
        "CACHE_KEY=user:42:profile",
        "KEY=Enter",
        "SSH_KEY=~/.ssh/id_ed25519.pub",
        "PUBLIC_KEY=/etc/ssh/ssh_host_rsa_key.pub",
        "from huggingface_hub import hf_hub_download_with_retries",
        "an sk-learn-compatible estimator",
        "the gho_navigation_bar component",
        "app.use(Bearer authenticationMiddleware)",
        "MAX_TOKENS=4096",
        "API_KEY=$API_KEY",
        "password: ${DB_PASSWORD}",
        'api_key = os.environ["OPENAI_API_KEY"]',
        "token = get_token()",
        "password=password",
        "def login(username: str, password: str) -> bool:",
        "TOKEN_LIMIT=100000",
        "primary_key=id",
        "--password-file /run/secrets/db",
        "postgres://localhost:5432/app",
        "postgres://app@db/app",
        "postgres://user:password@localhost/db",
        f"commit {hashlib.sha1(b'x').hexdigest()}",
        f"sha256: {hashlib.sha256(b'y').hexdigest()}",
        f"request id {uuid.UUID(int=rng.getrandbits(128))}",
        f'{{"type": "image", "data": "{png}", "mimeType": "image/png"}}',
        f"data:image/png;base64,{png}",
        "AKIAIOSFODNN7EXAMPLE",
        "Set GITHUB_TOKEN=<your token> first",
        'secret_key_base: "<%= ENV["SECRET_KEY_BASE"] %>"',
        "the token count was 1234 tokens",
        "keyboard_shortcut=Ctrl+K",
        "passwordless login with magic links",
        "secrets: inherit",
        "class TokenizerFast(PreTrainedTokenizer):",
        "const API_KEY_HEADER = 'X-Api-Key';",
        "sk-ant-api03-... (your key here)",
        "integrity sha512-" + base64.b64encode(hashlib.sha512(b"z").digest()).decode(),
        "password_length=12",
        "export AWS_PROFILE=default",
        "headers = {'Authorization': 'Bearer ' + token}",
        "const token = session?.accessToken;",
        "apiKey: config?.openai?.apiKey",
        '"Key": "backups/2024-05-01/db-dump-7f3a9c.sql.gz"',
        '"nextPageToken": "CiAKGjBpNDd2Nmp"',
        "Cache restored from key: node-cache-Linux-x64-npm-3f78a9c2b1",
        '{"auth": "oauth"}',
        "secret: !Ref DbSecret",
        'api_key: "REPLACE_ME"',
        "token: 12345",
        "pass: 8080",
        "the machine learning password reset flow",
        "a machine with password protection enabled",
        "<key>sort_order</key>",
        "<password>${DB_PASSWORD}</password>",
        "<PublicKeyToken>b77a5c561934e089</PublicKeyToken>",
        "<secret>changeme</secret>",
        "token:\n  description: the API token",
        "password:\n  required: true",
        "api_key:\n  type: string",
        "<token>{{ .Values.token }}</token>",
    ]


STAMP = "2026-11-21T09:00:00Z"


def placed_record(index: int, text: str) -> dict[str, Any]:
    """A record holding ``text`` in one of the fields a session has, in turn."""
    entry = {"id": f"e{index}", "parentId": None if index == 0 else f"e{index - 1}",
             "timestamp": STAMP}  # fmt: skip
    role_message = [
        {"role": "user", "content": text},
        {"role": "user", "content": [{"type": "text", "text": text}]},
        {"role": "assistant", "blocks": [{"type": "text", "text": text}]},
        {"role": "assistant", "blocks": [{"type": "thinking", "thinking": text}]},
        {"role": "assistant", "blocks": [
            {"type": "toolCall", "id": f"c{index}", "name": "bash", "arguments": {"command": text}}
        ]},
        {"role": "toolResult", "results": [
            {"toolCallId": f"c{index}", "toolName": "bash", "isError": False, "content": text}
        ]},
    ]  # fmt: skip
    slot = index % 9
    if slot < len(role_message):
        return {"type": "message", **entry, "message": role_message[slot]}
    if slot == 6:
        return {"type": "compaction", **entry, "summary": text, "tokensBefore": 1,
                "retainedTail": []}  # fmt: skip
    if slot == 7:
        return {"type": "branchSummary", **entry, "summary": text}
    return {"type": "session_info", **entry, "name": text}


def session_file(path: Path, texts: list[str]) -> Path:
    header = {"type": "session", "version": 1, "id": "s", "timestamp": STAMP, "cwd": "/x"}
    records = [header, *(placed_record(n, text) for n, text in enumerate(texts))]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path
