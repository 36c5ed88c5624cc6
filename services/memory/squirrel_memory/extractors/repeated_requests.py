"""Requests the user makes again in another session, in any wording and any language.

The preference rules recognise instructions by their form in English ("always …", "from now
on …"). A user who writes in another language, or who never says "always", still shows a habit
the same way: they ask for the same thing again in a later session. The sentences, clauses and
short requests of the user's messages that may ask for something (`said_requests`) are compared
across sessions, without any word list of a language: by their content words, leaving out the
words the user puts in a large share of all their sentences (the glue words of whatever
language they write in, found from their own text), and by their letter trigrams.

Two sentences are one request when they share at least `MIN_SHARED_WORDS` content words and
both measures agree (`same_request`); a short request is said again when each of its content
words is in a request of another session, and the memory then quotes the sentence it stands
in, since its few words alone lose what they were about. Two tasks of one form ("fix the
failing login test" / "… signup test") are not one request: the words that differ name what
only one of the two sessions works on (`_other_tasks`), or they are the same sentence with one
or two words put in another's place ("fix the failing checkout test" / "fix the failing cart
test", "run the linter before you commit" / "run the formatter …": `slot_apart`), even where
nothing else the sessions hold names the words; a sentence and another's clause are one form
filled with two things when any clause of one is one slot apart from a clause of the other.

The same message sent again whole (`MAX_SAME_MESSAGE`) is one task asked again (after an
interrupt, or in a new session after a crash), not a habit; and a request must come back in
another session: said twice in one session it is that session's task. Only what the user typed
counts: not a slash command, the host's or a hook's text.

A request whose words name the files its session works on ("Fix the flaky chunk upload test",
with `src/upload/chunks.ts` edited) is about the task at hand, not a habit (`_names_task`): a
short one naming one part of those paths, a longer one naming `MIN_TASK_WORDS`.

The memory quotes the user's latest wording, its shortest form (the clause that asks, not the
task around it: a habit is stated by what the evidence shows, not paraphrased into a broader
rule) and says in how many sessions it was asked.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass

from squirrel_core.events import Origin
from squirrel_memory.extractors.activity import user_requests
from squirrel_memory.extractors.said_requests import (
    MIN_SHORT_WORDS,
    MIN_WORDS,
    dice,
    request_clauses,
    request_sentences,
    sentence_parts,
    short_requests,
    slot_apart,
    trigrams,
    unspaced,
    words_of,
)
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

#: The user's own typing (not a slash command's arguments, not an answer to a question).
ORIGINS = frozenset({str(Origin.TYPED), str(Origin.QUEUED)})
PREFIX = "pref:asked:"
#: The tag of a request found said again; the memory's words before the user's quote.
TAG = "asked_again"
LEAD = "In {n} sessions the user asked"
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
#: The newest sentences of the user's compared (the pass reads every session each time).
MAX_SENTENCES = 2_000
#: Requests kept per project, the most repeated first.
MAX_REQUESTS = 5
MAX_QUOTE_CHARS = 160


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
    grams = dice(a.grams, b.grams)
    return (share >= MOST_WORDS and grams >= MIN_GRAM_SHARE) or (
        share >= MIN_WORD_SHARE and grams >= MOST_GRAMS
    )


def _sent_again(a: Said, b: Said) -> bool:
    """The same whole message sent again, a message that says more than the request: one
    task asked again, not a habit."""
    return (
        max(len(a.message), len(b.message)) > TASK_SHARE * max(len(a.sentence), len(b.sentence))
        and dice(trigrams(a.message), trigrams(b.message)) >= MAX_SAME_MESSAGE
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
        slot_apart(
            [w for w in words_of(one) if w in a.words], [w for w in words_of(other) if w in b.words]
        )
        for one in sentence_parts(a.sentence)
        for other in sentence_parts(b.sentence)
    )


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
        if len(word) >= MIN_OBJECT_CHARS or unspaced(word)
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
