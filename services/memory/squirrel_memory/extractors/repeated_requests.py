"""Requests the user makes again in another session, in any wording and any language.

The preference rules recognise instructions by their form in English ("always …", "from now
on …"). A user who writes in another language, or who never says "always", still shows a habit
the same way: they ask for the same thing again in a later session. Two sentences the user
typed in different sessions are one request when they share most of their content, measured
without any word list of a language:

- **content words**: runs of letters of at least `MIN_WORD_CHARS` characters (in scripts
  written without spaces, Chinese or Japanese, each pair of adjacent characters), leaving out
  the words the user puts in a large share of all their sentences (the glue words of whatever
  language they write in, found from their own text);
- **character n-grams**: the trigrams of the sentence's letters, which still match where a
  word changed its ending ("commits" / "commit", "prueba" / "pruebas").

Two sentences are one request when they share at least `MIN_SHARED_WORDS` content words and
both measures agree (`same_request`). Two tasks of one form ("fix the failing login test" /
"… signup test") are not one request: the words that differ name what only one of the two
sessions works on (`_other_tasks`), or they are the same sentence with one or two words put in
another's place ("fix the failing checkout test" / "fix the failing cart test", "run the linter
before you commit" / "run the formatter …": `_one_slot_apart`), even where nothing else the
sessions hold names the words.

What is never a request: a sentence with fewer than `MIN_WORDS` content words ("continue",
"yes", "go ahead", "commit"), one that is mostly not letters (a pasted error, a log line, a
diff), one that names a file path, a URL or an id (it is about one thing, not a habit), a
message longer than `MAX_MESSAGE_CHARS` (a pasted document), a slash command, the host's or a
hook's text, a command body the host expanded, a question. The same message sent again whole
(`MAX_SAME_MESSAGE`) is one task asked again (after an interrupt, or in a new session after a
crash), not a habit; and a request must come back in another session: said twice in one
session it is that session's task.

A short request ("kleine Commits pro Schritt", "pregúntame antes", "no new dependencies"), with
`MIN_SHORT_WORDS` content words or more but fewer than `MIN_WORDS`, is a request only where it
follows the task in its message (`short_requests`: a later sentence, or a later clause of a
sentence), never as the message's opening, which is the task itself ("Fix the login bug"),
and never when it points at the thing at hand ("fix this test", `_POINTED`).
It is said again when each of its content words is in a request of another session
(`same_request`); the memory then quotes the sentence it stands in, since its few words alone
lose what they were about.

A request whose words name the files its session works on ("Fix the flaky chunk upload test",
with `src/upload/chunks.ts` edited) is about the task at hand, not a habit (`_names_task`): a
short one naming one part of those paths, a longer one naming `MIN_TASK_WORDS`.

A request often follows the task in the same sentence ("Fix the pagination bug, and run the
tests before handing back"): the task's words would hide it, so each clause of a sentence of
several (`request_clauses`: split at a comma, a semicolon, a colon or a dash) is compared too,
under the same rules; a sentence and another's clause are one form filled with two things when
any clause of one is one slot apart from a clause of the other.

The memory quotes the user's latest wording, its shortest form (the clause that asks, not the
task around it: a habit is stated by what the evidence shows, not paraphrased into a broader
rule) and says in how many sessions it was asked.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from squirrel_core.events import Origin
from squirrel_memory.extractors.activity import user_requests
from squirrel_memory.extractors.command_bodies import reads_as_command_body
from squirrel_memory.extractors.wording import key_slug, strip_markdown
from squirrel_memory.models import StoredEvent

#: The user's own typing (not a slash command's arguments, not an answer to a question).
ORIGINS = frozenset({str(Origin.TYPED), str(Origin.QUEUED)})
PREFIX = "pref:asked:"
#: The tag of a request found said again; the memory's words before the user's quote.
TAG = "asked_again"
LEAD = "In {n} sessions the user asked"
MAX_MESSAGE_CHARS = 2_000
MAX_SENTENCE_CHARS = 240
#: Letters a word must have to carry content (shorter ones are mostly glue in any language).
MIN_WORD_CHARS = 3
#: Content words a sentence needs to be a request at all, and a short one said after the task.
MIN_WORDS = 5
MIN_SHORT_WORDS = 2
#: Words naming parts of the session's file paths that make a longer request the task's.
MIN_TASK_WORDS = 2
MIN_SHARED_WORDS = 3
#: Two sentences are one request when they share `MOST_WORDS` of the shorter one's content
#: words and `MIN_GRAM_SHARE` of their trigrams (Dice), or `MIN_WORD_SHARE` of the words and
#: `MOST_GRAMS` of the trigrams (the same words with other endings, another word order).
MOST_WORDS = 0.7
MIN_GRAM_SHARE = 0.5
MIN_WORD_SHARE = 0.6
MOST_GRAMS = 0.7
#: A word in at least this share of the user's sentences is glue (with enough sentences).
GLUE_SHARE = 0.2
MIN_SENTENCES_FOR_GLUE = 10
#: Two whole messages this alike (trigram Dice), longer than this many times the request in
#: them, are one task sent again.
MAX_SAME_MESSAGE = 0.8
TASK_SHARE = 1.5
#: Letters a word must have to name what a session works on (shorter ones are glue).
MIN_OBJECT_CHARS = 5
#: At most this many content words in the one place where two sentences differ make a slot
#: filled with other words (two tasks or two rules of one form); their letters must share less
#: than `MAX_SLOT_GRAMS` of their trigrams (Dice), so "linter" / "linters" is one word.
MAX_SLOT_WORDS = 2
MAX_SLOT_GRAMS = 0.5
#: The share of a sentence's visible characters that must be letters or spaces.
MIN_LETTER_SHARE = 0.75
#: The newest sentences of the user's compared (the pass reads every session each time).
MAX_SENTENCES = 2_000
#: Requests kept per project, the most repeated first.
MAX_REQUESTS = 5
MAX_QUOTE_CHARS = 160

_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|[。！？；]+|\n+")
_CODE_BLOCK = re.compile(r"```.*?```", re.DOTALL)
#: Where a sentence's clauses meet: a comma, a semicolon, a colon, a dash between blanks.
_CLAUSE_MARK = re.compile(r"[,;:，；：]|(?<!\S)[-–—]+(?!\S)")
_QUOTED_LINE = re.compile(r"^[ \t]*>.*$", re.MULTILINE)
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


@dataclass(frozen=True, slots=True)
class Said:
    """One sentence of the user's, with where it was said."""

    event_id: str
    session_id: str
    sentence: str
    message: str
    words: frozenset[str]
    grams: frozenset[str]
    #: The sentence a short request stands in (the sentence itself otherwise).
    whole: str = ""


@dataclass(frozen=True, slots=True)
class RepeatedRequest:
    """A request said in `sessions` sessions: its latest wording and the events that said it."""

    key: str
    wording: str
    sessions: int
    event_ids: tuple[str, ...]


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


def _dice(a: frozenset[str], b: frozenset[str]) -> float:
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
    plain = strip_markdown(_QUOTED_LINE.sub(" ", _CODE_BLOCK.sub(" ", text)))
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


def _user_sentences(events: list[StoredEvent]) -> list[Said]:
    said: list[tuple[StoredEvent, str, str]] = []
    short: list[tuple[StoredEvent, str, str, str]] = []
    for event, text in user_requests(events):
        if event.origin not in ORIGINS or event.sidechain or not event.session_id:
            continue
        if not text.lstrip().startswith("<"):  # the host's markup (a shell escape, a command)
            said.extend((event, text, s) for s in request_sentences(text))
            # a request said after the task, in a clause of its own ("Fix X, and run the tests
            # before handing back"): the task's words would hide it in the whole sentence
            said.extend((event, text, c) for c in request_clauses(text))
            # a short request said after the task ("…, pregúntame antes")
            short.extend((event, text, part, whole) for part, whole in short_requests(text))
    glue = _glue([words_of(s) for _, _, s in said])
    every = [(event, message, sentence, sentence) for event, message, sentence in said] + short
    return [
        Said(
            event.id,
            event.session_id or "",
            sentence,
            message,
            frozenset(w for w in words_of(sentence) if w not in glue),
            trigrams(sentence),
            whole,
        )
        for event, message, sentence, whole in sorted(every, key=lambda s: s[0].timestamp)
    ]


def _glue(sentences: list[list[str]]) -> frozenset[str]:
    """Words the user puts in a large share of their sentences: the glue of their language."""
    if len(sentences) < MIN_SENTENCES_FOR_GLUE:
        return frozenset()
    counts = Counter(w for words in sentences for w in set(words))
    return frozenset(w for w, n in counts.items() if n >= GLUE_SHARE * len(sentences))


def same_request(a: Said, b: Said) -> bool:
    """Whether two sentences ask for the same thing (shared content words or trigrams; every
    content word of a short request)."""
    fewer, more = sorted((a.words, b.words), key=len)
    if len(fewer) < MIN_WORDS:
        return len(fewer) >= MIN_SHORT_WORDS and fewer <= more
    shared = len(a.words & b.words)
    if shared < MIN_SHARED_WORDS:
        return False
    share = shared / min(len(a.words), len(b.words))
    grams = _dice(a.grams, b.grams)
    return (share >= MOST_WORDS and grams >= MIN_GRAM_SHARE) or (
        share >= MIN_WORD_SHARE and grams >= MOST_GRAMS
    )


def _sent_again(a: Said, b: Said) -> bool:
    """The same whole message sent again, a message that says more than the request: one
    task asked again, not a habit."""
    return (
        max(len(a.message), len(b.message)) > TASK_SHARE * max(len(a.sentence), len(b.sentence))
        and _dice(trigrams(a.message), trigrams(b.message)) >= MAX_SAME_MESSAGE
    )


def _one_slot_apart(a: Said, b: Said) -> bool:
    """Whether `a` and `b` are one sentence whose words differ in one place only, inside it,
    where each has one or two content words of its own that are not the other's in another
    ending ("fix the failing checkout test" / "fix the failing cart test"): one form filled
    with two things, two tasks or two rules, not one request said again. Words added on one
    side only ("Again: keep the diff small") or another lead ("Then commit …" / "When done,
    commit …") are no slot. A sentence and a clause of another are compared clause by clause
    ("Look at the report, then fix the failing checkout test" / "then fix the failing cart
    test")."""
    return any(
        _slot_apart(one, a.words, other, b.words)
        for one in _parts(a.sentence)
        for other in _parts(b.sentence)
    )


def _parts(sentence: str) -> list[str]:
    """A sentence and, where it has several, its clauses."""
    clauses = [c for c in _CLAUSE_MARK.split(sentence) if c.strip()]
    return [sentence, *clauses] if len(clauses) > 1 else [sentence]


def _slot_apart(a: str, a_words: frozenset[str], b: str, b_words: frozenset[str]) -> bool:
    """`_one_slot_apart` for one sentence or clause of each side."""
    first = [w for w in words_of(a) if w in a_words]
    second = [w for w in words_of(b) if w in b_words]
    head = 0
    while head < min(len(first), len(second)) and first[head] == second[head]:
        head += 1
    tail = 0
    while tail < min(len(first), len(second)) - head and first[-1 - tail] == second[-1 - tail]:
        tail += 1
    own_a, own_b = first[head : len(first) - tail], second[head : len(second) - tail]
    if not (head and tail):
        return False  # a lead or an end of its own ("Then …" / "When done, …") is no slot
    if not (0 < len(own_a) <= MAX_SLOT_WORDS and 0 < len(own_b) <= MAX_SLOT_WORDS):
        return False
    return _dice(trigrams(" ".join(own_a)), trigrams(" ".join(own_b))) < MAX_SLOT_GRAMS


def _again(earlier: Said, later: Said) -> bool:
    """`later` asks again, in another session, what `earlier` asked (not the whole message
    sent again, nor the same form filled with another thing)."""
    return (
        earlier.session_id != later.session_id
        and same_request(earlier, later)
        and not _sent_again(earlier, later)
        and not _one_slot_apart(earlier, later)
    )


def _session_words(events: list[StoredEvent]) -> dict[str, dict[str, set[str]]]:
    """Per session, each word of its events' text and the ids of the events that have it."""
    found: dict[str, dict[str, set[str]]] = {}
    for event in events:
        if not event.session_id:
            continue
        words = found.setdefault(event.session_id, {})
        for text in _texts(event.content):
            for word in words_of(text):
                words.setdefault(word, set()).add(event.id)
    return found


def _texts(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list | tuple):
        return [t for v in value for t in _texts(v)]
    return []


def _session_paths(events: list[StoredEvent]) -> dict[str, set[str]]:
    """Per session, the words of the file paths its events name (long enough to name a thing)."""
    found: dict[str, set[str]] = {}
    for event in events:
        if event.session_id:
            parts = found.setdefault(event.session_id, set())
            for path in event.file_paths:
                parts.update(w for w in words_of(path) if len(w) >= MIN_OBJECT_CHARS)
    return found


def _names_task(said: Said, paths: dict[str, set[str]]) -> bool:
    """Whether `said` names the files its session works on ("fix the flaky chunk upload test"
    with `src/upload/chunks.ts` edited): the task at hand, not a habit. A word names a part
    when one is the other with an ending ("chunk" / "chunks")."""
    parts = paths.get(said.session_id, set())
    named = sum(
        any(w.startswith(p) or p.startswith(w) for p in parts)
        for w in said.words
        if len(w) >= MIN_OBJECT_CHARS
    )
    return named >= (1 if len(said.words) < MIN_WORDS else MIN_TASK_WORDS)


def _other_tasks(a: Said, b: Said, vocabulary: dict[str, dict[str, set[str]]]) -> bool:
    """Whether the words that differ between `a` and `b` name what only one of the two
    sessions works on ("fix the failing login test" / "… signup test": the login test is
    only the first session's): two tasks of one form, not one request said again. A word
    counts for a session when an event of it other than the sentence's own message has it."""

    def mentions(said: Said, word: str) -> bool:
        return bool(vocabulary.get(said.session_id, {}).get(word, set()) - {said.event_id})

    return any(
        mentions(a, word) != mentions(b, word)
        for word in a.words.symmetric_difference(b.words)
        if len(word) >= MIN_OBJECT_CHARS or _UNSPACED.search(word)
    )


def repeated_requests(events: list[StoredEvent]) -> list[RepeatedRequest]:
    """Requests the user made in two or more sessions of `events`, the most sessions first."""
    ordered = sorted(events, key=lambda e: (e.timestamp, e.id))
    paths = _session_paths(ordered)
    said = [s for s in _user_sentences(ordered)[-MAX_SENTENCES:] if not _names_task(s, paths)]
    vocabulary = _session_words(ordered)
    # Only sentences that share enough words are compared (an index of the words seen so far).
    having: dict[str, list[int]] = {}
    group_of: list[int] = []
    groups: list[list[Said]] = []
    for index, item in enumerate(said):
        shared = Counter(j for word in item.words for j in having.get(word, ()))
        partner = next(
            (
                j
                for j in sorted(shared)
                if shared[j] >= min(MIN_SHARED_WORDS, len(item.words), len(said[j].words))
                and _again(said[j], item)
                and not _other_tasks(said[j], item, vocabulary)
            ),
            None,
        )
        if partner is None:
            group_of.append(len(groups))
            groups.append([item])
        else:
            group_of.append(group_of[partner])
            groups[group_of[partner]].append(item)
        for word in item.words:
            having.setdefault(word, []).append(index)
    found: list[RepeatedRequest] = []
    for group in groups:
        sessions = {s.session_id for s in group}
        if len(sessions) < 2:
            continue
        # the latest message's shortest wording: a clause of its own over the task around it
        latest = min((s for s in group if s.event_id == group[-1].event_id), key=_length)
        found.append(
            RepeatedRequest(
                key=_key(group[0].sentence),  # the first wording: stable as it recurs
                wording=_quote(latest.whole or latest.sentence),
                sessions=len(sessions),
                event_ids=tuple(dict.fromkeys(s.event_id for s in group)),
            )
        )
    found.sort(key=lambda r: -r.sessions)
    return found[:MAX_REQUESTS]


def _length(said: Said) -> int:
    return len(said.sentence)


def _quote(sentence: str) -> str:
    flat = sentence.strip().rstrip(".!;。！；")
    if len(flat) <= MAX_QUOTE_CHARS:
        return flat
    cut = flat[:MAX_QUOTE_CHARS].rsplit(" ", 1)[0]
    return cut + " …"


def _key(sentence: str) -> str:
    """`pref:asked:` and the sentence's words, or a digest of it where they are not ASCII."""
    slug = key_slug(sentence)
    if len(slug.split("_")) < 2:
        slug = hashlib.sha256(" ".join(words_of(sentence)).encode()).hexdigest()[:12]
    return f"{PREFIX}{slug}"
