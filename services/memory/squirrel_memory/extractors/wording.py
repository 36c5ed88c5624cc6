"""Memory wording: complete sentences without markdown residue, cut-off ends or stray quotes.

Every memory is read later by someone who never saw the session, so its text has to stand
alone: capitalised, ended with a full stop, free of the emphasis markers, list bullets and
half-quotes a transcript leaves behind. Code spans (`…`) are kept exactly as written.
"""

from __future__ import annotations

import re

#: Keys are lower-case words joined by `_` after a `prefix:`; this many words at most.
MAX_KEY_WORDS = 4
MAX_KEY_CHARS = 64

#: A code span: a whole run of backticks, closed by the next run of the same length (each run
#: taken whole, so a line of backticks is read in one pass, not tried at every split of it).
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
_STRONG = re.compile(r"\*\*|~~")
#: `*word*` emphasis (not a glob such as `*.py` or a lone star).
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=[A-Za-z])([^*\n]*?[A-Za-z.!?)])\*(?![\w*])")
_LINE_MARKER = re.compile(r"^\s*(?:#{1,6}\s+|>\s*|[-*+•]\s+|\d{1,3}[.)]\s+|\[[ xX]\]\s+)+")
_ELLIPSIS_END = re.compile(r"\s*(?:…|\.{3,})\s*$")
_DANGLING_END = re.compile(
    r"[\s,;:(\[{–—-]+$|\s+(?:and|or|but|to|of|the|a|an|with|for|in|by|as|so|then|that)$|"
    # "from now on", "from here on" end on their "on"
    r"(?<!now)(?<!here)(?<!then)(?<!there)\s+on$",
    re.IGNORECASE,
)
_PAIRS = (("(", ")"), ("[", "]"), ("{", "}"), ("“", "”"), ("‘", "’"))
_SYMMETRIC_QUOTES = ('"', "`")
_IN_WORD_APOSTROPHE = re.compile(r"(?<=\w)’(?=\w)")
#: A word of a key, in any script: letters and digits of every alphabet (`über`, `тесты`, a run
#: of CJK characters), `+`, `#` and `-` inside it; an ASCII text's words are those it always had.
_KEY_WORD = re.compile(r"[^\W_](?:[^\W_]|[+#-])*")


_SPACE_BEFORE_STOP = re.compile(r"\s+([.,;:!?])(?=\s|$)")


def outside_code(text: str, fix: re.Pattern[str], repl: str) -> str:
    """Apply `fix` to the parts of `text` that are not code spans."""
    parts: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(text):
        parts.append(fix.sub(repl, text[last : match.start()]))
        parts.append(match.group(0))
        last = match.end()
    parts.append(fix.sub(repl, text[last:]))
    return "".join(parts)


_BOLD = re.compile(r"\*\*")


def without_bold(text: str) -> str:
    """`text` without its `**` bold markers, code spans kept as written (a glob such as
    `lib/**/*.g.dart` keeps its `**`)."""
    return outside_code(text, _BOLD, "")


def plain_apostrophes(text: str) -> str:
    """`text` with each typographic apostrophe inside a word ("doesn’t", "it’s", as some hosts
    and editors write them) made a plain one, so word patterns ("doesn't") read it; quotes
    around a word (‘x’) and code spans stay as they are."""
    return outside_code(text, _IN_WORD_APOSTROPHE, "'")


def strip_markdown(text: str) -> str:
    """`text` without bold/strike/emphasis markers and line markers (headings, bullets)."""
    lines = [_LINE_MARKER.sub("", line) for line in text.splitlines()]
    flat = "\n".join(lines)
    flat = outside_code(flat, _STRONG, "")
    return outside_code(flat, _EMPHASIS, r"\1")


def _balanced(text: str) -> str:
    """Drop a quote, backtick or bracket that has no partner (a cut-off or leftover one);
    code spans are left exactly as they are."""
    spans: list[str] = []

    def hide(match: re.Match[str]) -> str:
        spans.append(match.group(0))
        return f"\ue000{len(spans) - 1}\ue001"

    masked = _CODE_SPAN.sub(hide, text)
    masked = _balanced_plain(masked)
    return re.sub("\ue000(\\d+)\ue001", lambda m: spans[int(m.group(1))], masked)


def _balanced_plain(text: str) -> str:
    # An apostrophe inside a word ("It’s", "don’t") is not a closing quote.
    text = _IN_WORD_APOSTROPHE.sub("\ue002", text)
    for quote in _SYMMETRIC_QUOTES:
        if text.count(quote) % 2:
            index = text.rfind(quote) if text.rstrip(".!? ").endswith(quote) else text.find(quote)
            text = text[:index] + text[index + 1 :]
    for opening, closing in _PAIRS:
        while text.count(opening) > text.count(closing) and opening in text:
            index = text.rfind(opening)
            text = text[:index] + text[index + 1 :]
        while text.count(closing) > text.count(opening) and closing in text:
            index = text.find(closing)
            text = text[:index] + text[index + 1 :]
    if text.count("'") % 2 and text.startswith("'"):
        text = text[1:]
    return text.replace("\ue002", "’")


def sentence(text: str, *, min_words: int = 2) -> str | None:
    """`text` as one complete sentence, or None when too little is left to say anything.

    Markdown residue, a trailing ellipsis or dangling connector, and unpaired quotes or
    brackets are removed; the first letter is capitalised and a full stop added.
    """
    flat = " ".join(strip_markdown(text).split())
    flat = _ELLIPSIS_END.sub("", flat)
    previous = None
    while previous != flat:
        previous = flat
        flat = _DANGLING_END.sub("", flat.strip(" \t"))
        flat = _balanced(flat).strip()
        flat = flat.rstrip(",;:").strip()
    # A code span is a command or a name as typed: `go run . --port 1` keeps its spaced dot.
    flat = outside_code(flat, _SPACE_BEFORE_STOP, r"\1")
    flat = re.sub(r"([.!?])[.!?]+$", r"\1", flat)
    if len(re.findall(r"[^\W_]+", flat)) < min_words:
        return None
    flat = flat[:1].upper() + flat[1:]
    return flat if flat.endswith((".", "!", "?", "。", "！", "？")) else flat + "."


def stem(word: str) -> str:
    """A light English stem so that `pushes`, `pushed` and `pushing` share one key."""
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if suffix == "es" and not word.endswith(("ses", "xes", "zes", "ches", "shes")):
            continue
        if suffix == "s" and word.endswith(("us", "is", "ss")):
            continue
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            base = word[: -len(suffix)] + keep
            if suffix in ("ing", "ed") and len(base) > 3 and base[-1] == base[-2]:
                base = base[:-1]
            return base
    return word


def word_set(*lines: str) -> frozenset[str]:
    """The words of `lines` (split on white space) as a set."""
    return frozenset(" ".join(lines).split())


def key_slug(text: str, drop: frozenset[str] = frozenset()) -> str:
    """Up to `MAX_KEY_WORDS` stemmed content words of `text`, joined by `_` (may be empty)."""
    words: list[str] = []
    plain = re.sub(r"['’](?:s|re|ll|ve|d|m)\b", "", strip_markdown(text).lower())
    for raw in _KEY_WORD.findall(plain):
        word = stem(raw.strip("-"))
        if word and word not in drop and raw not in drop and word not in words:
            words.append(word)
        if len(words) == MAX_KEY_WORDS:
            break
    return "_".join(words)[:MAX_KEY_CHARS].strip("_")
