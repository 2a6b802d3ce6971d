"""Fixtures shared by every test folder.

``fake_llm``: a local model server on 127.0.0.1 that speaks both streaming wire formats the real
``anthropic`` and ``openai`` SDKs use (Anthropic Messages SSE at ``/v1/messages``, Chat
Completions SSE at ``/v1/chat/completions``). Tests queue replies; each POST takes the next one.
``GET /v1/models`` answers the lists set with ``list_models`` (Anthropic's shape when the request
carries ``anthropic-version``, else OpenAI's), and 404 until then.
Test modules run with ``--import-mode=importlib`` and cannot import each other, so this is a
fixture, not a helper module.
"""

from __future__ import annotations

import gc
import json
import os
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

WORKERS_PER_CPU = 2
"""``-n auto`` (pyproject's default) starts this many test workers per CPU: a Pilot test spends
about a third of its time waiting (timers, screen refreshes, worker threads), so two workers per
CPU keep the CPUs busy (the UI tests: 94 s with one per CPU, 69 s with two, 70 s with three, on
two cores). ``PYTEST_XDIST_AUTO_NUM_WORKERS`` or ``-n N`` still decide when given."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own reading of the variable
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return WORKERS_PER_CPU * (cpus or 1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The ``slow`` cases first (each keeps its place among them, the others among theirs).

    pytest-xdist hands tests out in this order, so the longest start while every worker is
    busy and none of them is left running alone at the end (the suite's last minute ran one or
    two 15 s cases on an otherwise idle machine when they came last)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Each test worker runs ink-tui's code under the collector policy an ``ink-tui`` process
    runs it under (``cli.collector``: young collections every 10,000 allocations, not 700),
    and freezes what it holds once the tests are collected.

    A full collection walks every object alive, and a worker holds a large heap all its life:
    the collected tests, the libraries, and what Textual keeps (its line cache alone holds the
    rendered lines of the last 1,024 widgets it styled). With Python's defaults the collector
    took a quarter of the Pilot tests' CPU time (in 69 of them: 40 full collections of 600,000
    objects, 9 of 34 s); frozen, the heap of the start is never walked again, and under the
    app's thresholds the same tests ran 7 full collections (2.6 s)."""
    from ink_tui.cli.collector import GC_THRESHOLD

    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])


@pytest.fixture(autouse=True)
def private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test gets its own cache dir (the catalog index lives there), data dir (the
    trash), config dir (the app's settings, read by every app, a harness's too) and state dir
    (the log of unforeseen errors), never the user's."""
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))  # the log
    return folder


@pytest.fixture(autouse=True)
def no_provider_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reaches a real model provider: every API key and base URL variable the user may
    have set is left out (``fake_llm`` gives its own; the chat's model picker asks every provider
    with a key for its models)."""
    from ink_tui.agent.providers.model import PROVIDERS

    for info in PROVIDERS.values():
        for name in (info.key_env, info.base_url_env):
            if name:
                monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="session")
def hostile_files(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The hostile files of ``tests/hostile.py`` at their CI sizes (a ``hostile.Built``): each
    kind alone in its sessions folder, built the first time a test looks it up, once per
    worker. Read them, never write them (every reader's test checks ``hostile.snapshot``)."""
    import hostile

    return hostile.Built(tmp_path_factory.mktemp("hostile"))


HOLD_LIMIT_SECONDS = 10.0  # a held stream gives up after this long: never hang the suite
ToolCallSpec = tuple[str, str, dict[str, Any]]  # (id, name, arguments)


@dataclass(frozen=True, slots=True)
class Request:
    """One POST the server received."""

    path: str
    body: Any  # the parsed JSON body
    headers: dict[str, str]  # names lower-cased


@dataclass(slots=True)
class _Reply:
    kind: str  # "anthropic" | "chat" | "error" | "hold" | "stall"
    frames: list[bytes] = field(default_factory=list)
    status: int = 200
    body: Any = None
    text: str = ""
    headers: dict[str, str] = field(default_factory=dict)  # an error's extra headers
    gate: threading.Event = field(default_factory=threading.Event)  # a hold's release
    broken: bool = False  # the body is announced longer than it is: the connection breaks


def _pieces(text: str, size: int) -> list[str]:
    size = max(1, size)
    return [text[i : i + size] for i in range(0, len(text), size)]


def _fragments(arguments: dict[str, Any]) -> list[str]:
    """A tool call's JSON arguments cut into three uneven fragments."""
    raw = json.dumps(arguments)
    third = max(1, len(raw) // 3)
    return [raw[:third], raw[third : 2 * third], raw[2 * third :]]


# --- Anthropic Messages SSE -------------------------------------------------------------------


def _a_frame(event: dict[str, Any]) -> bytes:
    return f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode()


def _a_start(usage: tuple[int, int], cache: tuple[int, int]) -> bytes:
    raw: dict[str, Any] = {"input_tokens": usage[0], "output_tokens": 1}
    if cache != (0, 0):
        raw["cache_read_input_tokens"] = cache[0]
        raw["cache_creation_input_tokens"] = cache[1]
    message: dict[str, Any] = {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": "fake",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": raw,
    }
    return _a_frame({"type": "message_start", "message": message})


def _a_block(index: int, start: dict[str, Any], deltas: Sequence[dict[str, Any]]) -> list[bytes]:
    frames = [_a_frame({"type": "content_block_start", "index": index, "content_block": start})]
    frames += [
        _a_frame({"type": "content_block_delta", "index": index, "delta": delta})
        for delta in deltas
    ]
    frames.append(_a_frame({"type": "content_block_stop", "index": index}))
    return frames


def _a_text_deltas(text: str, chunk: int) -> list[dict[str, Any]]:
    return [{"type": "text_delta", "text": piece} for piece in _pieces(text, chunk)]


def _a_end(stop: str, output: int) -> list[bytes]:
    return [
        _a_frame(
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": output},
            }
        ),
        _a_frame({"type": "message_stop"}),
    ]


# --- Chat Completions SSE ---------------------------------------------------------------------


def _c_frame(payload: dict[str, Any] | str) -> bytes:
    data = payload if isinstance(payload, str) else json.dumps(payload)
    return f"data: {data}\n\n".encode()


def _c_payload(
    delta: dict[str, Any] | None = None,
    finish: str | None = None,
    usage: dict[str, Any] | None = None,
) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "fake",
        "choices": [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    if usage is not None:
        payload["usage"] = usage
    return payload


def _c_chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    return _c_frame(_c_payload(delta, finish))


def _c_end(finish: str, usage: tuple[int, int]) -> list[bytes]:
    prompt, completion = usage
    totals = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }
    return [_c_chunk({}, finish), _c_frame(_c_payload(usage=totals)), _c_frame("[DONE]")]


# --- the server -------------------------------------------------------------------------------


class FakeLLM:
    """A queue of scripted replies behind a local HTTP server (see the module docstring)."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.errors: list[BaseException] = []  # unexpected handler errors (never printed)
        self.held = threading.Event()  # a ``hold()`` stream has sent its first text
        self.disconnected = threading.Event()  # the client hung up on a held stream
        self.model_lists: dict[str, list[str]] = {}  # wire -> the ids GET /v1/models lists
        self.model_requests: list[Request] = []  # every GET, in order (never in ``requests``)
        self._gates: list[threading.Event] = []  # holds not released yet
        self._queue: deque[_Reply] = deque()
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.fake = self
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True
        )
        self._thread.start()

    def env(self) -> dict[str, str]:
        """API keys and base URLs pointing every provider used in tests at this server."""
        return {
            "ANTHROPIC_API_KEY": "dummy",
            "OPENAI_API_KEY": "dummy",
            "DEEPSEEK_API_KEY": "dummy",
            "ANTHROPIC_BASE_URL": self.url,
            "OPENAI_BASE_URL": f"{self.url}/v1",
            "DEEPSEEK_BASE_URL": f"{self.url}/v1",
        }

    @property
    def last(self) -> Request:
        return self.requests[-1]

    @property
    def pending(self) -> int:
        """Replies queued and not yet taken."""
        with self._lock:
            return len(self._queue)

    def list_models(self, *, anthropic: Sequence[str] = (), chat: Sequence[str] = ()) -> None:
        """What ``GET /v1/models`` lists from now on, per wire (an empty one: 404)."""
        with self._lock:
            self.model_lists = {"anthropic": list(anthropic), "chat": list(chat)}

    # -- queueing ----------------------------------------------------------------------------

    def _push(self, reply: _Reply) -> None:
        with self._lock:
            self._queue.append(reply)

    def anthropic(
        self,
        text: str = "",
        thinking: str | None = None,
        signature: str | None = None,
        tool_calls: Sequence[ToolCallSpec] = (),
        usage: tuple[int, int] = (12, 7),
        cache: tuple[int, int] = (0, 0),
        stop: str | None = None,
        cut: bool = False,
        chunk: int = 5,
    ) -> None:
        """A Messages API stream. ``stop`` defaults to ``tool_use`` with calls, else
        ``end_turn``; ``cut`` leaves out ``message_stop``."""
        frames = [_a_start(usage, cache)]
        index = 0
        if thinking is not None:
            deltas: list[dict[str, Any]] = [
                {"type": "thinking_delta", "thinking": piece} for piece in _pieces(thinking, chunk)
            ]
            if signature is not None:
                deltas.append({"type": "signature_delta", "signature": signature})
            thinking_start = {"type": "thinking", "thinking": "", "signature": ""}
            frames += _a_block(index, thinking_start, deltas)
            index += 1
        if text:
            frames += _a_block(index, {"type": "text", "text": ""}, _a_text_deltas(text, chunk))
            index += 1
        for call_id, name, arguments in tool_calls:
            start: dict[str, Any] = {"type": "tool_use", "id": call_id, "name": name, "input": {}}
            deltas = [{"type": "input_json_delta", "partial_json": ""}]
            deltas += [
                {"type": "input_json_delta", "partial_json": piece}
                for piece in _fragments(arguments)
            ]
            frames += _a_block(index, start, deltas)
            index += 1
        end = _a_end(stop or ("tool_use" if tool_calls else "end_turn"), usage[1])
        frames += end[:-1] if cut else end
        self._push(_Reply("anthropic", frames))

    def chat(
        self,
        text: str = "",
        reasoning: str | None = None,
        tool_calls: Sequence[ToolCallSpec] = (),
        usage: tuple[int, int] = (12, 7),
        finish: str | None = None,
        cut: bool = False,
        chunk: int = 5,
    ) -> None:
        """A Chat Completions stream. ``finish`` defaults to ``tool_calls`` with calls, else
        ``stop``; ``cut`` stops before ``finish_reason``."""
        frames = [_c_chunk({"role": "assistant", "content": ""})]
        for piece in _pieces(reasoning or "", chunk):
            frames.append(_c_chunk({"reasoning_content": piece}))
        for piece in _pieces(text, chunk):
            frames.append(_c_chunk({"content": piece}))
        for index, (call_id, name, arguments) in enumerate(tool_calls):
            head = {
                "index": index,
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": ""},
            }
            frames.append(_c_chunk({"tool_calls": [head]}))
            for piece in _fragments(arguments):
                tail = {"index": index, "function": {"arguments": piece}}
                frames.append(_c_chunk({"tool_calls": [tail]}))
        if not cut:
            frames += _c_end(finish or ("tool_calls" if tool_calls else "stop"), usage)
        self._push(_Reply("chat", frames))

    def raw(self, wire: str, frames: Sequence[dict[str, Any] | str]) -> None:
        """A stream of exactly these SSE frames, for a request on ``wire`` (``"anthropic"`` or
        ``"chat"``): a dict is one event in that wire's framing (Anthropic's adds an
        ``event: <type>`` line), a str one ``data:`` line as it is (``"[DONE]"``). For shapes
        :meth:`anthropic` and :meth:`chat` do not make; see :meth:`chat_chunk`."""
        if wire not in ("anthropic", "chat"):
            raise ValueError(f"fake_llm.raw: unknown wire {wire!r}")
        encode = _a_frame if wire == "anthropic" else _c_frame
        self._push(_Reply(wire, [_c_frame(f) if isinstance(f, str) else encode(f) for f in frames]))

    @staticmethod
    def chat_chunk(
        delta: dict[str, Any] | None = None,
        finish: str | None = None,
        usage: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """One Chat Completions chunk as :meth:`chat` sends it, for :meth:`raw`: ``delta`` and
        ``finish`` for choice 0, or no choice at all when ``delta`` is None; ``usage`` as given."""
        return _c_payload(delta, finish, usage)

    def break_off(self) -> None:
        """Make the reply queued last break off mid-body: its frames but the last, under a
        ``Content-Length`` promising more, then the connection closes (a transport error)."""
        with self._lock:
            reply = self._queue[-1]
            reply.frames = reply.frames[:-1]
            reply.broken = True

    def error(
        self,
        status: int,
        body: Any = None,
        *,
        retry: bool | None = False,
        headers: dict[str, str] | None = None,
    ) -> None:
        """A JSON error response with ``x-should-retry: false`` unless ``retry`` (``None``: no
        such header, the status decides), and any ``headers`` (``retry-after``)."""
        if body is None:
            body = {"type": "error", "error": {"type": "api_error", "message": f"HTTP {status}"}}
        should = "" if retry is None else "true" if retry else "false"
        extra = dict(headers or {})
        self._push(_Reply("error", status=status, body=body, text=should, headers=extra))

    def stall(self) -> None:
        """A request that is never answered, not even its headers, until the client hangs up
        (or 10 s pass): a hung server, for a client's timeout."""
        self._push(_Reply("stall"))

    def hold(self, text_before: str = "partial") -> None:
        """A stream that sends its start and ``text_before``, then waits for :meth:`release`
        (then ends normally) or for the client to hang up; it gives up after 10 s."""
        reply = _Reply("hold", text=text_before)
        with self._lock:
            self._gates.append(reply.gate)
        self._push(reply)

    def release(self) -> None:
        """Let every hold queued so far finish its stream (later holds wait again)."""
        with self._lock:
            gates, self._gates = self._gates, []
        for gate in gates:
            gate.set()

    def close(self) -> None:
        self.release()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    # -- serving (handler threads) -----------------------------------------------------------

    def _take(self, request: Request) -> _Reply | None:
        with self._lock:
            self.requests.append(request)
            return self._queue.popleft() if self._queue else None


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeLLM

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        exc = sys.exc_info()[1]
        if exc is not None and not isinstance(exc, ConnectionError | TimeoutError):
            self.fake.errors.append(exc)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"  # the body ends when the connection closes
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        fake = self.server.fake
        request = Request(self.path, None, {k.lower(): v for k, v in self.headers.items()})
        wire = "anthropic" if "anthropic-version" in request.headers else "chat"
        with fake._lock:
            fake.model_requests.append(request)
            ids = list(fake.model_lists.get(wire) or [])
        if not self.path.startswith("/v1/models") or not ids:
            self._json(404, _problem(f"fake_llm: no models listed for {wire}"), "false")
        elif wire == "anthropic":
            data = [{"type": "model", "id": i, "display_name": i, "created_at": ""} for i in ids]
            page = {"data": data, "has_more": False, "first_id": ids[0], "last_id": ids[-1]}
            self._json(200, page, "")
        else:
            data = [{"id": i, "object": "model", "created": 0, "owned_by": "fake"} for i in ids]
            self._json(200, {"object": "list", "data": data}, "")

    def do_POST(self) -> None:
        fake = self.server.fake
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        request = Request(self.path, body, {k.lower(): v for k, v in self.headers.items()})
        reply = fake._take(request)
        wire = "anthropic" if self.path.endswith("/messages") else "chat"
        try:
            if reply is None:
                self._json(500, _problem("fake_llm: no reply queued"), "false")
            elif reply.kind == "error":
                self._json(reply.status, reply.body, reply.text, reply.headers)
            elif reply.kind == "stall":
                self._stall(fake)
            elif reply.kind == "hold":
                self._hold(fake, wire, reply)
            elif reply.kind != wire:
                text = f"fake_llm: a {reply.kind} reply was queued for a request to {self.path}"
                self._json(500, _problem(text), "false")
            else:
                promised = sum(map(len, reply.frames)) + 100 if reply.broken else None
                self._sse_head(promised)
                for frame in reply.frames:
                    self.wfile.write(frame)
                    self.wfile.flush()
        except (ConnectionError, TimeoutError):
            pass  # the client hung up

    def _json(
        self, status: int, body: Any, should_retry: str, headers: dict[str, str] | None = None
    ) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if should_retry:
            self.send_header("x-should-retry", should_retry)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _stall(self, fake: FakeLLM) -> None:
        deadline = time.monotonic() + HOLD_LIMIT_SECONDS
        while time.monotonic() < deadline:
            if self._client_gone():
                fake.disconnected.set()
                return

    def _sse_head(self, length: int | None = None) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        if length is not None:
            self.send_header("Content-Length", str(length))
        self.end_headers()

    def _hold(self, fake: FakeLLM, wire: str, reply: _Reply) -> None:
        text = reply.text
        self._sse_head()
        if wire == "anthropic":
            head = [_a_start((12, 7), (0, 0))]
            head.append(
                _a_frame(
                    {
                        "type": "content_block_start",
                        "index": 0,
                        "content_block": {"type": "text", "text": ""},
                    }
                )
            )
            head += [
                _a_frame({"type": "content_block_delta", "index": 0, "delta": delta})
                for delta in _a_text_deltas(text, len(text) or 1)
            ]
            tail = [_a_frame({"type": "content_block_stop", "index": 0}), *_a_end("end_turn", 7)]
        else:
            head = [_c_chunk({"role": "assistant", "content": text})]
            tail = _c_end("stop", (12, 7))
        for frame in head:
            self.wfile.write(frame)
        self.wfile.flush()
        fake.held.set()
        deadline = time.monotonic() + HOLD_LIMIT_SECONDS
        while not reply.gate.is_set() and time.monotonic() < deadline:
            if self._client_gone():
                fake.disconnected.set()
                return
        if not reply.gate.is_set():
            return  # gave up: the stream stops without its final event
        for frame in tail:
            self.wfile.write(frame)
        self.wfile.flush()

    def _client_gone(self) -> bool:
        """Wait up to 50 ms; True when the client closed its end."""
        sock: socket.socket = self.connection
        readable, _, _ = select.select([sock], [], [], 0.05)
        if not readable:
            return False
        try:
            gone = sock.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True
        if not gone:
            time.sleep(0.05)  # stray bytes from the client: keep polling at the same pace
        return gone


def _problem(message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": "api_error", "message": message}}


@pytest.fixture
def fake_llm() -> Iterator[FakeLLM]:
    server = FakeLLM()
    try:
        yield server
    finally:
        server.close()
