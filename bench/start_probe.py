"""The session-start text on projects nobody tuned the rules on: does it name the test command
and the user's top preference?

The made-up projects of `bench/start_probe_set.py` (Go, Rust through `just`, an Elixir umbrella
inside `cd apps/x &&`, Ruby with rspec, Java with Gradle, .NET, PHP through a composer script, a
Makefile-only C project, OCaml with dune, a shell project's `bin/test`, Swift whose tests never
passed), kept as Claude Code transcripts in bench/data/start_probe/, go through the real pipeline
as `bench.answer_key` sends them (bench/fixture_pipeline.py: AppendEvents, ProcessNow with the
offline `rules` extractor, no key), each project in its own project of one memory service. Then
the session-start hook's text is asked for (the gateway's own HookService, as a Claude Code
SessionStart), and its lines are judged by the project's gold:

- `test`: `yes` when a line of "How things are run here" quotes the test command and says it
  runs the tests ("Before finishing a change: `X`" alone does not say so); for a project
  whose tests never passed, `yes` only when that line says so (a command never seen to pass is
  not stated as the way to run the tests), `ok (absent)` when no line names it, and `PLAIN`
  when a line states it as it would a passing one; `WRONG` when the line that opens the
  commands states a gate, build or lint command of the project (`Probe.not_test`) as the tests';
- `test` for a project with no test suite: `ok (none)` unless a line says a command runs the
  tests;
- `pref`: `yes` when a line of "Your coding style" states the preference; `yes, as said once`
  when the user said it in several sessions but the line is marked as said once (it reached
  the start only as a one-off, which a firmer one-off can push out); `yes, not first` when
  the user said it in several sessions and a rule said once opens the section before it;
  `WRONG` when a style line states what the gold says is a task, not a rule (`Probe.not_pref`);
- `instead`: what the commands and style sections open with when either is missed.

Usage: python -m bench.start_probe [--text] [--project NAME ...] [--write]
(`--text` prints each start text and the stored recipes and preferences; `--write` rewrites the
committed transcripts from bench/start_probe_set.py and exits.)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bench import fixture_pipeline
from bench.answer_key import backend_env
from bench.answer_key_hook import hook_memories
from bench.start_probe_set import PROBES, write_set
from bench.start_probe_types import Probe
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.logs import configure_logging

SET = fixture_pipeline.ROOT / "bench" / "data" / "start_probe"
#: Words with which a line says its command was not seen to pass.
CAVEAT = re.compile(
    r"never (?:seen to )?pass|not (?:yet )?seen to pass|failed (?:every|each) time|"
    r"did not pass|has not passed|never passed|failing",
    re.IGNORECASE,
)
#: A line stating its command as the way to run the tests.
TESTS_WORD = re.compile(r"\btests?\b|\btest suite\b", re.IGNORECASE)
_SPAN = re.compile(r"`[^`\n]*`")
#: The mark of a preference the start says was said once (`views.core_style`).
SAID_ONCE = "Noted once so far: "


@dataclass(frozen=True)
class Verdict:
    """What one project's start text says of its gold."""

    test: str
    preference: str
    instead: str

    @property
    def test_right(self) -> bool:
        return self.test in ("yes", "ok (absent)", "ok (none)")

    @property
    def both(self) -> bool:
        return self.test_right and self.preference == "yes"


def judge(probe: Probe, text: str) -> Verdict:
    """The start text's lines judged by the project's gold (see the module's doc)."""
    lines = hook_memories(text)
    recipes = [m.content for m in lines if m.kind == "recipe"]
    styles = [m.content for m in lines if m.kind == "user_style"]
    says_tests = [line for line in recipes if TESTS_WORD.search(_SPAN.sub("", line))]
    naming = [line for line in says_tests if probe.test and re.search(probe.test, line)]
    if not probe.test:
        test = "ok (none)"
    elif probe.test_caveat:
        if not naming:
            test = "ok (absent)"
        else:
            test = "yes" if all(CAVEAT.search(line) for line in naming) else "PLAIN"
    else:
        test = "yes" if naming else "no"
    if probe.not_test and any(
        re.search(probe.not_test, line) and not (probe.test and re.search(probe.test, line))
        for line in says_tests
    ):
        test = "WRONG"
    stating = [s for s in styles if re.search(probe.preference, s, re.IGNORECASE)]
    preference = "yes" if stating else "no"
    if probe.repeated and stating and all(s.startswith(SAID_ONCE) for s in stating):
        preference = "yes, as said once"
    elif probe.repeated and stating and styles[0] not in stating:
        preference = "yes, not first"
    if probe.not_pref and any(re.search(probe.not_pref, s, re.IGNORECASE) for s in styles):
        preference = "WRONG"
    instead = []
    if test in ("no", "PLAIN", "WRONG"):
        opening = (says_tests or recipes or [""])[0]
        instead.append(f"cmds: {_short(opening) if opening else '(none)'}")
    if preference in ("no", "WRONG"):
        instead.append(f"style: {_short(styles[0]) if styles else '(none)'}")
    if not text:
        instead = ["(empty start)"]
    return Verdict(test, preference, "; ".join(instead))


def _short(line: str, width: int = 70) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


class ProbeRun:
    """Collects each project's start text and stored recipes and preferences."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}
        self.stored: dict[str, list[str]] = {}

    async def inspect(self, client: MemoryClient, name: str, project_id: str, events: int) -> None:
        self.texts[name] = await fixture_pipeline.session_start_text(client, project_id, "claude")
        listed = await client.call(
            client.stub.ListMemories, pb.ListMemoriesRequest(project_id=project_id, page_size=500)
        )
        self.stored[name] = [
            f"[{fixture_pipeline.TYPE_NAMES.get(m.type, '?')}] {m.key} ({m.importance:.2f}): "
            f"{m.content}"
            for m in listed.memories
            if fixture_pipeline.TYPE_NAMES.get(m.type) in ("recipe", "user_style")
        ]


def measure(probes: list[Probe], folder: Path = SET) -> ProbeRun:
    """Runs the chosen projects' committed transcripts through one memory service."""
    projects = [(p.name, sorted((folder / p.name).glob("*.jsonl"))) for p in probes]
    missing = [name for name, paths in projects if not paths]
    if missing:
        raise SystemExit(f"no transcripts for {missing} under {folder} (run with --write)")
    run = ProbeRun()
    asyncio.run(
        fixture_pipeline.run_once(
            projects, False, settings_env=backend_env("rules"), inspect=run.inspect
        )
    )
    return run


def table(probes: list[Probe], run: ProbeRun) -> str:
    """One row per project, then the totals."""
    rows = ["| project | ecosystem | how | test | pref | instead |", "|---|---|---|---|---|---|"]
    verdicts = []
    for probe in probes:
        verdict = judge(probe, run.texts.get(probe.name, ""))
        verdicts.append(verdict)
        shape = probe.shape.replace("|", "\\|")  # a pipe in a command, not a column
        instead = verdict.instead.replace("|", "\\|")
        rows.append(
            f"| {probe.name} | {probe.ecosystem} | {shape} | {verdict.test} | "
            f"{verdict.preference} | {instead} |"
        )
    tests = sum(v.test_right for v in verdicts)
    prefs = sum(v.preference == "yes" for v in verdicts)
    both = sum(v.both for v in verdicts)
    rows.append(
        f"\ntest command right: {tests}/{len(verdicts)}, preference: {prefs}/{len(verdicts)}, "
        f"both: {both}/{len(verdicts)}"
    )
    return "\n".join(rows)


def main() -> int:
    configure_logging("bench", "warning", json=True)
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--text", action="store_true", help="print each start text")
    parser.add_argument("--project", action="append", default=[], help="only these projects")
    parser.add_argument("--write", action="store_true", help="rewrite the committed transcripts")
    args = parser.parse_args()
    if args.write:
        for path in write_set(SET):
            print(path.relative_to(fixture_pipeline.ROOT))
        return 0
    probes = [p for p in PROBES if not args.project or p.name in args.project]
    started = time.perf_counter()
    run = measure(probes)
    seconds = time.perf_counter() - started
    if args.text:
        for probe in probes:
            print(f"\n## {probe.name} ({probe.ecosystem})\n")
            print(run.texts.get(probe.name) or "(empty)")
            print("\nstored recipes and preferences:")
            for line in run.stored.get(probe.name) or ["none"]:
                print(f"  - {line}")
    print()
    print(table(probes, run))
    load = os.getloadavg()[0]
    print(f"\n{len(probes)} projects in {seconds:.0f} s (1-minute load {load:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
