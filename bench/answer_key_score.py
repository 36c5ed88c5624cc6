"""The answer-key judge: how memories are scored against gold notes (rubric: docs/answer-key.md).

A gold item is covered when one memory that is neither wrong nor junk satisfies every one of the
item's concepts (each concept: any of its regular expressions found in the memory's text, case
insensitive) and, when the item names `types`, has one of those types. A memory is wrong when it
matches a reviewed `wrong` pattern of its project (it contradicts the sessions); junk when a
general rule says a reader could not use it (markdown residue, not a sentence, cut off, a personal
home or worktree path, a module that is not code, a recipe whose command is not a command) or it
matches a reviewed one-off pattern.
Duplicates are memories of one type that say the same thing as an earlier one.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bench.recipe_commands import recipe_problem

if TYPE_CHECKING:
    from bench.answer_key_hook import HookScore

KEY_DIR = Path(__file__).resolve().parent / "data" / "answer_key"
IMPORTANCES = ("high", "normal")
SPLITS = ("tuning", "held-out")
"""`tuning`: the extraction rules may be tuned on the project; `held-out`: never, it measures
whether what was tuned holds on sessions nobody tuned on."""
KINDS = ("user_style", "project_fact", "pitfall", "recipe")
TOP_K = 5
HOOK_HOSTS = ("claude", "codex", "gemini")
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


class AnswerKeyError(ValueError):
    """A malformed answer-key file (the message names the file and the problem)."""


@dataclass(frozen=True)
class GoldItem:
    id: str
    importance: str
    kind: str
    note: str
    concepts: tuple[tuple[re.Pattern[str], ...], ...]
    types: tuple[str, ...] = ()

    def matches(self, kind: str, content: str) -> bool:
        if self.types and kind not in self.types:
            return False
        return all(any(p.search(content) for p in concept) for concept in self.concepts)


@dataclass(frozen=True)
class Pattern:
    regex: re.Pattern[str]
    why: str
    types: tuple[str, ...] = ()

    def matches(self, kind: str, content: str) -> bool:
        return (not self.types or kind in self.types) and bool(self.regex.search(content))


@dataclass(frozen=True)
class Question:
    text: str
    answers: tuple[str, ...]


@dataclass(frozen=True)
class AnswerKey:
    project: str
    language: str
    items: tuple[GoldItem, ...]
    questions: tuple[Question, ...]
    wrong: tuple[Pattern, ...] = ()
    one_off: tuple[Pattern, ...] = ()
    split: str = "tuning"
    # Gold items the session-start text must state: the test command and the user's top
    # preference, where the sessions hold them.
    session_start: tuple[str, ...] = ()
    # (host, items) of `session_start` that host's start text need not state: only a file the
    # host loads itself says them (Claude Code loads what CLAUDE.md imports with `@AGENTS.md`).
    host_loaded: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def start_items(self, host: str = "claude") -> tuple[str, ...]:
        """The `session_start` items `host`'s session-start text must state."""
        loaded = dict(self.host_loaded).get(host, ())
        return tuple(i for i in self.session_start if i not in loaded)

    def item(self, item_id: str) -> GoldItem:
        for item in self.items:
            if item.id == item_id:
                return item
        raise AnswerKeyError(f"{self.project}: no gold item {item_id!r}")


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


# -- loading -----------------------------------------------------------------------------------


def _regexes(raw: object, where: str) -> tuple[re.Pattern[str], ...]:
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list) or not raw or not all(isinstance(r, str) for r in raw):
        raise AnswerKeyError(f"{where}: a concept is a regex or a non-empty list of regexes")
    try:
        return tuple(re.compile(r, re.IGNORECASE) for r in raw)
    except re.error as exc:
        raise AnswerKeyError(f"{where}: bad regex: {exc}") from exc


def _types(raw: object, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list) or not all(t in KINDS for t in raw):
        raise AnswerKeyError(f"{where}: types must be a list of {', '.join(KINDS)}")
    return tuple(raw)


def _patterns(raw: object, where: str) -> tuple[Pattern, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise AnswerKeyError(f"{where}: expected a list of tables")
    out = []
    for n, entry in enumerate(raw):
        spot = f"{where}[{n}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("why"), str):
            raise AnswerKeyError(f"{spot}: needs `pattern` and `why`")
        (regex,) = _regexes(entry.get("pattern"), spot)[:1]
        out.append(Pattern(regex, entry["why"], _types(entry.get("types"), spot)))
    return tuple(out)


def parse_key(data: dict[str, object], source: str) -> AnswerKey:
    """The AnswerKey of one project's parsed TOML; raises AnswerKeyError naming the problem."""
    project, language = data.get("project"), data.get("language")
    if not isinstance(project, str) or not isinstance(language, str):
        raise AnswerKeyError(f"{source}: `project` and `language` are required strings")
    split = data.get("split")
    if split not in SPLITS:
        raise AnswerKeyError(f"{source}: `split` must be one of {', '.join(SPLITS)}")
    raw_items = data.get("item")
    if not isinstance(raw_items, list) or not raw_items:
        raise AnswerKeyError(f"{source}: at least one [[item]] is required")
    items: list[GoldItem] = []
    for n, raw in enumerate(raw_items):
        where = f"{source} item {n}"
        if not isinstance(raw, dict):
            raise AnswerKeyError(f"{where}: not a table")
        item_id, importance, kind, note = (raw.get(k) for k in ("id", "importance", "kind", "note"))
        if not isinstance(item_id, str) or not isinstance(note, str) or not note:
            raise AnswerKeyError(f"{where}: `id` and `note` are required strings")
        if importance not in IMPORTANCES or kind not in KINDS:
            raise AnswerKeyError(f"{where} ({item_id}): bad importance or kind")
        concepts = raw.get("match")
        if not isinstance(concepts, list) or not concepts:
            raise AnswerKeyError(f"{where} ({item_id}): `match` needs at least one concept")
        items.append(
            GoldItem(
                item_id,
                importance,
                kind,
                note,
                tuple(_regexes(c, f"{where} ({item_id})") for c in concepts),
                _types(raw.get("types"), where),
            )
        )
    ids = [i.id for i in items]
    if len(set(ids)) != len(ids):
        raise AnswerKeyError(f"{source}: duplicate item ids")
    questions: list[Question] = []
    raw_questions = data.get("question") or []
    if not isinstance(raw_questions, list):
        raise AnswerKeyError(f"{source}: [[question]] must be a list of tables")
    for n, raw in enumerate(raw_questions):
        text = raw.get("text") if isinstance(raw, dict) else None
        answers = raw.get("answers") if isinstance(raw, dict) else None
        if not isinstance(text, str) or not isinstance(answers, list) or not answers:
            raise AnswerKeyError(f"{source} question {n}: needs `text` and `answers`")
        unknown = [a for a in answers if a not in ids]
        if unknown:
            raise AnswerKeyError(f"{source} question {n}: unknown answers {unknown}")
        questions.append(Question(text, tuple(answers)))
    session_start = data.get("session_start") or []
    if not isinstance(session_start, list) or not all(isinstance(i, str) for i in session_start):
        raise AnswerKeyError(f"{source}: `session_start` must be a list of item ids")
    unknown_ids = [i for i in session_start if i not in ids]
    if unknown_ids:
        raise AnswerKeyError(f"{source}: session_start names unknown items {unknown_ids}")
    return AnswerKey(
        project,
        language,
        tuple(items),
        tuple(questions),
        _patterns(data.get("wrong"), f"{source} wrong"),
        _patterns(data.get("one_off"), f"{source} one_off"),
        str(split),
        tuple(session_start),
        _host_loaded(data.get("session_start_host_loaded"), session_start, source),
    )


def _host_loaded(
    raw: object, session_start: Sequence[str], source: str
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`session_start_host_loaded = { claude = ["id"] }`: per host, the start items it loads."""
    if raw is None:
        return ()
    where = f"{source}: `session_start_host_loaded`"
    if not isinstance(raw, dict):
        raise AnswerKeyError(f"{where} must be a table of host = [item ids]")
    out = []
    for host, ids in sorted(raw.items()):
        if host not in HOOK_HOSTS:
            raise AnswerKeyError(f"{where}: unknown host {host!r} ({', '.join(HOOK_HOSTS)})")
        if not isinstance(ids, list) or not all(i in session_start for i in ids):
            raise AnswerKeyError(f"{where}: {host} must list items of `session_start`")
        out.append((host, tuple(ids)))
    return tuple(out)


def load_keys(folder: Path = KEY_DIR) -> list[AnswerKey]:
    """Every `*.toml` answer key in `folder`, sorted by file name."""
    keys = []
    for path in sorted(folder.glob("*.toml")):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise AnswerKeyError(f"{path.name}: {exc}") from exc
        keys.append(parse_key(data, path.name))
    return keys


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


def judge(key: AnswerKey, memory: Memory) -> Verdict:
    matched = tuple(i.id for i in key.items if i.matches(memory.kind, memory.content))
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
