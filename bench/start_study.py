"""What a later session's start holds of what earlier sessions stored: a made-up study of the
rare items (a release's steps, a one-off pitfall) a session start leaves out.

Each made-up project (`bench/start_study_cases.py`: projects that released; `_b`: projects
that met a one-off pitfall; `_c`: projects whose start is full; Rust, Go, Elixir, TypeScript,
Python, Ruby, Dart, Kotlin, C#, PHP, C, Java, Swift, JavaScript) has earlier sessions, written
as Claude Code transcripts and sent through the real
pipeline (the offline `rules` extractor, as `bench.answer_key` runs it), each project alone in
its own project of one memory service. Then a later session is asked for as the hooks answer
it: the session start's text, and the context its first prompt is given (one `HookService`,
so the prompt leaves out what the start gave). The later session's needs are what it had to
know: the test command, a standing preference it would break, and a rare item when its work
meets it again (the release it runs, the trap its change walks into); a project whose later
session works elsewhere needs no rare item, and its start showing one is a line spent for
nothing.

Per project and pooled: needs met by the start; needs met by the start and the first prompt;
rare items needed and shown at the start; rare items not needed and shown at the start; the
start's tokens; its lines that meet no need (or show a rare item not needed); wrong lines (any
line of either text matching a `never` pattern).

Usage: python -m bench.start_study [--project NAME ...] [--text]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench import fixture_pipeline
from bench.answer_key import backend_env
from bench.start_study_cases import PROJECTS as RELEASED
from bench.start_study_cases_b import PROJECTS as TRAPPED
from bench.start_study_cases_c import PROJECTS as FULL
from bench.start_study_runs import Hooked, later_session, lines_of, tokens_of
from bench.start_study_types import Need, Project
from bench.trap_transcripts import write_sessions
from squirrel_core.clients import MemoryClient
from squirrel_core.logs import configure_logging

__all__ = ["PROJECTS", "Outcome", "gives", "main", "measure", "report"]

PROJECTS: tuple[Project, ...] = (*RELEASED, *TRAPPED, *FULL)
_FLAGS = re.IGNORECASE


def gives(need: Need, line: str) -> bool:
    """Whether `line` gives `need`: it matches every pattern."""
    return all(re.search(p, line, _FLAGS) for p in need.patterns)


@dataclass(frozen=True)
class Outcome:
    """A project's later session as the hooks answered it."""

    project: Project
    hooked: Hooked

    def _met(self, needs: Sequence[Need], lines: Sequence[str]) -> list[Need]:
        return [n for n in needs if any(gives(n, line) for line in lines)]

    @property
    def start_lines(self) -> list[str]:
        return lines_of(self.hooked.start)

    def met_at_start(self) -> list[Need]:
        """The needs a line of the start gives."""
        return self._met(self.project.needs, self.start_lines)

    def met_with_prompt(self) -> list[Need]:
        """The needs a line of the start or of the first prompt's context gives."""
        return self._met(self.project.needs, [*self.start_lines, *lines_of(self.hooked.prompt)])

    def rare_needed_at_start(self) -> list[Need]:
        """The rare items needed later that the start shows."""
        return self._met(self.project.rare_needed, self.start_lines)

    def rare_spare_at_start(self) -> list[Need]:
        """The rare items not needed later that the start shows anyway."""
        return self._met(self.project.rare_spare, self.start_lines)

    def unneeded(self) -> list[str]:
        """The start's lines that give no need, and those that show a rare item the later
        session did not need (a release's steps quote the test command too: the line is there
        for the release)."""
        spare = self.project.rare_spare
        return [
            line
            for line in self.start_lines
            if not any(gives(n, line) for n in self.project.needs)
            or any(gives(n, line) for n in spare)
        ]

    def wrong(self) -> list[str]:
        """Lines of either text that match a `never` pattern, with why."""
        lines = [*self.start_lines, *lines_of(self.hooked.prompt)]
        return [
            f"{line} ({why})"
            for line in lines
            for pattern, why in self.project.never
            if re.search(pattern, line, _FLAGS)
        ]

    @property
    def tokens(self) -> int:
        return tokens_of(self.hooked.start)


def measure(projects: Sequence[Project]) -> list[Outcome]:
    """Runs every project's earlier sessions alone in its own project, then its later
    session's hooks; one Outcome per project."""
    hooked: dict[str, Hooked] = {}
    by_name = {p.name: p for p in projects}

    async def inspect(client: MemoryClient, name: str, project_id: str, events: int) -> None:
        hooked[name] = await later_session(client, project_id, by_name[name].prompt)

    with tempfile.TemporaryDirectory() as tmp:
        runs = [(p.name, write_sessions(Path(tmp), p.name, p.earlier)) for p in projects]
        asyncio.run(
            fixture_pipeline.run_once(
                runs,
                False,
                settings_env=backend_env("rules"),
                inspect=inspect,
                folder=lambda name: Path(by_name[name].earlier[0].cwd).name,
            )
        )
    return [Outcome(p, hooked.get(p.name, Hooked("", ""))) for p in projects]


def _ratio(a: int, b: int) -> str:
    return f"{a}/{b}"


def report(outcomes: Sequence[Outcome], text: bool = False) -> str:
    """The study's table (a row per project, then all pooled) and each project's misses."""
    head = (
        "| project | ecosystem | needs met: start | needs met: start + prompt"
        " | rare needed, at start | rare not needed, at start | tokens/start"
        " | lines nobody needed | wrong |"
    )
    rows = [head, "|---|---|---|---|---|---|---:|---:|---:|"]

    def row(name: str, eco: str, group: Sequence[Outcome]) -> str:
        needs = sum(len(o.project.needs) for o in group)
        tokens = sum(o.tokens for o in group) // max(1, len(group))
        needed = sum(len(o.project.rare_needed) for o in group)
        spare = sum(len(o.project.rare_spare) for o in group)
        return (
            f"| {name} | {eco}"
            f" | {_ratio(sum(len(o.met_at_start()) for o in group), needs)}"
            f" | {_ratio(sum(len(o.met_with_prompt()) for o in group), needs)}"
            f" | {_ratio(sum(len(o.rare_needed_at_start()) for o in group), needed)}"
            f" | {_ratio(sum(len(o.rare_spare_at_start()) for o in group), spare)}"
            f" | {tokens} | {sum(len(o.unneeded()) for o in group)}"
            f" | {sum(len(o.wrong()) for o in group)} |"
        )

    rows.extend(row(o.project.name, o.project.ecosystem, [o]) for o in outcomes)
    rows.append(row("all (pooled)", "", outcomes))
    lines = ["\n".join(rows)]
    for o in outcomes:
        start = {n.id for n in o.met_at_start()}
        prompt = {n.id for n in o.met_with_prompt()}
        missed = [n.id for n in o.project.needs if n.id not in prompt]
        late = [n.id for n in o.project.needs if n.id in prompt and n.id not in start]
        notes = [f"missed {', '.join(missed)}"] if missed else []
        notes += [f"only at the prompt {', '.join(late)}"] if late else []
        notes += [f"wrong: {w}" for w in o.wrong()]
        if notes:
            lines.append(f"- {o.project.name}: " + "; ".join(notes))
        if text:
            lines.append(f"\n### {o.project.name}\n\n{o.hooked.start or '(no start)'}\n")
            lines.append(f"prompt: {o.project.prompt}\n\n{o.hooked.prompt or '(nothing)'}\n")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", action="append", default=[], help="only this project")
    parser.add_argument("--text", action="store_true", help="print each start and prompt text")
    args = parser.parse_args(argv)
    configure_logging("bench", "error", json=True)
    chosen = [p for p in PROJECTS if not args.project or p.name in args.project]
    unknown = set(args.project) - {p.name for p in PROJECTS}
    if unknown:
        print(f"no project named {sorted(unknown)}", file=sys.stderr)
        return 2
    print(report(measure(chosen), args.text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
