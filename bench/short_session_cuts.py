"""Real tuning and dev sessions cut the way a short cut of an unseen project looks: the first
records, one block near the end and the last record (`bench/short_sessions.py` runs them). Each
cut was read and keyed (the items a senior engineer would keep from what the cut holds, and the
patterns no memory may match) before any rule ran on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bench.fixture_pipeline import PROJECT_TRANSCRIPTS
from bench.short_session_cases import COMMAND, FACT, LESSON, RULE, Item


@dataclass(frozen=True)
class Cut:
    """One real session cut short: its project (a tuning or dev one), transcript file, the
    records kept (the first `first`, `block` records ending `before_end` records before the
    last, and the last), the items to keep and the patterns no memory may match."""

    name: str
    shape: str
    ecosystem: str
    project: str
    file: str
    keep: tuple[Item, ...]
    never: tuple[tuple[str, str], ...] = ()
    first: int = 8
    block: int = 6
    before_end: int = 4

    @property
    def fires(self) -> bool:
        """Every cut has items to keep."""
        return bool(self.keep)

    @property
    def folder(self) -> str:
        """The project folder's name in the replay: the project's own."""
        return self.project

    def transcript(self) -> Path:
        """The whole transcript the cut is taken from."""
        return PROJECT_TRANSCRIPTS / self.project / self.file


_SHAPE = "first records, a block near the end, the last record"

CUTS: tuple[Cut, ...] = (
    Cut(
        "caffeine-lang-cut",
        "a plan carried out; the Gleam test run passes (232 tests) and a summary",
        "Gleam",
        "caffeine-lang",
        "generate-resources-refactor.jsonl",
        keep=(
            Item("language", FACT, (r"gleam",)),
            Item("test", COMMAND, (r"gleam test",)),
        ),
    ),
    Cut(
        "cc-backend-cut",
        "golangci-lint v2 refuses the v1 configuration; the fix said in the closing report",
        "Go",
        "cc-backend",
        "golangci-lint-v2-config.jsonl",
        keep=(Item("lint_v2", LESSON, (r"golangci", r"version|formatter|v2")),),
    ),
    Cut(
        "forem-cut",
        "a PR opened; the user says an integration must stay configurable for self-hosters",
        "Ruby/Rails",
        "forem",
        "betterstack-opt-in.jsonl",
        keep=(
            Item(
                "configurable",
                RULE,
                (
                    r"self[- ]?(?:deploy|host)|configurable|opt[- ]in|forc",
                    r"datadog|honeybadger|betterstack|better stack|vendor|provider",
                ),
            ),
            Item("language", FACT, (r"rails|ruby",)),
        ),
    ),
    Cut(
        "i-cherri-cut",
        "the user asks for `make all && make run` in Korean; the build passes",
        "Go",
        "i-cherri",
        "make-all-run.jsonl",
        keep=(
            Item("build", COMMAND, (r"`make all`",)),
            Item("run", COMMAND, (r"`make run`",)),
            Item("language", FACT, (r"\bgo\b|golang",)),
        ),
    ),
    Cut(
        "hk-hooks-cut",
        "a PR updated; a bats test file run through `mise exec` passes",
        "Rust",
        "hk-hooks",
        "pr-1253-editorconfig.jsonl",
        keep=(Item("test", COMMAND, (r"bats",)),),
    ),
    Cut(
        "napoli-matcha-cut",
        "a script written to run the package's `vitest run`; nothing runs",
        "Node.js",
        "napoli-matcha",
        "run-test-script.jsonl",
        keep=(Item("test", COMMAND, (r"run_test\.sh|vitest run",)),),
        never=((r"vitest.*\bpass", "no test ran"),),
    ),
    Cut(
        "fnox-cut",
        "a PR's CI fails on generated docs drift; regenerated and pushed",
        "Rust",
        "fnox",
        "pr-render-drift.jsonl",
        keep=(Item("render", LESSON, (r"mise run render", r"docs|diff|render|commit")),),
    ),
    Cut(
        "inkflow-cut",
        "the user asks, in Chinese, for replies in Chinese; a commit fails in the sandbox",
        "Dart/Flutter",
        "inkflow",
        "commit-all.jsonl",
        keep=(Item("chinese", RULE, (r"中文|chinese",)),),
    ),
    Cut(
        "interview-prep-cut",
        "the user states the stack in a brainstorm: Java, Gradle, TestNG, Lombok",
        "Java/Gradle",
        "interview-prep",
        "stack-and-habits.jsonl",
        keep=(
            Item("language", FACT, (r"java", r"gradle")),
            Item("testng", FACT, (r"testng",)),
        ),
        never=((r"junit", "the user chose TestNG"),),
    ),
    Cut(
        "sandcastle-cut",
        "a mise release task hangs on `read`; the prompt removed, committed",
        "Ruby",
        "sandcastle",
        "mise-release-hang.jsonl",
        keep=(
            Item("stdin", LESSON, (r"mise", r"stdin|\bread\b|hang|prompt|confirm")),
            Item("dev", COMMAND, (r"mise run dev|mise dev",)),
        ),
    ),
    Cut(
        "miscmetabar-cut",
        "an R package linted through a skill: `air format .`, then R CMD check (its result cut)",
        "R",
        "miscmetabar",
        "lint-and-check.jsonl",
        keep=(
            Item("language", FACT, (r"(?-i:\bR\b)",)),
            Item("format", COMMAND, (r"air format",)),
        ),
    ),
    Cut(
        "quickque-cut",
        "a task from an issue; the sandbox fails; the mobile app's folder said at the end",
        "TypeScript/pnpm",
        "quickque",
        "task-34-iphone.jsonl",
        keep=(Item("mobile", FACT, (r"quickque-mobile", r"expo")),),
    ),
)
