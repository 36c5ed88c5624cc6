"""The answer key with a model: the rules alone, then the rules plus a model backend, side by side.

Runs the answer key (bench/answer_key.py) twice, each in a fresh memory service: once with the
`rules` extractor, once with the chosen model backend (the rules always run; the model adds).
Prints the rules' tables, the rules + model tables, and a comparison per split (tuning and
held-out apart) with how many memories the model wrote.

- `--backend claude_cli|codex_cli|gemini_cli|openai_compatible|anthropic`: a real backend, with
  its settings from SQRL_* variables (e.g. SQRL_OPENAI_COMPATIBLE_MODEL=llama3.2).
- `--record DIR`: also saves every answer the model gives to DIR, one `<request hash>.json` each
  (bench/model_recording.py).
- `--replay DIR`: no model: a local OpenAI-compatible server answers from DIR and the real
  `openai_compatible` backend code talks to it. A request DIR does not hold is an error naming
  it (exit 2), never an empty answer.

Usage: python -m bench.answer_key --backend NAME [--record DIR] [--fixtures DIR]
                                  [--split tuning|held-out] [--project=NAME ...] [--details]
       python -m bench.answer_key --replay DIR [...]
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import answer_key, answer_key_table, fixture_pipeline
from bench.answer_key_gold import AnswerKeyError
from bench.answer_key_score import Score, percent
from bench.common import markdown_table
from bench.model_recording import (
    Recording,
    RecordingError,
    ReplayServer,
    recording_callers,
    replay_env,
)
from squirrel_core.errors import SquirrelError
from squirrel_core.logs import configure_logging
from squirrel_memory.llm.base import BACKENDS

MODEL_BACKENDS = tuple(b for b in BACKENDS if b != "rules")


@dataclass
class Compared:
    """The rules' run and the rules + model run of the same projects."""

    rules: answer_key.Measured
    model: answer_key.Measured
    label: str  # what the model run was: `rules + claude_cli`, `rules + replay of DIR`
    calls: int = 0  # model requests answered
    failures: list[str] = field(default_factory=list)  # why the other requests failed


@contextlib.contextmanager
def _model_run(record: Path | None, replay: Path | None) -> Iterator[dict[str, Any]]:
    """The settings of the model run while it is open; on leaving, `calls` holds how many
    requests the model answered and `failures` why others failed. Raises `RecordingError` for
    requests a replay did not hold."""
    state: dict[str, Any] = {"env": {}, "calls": 0, "failures": []}
    with contextlib.ExitStack() as stack:
        server = None
        if replay is not None:
            server = stack.enter_context(ReplayServer(Recording(replay)))
            state["env"] = replay_env(server)
        made = stack.enter_context(recording_callers(Recording(record) if record else None))
        yield state
        state["calls"] = sum(c.answered for c in made)
        state["failures"] = [reason for c in made for reason in c.failures]
        if server is not None:
            server.check()


def compare(
    fixtures: Path,
    backend: str,
    only: Sequence[str] = (),
    *,
    split: str | None = None,
    record: Path | None = None,
    replay: Path | None = None,
) -> Compared:
    """The answer key under the rules, then under the rules plus `backend` (recording its
    answers to `record`, or answered from the recording `replay` through `openai_compatible`)."""
    if record is not None and replay is not None:
        raise AnswerKeyError("--record and --replay exclude each other")
    if replay is not None and backend != "openai_compatible":
        raise AnswerKeyError("a replay runs through the openai_compatible backend")
    if replay is not None and not replay.is_dir():
        raise AnswerKeyError(f"no recording at {replay}")
    rules = answer_key.measure(fixtures, "rules", only=only, split=split)
    with _model_run(record, replay) as state:
        model = answer_key.measure(
            fixtures, backend, only=only, split=split, settings_env=state["env"]
        )
    label = f"rules + replay of {replay}" if replay is not None else f"rules + {backend}"
    return Compared(rules, model, label, state["calls"], state["failures"])


def model_memories(writers: dict[str, int]) -> int:
    """How many of a project's memories a model wrote (neither the rules nor the user)."""
    return sum(n for who, n in writers.items() if who not in ("rules", "manual", ""))


def _cell(before: str, after: str) -> str:
    return before if before == after else f"{before} → {after}"


def comparison(compared: Compared) -> str:
    """Per split, one row per project and the pooled row: each figure under the rules, then
    (after →, when it changed) under the rules + model, and the model's own memories."""
    head = (
        "project",
        "memories",
        "by the model",
        "high covered",
        "all covered",
        "wrong facts",
        "noise (wrong+junk)",
        "recall@5",
    )
    rules_by = {s.project: s for s in compared.rules.scores}
    out: list[str] = []
    for split, chosen in answer_key_table.by_split(compared.model.scores).items():
        rows: list[tuple[str, ...]] = []
        pairs = [(rules_by[s.project], s) for s in chosen if s.project in rules_by]
        groups: list[tuple[str, list[Score], list[Score]]] = [
            (m.project, [r], [m]) for r, m in pairs
        ]
        groups.append(("all (pooled)", [r for r, _ in pairs], [m for _, m in pairs]))
        for name, before_scores, after_scores in groups:
            b = answer_key_table.pooled(before_scores, compared.rules.events)
            a = answer_key_table.pooled(after_scores, compared.model.events)
            by_model = sum(
                model_memories(compared.model.writers.get(s.project, {})) for s in after_scores
            )
            rows.append(
                (
                    name,
                    _cell(str(b.memories), str(a.memories)),
                    str(by_model),
                    _cell(
                        f"{b.high_covered}/{b.high_total} {percent(b.high_covered, b.high_total)}",
                        f"{a.high_covered}/{a.high_total} {percent(a.high_covered, a.high_total)}",
                    ),
                    _cell(
                        f"{b.all_covered}/{b.all_total} {percent(b.all_covered, b.all_total)}",
                        f"{a.all_covered}/{a.all_total} {percent(a.all_covered, a.all_total)}",
                    ),
                    _cell(str(b.wrong), str(a.wrong)),
                    _cell(
                        f"{b.noise}/{b.memories} {percent(b.noise, b.memories)}",
                        f"{a.noise}/{a.memories} {percent(a.noise, a.memories)}",
                    ),
                    _cell(
                        f"{b.hits}/{b.questions} {percent(b.hits, b.questions)}",
                        f"{a.hits}/{a.questions} {percent(a.hits, a.questions)}",
                    ),
                )
            )
        title = answer_key_table.TITLES[split]
        out.append(f"### {title}: rules → {compared.label}\n\n{markdown_table(head, rows)}")
    return "\n\n".join(out)


def main(argv: list[str] | None = None) -> int:
    configure_logging("bench", "error", json=True)
    parser = argparse.ArgumentParser(prog="python -m bench.answer_key", description=__doc__)
    parser.add_argument("--fixtures", type=Path, default=fixture_pipeline.DEFAULT_FIXTURES)
    parser.add_argument(
        "--backend",
        choices=MODEL_BACKENDS,
        default=None,
        help="the model backend added to the rules (with --replay: openai_compatible)",
    )
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--record", type=Path, default=None, help="save every model answer here")
    modes.add_argument("--replay", type=Path, default=None, help="answer from this recording")
    parser.add_argument("--details", action="store_true", help="misses, noise, unmatched memories")
    parser.add_argument(
        "--split", choices=tuple(answer_key_table.TARGETS), default=None, help="only this split"
    )
    parser.add_argument(
        "--project", action="append", default=[], help="only this fixture project (repeatable)"
    )
    args = parser.parse_args(argv)
    backend = args.backend or ("openai_compatible" if args.replay is not None else None)
    if backend is None:
        parser.error("--backend is required (or --replay DIR)")
    if not args.fixtures.is_dir():
        print(f"skipped: no fixture transcripts at {args.fixtures}", file=sys.stderr)
        return 0
    started = time.perf_counter()
    try:
        compared = compare(
            args.fixtures,
            backend,
            args.project,
            split=args.split,
            record=args.record,
            replay=args.replay,
        )
    except (AnswerKeyError, RecordingError) as exc:
        print(f"answer key: {exc}", file=sys.stderr)
        return 2
    except SquirrelError as exc:
        print(f"answer key: the memory service failed: {exc}", file=sys.stderr)
        return 2
    print(f"answer key, rules alone, {compared.rules.search}:\n")
    print(answer_key_table.tables(compared.rules.scores, compared.rules.events))
    print(f"\nanswer key, {compared.label}, {compared.model.search}:\n")
    print(answer_key_table.tables(compared.model.scores, compared.model.events))
    print(f"\n{comparison(compared)}")
    print(f"\nmodel requests: {compared.calls} answered, {len(compared.failures)} failed")
    if compared.failures:
        print(f"first failure: {compared.failures[0]}")
    if args.record is not None:
        print(f"answers recorded to {args.record}")
    if args.details:
        for score_ in compared.model.scores:
            print(answer_key_table.details(score_))
    print(f"\n({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    return 0
