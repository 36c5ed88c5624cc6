"""A user's message read for what it may ask: its sentences, clauses and short requests.

A request is read without any word list of a language (`repeated_requests` compares them across
sessions):

- **content words** (`words_of`): runs of letters of at least `MIN_WORD_CHARS` characters (in
  scripts written without spaces, Chinese or Japanese, each pair of adjacent characters);
- **character n-grams** (`trigrams`): the trigrams of the sentence's letters, which still match
  where a word changed its ending ("commits" / "commit", "prueba" / "pruebas").

What is never a request: a sentence with fewer than `MIN_WORDS` content words ("continue",
"yes", "go ahead", "commit"), one that is mostly not letters (a pasted error, a log line, a
diff), one that names a file path, a URL or an id (it is about one thing, not a habit), a
message longer than `MAX_MESSAGE_CHARS` (a pasted document), a command body the host expanded,
a question, a quoted line, a code block.

A request often follows the task in the same sentence ("Fix the pagination bug, and run the
tests before handing back"): the task's words would hide it, so each clause of a sentence of
several (`request_clauses`: split at a comma, a semicolon, a colon or a dash) is read too.

A short request ("kleine Commits pro Schritt", "pregúntame antes", "no new dependencies"), with
`MIN_SHORT_WORDS` content words or more but fewer than `MIN_WORDS`, is a request only where it
follows the task in its message (`short_requests`: a later sentence, or a later clause of a
sentence), never as the message's opening, which is the task itself ("Fix the login bug"),
and never when it points at the thing at hand ("fix this test", `_POINTED`).

Two wordings are one form filled with two things (`slot_apart`) when their words differ in one
place only, where each has one or two words of its own that are not the other's in another
ending ("fix the failing checkout test" / "fix the failing cart test").
"""

from __future__ import annotations

import itertools
import re
import unicodedata

from squirrel_memory.extractors.command_bodies import reads_as_command_body
from squirrel_memory.extractors.own_words import own_words
from squirrel_memory.extractors.wording import strip_markdown

MAX_MESSAGE_CHARS = 2_000
MAX_SENTENCE_CHARS = 240
#: Letters a word must have to carry content (shorter ones are mostly glue in any language).
MIN_WORD_CHARS = 3
#: Content words a sentence needs to be a request at all, and a short one said after the task.
MIN_WORDS = 5
MIN_SHORT_WORDS = 2
#: At most this many content words in the one place where two sentences differ make a slot
#: filled with other words (two tasks or two rules of one form); their letters must share less
#: than `MAX_SLOT_GRAMS` of their trigrams (Dice), so "linter" / "linters" is one word.
MAX_SLOT_WORDS = 2
MAX_SLOT_GRAMS = 0.5
#: The share of a sentence's visible characters that must be letters or spaces.
MIN_LETTER_SHARE = 0.75

_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|[。！？；]+|\n+")
#: Where a sentence's clauses meet: a comma, a semicolon, a colon, a dash between blanks.
_CLAUSE_MARK = re.compile(r"[,;:，；：]|(?<!\S)[-–—]+(?!\S)")
#: A thing at hand pointed at ("fix this test", "diese Datei", "ese archivo", "cette page",
#: "这个测试"): a short request that points at one is about the task, never a habit.
_POINTED = re.compile(
    r"\b(?:this|that|these|those|diese[rsnm]?|dies|este|esta|estos|estas|esse|essa|esses|essas|"
    r"ese|esa|esos|esas|ce|cet|cette|ces|questo|questa|questi|queste|deze|dit)\s+[^\W\d_]"
    r"|这个|那个|这些|那些|この|その",
    re.IGNORECASE,
)
#: Something particular: a path, a URL, a file name with an extension, a long number or id,
#: a name in code (camelCase, an inner capital, snake_case).
_PARTICULAR = re.compile(
    r"\b[a-z]+[A-Z]\w*|\b[A-Z][a-z]+[A-Z]\w*|\b[^\W_]+_\w+|(?:\w+:)?//"
    r"|(?:^|[\s`'\"(])(?:\.{0,2}/|~/)?[\w.-]+/[\w./-]+|\b[\w-]+\.[a-zA-Z]{1,5}\b"
    r"|\b[0-9a-fA-F]{7,}\b|\d{3,}"
)
_NOT_LETTERS = re.compile(r"[\W\d_]+")
_QUESTION_END = re.compile(r"[?？]\s*$")
#: Letters of scripts written without spaces between words: pairs of them are the words.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def _letters(text: str) -> str:
    return _NOT_LETTERS.sub(" ", unicodedata.normalize("NFKC", text))


def words_of(text: str) -> list[str]:
    """The candidate content words of `text`, lower-cased: letter runs of `MIN_WORD_CHARS` or
    more, and in unspaced scripts each pair of adjacent characters."""
    found: list[str] = []
    for run in _letters(text).lower().split():
        if _UNSPACED.search(run):
            chars = [ch for ch in run if _UNSPACED.match(ch)]
            found.extend(a + b for a, b in itertools.pairwise(chars))
            rest = _UNSPACED.sub(" ", run).split()
            found.extend(w for w in rest if len(w) >= MIN_WORD_CHARS)
        elif len(run) >= MIN_WORD_CHARS:
            found.append(run)
    return found


def trigrams(text: str) -> frozenset[str]:
    """The letter trigrams of `text` (each word padded with a space at both ends)."""
    grams: set[str] = set()
    for run in _letters(text).lower().split():
        padded = f" {run} " if not _UNSPACED.search(run) else run
        grams.update(padded[i : i + 3] for i in range(len(padded) - 2))
    return frozenset(grams)


def unspaced(word: str) -> bool:
    """Whether `word` is in a script written without spaces between words (its pairs are words)."""
    return bool(_UNSPACED.search(word))


def dice(a: frozenset[str], b: frozenset[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


def request_sentences(text: str, min_words: int = MIN_WORDS) -> list[str]:
    """The sentences of a user message that can be requests (see the module's rules), with at
    least `min_words` content words."""
    return [flat for flat in _said_sentences(text) if _may_request(flat, min_words)]


def request_clauses(text: str) -> list[str]:
    """The clauses of a user message's sentences that can be requests on their own, where a
    sentence has more than one (see the module's rules): "Fix the pagination bug, and run the
    tests before handing back" → "and run the tests before handing back"."""
    found: list[str] = []
    for flat in _said_sentences(text):
        clauses = [c.strip() for c in _CLAUSE_MARK.split(flat) if c.strip()]
        if len(clauses) > 1:
            found.extend(c for c in clauses if _may_request(c, MIN_WORDS))
    return found


def short_requests(text: str) -> list[tuple[str, str]]:
    """The short requests of a user message (see the module's rules), each with the sentence
    it stands in: "Bau den Export um. Bitte kleine Commits, einen pro Schritt." → "Bitte kleine
    Commits, einen pro Schritt"; never the message's opening sentence or clause."""
    found: list[tuple[str, str]] = []
    for index, flat in enumerate(_said_sentences(text)):
        clauses = [c.strip() for c in _CLAUSE_MARK.split(flat) if c.strip()]
        parts = [flat, *clauses] if len(clauses) > 1 else [flat]
        for part in parts:
            if index == 0 and part in (flat, *clauses[:1]):
                continue  # the message's opening is its task
            if _POINTED.search(part):
                continue  # "fix this test": the thing at hand, the task
            if _may_request(part, MIN_SHORT_WORDS) and not _may_request(part, MIN_WORDS):
                found.append((part, flat))
    return found


def _said_sentences(text: str) -> list[str]:
    """The sentences of a user message that may hold a request: not a question, not over
    `MAX_SENTENCE_CHARS`, outside code blocks and quoted lines, blanks folded."""
    if len(text) > MAX_MESSAGE_CHARS or reads_as_command_body(text):
        return []
    plain = strip_markdown(own_words(text))
    found: list[str] = []
    for raw in _SENTENCE_END.split(plain):
        flat = " ".join(raw.split())
        if flat and len(flat) <= MAX_SENTENCE_CHARS and not _QUESTION_END.search(raw.strip()):
            found.append(flat)
    return found


def _may_request(flat: str, min_words: int) -> bool:
    """Whether a sentence or clause can be a request: mostly letters, nothing particular
    named, at least `min_words` content words."""
    visible = [ch for ch in flat if not ch.isspace()]
    letters = sum(ch.isalpha() for ch in visible)
    if not visible or letters / len(visible) < MIN_LETTER_SHARE:
        return False
    return not _PARTICULAR.search(flat) and len(set(words_of(flat))) >= min_words


def sentence_parts(sentence: str) -> list[str]:
    """A sentence and, where it has several, its clauses."""
    clauses = [c for c in _CLAUSE_MARK.split(sentence) if c.strip()]
    return [sentence, *clauses] if len(clauses) > 1 else [sentence]


def slot_apart(first: list[str], second: list[str], *, open_end: bool = False) -> bool:
    """Whether two word lists are one form filled with two things: equal but in one place,
    where each has one to `MAX_SLOT_WORDS` words of its own whose letters are unlike
    (`MAX_SLOT_GRAMS`). The place must be inside the form (words before and after it alike),
    since a lead or an end of its own ("Then …" / "When done, …") is no slot; with `open_end`,
    it may end the form ("Não mexe no pagamento" / "Não mexe no layout")."""
    head = 0
    while head < min(len(first), len(second)) and first[head] == second[head]:
        head += 1
    tail = 0
    while tail < min(len(first), len(second)) - head and first[-1 - tail] == second[-1 - tail]:
        tail += 1
    own_a, own_b = first[head : len(first) - tail], second[head : len(second) - tail]
    if not (head and (tail or open_end)):
        return False
    if not (0 < len(own_a) <= MAX_SLOT_WORDS and 0 < len(own_b) <= MAX_SLOT_WORDS):
        return False
    return dice(trigrams(" ".join(own_a)), trigrams(" ".join(own_b))) < MAX_SLOT_GRAMS
