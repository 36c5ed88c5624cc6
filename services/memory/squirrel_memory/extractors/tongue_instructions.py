"""Instructions a user gives in a language other than English, kept in their own words.

The English forms (`preferences`) read "always", "don't", "I prefer", "from now on": a user who
writes in French, Russian or Japanese says the same with their language's markers
(`tongue_markers`), and the decision is the English one, made on those markers and on shape:

- a clause is an instruction only when it carries a directive marker (the prohibitive form,
  "I prefer", "you must", the polite imperative) and is not a question;
- it is *standing* when it carries a rule marker ("always", "never", "every time", "by
  default") or comes after a "from now on" in its message, or when the user says they said it
  before ("as I said");
- otherwise it is *tentative* (low importance, promoted by `recurrence` when it comes back in
  another session) only as a prohibition, a stated preference or a correction of what the
  assistant just did; a plain polite request ("please fix the parser") is a task, never kept,
  and a clause tied to the moment ("for now", "this time", "yet") is dropped unless said as a
  rule.
- a question is no instruction, but for "did you …?" after the assistant's work naming a step
  in code (a command, not a file): what finishing includes, tentative and a correction, as
  "did you push?" is in English.

The memory quotes the user's clause and says in English what kind of statement it is and in
which language it was said. Its key is the code the clause names (`cargo test`, `main`,
`src/app.py`) when it names some, so "never push to `main`" in French and in German is one
instruction; else the clause's own words without the markers.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace

from squirrel_memory.extractors.applied_files import INTERIM_TAG
from squirrel_memory.extractors.clauses import clauses
from squirrel_memory.extractors.firmness import (
    CORRECTION_STEP,
    CORRECTION_TAG,
    EMPHASIS_STEP,
    EMPHASIS_TAG,
    MAX_STATED_IMPORTANCE,
    REPEATED_IMPORTANCE,
    SAID_BEFORE_TAG,
    STANDING_IMPORTANCE,
    STANDING_TAG,
    TENTATIVE_IMPORTANCE,
    TENTATIVE_TAG,
    StatedPreference,
)
from squirrel_memory.extractors.instruction_keys import instruction_key, topic
from squirrel_memory.extractors.instruction_scope import instruction_scope
from squirrel_memory.extractors.instruction_words import instruction_words
from squirrel_memory.extractors.reply_language import (
    function_word_counts,
    language_name,
    message_language,
)
from squirrel_memory.extractors.tongue_markers import (
    CORRECT,
    DID,
    EMPHASIS,
    FROM_NOW,
    HEDGE,
    LANGUAGES,
    MUST,
    ONE_OFF,
    POLITE,
    PREFER,
    PROHIBIT,
    SAID,
    STANDING,
    TAKEN_BACK,
    WANT,
    Marked,
    interim_way,
    marker_spans,
    markers,
    script_language,
    verb_first_rule,
    without_correction,
)
from squirrel_memory.models import Scope

#: The fewest letters of the user's own words (markers left out) a kept clause has: "no,
#: please don't" says what not to do about nothing.
MIN_OWN_CHARS = 6
#: Function words and marker kinds a short message needs to be read in a Latin-script language.
MIN_LANGUAGE_SCORE = 2
#: The longest clause quoted whole; a longer one is not an instruction but a story.
MAX_QUOTED_CHARS = 200
#: What a code name looks like inside non-English prose: a backticked span, or a run of ASCII
#: letters with digits, dots, slashes, dashes or underscores (`main`, `cargo test`, `app.py`).
_CODE_SPAN = re.compile(r"`([^`\n]{1,80})`")
_ASCII_RUN = re.compile(
    r"(?<![A-Za-z0-9_/.-])[A-Za-z][A-Za-z0-9_./:@+-]*"
    r"(?:\s+--?[A-Za-z0-9_-]+|\s+[a-z][A-Za-z0-9_.-]*)*(?![A-Za-z0-9_])"
)
#: A Latin letter with a mark (é, ü, ñ, ç): the script of French, German, Spanish.
_LATIN = re.compile(r"[À-ɏ]")
_CODE_SHAPED = re.compile(r"[./_]\w|^--?\w|[a-z][A-Z]|\d")
_FILE_LIKE = re.compile(r"/|\w\.\w{1,5}$")
_QUESTION = re.compile(r"[?？]\s*$|か[。\s]*$")


def tongue_instructions(
    text: str, lang: str | None, *, after_assistant_action: bool
) -> list[StatedPreference]:
    """The instructions of a user message written in `lang` (a `reply_language` code), by the
    module's rules; none for English (None) or a language without markers."""
    if lang is None or lang not in LANGUAGES:
        return []
    listed = clauses(text)
    found: list[StatedPreference] = []
    kept_at = -1  # the clause the last instruction found was read from
    from_now = False
    correcting = False
    for index, (said, clause) in enumerate(listed):
        written = said
        if index == 0 and after_assistant_action and markers(lang, said).has(CORRECT):
            correcting = True
            written = without_correction(lang, said)
        marked = markers(lang, written)
        if marked.has(FROM_NOW):
            from_now = True
        if _QUESTION.search(written):
            # "did you run `cargo fmt`?" after the work: a step the user expects of finishing
            if after_assistant_action and marked.has(DID) and _steps(written):
                quoted = " ".join(written.split())
                found.append(_asked_done(lang, quoted, clause))
            continue
        # "from now on, always open a pull request": a rule said as a bare imperative
        directive = (
            marked.has(PROHIBIT, PREFER, WANT, MUST, POLITE)
            or (from_now and marked.has(STANDING))
            # "Lance toujours les tests avant de commit": the verb, then "always"
            or verb_first_rule(lang, written)
        )
        if not directive:
            if lifted := _said_before_lift(found, kept_at, index, marked):
                found[-1] = lifted  # "Keine Lombok-Annotationen. Das hatten wir schon besprochen."
                continue
            interim = interim_way(lang, written) and not marked.has(HEDGE, TAKEN_BACK)
            if interim and (kept := _interim(lang, " ".join(written.split()).strip(" ,;:"))):
                found.append(kept)
            continue
        said_before = marked.has(SAID)
        standing = from_now or marked.has(STANDING) or said_before
        if not standing:
            if marked.has(ONE_OFF):
                continue  # tied to the moment: "for now", "this time", "yet"
            if not (marked.has(PROHIBIT, PREFER) or correcting):
                continue  # a request of the task at hand, in any language
        quoted = " ".join(written.split()).strip(" ,;:")
        if len(quoted) > MAX_QUOTED_CHARS or len(_own_words(lang, quoted)) < MIN_OWN_CHARS:
            continue
        emphasis = (
            marked.has(EMPHASIS)
            or "!!" in written
            or "！！" in written
            or any(
                written[a:b].isupper() and len(written[a:b]) >= 3
                for a, b in marker_spans(lang, written)
            )
        )
        kept_at = index
        found.append(
            _instruction(
                lang,
                quoted,
                clause,
                standing=standing,
                prohibition=marked.has(PROHIBIT),
                preference=marked.has(PREFER, WANT),
                correction=correcting,
                emphasis=emphasis,
                said_before=said_before,
            )
        )
    return found


def _said_before_lift(
    found: list[StatedPreference], kept_at: int, index: int, marked: Marked
) -> StatedPreference | None:
    """The instruction of the clause just before, said again as a rule when this clause only
    says the user said it before ("Das hatten wir schon mal besprochen", "我之前说过"); None
    otherwise."""
    if not found or kept_at != index - 1 or not marked.has(SAID) or marked.has(HEDGE):
        return None
    before = found[-1]
    if before.standing:
        return None
    tags = tuple(STANDING_TAG if t == TENTATIVE_TAG else t for t in before.tags)
    quoted = before.content.split(": “", 1)[-1]
    name = before.content.split(", said by the user in ", 1)[-1].split(":", 1)[0]
    emphasis = EMPHASIS_TAG in before.tags
    return replace(
        before,
        content=f"Standing rule, said by the user in {name}: “{quoted}",
        tags=(*tags, SAID_BEFORE_TAG),
        importance=round(
            min(MAX_STATED_IMPORTANCE, REPEATED_IMPORTANCE + (EMPHASIS_STEP if emphasis else 0.0)),
            3,
        ),
        standing=True,
    )


def instruction_language(text: str) -> str | None:
    """The language of a user message for reading its instructions: `message_language`'s, or,
    for a message too short for it in a Latin-script language, the one whose function words and
    instruction markers outnumber English's function words ("Ne pousse jamais sur main"), a
    verb-first imperative counting as one more ("Verwende niemals var in JavaScript")."""
    found = message_language(text)
    if found is not None:
        return found
    plain = _CODE_SPAN.sub(" ", text)
    by_script = script_language(plain)
    if by_script is not None:
        seen = {k for _, clause in clauses(plain) for k in markers(by_script, clause).kinds}
        return by_script if seen - {CORRECT, ONE_OFF} else None
    english, counts = function_word_counts(text)
    scores: dict[str, int] = {}
    for lang, count in counts.items():
        said = [clause for _, clause in clauses(plain)]
        kinds = markers(lang, text).kinds | {
            k for clause in said for k in markers(lang, clause).kinds
        }
        # An imperative with its rule word after the verb speaks the language by its shape
        # ("Verwende niemals var in JavaScript" has no German function word).
        shaped = any(verb_first_rule(lang, clause) for clause in said)
        if (count or shaped) and kinds - {CORRECT, ONE_OFF}:
            scores[lang] = count + len(kinds) + shaped
    if not scores:
        return None
    best = max(scores.values())
    leaders = [lang for lang, score in scores.items() if score == best]
    if len(leaders) != 1 or best < MIN_LANGUAGE_SCORE or best <= english:
        return None
    return leaders[0]


def _own_words(lang: str, clause: str) -> str:
    """The letters of `clause` outside its markers."""
    spans = sorted(marker_spans(lang, clause))
    kept: list[str] = []
    at = 0
    for start, end in spans:
        if start > at:
            kept.append(clause[at:start])
        at = max(at, end)
    kept.append(clause[at:])
    return "".join(c for c in "".join(kept) if c.isalnum())


def code_names(clause: str) -> list[str]:
    """The code a non-English clause names: backticked spans; else, in a clause with letters
    of another script, runs of ASCII words; else words shaped like code (`app.py`, `user_id`,
    `--force`, `camelCase`), since in French or German an ASCII word is just a word."""
    spans = [s.strip() for s in _CODE_SPAN.findall(clause) if s.strip()]
    if spans:
        return spans
    runs = [m.group(0).strip() for m in _ASCII_RUN.finditer(clause) if len(m.group(0)) >= 2]
    if any(c.isalpha() and not c.isascii() and not _LATIN.match(c) for c in clause):
        return runs
    return [w for run in runs for w in run.split() if _CODE_SHAPED.search(w)]


def _key(lang: str, clause: str) -> str:
    """The instruction's key: the code it names, or a digest of its own words."""
    named = code_names(clause)
    if named:
        return instruction_key(" ".join(named))
    spans = sorted(marker_spans(lang, clause))
    own = clause
    for start, end in reversed(spans):
        own = own[:start] + " " + own[end:]
    words = sorted(instruction_words(own))
    digest = hashlib.sha256(" ".join(words).encode()).hexdigest()[:10]
    return f"pref:said_{lang}_{digest}"


def _steps(clause: str) -> list[str]:
    """The code a clause names that can be a step of work (a command, a tool), not a file or
    a path ("did you see the error in `src/main.rs`?" asks about a file, no step)."""
    return [n for n in code_names(clause) if not _FILE_LIKE.search(n)]


def _asked_done(lang: str, quoted: str, clause: str) -> StatedPreference:
    """A step asked after the assistant reported its work ("did you push?"): tentative, a
    correction, keyed by the code it names so another session's asking promotes it."""
    named = " ".join(_steps(quoted))
    content = (
        f"What finishing includes, asked after the assistant's work by the user in "
        f"{language_name(lang)}: “{quoted}”."
    )
    tags = tuple(t for t in ("preference", topic(named), TENTATIVE_TAG, CORRECTION_TAG) if t)
    return StatedPreference(
        key=instruction_key(named),
        content=content,
        tags=tags,
        scope=instruction_scope(clause),
        importance=round(TENTATIVE_IMPORTANCE + CORRECTION_STEP, 3),
        correction=True,
    )


def _interim(lang: str, quoted: str) -> StatedPreference | None:
    """An interim convention ("for now we code in relative"): how this project's work is done
    until the user says otherwise; tentative, of this project, promoted when it comes back."""
    if len(quoted) > MAX_QUOTED_CHARS or len(_own_words(lang, quoted)) < MIN_OWN_CHARS:
        return None
    content = (
        f"Interim convention of this project, said by the user in {language_name(lang)}: "
        f"“{quoted}”."
    )
    named = " ".join(code_names(quoted))
    tags = tuple(
        t for t in ("preference", topic(named) if named else None, TENTATIVE_TAG, INTERIM_TAG) if t
    )
    return StatedPreference(
        key=_key(lang, quoted),
        content=content,
        tags=tags,
        scope=Scope.PROJECT,
        importance=TENTATIVE_IMPORTANCE,
    )


def _instruction(
    lang: str,
    quoted: str,
    clause: str,
    *,
    standing: bool,
    prohibition: bool,
    preference: bool,
    correction: bool,
    emphasis: bool,
    said_before: bool,
) -> StatedPreference:
    """The memory of one instruction: the user's words quoted, their kind said in English."""
    if standing:
        kind = "Standing rule"
    elif correction:
        kind = "Correction of the assistant's work"
    elif prohibition:
        kind = "Something the user asked not to be done"
    elif preference:
        kind = "Preference"
    else:
        kind = "Instruction"
    content = f"{kind}, said by the user in {language_name(lang)}: “{quoted}”."
    named = " ".join(code_names(quoted)) or " ".join(
        m.group(0) for m in _ASCII_RUN.finditer(quoted)
    )
    marks = (
        CORRECTION_TAG if correction else None,
        EMPHASIS_TAG if emphasis else None,
        SAID_BEFORE_TAG if said_before else None,
    )
    tags = tuple(
        t
        for t in (
            "preference",
            topic(named) if named else None,
            STANDING_TAG if standing else TENTATIVE_TAG,
            *marks,
        )
        if t
    )
    if not standing:
        importance = TENTATIVE_IMPORTANCE + (CORRECTION_STEP if correction else 0.0)
    elif said_before:
        importance = REPEATED_IMPORTANCE
    else:
        importance = STANDING_IMPORTANCE
    importance = min(MAX_STATED_IMPORTANCE, importance + (EMPHASIS_STEP if emphasis else 0.0))
    return StatedPreference(
        key=_key(lang, quoted),
        content=content,
        tags=tags,
        scope=instruction_scope(clause),
        importance=round(importance, 3),
        correction=correction,
        standing=standing,
    )


__all__ = ["code_names", "instruction_language", "tongue_instructions"]
