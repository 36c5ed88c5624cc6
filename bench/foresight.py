"""Foresight: would the memory have saved each session? A replay of every fixture project.

For every fixture project (grouped as bench/fixture_pipeline.py groups them: the Claude projects
under `<fixtures>/claude`, and the Codex sessions under `<fixtures>/codex`; schema-only
`agent-sessions-constructed` files are left out), its sessions are replayed in time order in a
fresh memory service (its own home, so no other project's memories are there). Before session k,
the service holds what sessions 1..k-1 produced: their events appended with AppendEvents and
processed with the `rules` extractor (ProcessNow), the vector index caught up. Then what Squirrel
would inject is asked through the real path: the gateway's `HookService` (session start, then one
`UserPromptSubmit` per user prompt of session k but a host's own commands, `/status`, `/model`,
and a session start again after `/clear`, at the default `hooks.*` budgets) over a
`GrpcMemoryBackend`, i.e. the memory service over gRPC plus the gateway's formatting. Only the
hook deadline is raised (a slow shared machine must not turn an answer into silence).

Each session k >= 2 is scored against what it then did (bench/foresight_score.py), but for a
transcript made only of a subagent's events (its own session is not among the fixtures): a host
runs no session-start or prompt hook for a subagent, so nothing would have been injected there.
- failure foresight: of its failures whose error signature happened in an earlier session, the
  share a pitfall served before the failure warned about (same pitfall key), and the share whose
  served pitfall stated the fix that worked this time;
- recipe recall: of the commands with a known purpose it ran successfully that an earlier session
  had run successfully, the share a served item gave as the way to run them (in backticks; not
  the command a pitfall says failed) before their first use;
- instruction recall: of the rules and corrections the user stated that repeat an earlier
  session's (same `pref:` key), the share a served style memory with that key stated before;
- cost: tokens injected at session start and per prompt (abstentions count as 0);
- outcomes: what became of each distinct item served (`squirrel_memory.outcomes`): used (its
  command ran and worked, a file it names was touched), missed (its error happened anyway, its
  instruction had to be stated again), contradicted (its command failed every time, the user
  stated the opposite) or unused; noise is the unused share.
With --details, each session also lists the memories it would have used that no answer gave it,
with their place among each prompt's search hits (bench/foresight_needed.py).

The replay's memory service and project folder are bench/foresight_service.py's. Needs no
model and no gold. Transcripts paths under the original project folder are moved into
the replay's project folder, as they would be on the user's machine; the files earlier sessions
read or wrote are created there before the next session (empty, but for the instruction files
they showed, written with the text shown), so a prompt naming one of them is answered as on the
user's disk, where it exists, and a CLAUDE.md importing AGENTS.md is read as Claude Code reads it.

The answer key's held-out projects (bench/data/answer_key/, `split = "held-out"`) are replayed
and pooled like the rest, but shown only as one pooled row (and left out of --details and the
per-project --json figures) unless --held-out-rows asks for their own rows or --project names them.

Usage: python -m bench.foresight [--fixtures DIR] [--project NAME ...] [--details] [--json PATH]
                                 [--session-budget N] [--held-out-rows]
(DIR defaults to ../shared/fixtures; without it the benchmark says so and exits 0.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from bench import fixture_pipeline
from bench import foresight_split as split
from bench.common import SHARED_FIXTURES
from bench.fixture_pipeline import relocate
from bench.foresight_fixtures import (
    Project,
    Session,
    fixture_groups,
    load_project,
    sessions_of,
)
from bench.foresight_needed import held_memories, needed_lines
from bench.foresight_score import (
    History,
    Injected,
    SessionFacts,
    Tally,
    score_session,
    session_facts,
)
from bench.foresight_service import (
    learn_session,
    materialise,
    memory_service,
    project_folder,
)
from bench.foresight_table import (
    SECTION,
    ProjectResult,
    figures,
    held_out_projects,
    shown,
    table,
)
from bench.stored_events import stored
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.events import SourceTool
from squirrel_core.logs import configure_logging
from squirrel_core.read_shapes import MEMORY_TYPES
from squirrel_gateway.arguments import MAX_TASK_CHARS
from squirrel_gateway.hook_context import Injection, Served
from squirrel_gateway.hook_hosts import HookInput
from squirrel_gateway.hook_service import HookService
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.served_log import ServedLog, grpc_sender

NEAR_HITS = 3
"""Search hits --details shows for a prompt the hook left unanswered."""
HOSTS = {SourceTool.CODEX: "codex", SourceTool.GEMINI_CLI: "gemini"}
#: The commands a host runs itself, with no model turn and so no prompt hook (Claude Code's,
#: Codex CLI's and Gemini CLI's own screens and settings). `/clear` (Codex `/new`) also starts
#: the context afresh: the host asks the session-start hook again (source `clear`).
_HOST_COMMAND_TEXT = (
    "/clear /new /doctor /status /mcp /model /config /settings /help /cost /stats /login /logout"
    " /permissions /resume /exit /quit /hooks /agents /ide /vim /theme /context /add-dir"
    " /export /rewind /terminal-setup /tools /auth /chat /diff /approvals"
)
HOST_COMMANDS = frozenset(_HOST_COMMAND_TEXT.split())
RESTARTS = frozenset({"/clear", "/new"})


def host_command(prompt: str) -> str | None:
    """The host's own command a prompt is (`/clear`, `/model opus`), or None."""
    words = prompt.split()
    return words[0].lower() if words and words[0].lower() in HOST_COMMANDS else None


# -- the replay ----------------------------------------------------------------------------------


class Recorder:
    """The hook service's observer: every injection computed, in order, each also handed to
    the gateway's served log (timed by the replayed transcript's clock, `now`)."""

    def __init__(self, run_dir: Path, client: MemoryClient) -> None:
        self.injections: list[Injection] = []
        self.now = datetime.now(UTC)
        self.served = ServedLog(grpc_sender(lambda: client), run_dir, clock=lambda: self.now)

    def __call__(self, hook: HookInput, project_id: str, injection: Injection) -> None:
        self.injections.append(injection)
        self.served.observe(hook, project_id, injection)


async def _ask(
    hooks: HookService, recorder: Recorder, host: str, event: str, payload: dict[str, str]
) -> Injection:
    before = len(recorder.injections)
    printed = await hooks.answer(host, event, payload)
    if len(recorder.injections) != before + 1:
        raise RuntimeError(f"the {event} hook failed: {hooks.activity.to_json()!r}")
    injection = recorder.injections[-1]
    shown = json.loads(printed)["hookSpecificOutput"]["additionalContext"] if printed else ""
    if injection.text and not injection.text.startswith(shown.rstrip("…")):
        raise RuntimeError("the hook printed something other than its injection")
    return injection


async def replay(
    project: Project, tmp: Path, *, learn: bool = True, session_budget: int | None = None
) -> ProjectResult:
    """Replays one project's sessions in a fresh memory service; scores sessions 2..n but for
    those made only of a subagent's events (`Session.subagent_only`: no hook runs there). What
    each session was served is recorded, and judged when the session is processed (after it
    is scored): with `learn`, session k is served by a ranking that knows the outcomes of
    sessions 1..k-1 only. The project folder has its real name (`project_folder`), as in the
    answer key's pipeline: the folder's name is part of what the rules see."""
    root = project_folder(tmp, project)
    project_id = str(root.resolve())
    sessions = sessions_of(relocate(project.events, project_id))
    total, studied, unstudied = Tally(), Tally(), Tally()
    history = History()
    memories = 0
    async with memory_service(tmp, learn=learn, session_budget=session_budget) as (
        client,
        hook_settings,
    ):
        await client.call(client.stub.RegisterProject, pb.RegisterProjectRequest(root=project_id))
        backend = GrpcMemoryBackend(client, lambda: [project_id]).for_hooks()
        (tmp / "run").mkdir(exist_ok=True)
        recorder = Recorder(tmp / "run", client)
        hooks = HookService(backend, hook_settings, tmp / "run", observer=recorder)
        try:
            for k, session in enumerate(sessions):
                facts = session_facts(
                    session.session_id, stored(session.events, project_id, f"s{k}"), project_id
                )
                if k > 0:
                    if not await recorder.served.flush():
                        raise RuntimeError("what the last session was served was not recorded")
                    await learn_session(client, project_id, sessions[k - 1])
                if k > 0 and not session.subagent_only:
                    scored = await _score(
                        client, backend, hooks, recorder, session, facts, history, project_id
                    )
                    total.add(scored)
                    part = studied if split.studied(project.name, session.session_id) else unstudied
                    part.add(scored)
                history.add(facts)
                materialise(root, facts, session.events)
            listed = await client.call(
                client.stub.ListMemories, pb.ListMemoriesRequest(project_id=project_id, page_size=1)
            )
            memories = listed.total_count
        finally:
            await hooks.close()
            await recorder.served.close()
    events = sum(len(s.events) for s in sessions)
    return ProjectResult(
        project.name, len(sessions), events, memories, total, studied=studied, unstudied=unstudied
    )


async def _below_the_cut(
    backend: GrpcMemoryBackend, project_id: str, prompt: str
) -> tuple[tuple[Served, str], ...]:
    """For --details: the best search hits for a prompt the hook left unanswered (what the
    task context found not relevant enough), with their score and reason; never served."""
    query = " ".join(prompt.split())[:MAX_TASK_CHARS]
    if not query:
        return ()
    page = await backend.search_memory(
        project_id, query=query, top_k=NEAR_HITS, types=MEMORY_TYPES, scope_paths=[], cursor=None
    )
    return tuple(
        (Served(r.type, r.key, r.memory_id, r.content), f"{r.score:.2f} {r.reason}")
        for r in page.results
    )


async def _score(
    client: MemoryClient,
    backend: GrpcMemoryBackend,
    hooks: HookService,
    recorder: Recorder,
    session: Session,
    facts: SessionFacts,
    history: History,
    project_id: str,
) -> Tally:
    host = HOSTS.get(session.events[0].source_tool, "claude")
    prompt_event = {"claude": "UserPromptSubmit", "codex": "UserPromptSubmit"}.get(
        host, "BeforeAgent"
    )
    base = {"session_id": session.session_id, "cwd": project_id, "transcript_path": ""}
    recorder.now = session.events[0].timestamp
    start = await _ask(hooks, recorder, host, "SessionStart", {**base, "source": "startup"})
    prompts: list[Injected] = []
    for at, text in facts.prompts:
        recorder.now = at
        command = host_command(text)
        if command in RESTARTS:
            again = await _ask(hooks, recorder, host, "SessionStart", {**base, "source": "clear"})
            prompts.append(Injected(at, again.tokens, again.served, text, again.text, restart=True))
            continue
        if command is not None:
            continue  # the host handles it: no prompt reaches the model nor the prompt hook
        answer = await _ask(hooks, recorder, host, prompt_event, {**base, "prompt": text})
        near = (
            () if answer.served or answer.had else await _below_the_cut(backend, project_id, text)
        )
        prompts.append(
            Injected(at, answer.tokens, answer.served, text, answer.text, near, had=answer.had)
        )
    held = await held_memories(client, project_id)
    tally = score_session(
        facts,
        history,
        Injected(None, start.tokens, start.served, "", start.text),
        prompts,
        project_id,
        files={m.memory_id: m.file_paths for m in held},
    )
    asked = [" ".join(p.prompt.split())[:MAX_TASK_CHARS] for p in prompts if not p.restart]
    served = [*start.served, *(item for answer in prompts for item in answer.served)]
    tally.answers += await needed_lines(backend, project_id, held, facts, served, asked)
    return tally


def measure(
    fixtures: Path,
    only: Sequence[str] = (),
    *,
    learn: bool = True,
    part: str = "tuning",
    session_budget: int | None = None,
) -> list[ProjectResult]:
    """Replays every project of the split `part` (`foresight_split.replayed_groups`), or those
    of them named in `only`; `learn` and `session_budget` as in `replay`. A key's project of
    one session is left out (nothing before it to foresee)."""
    groups = [(n, p) for n, p in split.replayed_groups(fixtures, part) if not only or n in only]
    missing = sorted(set(only) - {n for n, _ in groups})
    if missing:
        raise SystemExit(f"no {part} project named {missing} under {fixtures}")
    results: list[ProjectResult] = []
    for name, paths in groups:
        project = load_project(name, paths)
        if name.startswith(split.KEYED) and len(sessions_of(project.events)) < 2:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            replayed = replay(project, Path(tmp), learn=learn, session_budget=session_budget)
            results.append(asyncio.run(replayed))
    return results


def main(argv: list[str] | None = None) -> int:
    configure_logging("bench", "error", json=True)
    parser = argparse.ArgumentParser(prog="python -m bench.foresight", description=__doc__)
    parser.add_argument("--fixtures", type=Path, default=SHARED_FIXTURES)
    parser.add_argument(
        "--project", action="append", default=[], help="only this fixture project (repeatable)"
    )
    parser.add_argument(
        "--details",
        action="store_true",
        help="every recurrence not served, every served item its session did not use, and "
        "each answer of each session: its items, their outcome and reason, and what the "
        "session then touched and ran",
    )
    parser.add_argument(
        "--json", type=Path, help="also write the figures here (pooled, then per project)"
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="replay twice, without then with learning from outcomes, and print both tables",
    )
    parser.add_argument(
        "--split",
        choices=split.SPLITS,
        default="tuning",
        help="the answer key's split to replay (tuning: the fixture projects no key holds out "
        "and the key's tuning projects of two sessions or more; held-out: one pooled row)",
    )
    parser.add_argument(
        "--session-budget",
        type=int,
        help="the session-start text's budget (`hooks.session_budget`), to compare budgets; "
        "its default when not given",
    )
    parser.add_argument(
        "--held-out-rows",
        action="store_true",
        help="also show the answer key's held-out projects one by one (pooled only by default)",
    )
    args = parser.parse_args(argv)
    if not args.fixtures.is_dir():
        print(f"skipped: no fixture transcripts at {args.fixtures}", file=sys.stderr)
        return 0
    if not fixture_groups(args.fixtures):
        print(
            f"foresight: no fixture project under {args.fixtures}: give the folder that holds "
            "`claude/` (and `codex/`), not one of them",
            file=sys.stderr,
        )
        return 2
    # Held-out projects a filter names are asked for; the rest stay pooled unless asked.
    asked = {name.removeprefix("codex:") for name in args.project}
    hidden = frozenset() if args.held_out_rows else held_out_projects() - asked
    if args.split == "held-out" and args.details:
        print("foresight: --details never shows held-out sessions", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        if args.compare:
            before = measure(
                args.fixtures,
                args.project,
                learn=False,
                part=args.split,
                session_budget=args.session_budget,
            )
            print("foresight replay, ranking without outcomes (before learning):\n")
            print(table(before, hidden))
            print()
        results = measure(
            args.fixtures, args.project, part=args.split, session_budget=args.session_budget
        )
    except fixture_pipeline.UnknownTranscriptError as exc:
        print(f"foresight: {exc}", file=sys.stderr)
        return 2
    print("foresight replay, rules extractor, hooks at their default budgets, ranking learning")
    print("from the outcomes of earlier sessions:\n")
    print(table(results, hidden))
    if args.details:
        # Only the studied sessions (`foresight_split.studied`): the others judge a change.
        for result in shown(results, hidden):
            told = result.studied
            print(f"\n### {result.name} ({told.sessions} studied of {result.tally.sessions})")
            print("\n".join(f"  - {m}" for m in told.misses) or "  nothing missed")
            print("served, unused:")
            print("\n".join(f"  - {n}" for n in told.noise) or "  none")
            print("each answer (outcome, item, reason), then what the session touched and ran:")
            print("\n".join(f"  {line}" for line in told.answers))
    if args.json is not None:
        from bench.common import write_json  # noqa: PLC0415

        own = shown(results, hidden)
        rows = figures(results) + [f for r in own for f in figures(results, r.name)]
        write_json(args.json, rows, {"section": SECTION})
    print(f"\n({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
