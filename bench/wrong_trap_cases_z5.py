# ruff: noqa: E501  (transcript text: replies and outputs are kept as one string a line)
"""Wrong-fact traps, part `z5`: a user's short answer after a reply with labelled lines that
offer no choice of design: a numbered list of findings and "which should I fix first?", a
numbered list of the assistant's own questions answered in order, an offer of the assistant's
next step ("Want me to: A) … or B) …?"), and a pick the user takes back without picking again
(`bench/wrong_traps.py` runs them).

Written after the rule that keeps the user's pick among the options the assistant laid out
(`extractors/chosen_options.py`) and after its study (`bench/decisions_study.py`): on the rule as
first committed, the first two each stated a choice ("The user chose "A leaked file handle …"
over "A race …"", "The user chose "Which database …?" …"); the rule now reads neither a reply
that asks which comes first or offers the assistant's next step ("Want me to …"), nor options
that are questions of their own. The third and the fourth read 0 wrong on the first rule too
(its labels "A)" inside a line are no labels; a pick taken back is dropped): kept as guards.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Trap, one_session

_CHOSE = r"\bThe user chose\b"

FIX_FIRST = Trap(
    "which-finding-first",
    "Go",
    "the user says which of two findings to fix first: an order of work, not a design choice",
    one_session(
        "/home/ravi/code/queueworker",
        Ask("Review `internal/worker` for bugs."),
        Read(
            "internal/worker/pool.go",
            "func (p *Pool) Run() {\n\tfor job := range p.jobs {\n\t\tgo p.handle(job)\n\t}\n}\n",
        ),
        Say(
            "Two problems:\n\n1. A race on `p.active`: `handle` increments it without the mutex.\n2. A leaked file handle in `spool.go`: the error path returns before `f.Close()`.\n\nWhich should I fix first?"
        ),
        Ask("2"),
        Edit(
            "internal/worker/spool.go",
            "\tif err != nil {\n\t\treturn err\n\t}",
            "\tif err != nil {\n\t\tf.Close()\n\t\treturn err\n\t}",
        ),
        Run("go test ./internal/worker/...", "ok  \tqueueworker/internal/worker\t0.412s\n"),
        Say("The handle is closed on the error path now and the tests pass. On to the race."),
        host="codex",
    ),
    wrong=((_CHOSE, "an order of work is no decision of the project"),),
)

QUESTIONS_IN_ORDER = Trap(
    "numbered-questions-answered",
    "TypeScript",
    "the assistant numbers its own questions; the user answers them in order",
    one_session(
        "/home/mei/work/booking",
        Ask("Set up the persistence layer for the booking service."),
        Say(
            "Before I start, which of these apply?\n\n1. Which database do you run in production?\n2. Do you need soft deletes?"
        ),
        Ask("1. postgres 2. no"),
        Run("npm install drizzle-orm pg", "added 14 packages, and audited 212 packages in 3s\n"),
        Say("Setting up Drizzle with PostgreSQL, hard deletes."),
    ),
    wrong=((r"\bThe user chose\b[^\n]*\bWhich database\b", "the options were questions"),),
)

NEXT_ACTION_OFFER = Trap(
    "want-me-to-offer",
    "Python",
    "the assistant offers two next actions of its own; the user picks one",
    one_session(
        "/srv/dev/ledger",
        Ask("What changed in the last commit?"),
        Run(
            "git show --stat HEAD",
            "commit 9f1c2ab\n\n    Round totals half-even\n\n ledger/totals.py | 4 ++--\n",
        ),
        Say(
            "It switches rounding in `ledger/totals.py` to half-even. Want me to: A) show the full diff, or B) explain the change line by line?"
        ),
        Ask("A"),
        Run(
            "git show HEAD",
            "-    return round(x, 2)\n+    return x.quantize(CENT, ROUND_HALF_EVEN)\n",
        ),
        Say("That's the whole diff."),
        host="gemini",
    ),
    wrong=((_CHOSE, "the assistant's next action is no decision"),),
)

WAIT_NO_PICK = Trap(
    "pick-taken-back-waiting",
    "Rust",
    "the user picks, then takes it back to ask the team, picking nothing",
    one_session(
        "/home/ana/src/tallyctl",
        Ask("Should we add a config file?"),
        Run("ls src", "cli.rs\nmain.rs\nrender.rs\n"),
        Say(
            "Option A: a TOML file in the XDG config folder.\nOption B: only environment variables, documented in the README.\n\nWhich do you prefer?"
        ),
        Ask("A"),
        Say("Starting with `config.rs`."),
        Ask("wait, let me check with the team first. Don't add anything yet."),
        Say("Okay, nothing added."),
    ),
    wrong=(
        (_CHOSE, "the pick was taken back"),
        (r"\bTOML\b[^\n]*\b(?:chose|decided)\b", "nothing was decided"),
    ),
)

CASES = (FIX_FIRST, QUESTIONS_IN_ORDER, NEXT_ACTION_OFFER, WAIT_NO_PICK)
