"""The answer key's gold files (`bench/data/answer_key/<project>.toml`): what each holds (the
gold items with the concepts a memory must state, the questions, the reviewed `wrong` and
one-off patterns, the split, the session-start items) and how it is read and checked.

The judge that scores memories against them is `bench/answer_key_score.py`; the rubric is
docs/answer-key.md.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

KEY_DIR = Path(__file__).resolve().parent / "data" / "answer_key"
IMPORTANCES = ("high", "normal")
SPLITS = ("tuning", "dev", "held-out", "fresh")
"""`tuning`: the extraction rules may be tuned on the project; `dev`: collected as `fresh` and
judged so (its first figures stay in its file), then opened to study so that rules can be
written from sessions of ecosystems the tuning projects lack, reported apart from `tuning`;
`held-out`: never tuned on, it measures whether what was tuned holds on sessions nobody tuned
on; `fresh`: never either, and no rule has been written while it existed, so it judges the
rules written before it was collected."""
KINDS = ("user_style", "project_fact", "pitfall", "recipe")
HOOK_HOSTS = ("claude", "codex", "gemini")


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
