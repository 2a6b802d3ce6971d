"""Values Ink's ``JSON.parse`` accepts and Python may not: never a crash, in any output.

- lone surrogate escapes (``"\\ud83d"``: a model cut mid-emoji writes them; Ink keeps them), in
  values and in keys;
- ``1e400``/``-1e400`` (Infinity in JS), ``-0``, ``1.0``, ``1e-400``, integers past 64 bits and
  past Python's 4,300-digit ``int()`` limit, nesting deeper than orjson writes.

Each goes through the reader, the one JSON encoder (the writer, ``--json``, tool arguments), the
request bodies both SDKs serialise, and every subcommand (``list``, ``context``, ``context
--json``, ``check``, ``check --json``, ``repair --dry-run``, ``repair``). Sessions are written
here, into ``tmp_path``, with the numbers as raw JSON text (Python's ``json`` cannot write
``1e400``).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ink_tui.agent.compact import estimate_tokens
from ink_tui.agent.providers.convert import anthropic_request, chat_request
from ink_tui.cli import main
from ink_tui.paths import project_dir
from ink_tui.session import build_context, open_session
from ink_tui.session.reading.jsoncodec import decode_line, encode_json
from ink_tui.session.writing.writer import SessionWriter

CWD = "/home/ada/code/odd"
STAMP = "2026-10-05T12:34:56.789Z"
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

# Numbers as JSON text, each accepted by JSON.parse.
ODD_NUMBERS = [
    "1e400",
    "-1e400",
    "-0",
    "-0.0",
    "1.0",
    "1e-400",
    "5e-324",
    "9223372036854775808",
    "18446744073709551616",
    "-9223372036854775809",
    "123456789012345678901234567890",
    "1" * 5000,
]
LONE = ["\ud83d", "\ude00", "cut \ud83d", "\udfff end", "a\ud800b\udbff"]


def js(value: Any) -> Any:
    """``value`` as JavaScript holds ``JSON.parse(JSON.stringify(value))``: non-finite numbers are
    null, integers past 2**53 the nearest double."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        return float(value)
    if isinstance(value, dict):
        return {key: js(item) for key, item in value.items()}
    if isinstance(value, list):
        return [js(item) for item in value]
    return value


# -- the reader and the one encoder ---------------------------------------------------------


@pytest.mark.parametrize(
    "number", ["1" * 5000, "-" + "9" * 4400], ids=["5000-digits", "-4400-digits"]
)
def test_an_integer_past_pythons_digit_limit_reads_as_javascript_holds_it(number: str) -> None:
    line = f'{{"n":{number},"s":"\\ud83d"}}'.encode()
    value = decode_line(line)
    assert value["n"] == (math.inf if number[0] != "-" else -math.inf)
    assert encode_json(value) == b'{"n":null,"s":"\\ud83d"}'


def test_keys_holding_lone_surrogates_are_written_as_json_stringify_writes_them() -> None:
    value = {"\ud83d": {"k\udc00": ["\ud83d", 1.0, math.inf, -0.0, 2**70]}}
    expected = '{"\\ud83d":{"k\\udc00":["\\ud83d",1,null,0,1.1805916207174113e+21]}}'
    assert encode_json(value) == expected.encode()
    assert decode_line(encode_json(value)) == {
        "\ud83d": {"k\udc00": ["\ud83d", 1, None, 0, 2.0**70]}
    }


@pytest.mark.parametrize(
    ("depth", "inner"),
    [(255, b'"\\ud83d"'), (900, b'"\\ud83d"'), (1024, b'"x"')],
    ids=["255-lone", "900-lone", "1024"],
)
def test_nesting_orjson_reads_but_does_not_write_is_written(depth: int, inner: bytes) -> None:
    line = b"[" * depth + inner + b"]" * depth
    value = decode_line(line)
    assert encode_json(value) == line
    assert encode_json(value, indent=True).count(b"\n") == 2 * depth


@given(
    st.recursive(
        st.none()
        | st.booleans()
        | st.floats()
        | st.integers()
        | st.text(
            alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF) | st.characters(),
            max_size=6,
        ),
        lambda children: (
            st.lists(children, max_size=3)
            | st.dictionaries(st.text(max_size=4), children, max_size=3)
        ),
        max_leaves=12,
    )
)
@settings(max_examples=120, deadline=None)
def test_indented_output_is_the_compact_output_laid_out(value: Any) -> None:
    compact = encode_json(value)
    indented = encode_json(value, indent=True)
    assert json.loads(indented) == json.loads(compact)
    indented.decode("utf-8")  # always valid UTF-8


def test_the_writer_appends_odd_values_as_ink_would(tmp_path: Path) -> None:
    writer = SessionWriter.new(tmp_path, CWD)
    arguments = {"\ud83d key": "cut \ud83d", "n": math.inf, "z": -0.0, "one": 1.0}
    writer.append_message(
        {
            "role": "assistant",
            "blocks": [
                {"type": "toolCall", "id": "c\udc00", "name": "bash", "arguments": arguments}
            ],
            "usage": {"inputTokens": math.inf, "outputTokens": 1},
            "stopReason": "tool_use",
        }
    )
    line = writer.path.read_bytes().splitlines()[-1]
    assert b'"arguments":{"\\ud83d key":"cut \\ud83d","n":null,"z":0,"one":1}' in line
    assert b'"id":"c\\udc00"' in line
    assert open_session(writer.path).entries[-1].record["message"]["blocks"][0]["id"] == "c\udc00"


def test_compaction_counts_a_reply_whose_usage_reads_as_infinity() -> None:
    reply = decode_line(
        b'{"role":"assistant","blocks":[],"stopReason":"end_turn",'
        b'"usage":{"inputTokens":1e400,"outputTokens":7,"cacheReadTokens":-1e400}}'
    )
    assert estimate_tokens([{"role": "user", "content": "x" * 40}, reply]) == 7


# -- what is sent to a model ---------------------------------------------------------------


def _sent_by_the_sdks(anthropic_body: dict[str, Any], chat_body: dict[str, Any]) -> list[bytes]:
    """The request bodies the two SDKs put on the wire for these requests (each sent to a
    transport that keeps the bytes and refuses the call)."""
    import anthropic
    import httpx2 as httpx  # the SDKs' HTTP client
    import openai

    sent: list[bytes] = []

    def keep(request: httpx.Request) -> httpx.Response:
        sent.append(request.read())
        return httpx.Response(400, json={"error": {"type": "invalid_request_error"}})

    def client() -> httpx.Client:
        return httpx.Client(transport=httpx.MockTransport(keep))

    claude = anthropic.Anthropic(api_key="k", max_retries=0, http_client=client())
    with pytest.raises(anthropic.APIStatusError):
        claude.messages.create(model="m", max_tokens=1, **anthropic_body)
    chat = openai.OpenAI(api_key="k", max_retries=0, http_client=client())
    with pytest.raises(openai.APIStatusError):
        chat.chat.completions.create(model="m", **chat_body)
    return sent


def test_request_bodies_with_odd_values_serialise_in_both_sdks() -> None:
    odd_arguments = {"s\ud83d": "cut \ud83d", "inf": math.inf, "big": 10**30, "neg": -0.0}
    messages = [
        {"role": "user", "content": "cut \ud83d"},
        {
            "role": "assistant",
            "blocks": [
                {"type": "thinking", "thinking": "hmm \udc00", "signature": "sig"},
                {"type": "text", "text": "half \ud83d"},
                {"type": "toolCall", "id": "c\ud83d", "name": "bash", "arguments": odd_arguments},
            ],
            "usage": {"inputTokens": 1, "outputTokens": 1},
            "stopReason": "tool_use",
        },
        {
            "role": "toolResult",
            "results": [
                {
                    "toolCallId": "c\ud83d",
                    "toolName": "bash",
                    "content": "out \ud83d",
                    "isError": False,
                }
            ],
        },
    ]
    bodies = [
        anthropic_request("system \ud83d", messages, ()),
        chat_request("deepseek", "system \ud83d", messages, ()),
    ]
    sent = _sent_by_the_sdks(bodies[0], bodies[1])
    assert len(sent) == 2
    for wire in sent:
        text = json.dumps(json.loads(wire.decode("utf-8")), ensure_ascii=False)  # no NaN
        assert "\ud83d" not in text and "\udc00" not in text
        assert "cut \ufffd" in text
    wire_call = bodies[1]["messages"][2]["tool_calls"][0]["function"]
    # the arguments as Ink sends them: JSON.stringify's text, lone surrogates escaped
    assert wire_call["arguments"] == ('{"s\\ud83d":"cut \\ud83d","inf":null,"big":1e+30,"neg":0}')
    assert bodies[0]["messages"][1]["content"][2]["input"] == {
        "s\ufffd": "cut \ufffd",
        "inf": None,
        "big": 1e30,  # the double JavaScript holds
        "neg": -0.0,
    }


# -- every subcommand ------------------------------------------------------------------------------

ODD_TEXT = st.lists(
    st.sampled_from([*LONE, "[/]", "[bold]", "\x1b]2;t\x07", "\x9b"])
    | st.characters(codec="utf-8"),
    min_size=1,
    max_size=6,
).map("".join)


@st.composite
def odd_sessions(draw: st.DrawFn) -> tuple[list[str], bool]:
    """Session lines with odd values in every free field; ``True`` when the last call dangles."""
    number = st.sampled_from(ODD_NUMBERS)

    def text() -> str:
        return json.dumps(draw(ODD_TEXT))  # escapes as Ink writes them

    def raw(entry_id: str, parent: str | None, kind: str, body: str) -> str:
        parent_text = "null" if parent is None else json.dumps(parent)
        return (
            f'{{"type":"{kind}","id":"{entry_id}","parentId":{parent_text},'
            f'"timestamp":"{STAMP}",{body}}}'
        )

    call_id = text()
    dangles = draw(st.booleans())
    lines = [
        f'{{"type":"session","version":1,"id":"0dd00000-odd","timestamp":"{STAMP}",'
        f'"cwd":"{CWD}","extra":{draw(number)}}}',
        raw("u1", None, "message", f'"message":{{"role":"user","content":{text()}}}'),
        raw(
            "a1",
            "u1",
            "message",
            '"message":{"role":"assistant","blocks":['
            f'{{"type":"thinking","thinking":{text()}}},{{"type":"text","text":{text()}}},'
            f'{{"type":"toolCall","id":{call_id},"name":{text()},"arguments":'
            f'{{"n":{draw(number)},{text()}:{draw(number)},"list":[{draw(number)},{text()}]}}}}],'
            f'"usage":{{"inputTokens":{draw(number)},"outputTokens":{draw(number)}}},'
            f'"stopReason":"tool_use","model":{text()}}}',
        ),
    ]
    if not dangles:
        lines.append(
            raw(
                "r1",
                "a1",
                "message",
                f'"message":{{"role":"toolResult","results":[{{"toolCallId":{call_id},'
                f'"toolName":{text()},"content":{text()},"isError":false,"extra":{draw(number)}}}]}}',
            )
        )
    parent = "a1" if dangles else "r1"
    lines.append(raw("n1", parent, "session_info", f'"name":{text()}'))
    lines.append(raw("l1", "n1", "label", f'"targetId":"u1","label":{text()}'))
    return lines, dangles


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["--cwd", CWD, *argv])
    captured = capsys.readouterr()
    assert "internal error" not in captured.err and "Traceback" not in captured.err, captured.err
    for stream in (captured.out, captured.err):
        found = UNSAFE.search(stream)
        assert found is None, f"{argv}: raw {found.group()!r} in {stream!r}"
    return code, captured.out


@given(odd_sessions())
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_every_subcommand_handles_odd_values(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    session: tuple[list[str], bool],
) -> None:
    lines, dangles = session
    base = tmp_path / "sessions"
    monkeypatch.setenv("INK_SESSIONS_DIR", str(base))
    folder = project_dir(base, CWD)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.jsonl"):
        old.unlink()
    path = folder / "odd.jsonl"
    path.write_bytes("".join(line + "\n" for line in lines).encode("utf-8"))

    assert _run(capsys, "list")[0] == 0
    code, out = _run(capsys, "list", "--json")
    (row,) = json.loads(out)
    assert row["id"] == "0dd00000-odd"
    assert _run(capsys, "context", "0dd00000")[0] == 0
    code, out = _run(capsys, "context", "--json", "0dd00000")
    assert js(json.loads(out)) == js(build_context(open_session(path)).to_json())
    expected = 1 if dangles else 0
    assert _run(capsys, "check", "0dd00000")[0] == expected
    code, out = _run(capsys, "check", "--json", "0dd00000")
    assert code == expected and json.loads(out)["exit"] == expected
    before = path.read_bytes()
    assert _run(capsys, "repair", "--dry-run", "0dd00000")[0] == 0
    assert path.read_bytes() == before
    assert _run(capsys, "repair", "0dd00000")[0] == 0
    assert path.read_bytes().startswith(before)  # appended, never rewritten
    assert _run(capsys, "check", "0dd00000")[0] == 0
