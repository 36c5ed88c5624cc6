"""Made-up sessions built around a trap each: where a rule could state a wrong stack fact or a
wrong command (a side store's client, a sub-folder with its own manifest, a monorepo whose
packages disagree, a migration mid-session, a stale README, a command that always failed, a tool
the user does not use, a dev-only dependency, a generated or vendored language, a sibling
checkout, another project's version, a side tool's manifest untracked at the root, a side
container's database, a guess taken back, another project the user speaks of, a stale example
environment file, a legacy framework, an empty test run, a global tool's package manager, a
project that moved on between sessions, an instruction taken back, a command said otherwise than
it was typed, an architecture summary with a clause scoped to the tests, a repair run once said
as the build, an instruction file's layout line that plans or that the session took out, a
one-off task said beside the user's standing rules, a closing report's failed check, a layout
said in words that is a plan, a guess, another service's or taken back, or that names a stack in
passing, a failure's cause taken back, guessed, only planned or said wrong first, a typo in a
command, a test written first, a release tag deleted or put on an old commit, a tracker dropped,
masked or a dependency's, a plan scrapped or another checkout's, a reviewer's verdict; and some
of these again as the other hosts write them, and in the ecosystems the others hold least:
a sub-project's driver, a README on a build tool the project left, one file's test run, a habit
the user stops, a docs site's package manager, an environment file's commented alternatives,
an example app's framework, another project's or a dependency's rules; and scenarios: a
variable the tests need, a run of no test, a native crate's own runner, a tool set aside or
reverted, a hypothetical, a pasted issue, a template's files, a CI-only task, a half-done
migration, a vendored library's build, an unused dev container; and the user's habits stated
wrong: quoted, sarcastic, dropped, taken back, double negatives, scoped to a day, a sibling
project or a hypothetical, proposed by the assistant, asked, pasted, permitted, about the
replies, or an idiom; and unseen projects' shapes: a CI matrix's oldest versions, a test tag
that selected nothing, a colleague's habit, a Rails engine's dummy app, a version bumped in the
session, a linter proposed and declined, a sample's test framework, a run filtered to one class,
an old SDK's container, a mock server's package manager, an included build's test library, a
filter that matched no test, a library's bindings in another language, a dev shell a build
needs, a formatter turned down, a version CI still pins; and identity facts said from too
little: a commit-hooks `package.json`, Kotlin build scripts of a Java service, checkpoint
commits, prefixed commits beside a plain log, a dependency bot's log; what the project is said
from the wrong thing: an answer about a part, a hedged answer, a README's stack left behind, a
kindred language, a rule in a labelled list, a member crate's table; a short answer to a
reply that offers no choice of design; and a failed script whose failing step is easy to
mistake; and the same kinds in other shapes: a test suite's target started with a run command
or a task named `run-tests`, a release check or a dry run, a dependency named by a package
option, a summary taken back, a docs folder's Markdown, a look between a failure and its pass,
a closing report of an edit that failed or was refused, a manager that only added helpers;
stack facts in the ecosystems the other parts hold least (a side store, an examples
sub-project's test framework, a leftover lock file, a CI matrix's versions, a dev tool's
framework, a job queue declared and unused); a test fixture's tree, an instruction file the
session changed, the steps taken when one fails; a diagnosis the session fixed, a changelog
edit beside the fix, a checklist item or an option's rule without its condition; the
project's licence from a field a command changed, an old version, the dependencies', a
suggestion, a file moved aside, reserved rights, a vendored library's; what the session start
could state as the project's when it is a fixture's, a sample's or a stale file's; an
instruction file a shell command or a script changed, a list under a nested folder); commands
whose arguments are `NAME=value` assignments, stated without them, and assignments that carry
a secret; a subagent's report (the `Task` or `Agent` tool's result, and the subagent's own
transcript) that states another checkout's command, a folder outside the project, a guess, or
what the session's own run or read then contradicts, and reports nothing in the session checked
(a trap's `unsure` patterns: no session-start line may state them, search may still offer them);
commands run behind a prefix program (a listing that shows code, a failed look after a
diagnosed failure); a package manager that only started an assistant add-on's helper or printed
its help, and a log line's opening words read as a command; what the project is, said from a
file a hook printed that is not the project's root file, is cut, a placeholder, or followed by
the hook's own sections; a file named by a command that threw its errors away taken as shown, a
checker's configuration written once taken as a check, and a list of how the code being written
must behave taken as the user's rules; a principle of the product said as the user's rule, a
one-off instruction kept as a habit, a hesitation read as a ban, another tool's role prompt, a
host's continuation line, a test command without its arguments and a code name's `!` read as a
sentence's end; a Go package pattern in a report or a README, a report's failure words negated
in part, a clean lint result still to do or another checkout's, and a side folder's `.csproj`;
a continued session's summary whose fix failed again or was turned down, and a report's fix that
did not hold or was made in another checkout; a run over one package or some tests kept
without what it ran over, a ban on changing anything said for the task at hand kept as a
habit, a build's declared languages said as a hedge, and a closing report's list of work still
to do kept as a statement about the code; a doubt about over-engineering that is the assistant's
or a question about a tool's fit kept as the user's push back, a change the user asked a plan
for kept as done or as the stack, and another project's or a template's labelled project
document kept as what the project is.
Each trap's sessions (`bench/wrong_trap_cases.py` and its parts `_b` to `_z3`, `_z5` to
`_z14`, `_z11b`, `_z11c`, `_z16` to `_z20`, `_z22` to `_z26`, `_z28`, `_z29`) are written in the
host's own transcript format and go through the real pipeline as `bench.answer_key` runs it (the
`rules` extractor, no key); then every memory and every line of the session-start text is held
against the trap's `wrong` patterns.

Prints one row per trap (memories, wrong memories, wrong session-start lines, whether the right
fact was stated) and, for every wrong one, the pattern's reason and the text that matched.
Exits 1 when any wrong fact is stated.

Usage: python -m bench.wrong_traps [--trap NAME|PART ...] [--hook-text] [--memories]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench import case_runs, fixture_pipeline
from bench.trap_transcripts import Trap
from bench.wrong_trap_cases import CASES as FIRST
from bench.wrong_trap_cases_b import CASES as SECOND
from bench.wrong_trap_cases_c import CASES as THIRD
from bench.wrong_trap_cases_d import CASES as FOURTH
from bench.wrong_trap_cases_e import CASES as FIFTH
from bench.wrong_trap_cases_f import CASES as SIXTH
from bench.wrong_trap_cases_g import CASES as SEVENTH
from bench.wrong_trap_cases_h import CASES as EIGHTH
from bench.wrong_trap_cases_i import CASES as NINTH
from bench.wrong_trap_cases_j import CASES as TENTH
from bench.wrong_trap_cases_k import CASES as ELEVENTH
from bench.wrong_trap_cases_l import CASES as TWELFTH
from bench.wrong_trap_cases_m import CASES as THIRTEENTH
from bench.wrong_trap_cases_n import CASES as FOURTEENTH
from bench.wrong_trap_cases_o import CASES as FIFTEENTH
from bench.wrong_trap_cases_p import CASES as SIXTEENTH
from bench.wrong_trap_cases_q import CASES as OTHER_HOSTS
from bench.wrong_trap_cases_r import CASES as EIGHTEENTH
from bench.wrong_trap_cases_s import CASES as NINETEENTH
from bench.wrong_trap_cases_t import CASES as LAYOUT_IN_WORDS
from bench.wrong_trap_cases_u import CASES as STACK_IN_WORDS
from bench.wrong_trap_cases_v import CASES as RULE_EDGES
from bench.wrong_trap_cases_w import CASES as RARE_ECOSYSTEMS
from bench.wrong_trap_cases_x import CASES as SCENARIOS
from bench.wrong_trap_cases_y import CASES as HABITS_STATED_WRONG
from bench.wrong_trap_cases_z import CASES as UNSEEN_SHAPES
from bench.wrong_trap_cases_z2 import CASES as SAID_FROM_TOO_LITTLE
from bench.wrong_trap_cases_z3 import CASES as WHAT_IT_IS_FROM_THE_WRONG_THING
from bench.wrong_trap_cases_z5 import CASES as PICKS_OF_NO_DESIGN
from bench.wrong_trap_cases_z6 import CASES as FAILED_STEP_MISTAKEN
from bench.wrong_trap_cases_z7 import CASES as SAID_FROM_TOO_LITTLE_AGAIN
from bench.wrong_trap_cases_z8 import CASES as SAID_FROM_THE_WRONG_THING
from bench.wrong_trap_cases_z9 import CASES as SAID_FROM_THE_WRONG_THING_AGAIN
from bench.wrong_trap_cases_z10 import CASES as STACK_FACTS_UNSTUDIED
from bench.wrong_trap_cases_z11 import CASES as JUDGED_AGAIN
from bench.wrong_trap_cases_z11b import CASES as JUDGED_AGAIN_OTHER_SHAPES
from bench.wrong_trap_cases_z11c import CASES as FIXTURE_LAYOUTS_AGAIN
from bench.wrong_trap_cases_z12 import CASES as MISLEADING_BUT_TRUE
from bench.wrong_trap_cases_z13 import CASES as LICENCE_FROM_THE_WRONG_THING
from bench.wrong_trap_cases_z14 import CASES as ASSIGNMENTS_IN_COMMANDS
from bench.wrong_trap_cases_z16 import CASES as NOT_THE_PROJECT_AT_THE_START
from bench.wrong_trap_cases_z17 import CASES as A_SUBAGENTS_WORD
from bench.wrong_trap_cases_z18 import CASES as BEHIND_A_PREFIX_PROGRAM
from bench.wrong_trap_cases_z19 import CASES as CHANGED_UNSEEN_OR_NESTED
from bench.wrong_trap_cases_z20 import CASES as NO_WORK_AND_NO_COMMAND
from bench.wrong_trap_cases_z22 import CASES as PRINTED_BY_A_HOOK
from bench.wrong_trap_cases_z23 import CASES as READ_IN_REAL_SESSIONS
from bench.wrong_trap_cases_z24 import CASES as READ_IN_REAL_SESSIONS_AGAIN
from bench.wrong_trap_cases_z25 import CASES as SAID_IN_SHORT_SESSIONS
from bench.wrong_trap_cases_z26 import CASES as FAILURES_TOLD_AFTERWARDS
from bench.wrong_trap_cases_z28 import CASES as LOST_OR_CHANGED_IN_READING
from bench.wrong_trap_cases_z29 import CASES as PLANNED_WEIGHED_OR_QUESTIONED
from squirrel_core.clients import MemoryClient
from squirrel_core.logs import configure_logging

TRAPS: tuple[Trap, ...] = (
    *FIRST,
    *SECOND,
    *THIRD,
    *FOURTH,
    *FIFTH,
    *SIXTH,
    *SEVENTH,
    *EIGHTH,
    *NINTH,
    *TENTH,
    *ELEVENTH,
    *TWELFTH,
    *THIRTEENTH,
    *FOURTEENTH,
    *FIFTEENTH,
    *SIXTEENTH,
    *OTHER_HOSTS,
    *EIGHTEENTH,
    *NINETEENTH,
    *LAYOUT_IN_WORDS,
    *STACK_IN_WORDS,
    *RULE_EDGES,
    *RARE_ECOSYSTEMS,
    *SCENARIOS,
    *HABITS_STATED_WRONG,
    *UNSEEN_SHAPES,
    *SAID_FROM_TOO_LITTLE,
    *WHAT_IT_IS_FROM_THE_WRONG_THING,
    *PICKS_OF_NO_DESIGN,
    *FAILED_STEP_MISTAKEN,
    *SAID_FROM_TOO_LITTLE_AGAIN,
    *SAID_FROM_THE_WRONG_THING,
    *SAID_FROM_THE_WRONG_THING_AGAIN,
    *STACK_FACTS_UNSTUDIED,
    *JUDGED_AGAIN,
    *JUDGED_AGAIN_OTHER_SHAPES,
    *FIXTURE_LAYOUTS_AGAIN,
    *MISLEADING_BUT_TRUE,
    *LICENCE_FROM_THE_WRONG_THING,
    *ASSIGNMENTS_IN_COMMANDS,
    *NOT_THE_PROJECT_AT_THE_START,
    *A_SUBAGENTS_WORD,
    *BEHIND_A_PREFIX_PROGRAM,
    *CHANGED_UNSEEN_OR_NESTED,
    *NO_WORK_AND_NO_COMMAND,
    *PRINTED_BY_A_HOOK,
    *READ_IN_REAL_SESSIONS,
    *READ_IN_REAL_SESSIONS_AGAIN,
    *SAID_IN_SHORT_SESSIONS,
    *FAILURES_TOLD_AFTERWARDS,
    *LOST_OR_CHANGED_IN_READING,
    *PLANNED_WEIGHED_OR_QUESTIONED,
)
#: The part a one-letter `--trap` names: `y` is `bench/wrong_trap_cases_y.py`'s traps.
PARTS: dict[str, tuple[Trap, ...]] = {
    "x": SCENARIOS,
    "y": HABITS_STATED_WRONG,
    "z": UNSEEN_SHAPES,
    "z2": SAID_FROM_TOO_LITTLE,
    "z3": WHAT_IT_IS_FROM_THE_WRONG_THING,
    "z5": PICKS_OF_NO_DESIGN,
    "z6": FAILED_STEP_MISTAKEN,
    "z7": SAID_FROM_TOO_LITTLE_AGAIN,
    "z8": SAID_FROM_THE_WRONG_THING,
    "z9": SAID_FROM_THE_WRONG_THING_AGAIN,
    "z10": STACK_FACTS_UNSTUDIED,
    "z11": JUDGED_AGAIN,
    "z11b": JUDGED_AGAIN_OTHER_SHAPES,
    "z11c": FIXTURE_LAYOUTS_AGAIN,
    "z12": MISLEADING_BUT_TRUE,
    "z13": LICENCE_FROM_THE_WRONG_THING,
    "z14": ASSIGNMENTS_IN_COMMANDS,
    "z16": NOT_THE_PROJECT_AT_THE_START,
    "z17": A_SUBAGENTS_WORD,
    "z18": BEHIND_A_PREFIX_PROGRAM,
    "z19": CHANGED_UNSEEN_OR_NESTED,
    "z20": NO_WORK_AND_NO_COMMAND,
    "z22": PRINTED_BY_A_HOOK,
    "z23": READ_IN_REAL_SESSIONS,
    "z24": READ_IN_REAL_SESSIONS_AGAIN,
    "z25": SAID_IN_SHORT_SESSIONS,
    "z26": FAILURES_TOLD_AFTERWARDS,
    "z28": LOST_OR_CHANGED_IN_READING,
    "z29": PLANNED_WEIGHED_OR_QUESTIONED,
}
_FLAGS = re.IGNORECASE | re.MULTILINE


@dataclass
class Outcome:
    """What the pipeline said for one trap."""

    trap: Trap
    memories: list[tuple[str, str]] = field(default_factory=list)
    start_text: str = ""

    def wrong_memories(self) -> list[tuple[str, str, str]]:
        """(why, kind, text) for every memory a `wrong` pattern matches."""
        return [
            (why, kind, text)
            for kind, text in self.memories
            for pattern, why in self.trap.wrong
            if re.search(pattern, text, _FLAGS)
        ]

    def wrong_lines(self) -> list[tuple[str, str]]:
        """(why, line) for every session-start line a `wrong` or `unsure` pattern matches."""
        return [
            (why, line)
            for line in self.start_text.splitlines()
            for pattern, why in (*self.trap.wrong, *self.trap.unsure)
            if re.search(pattern, line, _FLAGS)
        ]

    def right_stated(self) -> str:
        """How many `may` patterns some memory states, as `n/m`."""
        said = sum(
            any(re.search(p, text, _FLAGS) for _, text in self.memories) for p in self.trap.may
        )
        return f"{said}/{len(self.trap.may)}"


#: Traps run through one memory service at most: each is a project of its own, and the home's
#: project table (`stores.json`) is read only up to a size that about 450 projects fill.
CHUNK = 200


def measure(traps: Sequence[Trap]) -> list[Outcome]:
    """Runs every trap's sessions through a memory service, `CHUNK` traps to a service; one
    Outcome per trap."""
    outcomes = {t.name: Outcome(t) for t in traps}
    # The hook host: an older Codex rollout (`codex-shell`) is Codex's.
    hosts = {t.name: t.sessions[0].host.split("-")[0] for t in traps}

    async def inspect(client: MemoryClient, name: str, project_id: str, events: int) -> None:
        outcomes[name].memories = await fixture_pipeline.typed_memories(client, project_id)
        outcomes[name].start_text = await fixture_pipeline.session_start_text(
            client, project_id, hosts[name]
        )

    for start in range(0, len(traps), CHUNK):
        chunk = traps[start : start + CHUNK]
        case_runs.run_cases([(t.name, t.sessions) for t in chunk], inspect)
    return [outcomes[t.name] for t in traps]


def _cell(text: str, width: int = 150) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def report(outcomes: Sequence[Outcome], hook_text: bool = False, memories: bool = False) -> str:
    """The per-trap table and, under it, every wrong fact with its text."""
    lines = [
        "| trap | ecosystem | host | memories | wrong memories | wrong start lines"
        " | right stated |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    for o in outcomes:
        lines.append(
            f"| {o.trap.name} | {o.trap.ecosystem} | {o.trap.sessions[0].host} | {len(o.memories)}"
            f" | {len(o.wrong_memories())} | {len(o.wrong_lines())} | {o.right_stated()} |"
        )
    wrong_m = sum(len(o.wrong_memories()) for o in outcomes)
    wrong_l = sum(len(o.wrong_lines()) for o in outcomes)
    traps_hit = sum(bool(o.wrong_memories() or o.wrong_lines()) for o in outcomes)
    lines.append(
        f"| all ({len(outcomes)} traps) | | | {sum(len(o.memories) for o in outcomes)}"
        f" | {wrong_m} | {wrong_l} | traps with a wrong fact: {traps_hit} |"
    )
    for o in outcomes:
        found = o.wrong_memories()
        start = o.wrong_lines()
        if found or start or hook_text or memories:
            lines.append(f"\n### {o.trap.name}: {o.trap.trap}")
        for why, kind, text in found:
            lines.append(f"- wrong memory [{kind}] ({why}): {_cell(text)}")
        for why, line in start:
            lines.append(f"- wrong session-start line ({why}): {_cell(line)}")
        if memories:
            lines.extend(f"- [{kind}] {_cell(text)}" for kind, text in sorted(o.memories))
        if hook_text:
            lines.append("session-start text:\n" + (o.start_text or "(none)"))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--trap",
        action="append",
        default=[],
        help="only this trap, or a part's by its letter (repeatable)",
    )
    parser.add_argument("--hook-text", action="store_true", help="print each session-start text")
    parser.add_argument("--memories", action="store_true", help="print every memory")
    args = parser.parse_args(argv)
    configure_logging("bench", "error", json=True)
    named = {t.name for part in args.trap for t in PARTS.get(part, ())} | set(args.trap)
    traps = [t for t in TRAPS if not args.trap or t.name in named]
    unknown = set(args.trap) - {t.name for t in traps} - PARTS.keys()
    if unknown:
        print(f"no trap named {sorted(unknown)}", file=sys.stderr)
        return 2
    outcomes = measure(traps)
    print(report(outcomes, args.hook_text, args.memories))
    wrong = any(o.wrong_memories() or o.wrong_lines() for o in outcomes)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
