"""Builds one realistic Ink session through :class:`SessionWriter`, deterministically.

A seeded ``random.Random`` drives every choice; a fake clock feeds the writer's timestamps; entry
ids, the session id and the file-name UUID are drawn from the same generator.
"""

from __future__ import annotations

import base64
import os
import random
import string
import uuid
from pathlib import Path
from typing import Any

import ink_tui.demo.content as C
import ink_tui.demo.outputs as O
from ink_tui.demo.clock import FakeClock
from ink_tui.demo.options import CHILD_TOOLS, Options, Stats
from ink_tui.demo.tools import run_tool
from ink_tui.session.reading.records import THINKING_LEVELS
from ink_tui.session.reading.recordtypes import EntryRecord
from ink_tui.session.rules.modelref import ModelRef
from ink_tui.session.writing.writer import SessionWriter

Record = dict[str, Any]

MODELS: tuple[ModelRef, ...] = (
    ModelRef("anthropic", "claude-sonnet-4-5"),
    ModelRef("zai", "glm-5.3"),
    ModelRef("deepseek", "deepseek-chat"),
    ModelRef("openai", "gpt-5.1"),
    ModelRef("moonshotai", "kimi-k3"),
    ModelRef("anthropic", "claude-opus-4-6"),
)
TRIGGER_TOKENS = 131072 - 32768
_B62 = string.ascii_letters + string.digits
# The deliberate torn tail: the start of a record cut inside a UTF-8 character, no newline.
TORN_TAIL = b'{"type":"message","id":"0badc0de0badc0de","parentId":"' + "未完".encode()[:4]


class SessionBuilder:
    def __init__(
        self,
        project_dir: Path,
        project: C.Project,
        *,
        seed: int,
        clock: FakeClock,
        options: Options,
    ) -> None:
        self.rng = random.Random(seed)
        self.project_dir = project_dir
        self.project = project
        self.clock = clock
        self.options = options
        self.model = options.model or self.rng.choice(MODELS)
        self.stats = Stats()
        self.branch: list[tuple[str, Record]] = []  # (entry id, message) since the last compaction
        self.chars = 0  # context estimate (chars) since the last compaction
        self.deck: list[str] = []
        self.call_counter = 0
        self.writer = SessionWriter.new(
            project_dir,
            project.cwd,
            model=None if options.child_launch else self.model,
            clock=clock,
            random_hex=self._hex16,
            session_id=self.uuid(),
            file_uuid=self.uuid(),
        )
        if options.child_launch is not None:
            self.writer.header["parent"] = options.child_launch["parentSessionId"]
            options.child_launch["childId"] = self.writer.session_id
            self.writer.header["launch"] = options.child_launch

    # -- randomness ----------------------------------------------------------------------------

    def _hex16(self) -> str:
        return f"{self.rng.getrandbits(64):016x}"

    def uuid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def _b62(self, count: int) -> str:
        return "".join(self.rng.choices(_B62, k=count))

    def _call_id(self, name: str) -> str:
        self.call_counter += 1
        provider = self.model.provider
        if provider == "anthropic":
            return "toolu_01" + self._b62(22)
        if provider == "deepseek":
            return "call_00_" + self._b62(16)
        if provider.startswith("moonshotai"):
            return f"functions.{name}:{self.call_counter}"
        return "call_" + self._b62(24)

    def pick(self, items: tuple[str, ...]) -> str:
        text = self.rng.choice(items)
        return text.replace("{file}", self.rng.choice(self.project.files)).replace(
            "{n}", str(self.rng.randint(2, 240))
        )

    def _zh(self) -> bool:
        lang = self.project.language
        return lang == "zh" or (lang == "mixed" and self.rng.random() < 0.5)

    # -- records -------------------------------------------------------------------------------

    def entry(self, kind: str, fields: Record, *, parent_id: str | None = None) -> EntryRecord:
        record = self.writer.append_entry(kind, fields, parent_id=parent_id)
        self.stats.entries += 1
        return record

    def message(self, message: Record, *, pause: tuple[float, float] = (1.0, 12.0)) -> EntryRecord:
        self.clock.advance(self.rng, *pause)
        record = self.entry("message", {"message": message})
        self.branch.append((record["id"], message))
        self.chars += len(str(message))  # a cheap estimate is enough for planning compactions
        return record

    def usage(self) -> Record:
        cached = self.rng.randint(0, max(0, self.chars // 4))
        usage: Record = {
            "inputTokens": self.rng.randint(8, 4000),
            "outputTokens": self.rng.randint(30, 1800),
            "cacheReadTokens": cached,
        }
        if self.model.provider == "anthropic":
            usage["cacheWriteTokens"] = self.rng.randint(0, 6000)
        return usage

    def assistant(self, blocks: list[Record], stop: str | None) -> EntryRecord:
        message: Record = {"role": "assistant", "blocks": blocks, "usage": self.usage()}
        message["stopReason"] = stop
        message["model"] = self.model.model_id
        message["modelReference"] = self.model.reference
        return self.message(message, pause=(2.0, 25.0))

    def thinking(self) -> list[Record]:
        if self.model.provider == "openai" or self.rng.random() < 0.35:
            return []
        text = self.pick(C.THINKING_ZH if self._zh() else C.THINKING_EN)
        block: Record = {"type": "thinking", "thinking": text}
        if self.model.provider == "anthropic":
            block["signature"] = "Eu" + base64.b64encode(self.rng.randbytes(300)).decode()
        return [block]

    # -- tools ---------------------------------------------------------------------------------

    def _next_tool(self) -> str:
        if not self.deck:
            self.deck = list(self.options.tools)
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    # -- turns ---------------------------------------------------------------------------------

    def user(self, text: str | None = None) -> None:
        if text is None:
            text = self.pick(C.PROMPTS_ZH if self._zh() else C.PROMPTS_EN)
        body: Any = text
        if self.options.images and self.rng.random() < 0.15:
            body = [
                {
                    "type": "text",
                    "text": "The header overlaps the sidebar on mobile — see the screenshot.",
                },
                {
                    "type": "image",
                    "data": O.png_base64(self.rng.randint(0, 255)),
                    "mimeType": "image/png",
                },
            ]
        self.message({"role": "user", "content": body}, pause=(20.0, 240.0))

    def tool_round(self, names: list[str] | None = None) -> None:
        if names is None:
            names = [self._next_tool() for _ in range(self.rng.choice((1, 1, 1, 2, 3)))]
            if self.rng.random() < 0.02:
                names.append("search")  # not a tool: an "unknown tool" error result
        blocks = self.thinking()
        if self.rng.random() < 0.6:
            blocks.append(
                {
                    "type": "text",
                    "text": self.rng.choice(
                        (
                            "Let me look at the current implementation first.",
                            "I'll run the tests.",
                            "先看一下相关代码。",
                            "Let me gather a few things at once.",
                        )
                    ),
                }
            )
        calls = [(self._call_id(name), name) for name in names]
        results: list[Record] = []
        for call_id, name in calls:
            args, body, is_error, task_record = run_tool(self, name, call_id)
            blocks.append({"type": "toolCall", "id": call_id, "name": name, "arguments": args})
            result: Record = {"toolCallId": call_id, "toolName": name, "content": body}
            result["isError"] = is_error
            if task_record is not None:
                result["taskRecord"] = task_record
            results.append(result)
            self.stats.tools.add(name)
        self.assistant(blocks, "tool_use")
        self.message({"role": "toolResult", "results": results}, pause=(0.2, 15.0))

    def work_turn(self, rounds: int | None = None) -> int:
        """Tool rounds then a final markdown answer; returns the number of assistant turns."""
        count = self.rng.choice((0, 1, 2, 3, 4, 6)) if rounds is None else rounds
        for _ in range(count):
            self.tool_round()
        answer = self.pick(C.ANSWERS_ZH if self._zh() else C.ANSWERS_EN)
        stop = "max_tokens" if self.rng.random() < 0.03 else "end_turn"
        self.assistant([*self.thinking(), {"type": "text", "text": answer}], stop)
        return count + 1

    def hostile_turn(self) -> None:
        self.user(C.HOSTILE_PROMPT)
        call_id = self._call_id("bash")
        call = {
            "type": "toolCall",
            "id": call_id,
            "name": "bash",
            "arguments": {"command": C.HOSTILE_BASH_COMMAND},
        }
        self.assistant([{"type": "text", "text": "Let me look at the fixture."}, call], "tool_use")
        result = {
            "toolCallId": call_id,
            "toolName": "bash",
            "content": C.HOSTILE_BASH_OUTPUT,
            "isError": False,
        }
        self.message({"role": "toolResult", "results": [result]})
        self.assistant([{"type": "text", "text": C.HOSTILE_ASSISTANT_TEXT}], "end_turn")
        self.stats.tools.add("bash")

    # -- session events ------------------------------------------------------------------------

    def compaction(self) -> None:
        """A compaction at the leaf: summary, the last few messages verbatim, usage."""
        start = max(0, len(self.branch) - self.rng.randint(2, 4))
        while start > 0 and self.branch[start][1]["role"] == "toolResult":
            start -= 1
        tail = [message for _, message in self.branch[start:]]
        tokens_before = self.chars // 4 + self.rng.randint(2000, 9000)
        summary = C.SUMMARY_TEMPLATE.format(
            goal=self.pick(C.PROMPTS_EN).split("\n")[0],
            file=self.rng.choice(self.project.files),
            test=self.project.test_command,
        )
        self.clock.advance(self.rng, 8, 40)
        fields: Record = {"summary": summary, "retainedTail": tail, "tokensBefore": tokens_before}
        fields["usage"] = {
            "inputTokens": tokens_before,
            "outputTokens": self.rng.randint(400, 1600),
        }
        fields["model"] = self.model.model_id
        fields["modelReference"] = self.model.reference
        self.entry("compaction", fields)
        self.stats.compactions += 1
        self.branch = []
        self.chars = len(summary) + sum(len(str(message)) for message in tail)

    def fork(self) -> None:
        """``/fork`` back to before an earlier user message, then ``/tree`` with a summary."""
        users = [i for i, (_, message) in enumerate(self.branch) if message["role"] == "user"]
        if len(users) < 2:
            return
        index = self.rng.choice(users[1:])
        target = self.branch[index - 1][0]
        self.clock.advance(self.rng, 5, 60)
        self.writer.append_position(target)
        self.branch = self.branch[:index]
        self.stats.forks += 1
        self.user()
        self.work_turn()
        if self.rng.random() < 0.6:
            # /tree back to the fork point, summarising the branch just left
            self.writer.append_position(target)
            self.clock.advance(self.rng, 5, 30)
            summary = C.BRANCH_SUMMARY_TEMPLATE.format(file=self.rng.choice(self.project.files))
            fields: Record = {"summary": summary, "usage": self.usage()}
            fields["model"] = self.model.model_id
            fields["modelReference"] = self.model.reference
            record = self.entry("branchSummary", fields)
            del self.branch[index:]
            self.branch.append((record["id"], {"role": "user", "content": summary}))

    def metadata(self) -> None:
        roll = self.rng.random()
        self.clock.advance(self.rng, 2, 30)
        if roll < 0.3:
            self.entry("session_info", {"name": self.rng.choice(C.SESSION_NAMES)})
        elif roll < 0.55 and self.branch:
            leaf = self.writer.leaf_id
            target = self.rng.choice(self.branch)[0]
            self.entry("label", {"targetId": target, "label": self.rng.choice(C.LABELS)})
            self.writer.leaf_id = leaf  # labels never move the leaf in Ink
        elif roll < 0.8:
            level = self.rng.choice(THINKING_LEVELS)
            self.entry("thinkingLevelChange", {"thinkingLevel": level})
        else:
            self.model = self.rng.choice(MODELS)
            self.writer.append_session_model(self.model, explicit=True)

    def finish(self) -> None:
        if self.options.dangling:
            call_id = self._call_id("bash")
            call = {
                "type": "toolCall",
                "id": call_id,
                "name": "bash",
                "arguments": {"command": self.project.test_command, "timeout": 600},
            }
            self.assistant([{"type": "text", "text": "Running the full suite."}, call], "tool_use")
        os.utime(self.writer.path, (self.clock.now.timestamp(), self.clock.now.timestamp()))
        if self.options.torn:
            with self.writer.path.open("ab") as stream:  # DELIBERATE: a torn, unterminated line
                stream.write(TORN_TAIL)
            os.utime(self.writer.path, (self.clock.now.timestamp(), self.clock.now.timestamp()))

    # -- a child session -----------------------------------------------------------------------

    def launch_child(self, prompt: str, launch: Record) -> tuple[Path, str, str, int]:
        """A task call's child session (its ``launch`` header), written beside this one under
        ``children/``: its path, id, last answer and turns."""
        options = Options(
            model=self.model,
            compact=False,
            fork=False,
            metadata=False,
            child_launch=launch,
            tools=CHILD_TOOLS,
        )
        child = SessionBuilder(
            self.project_dir / "children",
            self.project,
            seed=self.rng.getrandbits(32),
            clock=self.clock,
            options=options,
        )
        child.user(prompt)
        turns = child.work_turn(rounds=3)
        answer = str(child.branch[-1][1]["blocks"][-1]["text"])
        child.finish()
        self.stats.children.append(child.writer.path)
        return child.writer.path, child.writer.session_id, answer, turns


def run(builder: SessionBuilder, *, entries: int | None, target_bytes: int | None) -> Path:
    """Write turns until the session has ``entries`` entries or ``target_bytes`` bytes."""
    rng, options = builder.rng, builder.options
    path = builder.writer.path

    def progress() -> float:
        if target_bytes is not None:
            return (path.stat().st_size if path.exists() else 0) / target_bytes
        return builder.stats.entries / (entries or 40)

    big = target_bytes is not None and target_bytes > 4_000_000
    manual_compaction = forked = False
    turn = 0
    while progress() < 1.0:
        builder.user()
        builder.work_turn()
        turn += 1
        if options.hostile and turn == 1:
            builder.hostile_turn()
        done = progress()
        if options.compact and not manual_compaction and done >= 0.5:
            builder.compaction()
            manual_compaction = True
        elif builder.chars // 4 > TRIGGER_TOKENS:
            builder.compaction()
        rate = options.fork_rate if options.fork_rate is not None else (0.03 if big else 0.0)
        # (no draw when the rate is 0: small sessions keep their random stream, byte for byte)
        if options.fork and ((not forked and done >= 0.7) or (rate > 0 and rng.random() < rate)):
            builder.fork()
            forked = True
        if options.metadata and rng.random() < 0.2:
            builder.metadata()
    builder.finish()
    return path
