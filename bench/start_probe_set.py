"""The session-start probe's made-up projects: short sessions in ecosystems the answer key
barely covers, written as Claude Code 2.1 transcripts (the record shapes of
tests/fixtures/claude/constructed/), each with what its start text must say.

Each project's sessions run the tests one way (passing, failing then passing, through a task
runner, inside `cd sub &&`, through a script of the project) and its user states one preference,
once firmly or in two sessions. The gold (`Probe.test`, `Probe.preference`) was written with the
sessions, before any rule ran on them: a regular expression a line of the start text's commands
section must match to name the test command, and one a line of its style section must match to
state the preference. `test_caveat`: the command never passed in the sessions, so the start may
name it only with a word saying so (or not at all). `not_test`: a command the sessions ran that
is a gate, a build or a lint, never the test command.

`write_set(folder)` writes every project's transcripts under `folder/<project>/session-<n>.jsonl`
(bench/data/start_probe/ holds them as committed; `python -m bench.start_probe --write` rewrites
them from here).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from datetime import datetime, timedelta
from pathlib import Path

from bench.start_probe_first import FIRST_BATCH
from bench.start_probe_second import SECOND_BATCH
from bench.start_probe_third import THIRD_BATCH
from bench.start_probe_types import Probe, Step

PROBES: tuple[Probe, ...] = (*FIRST_BATCH, *SECOND_BATCH, *THIRD_BATCH)


# -- the transcripts -------------------------------------------------------------------------


def _numbered(text: str) -> str:
    return "".join(f"{i:6d}→{line}\n" for i, line in enumerate(text.splitlines(), 1))


class _Writer:
    """Claude Code records of one session, 17 seconds apart, each chained to the one before."""

    def __init__(self, probe: Probe, n: int) -> None:
        self.probe = probe
        self.session = str(uuid.uuid5(uuid.NAMESPACE_URL, f"start-probe/{probe.name}/{n}"))
        self.start = datetime(2026, 6, 1, 9, 0) + timedelta(days=3 * n)
        self.records: list[dict[str, object]] = []
        self.parent: str | None = None
        self.tools = 0

    def _record(self, kind: str, message: dict[str, object], **extra: object) -> None:
        n = len(self.records) + 1
        at = self.start + timedelta(seconds=17 * n)
        own = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{self.session}/{n}"))
        self.records.append(
            {
                "parentUuid": self.parent,
                "isSidechain": False,
                "userType": "external",
                "cwd": self.probe.folder,
                "sessionId": self.session,
                "version": "2.1.39",
                "gitBranch": "main",
                "type": kind,
                "uuid": own,
                "timestamp": at.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                "message": message,
                **extra,
            }
        )
        self.parent = own

    def _assistant(self, content: list[dict[str, object]]) -> None:
        message: dict[str, object] = {
            "id": f"msg_{len(self.records) + 1:04d}",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": content,
            "stop_reason": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
        self._record("assistant", message)

    def _tool(self, name: str, tool_input: Mapping[str, object]) -> str:
        self.tools += 1
        use = f"toolu_{self.session[:8]}{self.tools:04d}"
        self._assistant([{"type": "tool_use", "id": use, "name": name, "input": dict(tool_input)}])
        return use

    def _result(self, use: str, text: str, is_error: bool, structured: object) -> None:
        block = {"tool_use_id": use, "type": "tool_result", "content": text, "is_error": is_error}
        self._record("user", {"role": "user", "content": [block]}, toolUseResult=structured)

    def step(self, step: Step) -> None:
        kind = step[0]
        folder = self.probe.folder
        if kind == "user":
            self._record("user", {"role": "user", "content": str(step[1])})
        elif kind == "say":
            self._assistant([{"type": "text", "text": str(step[1])}])
        elif kind == "read":
            path, text = f"{folder}/{step[1]}", str(step[2])
            use = self._tool("Read", {"file_path": path})
            lines = len(text.splitlines())
            file = {"filePath": path, "content": text, "numLines": lines, "startLine": 1}
            self._result(use, _numbered(text), False, {"type": "text", "file": file})
        elif kind == "edit":
            path = f"{folder}/{step[1]}"
            edit = {"file_path": path, "old_string": "old", "new_string": "new"}
            use = self._tool("Edit", edit)
            changed = {"filePath": path, "oldString": "old", "newString": "new"}
            self._result(use, f"The file {path} has been updated.", False, changed)
        elif kind == "bash":
            command, code, output = str(step[1]), int(step[2]), str(step[3])
            use = self._tool("Bash", {"command": command, "description": "Run command"})
            if code:
                text = f"Exit code {code}\n{output}"
                self._result(use, text, True, f"Error: {text}")
            else:
                shell = {"stdout": output, "stderr": "", "interrupted": False, "isImage": False}
                self._result(use, output, False, shell)
        else:
            raise ValueError(f"unknown step {kind!r}")


def transcripts(probe: Probe) -> list[str]:
    """The project's sessions as Claude Code transcripts (JSONL text, one per session)."""
    out = []
    for n, steps in enumerate(probe.sessions, start=1):
        writer = _Writer(probe, n)
        for step in steps:
            writer.step(step)
        out.append("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in writer.records))
    return out


def write_set(folder: Path) -> list[Path]:
    """Writes every project's transcripts under `folder/<project>/session-<n>.jsonl`."""
    written = []
    for probe in PROBES:
        for n, text in enumerate(transcripts(probe), start=1):
            path = folder / probe.name / f"session-{n}.jsonl"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            written.append(path)
    return written
