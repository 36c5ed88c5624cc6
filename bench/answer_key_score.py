"""The answer-key judge: how memories are scored against gold notes (rubric: docs/answer-key.md;
the gold files are read by `bench/answer_key_gold.py`).

A gold item is covered when one memory that is neither wrong nor junk satisfies every one of the
item's concepts (each concept: any of its regular expressions found in the memory's text, case
insensitive) and, when the item names `types`, has one of those types. A fact or a style note
that names a concept only as one side of an "or" whose other side the concept does not match
("JavaScript or TypeScript") hedges: it finds neither side (`hedged`). A memory is wrong when it
matches a reviewed `wrong` pattern of its project (it contradicts the sessions); junk when a
general rule says a reader could not use it (markdown residue, not a sentence, cut off, a personal
home or worktree path, a module that is not code, a recipe whose command is not a command) or it
matches a reviewed one-off pattern.
Duplicates are memories of one type that say the same thing as an earlier one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bench.answer_key_gold import AnswerKey, GoldItem, Question
from bench.recipe_commands import recipe_problem

if TYPE_CHECKING:
    from bench.answer_key_hook import HookScore

TOP_K = 5
DUPLICATE_JACCARD = 0.6
SAME_ITEMS_JACCARD = 0.25

# Folders that hold no code of the project's own: dependencies, builds, assets, docs, config,
# editor and assistant state, the home folder.
NON_CODE_FOLDERS = frozenset(
    {
        "~",
        "deps",
        "node_modules",
        "vendor",
        "third_party",
        "_build",
        "build",
        "dist",
        "target",
        "out",
        ".venv",
        "venv",
        "env",
        "public",
        "static",
        "assets",
        "priv",
        "config",
        "docs",
        "doc",
        "specs",
        "scratch",
        "tmp",
        "coverage",
        "htmlcov",
        "site-packages",
    }
)
NON_CODE_SUFFIXES = (".md", ".txt", ".json", ".yaml", ".yml", ".lock", ".ini", ".cfg", ".toml")
_MODULE = re.compile(r"^Module `([^`]*)`")
_MARKDOWN = re.compile(r"\*\*|^#{1,6}\s|\]\(|```|^\s*[-*]\s")
_HOME = re.compile(r"/Users/[^/\s`]+|/home/[^/\s`]+|\.claude/worktrees/|[A-Za-z]:\\Users\\")
_SENTENCE_END = re.compile(r"[.!?][)\"'`]?$")
#: Text that ends in an ellipsis, not a path pattern that ends in one (Go's `go test ./...`).
_CUT_OFF = re.compile(r"(…|(?<!/)\.\.\.)[)`\"']?\.?$")
_CODE_SPAN = re.compile(r"`[^`]*`")
_WORD = re.compile(r"[a-z0-9_]+")
#: Item kinds that state one thing: "X or Y" there is a hedge, where a recipe's or a pitfall's
#: "run X or Y" offers two ways.
STATED_KINDS = frozenset({"project_fact", "user_style"})
_QUOTES = "`\"'*"
#: The alternative named before a match ("JavaScript or |TypeScript"), or after it
#: ("TypeScript| or JavaScript"); "either" and a comma before "or" are allowed.
_OR_BEFORE = re.compile(rf"([\w.+#/-]+)[{_QUOTES}]?,?\s+or\s+[{_QUOTES}]?$", re.IGNORECASE)
_OR_AFTER = re.compile(
    rf"^[{_QUOTES}]?,?\s+or\s+(?:else\s+)?[{_QUOTES}]?([\w.+#/-]+)", re.IGNORECASE
)


@dataclass(frozen=True)
class Memory:
    """What the judge sees of a memory: its type (spec spelling), key and text."""

    kind: str
    key: str
    content: str


@dataclass(frozen=True)
class Verdict:
    memory: Memory
    matched: tuple[str, ...]  # gold item ids
    wrong: str = ""  # why, when wrong
    junk: str = ""  # why, when junk

    @property
    def usable(self) -> bool:
        return not self.wrong and not self.junk


@dataclass
class Score:
    project: str
    language: str
    memories: int
    high_total: int
    high_covered: int
    all_total: int
    all_covered: int
    wrong: int
    junk: int
    duplicates: int
    questions: int = 0
    hits: int = 0
    verdicts: list[Verdict] = field(default_factory=list)
    missed: list[GoldItem] = field(default_factory=list)
    duplicate_pairs: list[tuple[Memory, Memory]] = field(default_factory=list)
    question_hits: list[tuple[Question, bool]] = field(default_factory=list)
    split: str = "tuning"
    hook: HookScore | None = None
    high_by_kind: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def noise(self) -> int:
        return self.wrong + self.junk


# -- judging one memory ------------------------------------------------------------------------


def junk_reason(memory: Memory) -> str:
    """Why a reader could not use this memory as it stands ("" when it is fine)."""
    text = memory.content.strip()
    module = _MODULE.match(text)
    if module or memory.key.startswith("module:"):
        name = module.group(1) if module else memory.key.removeprefix("module:")
        leaf = name.strip("/").split("/")[-1]
        if not leaf or leaf in NON_CODE_FOLDERS or leaf[0] in "-_.~":
            return f"module `{name}` is not a unit of code"
        listed = re.findall(r"[\w./-]+\.\w+", text[module.end() :] if module else "")
        if listed and all(p.lower().endswith(NON_CODE_SUFFIXES) for p in listed):
            return f"module `{name}` lists only non-code files"
    if _HOME.search(text):
        return "a personal home or worktree path"
    if text.count("`") % 2:
        return "unbalanced backticks (cut or garbled)"
    # Code spans may hold anything (an Elixir error starts with `** (`); residue is outside them.
    if _MARKDOWN.search(_CODE_SPAN.sub("code", text)):
        return "markdown residue"
    if _CUT_OFF.search(text):
        return "cut off"
    words = _WORD.findall(text.lower())
    if len(words) < 2:
        return "not a sentence (one word)"
    if not _SENTENCE_END.search(text):
        return "not a complete sentence (no ending)"
    if memory.kind == "recipe":
        return recipe_problem(text)
    return ""


#: Words after "or" that qualify the answer rather than offer another ("Node 18 or later",
#: "Rust, or at least its core", "pytest or similar"): English, the same for every project.
_QUALIFIERS = frozenset(
    [
        "later",
        "newer",
        "higher",
        "above",
        "greater",
        "lower",
        "earlier",
        "older",
        "below",
        "more",
        "less",
        "at",
        "rather",
        "even",
        "so",
        "similar",
        "equivalent",
        "compatible",
        "whatever",
        "another",
        "other",
        "others",
        "any",
        "anything",
        "something",
        "both",
        "all",
        "none",
        "not",
        "never",
        "else",
        "also",
        "maybe",
        "perhaps",
        "possibly",
    ]
)


def _hedged_match(concept: tuple[re.Pattern[str], ...], content: str, match: re.Match[str]) -> bool:
    """True when `match` is one side of an "or" whose other side names another answer, which
    `concept` does not match."""
    before = _OR_BEFORE.search(content[: match.start()])
    after = _OR_AFTER.search(content[match.end() :])
    other = (before.group(1) if before else "") or (after.group(1) if after else "")
    other = other.rstrip(".")
    if not other or other.lower() in _QUALIFIERS:
        return False
    return not any(p.search(other) for p in concept)


def hedged(item: GoldItem, content: str) -> bool:
    """True when a fact or style item's concept is named in `content` only as one side of an
    "or" (a hedge: "The project is written in JavaScript or TypeScript" states neither)."""
    if item.kind not in STATED_KINDS:
        return False
    for concept in item.concepts:
        found = [m for p in concept for m in p.finditer(content)]
        if found and all(_hedged_match(concept, content, m) for m in found):
            return True
    return False


def finds(item: GoldItem, kind: str, content: str) -> bool:
    """True when a memory of `kind` saying `content` states `item` (its concepts, its types, and
    not as a hedge)."""
    return item.matches(kind, content) and not hedged(item, content)


def judge(key: AnswerKey, memory: Memory) -> Verdict:
    matched = tuple(i.id for i in key.items if finds(i, memory.kind, memory.content))
    wrong = next((p.why for p in key.wrong if p.matches(memory.kind, memory.content)), "")
    junk = junk_reason(memory)
    if not junk:
        junk = next(
            (f"one-off: {p.why}" for p in key.one_off if p.matches(memory.kind, memory.content)),
            "",
        )
    return Verdict(memory, matched, wrong, junk)


def answers(key: AnswerKey, memory: Memory, question: Question) -> bool:
    """True when `memory` is usable and covers one of the question's gold items."""
    verdict = judge(key, memory)
    return verdict.usable and any(a in verdict.matched for a in question.answers)


# -- duplicates --------------------------------------------------------------------------------


# Words every memory of a kind repeats ("`x` failed with `y`; editing z fixed it"): they say
# nothing about whether two memories say the same thing.
_FILLER = frozenset(
    _WORD.findall(
        "a an and as after before by e g first fixed for in is it named of on or passed run "
        "running re the then to was with worked failed editing error module tests"
    )
)


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower())) - _FILLER


def _same(key: AnswerKey, a: Verdict, b: Verdict) -> bool:
    if a.memory.kind != b.memory.kind:
        return False
    if a.memory.key and a.memory.key == b.memory.key:
        return True
    wa, wb = _words(a.memory.content), _words(b.memory.content)
    overlap = len(wa & wb) / len(wa | wb) if wa and wb else 0.0
    if overlap >= DUPLICATE_JACCARD:
        return True
    # Two memories of one type that cover exactly the same gold items, one of them of that kind,
    # in partly the same words, say the same thing twice.
    return (
        overlap >= SAME_ITEMS_JACCARD
        and bool(a.matched)
        and a.matched == b.matched
        and any(key.item(i).kind == a.memory.kind for i in a.matched)
    )


def duplicate_pairs(key: AnswerKey, verdicts: Sequence[Verdict]) -> list[tuple[Memory, Memory]]:
    """(earlier, duplicate) for every memory that repeats an earlier one of its type."""
    pairs = []
    for n, later in enumerate(verdicts):
        for earlier in verdicts[:n]:
            if _same(key, earlier, later):
                pairs.append((earlier.memory, later.memory))
                break
    return pairs


# -- the score ---------------------------------------------------------------------------------


def score(key: AnswerKey, memories: Sequence[Memory]) -> Score:
    """Coverage, noise and duplicates of one project's memories (questions are added later)."""
    verdicts = [judge(key, m) for m in memories]
    covered = {i for v in verdicts if v.usable for i in v.matched}
    high = [i for i in key.items if i.importance == "high"]
    pairs = duplicate_pairs(key, verdicts)
    return Score(
        project=key.project,
        language=key.language,
        memories=len(memories),
        high_total=len(high),
        high_covered=sum(1 for i in high if i.id in covered),
        all_total=len(key.items),
        all_covered=len(covered),
        wrong=sum(1 for v in verdicts if v.wrong),
        junk=sum(1 for v in verdicts if v.junk and not v.wrong),
        duplicates=len(pairs),
        verdicts=verdicts,
        missed=[i for i in key.items if i.id not in covered],
        duplicate_pairs=pairs,
        split=key.split,
        high_by_kind={
            kind: (
                sum(1 for i in high if i.kind == kind and i.id in covered),
                sum(1 for i in high if i.kind == kind),
            )
            for kind in sorted({i.kind for i in high})
        },
    )


def add_question(result: Score, key: AnswerKey, question: Question, top: Sequence[Memory]) -> None:
    """Records whether any of the top results (at most TOP_K are looked at) answers `question`."""
    hit = any(answers(key, m, question) for m in top[:TOP_K])
    result.questions += 1
    result.hits += int(hit)
    result.question_hits.append((question, hit))


def percent(part: int, whole: int) -> str:
    return "n/a" if whole == 0 else f"{100 * part / whole:.0f} %"


def high_by_kind(scores: Sequence[Score]) -> str:
    """The pooled high-importance coverage of each kind of gold item (where the misses are,
    in counts alone)."""
    totals: dict[str, list[int]] = {}
    for s in scores:
        for kind, (covered, total) in s.high_by_kind.items():
            pair = totals.setdefault(kind, [0, 0])
            pair[0] += covered
            pair[1] += total
    parts = [f"{kind} {c}/{t} {percent(c, t)}" for kind, (c, t) in sorted(totals.items())]
    return "high by kind (pooled): " + ("; ".join(parts) or "none")
