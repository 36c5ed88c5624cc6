# ruff: noqa: E501  (transcript text: outputs and replies are kept as one string a line)
"""The learned study's seventh set: made-up sessions whose first message attaches a file (an
`@`-mention the host read and wrote into the message) and whose first reply, before any tool
ran, sums up what the file says; and quiet ones where that reply must teach nothing (a plan, a
question back to the user, advice addressed to the user, a claim the attached text does not
back). Every case, its items and its `wrong` patterns were written before any rule ran over
them, in `bench.learned_study`'s terms (see `bench.learned_cases`).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from bench.learned_cases import Case, _high, _never, _normal
from bench.trap_transcripts import Ask, Say, Session, one_session, write_sessions


def _wrapped(cwd: str, name: str, text: str) -> str:
    """`name` attached as one host writes it in: the read's input, then the file in tags."""
    path = f"{cwd}/{name}"
    lines = "\n".join(f"{n}: {line}" for n, line in enumerate(text.split("\n"), 1))
    given = json.dumps({"filePath": path})
    return (
        f"Called the Read tool with the following input: {given}\n"
        f"<path>{path}</path>\n<type>file</type>\n<content>\n{lines}\n</content>"
    )


def _numbered(cwd: str, name: str, text: str) -> str:
    """`name` attached as another host writes it in: the read's input, then its numbered lines."""
    given = json.dumps({"file_path": f"{cwd}/{name}"})
    lines = "\n".join(f"{n:>6}→{line}" for n, line in enumerate(text.split("\n"), 1))
    return f"Called the Read tool with the following input: {given}\nResult of calling the Read tool:\n{lines}"


def _attached(
    cwd: str, ask: str, form: Callable[[str, str, str], str], name: str, text: str, reply: str
) -> tuple[Session, ...]:
    """A session in `cwd` whose first message (`ask`) attaches `name` (its `text`, written in
    as `form` does) and whose first reply, before any tool ran, is `reply`."""
    return one_session(cwd, Ask(f"{ask}\n{form(cwd, name, text)}"), Say(reply))


_TALLYQ = "/home/rin/code/tallyq"
_TALLYQ_AGENTS = """# AGENTS.md

How to work on tallyq, a linter for SQL migrations.

## Layout

- `tq_core`: the parser, the `Rule` trait and the diagnostics.
- `tq_rules`: every concrete rule; each registers itself with `inventory::submit!`.
- `tq_cli`: the binary; it reads `.tallyq.toml` and prints the diagnostics.

`tq_cli` depends on `tq_rules`, which depends on `tq_core`.

## Checks

Run `cargo test` and `cargo clippy -- -D warnings`. Snapshot tests use `insta`: review changed
snapshots with `cargo insta review`."""

_HARBOR = "/home/jo/src/harbor"
_HARBOR_README = """# harbor

Booking tool for marinas. A pnpm workspace:

| package | what |
| --- | --- |
| `@harbor/api` | Fastify server, `packages/api` |
| `@harbor/web` | Vite + React app, `packages/web` |
| `@harbor/shared` | zod schemas imported by both |

The API reads its settings from `.env.local` in `packages/api` (copy `.env.example`).
`pnpm dev` starts both apps through turbo."""

_LEDGER = "/home/sam/work/ledgerd"
_LEDGER_CLAUDE = """# CLAUDE.md

- Build: `go build ./cmd/ledgerd`
- Tests: `go test ./...` (they need `DATABASE_URL` pointing at a scratch Postgres)
- Never edit files under `gen/`; run `make generate` instead."""

_PLAN = """# PLAN

1. Phase 1: read CSV exports (done).
2. Phase 2: an exporter for the yearly summary.
3. Phase 3: a web view."""

_QUEUE = """[worker]
concurrency = 4
queue = "default"
retry_limit = 5"""

_CONTRIBUTING = """# Contributing

Open a pull request against `main`. Run `make lint` before pushing; CI runs golangci-lint."""


ATTACHED_CASES: tuple[Case, ...] = (
    Case(
        "attached-rust-workspace",
        "Rust",
        _attached(
            _TALLYQ,
            "Check @AGENTS.md to understand the structure",
            _wrapped,
            "AGENTS.md",
            _TALLYQ_AGENTS,
            "Read it. Summary:\n\n**AGENTS.md** — how to develop `tallyq` (a SQL migration linter in Rust):\n- 3 crates: `tq_core` (parser, `Rule` trait, diagnostics), `tq_rules` (the concrete rules, each registered through `inventory`), `tq_cli` (the binary, reads `.tallyq.toml`)\n- `tq_cli` depends on `tq_rules`, which depends on `tq_core`.\n- Snapshot tests use `insta`; changed snapshots are reviewed with `cargo insta review`.\n\nWhat would you like to work on?",
        ),
        items=(
            _high(
                "Three crates: `tq_core` (parser, Rule trait), `tq_rules` (rules), `tq_cli` (binary).",
                ["tq_core"],
                ["tq_rules", "tq_cli"],
            ),
            _normal(
                "Snapshot tests use `insta`; review them with `cargo insta review`.",
                ["insta"],
                ["snapshot", "review"],
            ),
        ),
    ),
    Case(
        "attached-ts-readme",
        "TypeScript (pnpm workspace)",
        _attached(
            _HARBOR,
            "@README.md what is this repo?",
            _numbered,
            "README.md",
            _HARBOR_README,
            "It's a booking tool for marinas, split into three packages:\n\n- `@harbor/shared` holds the zod schemas that `@harbor/api` and `@harbor/web` both import.\n- `@harbor/api` is the Fastify server in `packages/api`; it reads its settings from `.env.local`.\n- `pnpm dev` starts both apps through turbo.",
        ),
        items=(
            _high(
                "`@harbor/shared` holds the zod schemas both the API and the web app import.",
                ["@harbor/shared"],
                ["schema", "zod"],
            ),
            _normal(
                "The API reads its settings from `.env.local`.",
                [r"\.env\.local"],
                ["settings", "api"],
            ),
        ),
    ),
    Case(
        "attached-go-claim-unseen",
        "Go",
        _attached(
            _LEDGER,
            "@CLAUDE.md anything I should know before touching billing?",
            _wrapped,
            "CLAUDE.md",
            _LEDGER_CLAUDE,
            "From CLAUDE.md:\n\n- The tests need `DATABASE_URL` pointing at a scratch Postgres.\n- Files under `gen/` are generated by `make generate`, never edited by hand.\n- `internal/billing` talks to Stripe through `stripe-go` and retries each charge three times.",
        ),
        items=(
            _normal(
                "The tests need `DATABASE_URL` (a scratch Postgres).",
                ["DATABASE_URL"],
                ["test", "postgres"],
            ),
        ),
        wrong=(
            _never(
                "What the attached file never says (billing through stripe-go).",
                ["internal/billing", "stripe"],
            ),
        ),
    ),
    Case(
        "quiet-attached-plan",
        "Rust",
        _attached(
            "/home/ida/code/ledgerize",
            "@PLAN.md let's continue",
            _wrapped,
            "PLAN.md",
            _PLAN,
            "Phase 2 is next. I'll add an `Exporter` trait in `src/export.rs`, then wire `YearlySummary` into `src/main.rs`; after that we should update `README.md`.",
        ),
        wrong=(_never("A plan stated as the code.", ["Exporter", "YearlySummary"]),),
    ),
    Case(
        "quiet-attached-question",
        "Python",
        _attached(
            "/home/lea/src/relay",
            "@worker/queue.toml is this right?",
            _numbered,
            "worker/queue.toml",
            _QUEUE,
            "It sets `concurrency = 4` and `retry_limit = 5` for the `default` queue. Should `worker` keep its own `queue.toml`, or do you want it merged into `settings.toml`?",
        ),
        wrong=(_never("A question back stated as a fact.", ["settings.toml"]),),
    ),
    Case(
        "quiet-attached-your-advice",
        "Go",
        _attached(
            "/home/ana/go/src/pinger",
            "@CONTRIBUTING.md how do I get my PR merged?",
            _wrapped,
            "CONTRIBUTING.md",
            _CONTRIBUTING,
            "Your next step is to run `make lint` and fix what golangci-lint reports, then open the pull request against `main`.",
        ),
        wrong=(_never("Advice to the user stated as a fact.", ["next step"]),),
    ),
)


def write_all(
    cases: Sequence[Case] = ATTACHED_CASES, folder: Path | None = None
) -> dict[str, list[Path]]:
    """Each case's transcripts, written under `folder` (a new temporary folder when None)."""
    where = folder or Path(tempfile.mkdtemp(prefix="learned-attached-"))
    return {case.name: write_sessions(where, case.name, case.sessions) for case in cases}
