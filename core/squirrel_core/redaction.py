"""Secret redaction: provider keys, private keys, tokens, passwords and private spans removed."""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import re
import string
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from squirrel_core.lone_surrogates import whole_text
from squirrel_core.redaction_entropy import MIN_ENTROPY_LEN, entropy_redacted
from squirrel_core.redaction_literals import Found, Literals
from squirrel_core.redaction_providers import RULE_HINTS as _RULE_HINTS
from squirrel_core.redaction_providers import RULES as _RULES
from squirrel_core.redaction_providers import TOKEN_CHARS as _TOKEN_CHARS
from squirrel_core.redaction_providers import Rule as _Rule
from squirrel_core.redaction_rules import (
    COMMAND_LITERALS,
    CONNECTION_HINTS,
    DETECTOR_LITERALS,
    OPTION_HINTS,
    command_spans,
    connection_string_spans,
    has_unhinted_detectors,
    maintained_detectors,
    maintained_spans,
)

REDACTED_PREFIX: Final = "[REDACTED:"

# Spans that are removed entirely (with their content), before anything else runs.
_PRIVATE_SPAN: Final = re.compile(r"<private>.*?(?:</private>|\Z)", re.IGNORECASE | re.DOTALL)


def placeholder(kind: str) -> str:
    """The text that replaces one secret of the given kind."""
    return f"{REDACTED_PREFIX}{kind}]"


_DETECTOR_WORDS: Final = frozenset(hint.lower() for hint in DETECTOR_LITERALS)
_RULE_HINTS_BY_WORD: Final[dict[str, tuple[str, ...]]] = {
    word: tuple(sorted(hint for hint in _RULE_HINTS if hint.lower() == word))
    for word in {hint.lower() for hint in _RULE_HINTS}
}

# Case-insensitive context rules run on the lower-cased text; their spans map back 1:1.
_AUTHORIZATION: Final = re.compile(
    r"authorization\\?[\"']?[ \t]*[:=][ \t]*\\?[\"']?(?:bearer|basic|token|digest)[ \t]+"
    r"([a-z0-9._~+/=-]{8,})"
)
_FLAG: Final = re.compile(
    r"--?(?:password|passwd|token|api-key|apikey|secret|access-key|client-secret|auth-token)"
    r"(?:=|[ \t]+)(\"[^\"\n]{1,512}\"|'[^'\n]{1,512}'|(?!\[redacted)[^\s\"']{1,512})"
)
_SENSITIVE_NAME: Final = (
    r"(?:secret|passw(?:or)?d|passphrase|api[_-]?key|apikey|access[_-]?key|private[_-]?key"
    r"|auth[_-]?key|signing[_-]?key|encryption[_-]?key|account[_-]?key|credentials?"
    r"|(?<=[_.-])pass(?![a-z])|(?<=[_.-])pwd(?![a-z]))"
)
# A name that says its value is a secret (`.env` keys, JSON/YAML keys, Python/JS variables).
# `token` counts only at the end of a name: `GITHUB_TOKEN`, `authToken`, not `token_count`.
_SECRET_KEY: Final = re.compile(
    r"(?i)[A-Za-z0-9_.-]{0,64}?(?:" + _SENSITIVE_NAME + r"[A-Za-z0-9_.-]{0,64}|token)"
)
_FLAG_GLUE: Final = frozenset(string.ascii_lowercase + string.digits + "-_")
_AWS_SECRET_NAME: Final = re.compile(r"aws_?secret|secret_?access_?key")
_NAME_KEYWORDS: Final = ("secret", "pass", "key", "token", "credential", "pwd")
_FLAG_WORDS: Final = ("pass", "token", "key", "secret")
"""Every flag name `_FLAG` knows holds one of these."""
_NAME_CHARS: Final = frozenset(string.ascii_lowercase + string.digits + "_.-")
_ASSIGNMENT_TAIL: Final = re.compile(
    r"[a-z0-9_.-]{0,64}(\\?[\"']?[ \t]*(?::=|[:=])[ \t]*)"
    r"(?:(\\?\")((?:(?!\\?\").){1,512}?)\\?\"|(')([^'\n]{1,512})'|"
    r"((?!\[redacted)[^\s\"'`,;&)}\]<>]{1,512}))"
)
_MAX_NAME: Final = 64

_NOT_SECRET_VALUES: Final = frozenset(
    {
        "none", "null", "nil", "true", "false", "undefined", "str", "string", "int", "bytes",
        "bool", "optional", "any", "required", "secret", "password", "token", "redacted", "xxx",
        "env", "os", "self", "this", "input", "prompt", "getpass", "str|none", "secretstr",
        "[]", "{}", "-", "inherit",
    }
)  # fmt: skip
_FILLER: Final = frozenset(".*…xX_-")
"""Values made only of these (`...`, `***`, `xxxx`) stand in for a secret; they are not one."""
_CODE_LIKE: Final = re.compile(
    r"(?:[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+|.*[()\[\]{}].*|\$.*|%.*|<.*>|\*+"
    r"|[A-Za-z_][A-Za-z0-9_]*\|.*)"
)
_CODE_IDENTIFIER: Final = re.compile(r"[a-z]+(?:[A-Z][a-z]+)+[A-Z]*")
_VERSION: Final = re.compile(r"[~^<>=v]*\d+(?:\.\d+)+[A-Za-z0-9.+-]*")
_TEMPLATE: Final = re.compile(r"\$\{.*\}|\$[A-Za-z_]+|\{\{.*\}\}|<[^>]*>|\*+|%s|%\(.*\)s")
_TOKEN_IN_NAME: Final = re.compile(r"(?i)token|key|credential")

_MIN_SECRET_LEN: Final = 6  # shorter text cannot hold anything redact() looks for

# Keys whose string values are identifiers: never scanned for high-entropy runs.
_ID_KEYS: Final = frozenset(
    {
        "id", "uuid", "tool_use_id", "session_id", "sessionid", "parent_uuid", "parentuuid",
        "request_id", "requestid", "message_id", "call_id", "sha", "hash", "agent_id",
        "thread_id", "event_id", "signature",
    }
)  # fmt: skip


# Every literal a rule waits for, found in one pass per text (see `redaction_literals`).
_LITERALS: Final = Literals(
    [
        *_RULE_HINTS,
        "private>",
        "authorization",
        *_NAME_KEYWORDS,
        *_FLAG_WORDS,
        *COMMAND_LITERALS,
        *CONNECTION_HINTS,
        *DETECTOR_LITERALS,
    ]
)


def _is_placeholder_value(name: str, value: str, *, quoted: bool) -> bool:
    """True for values that are not secrets: empty, already redacted, templates, code, counts."""
    stripped = value.strip()
    if not stripped or stripped.lower().startswith(REDACTED_PREFIX.lower()):
        return True
    if stripped.lower() in _NOT_SECRET_VALUES or set(stripped) <= _FILLER:
        return True
    if _VERSION.fullmatch(stripped):
        return True
    if quoted:
        return bool(_TEMPLATE.fullmatch(stripped))
    if _CODE_LIKE.fullmatch(stripped) or _CODE_IDENTIFIER.fullmatch(stripped):
        return True
    # `max_tokens=500`, `key_count: 3`: numbers under a token/key name are counts, not secrets.
    return stripped.isdigit() and bool(_TOKEN_IN_NAME.search(name))


_Span = tuple[int, int, str]  # start, end, replacement


def _provider_replacer(rule: _Rule, counter: list[int]) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        whole = match.group(0)
        start = match.start()
        if rule.boundary and start > 0 and match.string[start - 1] in _TOKEN_CHARS:
            return whole
        counter[0] += 1
        if rule.group == 0:
            return placeholder(rule.kind)
        inner_start = match.start(rule.group) - start
        inner_end = match.end(rule.group) - start
        return whole[:inner_start] + placeholder(rule.kind) + whole[inner_end:]

    return replace


def _assignment_spans(text: str, lowered: str, found: Found) -> list[_Span]:
    """Values of `NAME=value` / `"name": "value"` / `name: value` where NAME says secret."""
    spans: list[_Span] = []
    done_until = -1
    for at in found.starts(_NAME_KEYWORDS):
        if at < done_until:
            continue
        name_start = at
        while (
            name_start > 0
            and at - name_start < _MAX_NAME
            and lowered[name_start - 1] in (_NAME_CHARS)
        ):
            name_start -= 1
        match = _ASSIGNMENT_TAIL.match(lowered, at)
        if match is None:
            continue
        name = lowered[name_start : match.start(1)]
        if not _SECRET_KEY.fullmatch(name):
            continue
        done_until = match.end()
        spaced = match.group(1)[:1].isspace()
        for group, quoted in ((3, True), (5, True), (6, False)):
            if match.group(group) is None:
                continue
            start, end = match.span(group)
            value = text[start:end]
            if _is_placeholder_value(name, value, quoted=quoted):
                break
            if spaced and not quoted and value.isidentifier():
                break  # `password = user_input`: code assigning a variable

            kind = "aws_secret_key" if _AWS_SECRET_NAME.search(name) else "secret_assignment"
            spans.append((start, end, placeholder(kind)))
            break
    return spans


def _context_spans(text: str, lowered: str, found: Found) -> list[_Span]:
    """Spans found case-insensitively: authorization headers, assignments, secret flags."""
    spans: list[_Span] = []
    if found.in_lower("authorization"):
        spans.extend(
            (m.start(1), m.end(1), placeholder("authorization_header"))
            for m in _AUTHORIZATION.finditer(lowered)
        )
    spans.extend(_assignment_spans(text, lowered, found))
    if found.any_lower(_FLAG_WORDS) and "-" in lowered:
        for m in _FLAG.finditer(lowered):
            if m.start() > 0 and lowered[m.start() - 1] in _FLAG_GLUE:
                continue  # `per-token` or `10k-token` in prose, not a flag
            start, end = m.span(1)
            raw = text[start:end]
            value = raw.strip("\"'")
            if not _is_placeholder_value(m.group(0), value, quoted=value != raw):
                spans.append((start, end, placeholder("secret_flag")))
    return spans


def _apply_spans(text: str, spans: list[_Span]) -> tuple[str, int]:
    """Replace non-overlapping spans (the first found wins an overlap)."""
    if not spans:
        return text, 0
    pieces: list[str] = []
    position = 0
    applied = 0
    for start, end, replacement in sorted(spans, key=lambda span: span[0]):
        if start < position:
            continue
        pieces.append(text[position:start])
        pieces.append(replacement)
        position = end
        applied += 1
    pieces.append(text[position:])
    return "".join(pieces), applied


def _lower_aligned(text: str) -> str:
    """Lower-case `text` keeping every character at its index (ASCII-only folding if needed)."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(ch.lower() if ch.isascii() else ch for ch in text)


def redact(text: str, *, entropy: bool = True, maintained: bool = True) -> tuple[str, int]:
    """Replace secrets in `text` with `[REDACTED:<kind>]` and drop `<private>…</private>` spans.

    Returns the cleaned text and how many secrets or spans were removed. `entropy=False` skips the
    high-entropy detector (for values known to be identifiers); `maintained=False` skips the
    detect-secrets detectors (to measure what they add).

    Every rule waits for a literal; one scan finds them all (`_LITERALS`), and a text that holds
    none of them and no long token run is given back as it came.
    """
    if len(text) < _MIN_SECRET_LEN:
        return text, 0
    lowered = _lower_aligned(text)
    try:
        found = _LITERALS.scan(text, lowered)
    except UnicodeEncodeError:  # a lone surrogate (half of an emoji): the scanner takes UTF-8
        text = whole_text(text)
        lowered = _lower_aligned(text)
        found = _LITERALS.scan(text, lowered)
    if found.empty and not (maintained and has_unhinted_detectors()):
        # No rule's literal: only the high-entropy check can find anything.
        if entropy and len(text) >= MIN_ENTROPY_LEN:
            return entropy_redacted(text, placeholder("high_entropy"))
        return text, 0
    count = 0
    if found.in_lower("private>"):
        text, count = _PRIVATE_SPAN.subn("", text)
        if count:
            lowered = _lower_aligned(text)
            found = _LITERALS.scan(text, lowered)
    present = {
        hint
        for word in found.words.intersection(_RULE_HINTS_BY_WORD)
        for hint in _RULE_HINTS_BY_WORD[word]
        if hint in text
    }
    if present:
        counter = [0]
        for rule in _RULES:
            if not present.isdisjoint(rule.hints):
                text = rule.pattern.sub(_provider_replacer(rule, counter), text)
        if counter[0]:
            count += counter[0]
            lowered = _lower_aligned(text)
            found = _LITERALS.scan(text, lowered)
    if not found.empty:
        spans = _context_spans(text, lowered, found)
        if found.any_text(OPTION_HINTS):
            spans.extend((s, e, placeholder(kind)) for s, e, kind in command_spans(text, found))
        if found.any_lower(CONNECTION_HINTS):
            spans.extend(
                (s, e, placeholder(kind)) for s, e, kind in connection_string_spans(text, lowered)
            )
    else:
        spans = []
    # A detector with hints needs one of them at least.
    if maintained and (not found.words.isdisjoint(_DETECTOR_WORDS) or has_unhinted_detectors()):
        spans.extend(
            (s, e, placeholder(kind)) for s, e, kind in maintained_spans(text, lowered, found)
        )
    text, applied = _apply_spans(text, spans)
    count += applied
    if entropy and len(text) >= MIN_ENTROPY_LEN:
        text, replaced = entropy_redacted(text, placeholder("high_entropy"))
        count += replaced
    return text, count


@functools.lru_cache(maxsize=4096)
def _is_secret_key(key: str) -> bool:
    return _SECRET_KEY.fullmatch(key) is not None


#: The sources that decide what is redacted: `ruleset` fingerprints them all.
RULE_FILES: Final = (
    "redaction.py",
    "redaction_rules.py",
    "redaction_literals.py",
    "redaction_providers.py",
    "redaction_entropy.py",
)


@functools.cache
def ruleset() -> str:
    """A fingerprint of the rules `redact_value` applies: this module and its four helpers as
    written, and the detect-secrets release whose detectors it runs. Two services with the same
    fingerprint redact alike, so content one of them redacted need not be redacted again by the
    other. Empty when the sources cannot be read (nothing can then vouch for a redaction).
    Read once per process: every delivery is stamped, and checked, with it."""
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    try:
        for name in RULE_FILES:
            digest.update((here / name).read_bytes())
            digest.update(b"\0")
    except OSError:
        return ""
    try:
        digest.update(importlib.metadata.version("detect-secrets").encode())
    except importlib.metadata.PackageNotFoundError:
        digest.update(b"no detect-secrets")
    return "sha256:" + digest.hexdigest()


def preload() -> threading.Thread:
    """Loads the detect-secrets detectors in a background thread, so the first text a service
    redacts does not wait for their import (a few hundred ms); returns the thread."""
    thread = threading.Thread(target=maintained_detectors, name="redaction-preload", daemon=True)
    thread.start()
    return thread


def redact_value(value: Any, *, key: str | None = None) -> tuple[Any, int]:
    """Redact every string inside a JSON-like value (dicts, lists, tuples); returns a new value.

    A string stored under a secret-looking key (`password`, `api_key`, `AWS_SECRET_ACCESS_KEY`…) is
    replaced whole; strings under identifier keys (`id`, `tool_use_id`, `sha`…) skip the
    high-entropy detector. Keys themselves are kept. `key` is the name the value is stored under.
    """
    if isinstance(value, str):
        if (
            key is not None
            and _is_secret_key(key)
            and not _is_placeholder_value(key, value, quoted=True)
        ):
            return placeholder("secret_assignment"), 1
        return redact(value, entropy=key is None or key.lower() not in _ID_KEYS)
    if isinstance(value, dict):
        total = 0
        out: dict[Any, Any] = {}
        for item_key, item in value.items():
            cleaned, count = redact_value(item, key=item_key if isinstance(item_key, str) else None)
            out[item_key] = cleaned
            total += count
        return out, total
    if isinstance(value, list | tuple):
        total = 0
        items: list[Any] = []
        for item in value:
            cleaned, count = redact_value(item, key=key)
            items.append(cleaned)
            total += count
        return (tuple(items) if isinstance(value, tuple) else items), total
    return value, 0
