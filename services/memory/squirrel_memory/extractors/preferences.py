"""Stated preferences and corrections in user messages, turned into clean style statements."""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.models import Scope

MAX_CLAUSE_CHARS = 240
MAX_OBJECT_CHARS = 140

_CLAUSE_SPLIT = re.compile(r"(?<=[.!;])\s+|\n+|\s+-\s+")
_LEAD_IN = re.compile(
    r"^(?:(?:please|pls|and|also|but|so|ok|okay|oh|well|btw|fyi|note|remember|actually|"
    r"from now on|going forward|in general|generally)\b[,:]?\s*)+",
    re.IGNORECASE,
)
_CORRECTION_LEAD = re.compile(r"^(?:no|nope|nah|wrong|not like that)\b[,.!:]?\s*", re.IGNORECASE)
_USE_INSTEAD = re.compile(
    r"\buse\s+(?P<x>[^,;]+?)\s+(?:instead of|rather than|over|not)\s+(?P<y>[^,;]+)$", re.IGNORECASE
)
_INSTEAD_USE = re.compile(r"^instead of\s+(?P<y>[^,;]+?),?\s+use\s+(?P<x>[^,;]+)$", re.IGNORECASE)
_PREFER = re.compile(
    r"^(?:i|we)?\s*(?:would\s+|really\s+|generally\s+)*prefers?\s+(?P<x>.+?)"
    r"(?:\s+(?:over|to|rather than|instead of)\s+(?P<y>[^,;]+))?$",
    re.IGNORECASE,
)
_ALWAYS = re.compile(
    r"^(?:(?:you|we|i)\s+)?(?:should\s+|must\s+|need to\s+)?always\s+(?P<x>.+)$", re.IGNORECASE
)
_NEVER = re.compile(r"^(?:(?:you|we|i)\s+)?(?:should\s+|must\s+)?never\s+(?P<x>.+)$", re.IGNORECASE)
_DONT = re.compile(r"^(?:don'?t|do not|avoid)\s+(?P<x>.+)$", re.IGNORECASE)
_STOP = re.compile(r"^stop\s+(?P<x>\w+ing\b.*)$", re.IGNORECASE)
_IMPERATIVE = re.compile(
    r"^(?:use|put|keep|write|call|name|run|add|make|leave|move|return|raise|log)\b", re.IGNORECASE
)
#: Words after "don't" that start an opinion, not an instruction ("don't think so").
_NOT_DIRECTIVE = re.compile(
    r"^(?:think|know|see|understand|need|want|have|remember|get|like|care|mind|worry|"
    r"believe|recall|seem|bother)\b",
    re.IGNORECASE,
)
#: Where a directive's object ends and the rest of the sentence begins.
_CONTINUATION = re.compile(
    r",\s+(?=(?:it|this|that|we|i|you|they|looks|seems|because|since|as|but|so|then|which|"
    r"otherwise|unless)\b)",
    re.IGNORECASE,
)
#: Phrases that look like directives but are idioms ("never mind").
_IDIOM = re.compile(r"^(?:mind|ever|again|before|forget)\b", re.IGNORECASE)
_VAGUE_OBJECT = re.compile(r"^(?:it|that|this|them|those|these|so|one)\W*$", re.IGNORECASE)
_PROJECT_MARKERS = re.compile(
    r"\bthis (?:project|repo|repository|codebase)\b|\bhere\b", re.IGNORECASE
)
_FILE_EXTENSIONS = re.compile(
    r"\.(?:py|pyi|ts|tsx|js|jsx|mjs|go|rs|rb|java|kt|toml|json|ya?ml|md|css|scss|html|sql|sh)$"
)

#: Tool names decide a topic before generic words do ("run tests with uv" is about uv).
_TOOL_TOPICS = {
    "pytest": "testing",
    "unittest": "testing",
    "jest": "testing",
    "vitest": "testing",
    "mocha": "testing",
    "hypothesis": "testing",
    "uv": "package_manager",
    "pip": "package_manager",
    "poetry": "package_manager",
    "pipenv": "package_manager",
    "conda": "package_manager",
    "npm": "package_manager",
    "pnpm": "package_manager",
    "yarn": "package_manager",
    "bun": "package_manager",
    "black": "formatting",
    "prettier": "formatting",
    "isort": "formatting",
    "ruff": "linting",
    "eslint": "linting",
    "flake8": "linting",
    "pylint": "linting",
    "mypy": "typing",
    "pyright": "typing",
    "tsc": "typing",
    "asyncio": "async",
}
_WORD_TOPICS = {
    "test": "testing",
    "tests": "testing",
    "testing": "testing",
    "fixture": "testing",
    "fixtures": "testing",
    "mock": "testing",
    "mocks": "testing",
    "format": "formatting",
    "formatting": "formatting",
    "formatter": "formatting",
    "indentation": "formatting",
    "quotes": "formatting",
    "lint": "linting",
    "linter": "linting",
    "linting": "linting",
    "type": "typing",
    "types": "typing",
    "typing": "typing",
    "typed": "typing",
    "annotations": "typing",
    "hints": "typing",
    "async": "async",
    "await": "async",
    "commit": "git",
    "commits": "git",
    "git": "git",
    "branch": "git",
    "push": "git",
    "rebase": "git",
    "comment": "comments",
    "comments": "comments",
    "docstring": "comments",
    "docstrings": "comments",
    "print": "logging",
    "prints": "logging",
    "logging": "logging",
    "logger": "logging",
    "exception": "error_handling",
    "exceptions": "error_handling",
    "except": "error_handling",
    "dependency": "dependencies",
    "dependencies": "dependencies",
    "naming": "naming",
    "emoji": "emoji",
    "emojis": "emoji",
}
_STOPWORDS = frozenset(
    {"a", "an", "the", "to", "of", "for", "in", "on", "at", "with", "and", "or", "be", "is"}
    | {"are", "it", "its", "this", "that", "my", "our", "your", "we", "i", "you", "use"}
    | {"using", "any", "all"}
)


@dataclass(frozen=True, slots=True)
class StatedPreference:
    """A preference found in one clause: its key, clean statement, scope and strength."""

    key: str
    content: str
    tags: tuple[str, ...]
    scope: Scope
    importance: float
    correction: bool = False


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9_+#.-]+", text.lower())


def topic_key(text: str) -> tuple[str, str | None]:
    """`pref:<topic>` for a known topic, else `pref:<slug of the first content words>`."""
    words = [w.strip(".") for w in _words(text)]
    for word in words:
        if word in _TOOL_TOPICS:
            return f"pref:{_TOOL_TOPICS[word]}", _TOOL_TOPICS[word]
    for word in words:
        if word in _WORD_TOPICS:
            return f"pref:{_WORD_TOPICS[word]}", _WORD_TOPICS[word]
    content = [w for w in words if w not in _STOPWORDS and re.fullmatch(r"[a-z0-9_-]+", w)]
    slug = "_".join(content[:4])[:48].strip("_") or "general"
    return f"pref:{slug}", None


def _clean(fragment: str) -> str:
    text = _CONTINUATION.split(" ".join(fragment.split()), maxsplit=1)[0]
    return text.strip(" .!,;:")[:MAX_OBJECT_CHARS].rstrip()


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _usable(obj: str) -> bool:
    return bool(obj) and not _VAGUE_OBJECT.match(obj) and not _IDIOM.match(obj)


def _statement(clause: str) -> tuple[str, str, float] | None:
    """(clean statement, its object, importance) for one directive clause, or None."""
    if match := _USE_INSTEAD.search(clause) or _INSTEAD_USE.match(clause):
        x, y = _clean(match.group("x")), _clean(match.group("y"))
        return (f"Prefers {x} over {y}.", f"{x} {y}", 0.75) if _usable(x) and y else None
    if match := _PREFER.match(clause):
        x, y = _clean(match.group("x")), _clean(match.group("y") or "")
        if not _usable(x):
            return None
        return (f"Prefers {x} over {y}." if y else f"Prefers {x}.", f"{x} {y}", 0.7)
    if match := _ALWAYS.match(clause):
        x = _clean(match.group("x"))
        return (_sentence(f"always {x}"), x, 0.7) if _usable(x) else None
    if match := _NEVER.match(clause):
        x = _clean(match.group("x"))
        return (_sentence(f"never {x}"), x, 0.7) if _usable(x) else None
    if match := _DONT.match(clause):
        x = _clean(match.group("x"))
        if not _usable(x) or _NOT_DIRECTIVE.match(x):
            return None
        return (_sentence(f"don't {x}"), x, 0.65)
    if match := _STOP.match(clause):
        x = _clean(match.group("x"))
        return (_sentence(f"avoid {x}"), x, 0.65) if _usable(x) else None
    return None


def _mentions_project(text: str) -> bool:
    """Whether a clause is about this project: "here", "this repo", or a path or file name."""
    if _PROJECT_MARKERS.search(text):
        return True
    for raw in text.split():
        token = raw.strip("`'\"()[],;:!?").rstrip(".")
        if _FILE_EXTENSIONS.search(token) or (
            "/" in token and (raw.rstrip(".,;:!?").endswith("/") or token.count("/") >= 2)
        ):
            return True
    return False


def clauses(text: str) -> list[str]:
    """Clauses of a message, lead-in words removed; code blocks and questions skipped."""
    text = re.sub(r"```.*?```", " ", text, flags=re.DOTALL)
    found: list[str] = []
    for raw in _CLAUSE_SPLIT.split(text):
        clause = raw.strip()
        if not clause or len(clause) > MAX_CLAUSE_CHARS or clause.endswith("?"):
            continue
        clause = _LEAD_IN.sub("", clause).strip()
        if clause:
            found.append(clause)
    return found


def stated_preferences(text: str, *, after_assistant_action: bool) -> list[StatedPreference]:
    """Preferences the user stated in `text`.

    Directives ("always …", "never …", "prefer …", "use X instead of Y", "don't …",
    "stop …ing") anywhere count. A message opening with "no, …" right after an assistant
    action is a correction: its imperative remainder ("no, use pnpm") counts as well.
    """
    found: list[StatedPreference] = []
    for position, clause in enumerate(clauses(text)):
        correction = False
        body = clause
        if position == 0 and after_assistant_action and _CORRECTION_LEAD.match(clause):
            body = _LEAD_IN.sub("", _CORRECTION_LEAD.sub("", clause, count=1)).strip()
            correction = True
        result = _statement(body)
        if result is None and correction and _IMPERATIVE.match(body) and _clean(body):
            result = (_sentence(_clean(body)), _clean(body), 0.6)
        if result is None:
            continue
        content, subject, importance = result
        key, topic = topic_key(subject)
        scope = Scope.PROJECT if _mentions_project(body) else Scope.USER
        tags = tuple(t for t in ("preference", topic, "correction" if correction else None) if t)
        found.append(StatedPreference(key, content, tags, scope, importance, correction))
    return found
