"""The language the user writes to the assistant in, when it is not English: a reply habit.

A user who writes their requests in Chinese, Japanese, Russian or Spanish expects answers in that
language, and never says so: it shows in every message. The language of one message is read
from its own words, without a dictionary of the task: the script its letters are written in
(Han without kana is Chinese, kana is Japanese, Hangul Korean, Cyrillic Russian or, with its
own letters, Ukrainian, and so on), or, for the languages written in Latin letters, the short
function words every sentence of them has ("que", "und", "les", "não"), against English's.

What is not the user's writing is left out first: code blocks, inline code, quoted lines,
URLs and paths. A message that asks for a translation quotes another language (it says what to
translate, not what the user writes in), and a message with fewer than `MIN_UNITS` words in
the language says too little. The habit needs `MIN_MESSAGES` of the user's messages in one
language, most of the messages that are in any language: a user who pastes one foreign text,
or writes English with one foreign greeting, has no such habit.

Read over every session of a project (`project_work`), the same rules add up sessions of one
short message each, and a language most sessions do not show is no habit (`MIN_SESSION_SHARE`):
one session in Korean among many in English says nothing of how the user writes.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass

from squirrel_memory.extractors.activity import user_requests
from squirrel_memory.extractors.firmness import STANDING_IMPORTANCE, STANDING_TAG
from squirrel_memory.extractors.own_words import own_words
from squirrel_memory.extractors.wording import strip_markdown, word_set
from squirrel_memory.models import StoredEvent

KEY = "pref:reply_language"
TAGS = ("preference", "language", STANDING_TAG)
#: A language the user writes every request in is a standing fact of how to answer them.
IMPORTANCE = STANDING_IMPORTANCE
#: Messages in the language the habit needs, and their share of the messages in any language.
MIN_MESSAGES = 2
MIN_SHARE = 0.6
#: The language's share of the sessions with a message that says enough to tell.
MIN_SESSION_SHARE = 0.5
#: Words a message needs in the language (Chinese, Japanese and Thai, written without spaces,
#: count `CHARS_PER_WORD` characters as one word).
MIN_UNITS = 4
CHARS_PER_WORD = 2
#: The language's share of a message's words for the message to be in it.
MIN_MESSAGE_SHARE = 0.5
#: Function words of a Latin-script language a message needs, ahead of English's.
MIN_FUNCTION_WORDS = 3

#: Language name in English and in its own words, for the memory's text.
_NAMES = {
    "zh": ("Chinese", "中文"),
    "ja": ("Japanese", "日本語"),
    "ko": ("Korean", "한국어"),
    "ru": ("Russian", "русский"),
    "uk": ("Ukrainian", "українська"),
    "el": ("Greek", "ελληνικά"),
    "ar": ("Arabic", "العربية"),
    "he": ("Hebrew", "עברית"),
    "hi": ("Hindi", "हिन्दी"),
    "th": ("Thai", "ไทย"),
    "es": ("Spanish", "español"),
    "pt": ("Portuguese", "português"),
    "fr": ("French", "français"),
    "de": ("German", "Deutsch"),
    "it": ("Italian", "italiano"),
}
#: Words nearly every sentence of a language has and English has not (none is an English word).
_FUNCTION_WORDS = {
    "es": "que el los las por para una con del como pero está esto eso también muy hay puedes "
    "quiero necesito hacer cuando ahora",
    "pt": "que não uma com para por como mas está isso também muito você quero preciso fazer "
    "quando agora são então",
    "fr": "les des une que est pour pas avec dans sur mais ça cette aussi très faire peux veux "
    "quand maintenant je tu nous vous ne oui donc alors moi mon à où fais voudrais puis ensuite "
    "qu j",
    "de": "und der die das ist nicht ein eine mit für auf auch bitte wenn jetzt noch kannst "
    "möchte werden diese wir als kein keine nein sind uns oder aber",
    "it": "che il della per una con non sono anche questo quando adesso puoi voglio fare come "
    "ma gli delle",
}
_FUNCTION = {lang: frozenset(words.split()) for lang, words in _FUNCTION_WORDS.items()}
_ENGLISH = word_set(
    "the and is are to of for with this that it you please can should not but when now what ",
    "how why do does be",
)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
#: A word with a file's extension is tried from the word's start only (a match inside a word
#: would have matched from its start), so a long word is read once, not once per letter.
_URL_OR_PATH = re.compile(
    r"\b\w+://\S+|(?:~|\.{1,2})?/[\w.@%+-]+(?:/[\w.@%+-]+)+|(?<!\S)\S+\.\w{1,4}\b"
)
#: A request for a translation quotes the language it asks about.
#: The language a memory of this habit names ("… in Korean (한국어), …").
_STATED = re.compile(r"writes to the assistant in ([^\W\d_]+) \(")
_TRANSLATION = re.compile(r"translat|traduc|übersetz|翻[译譯訳]|перев[оe]д", re.IGNORECASE)
_LATIN_WORD = re.compile(r"[^\W\d_]+")
#: A token written as code has an identifier's punctuation in it (`Store::var(`, `$ARGS`,
#: `task_get`, `user@host:~/x$`); a word's closing comma, colon or question mark is none.
_CODE_MARKS = frozenset("_${}()[]=<>#@\\|;:")
_CLOSING = ".,:;!?\"')»”"
#: Letters only one of the two Cyrillic languages writes, and everyday words only one of them
#: has (the rest of a message's Cyrillic words say nothing between them).
_UKRAINIAN_LETTERS = frozenset("іїєґ")
_RUSSIAN_LETTERS = frozenset("ыэъё")
_UKRAINIAN_WORDS = word_set("що це як треба зробити зроби також щоб якщо дякую")
_RUSSIAN_WORDS = word_set(
    "что это как надо нужно сделай сделать тоже потому чтобы если сейчас пожалуйста спасибо",
    "также",
)
#: Scripts that name one language: a message leaning to them alone may stand for the habit.
_ONE_LANGUAGE_SCRIPTS = frozenset({"ko", "ja", "th", "el", "he"})
CYRILLIC = "cyrillic"
"""A Cyrillic message with nothing that tells Russian from Ukrainian (`message_lean`)."""


@dataclass(frozen=True, slots=True)
class ReplyLanguage:
    """The user's language, the memory's text and the messages that show it."""

    language: str
    content: str
    event_ids: tuple[str, ...]
    #: Sessions with a message in the language (events without a session count as one).
    sessions: int = 1


def _script(char: str) -> str | None:
    """The language a letter's script points at, `latin` or None (not a letter)."""
    if not char.isalpha():
        return None
    code = ord(char)
    if 0x3040 <= code <= 0x30FF:
        return "ja"  # kana
    if 0x3400 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF:
        return "han"
    if 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF:
        return "ko"
    name = unicodedata.name(char, "")
    for prefix, lang in (
        ("CYRILLIC", "cyrillic"),
        ("GREEK", "el"),
        ("ARABIC", "ar"),
        ("HEBREW", "he"),
        ("DEVANAGARI", "hi"),
        ("THAI", "th"),
        ("LATIN", "latin"),
    ):
        if name.startswith(prefix):
            return lang
    return None


def _plain(text: str) -> str:
    """The user's own prose: no code, quoted lines, URLs or paths."""
    text = own_words(text)
    text = _URL_OR_PATH.sub(" ", _INLINE_CODE.sub(" ", strip_markdown(text)))
    return " ".join(
        token for token in text.split() if not _CODE_MARKS & set(token.rstrip(_CLOSING))
    )


def cyrillic_language(words: list[str]) -> str:
    """`uk` or `ru` for Cyrillic `words` by the letters and words only one of them has, or
    `CYRILLIC` when they have neither or both."""
    uk = ru = 0
    for word in (w.lower() for w in words):
        uk += bool(set(word) & _UKRAINIAN_LETTERS) or word in _UKRAINIAN_WORDS
        ru += bool(set(word) & _RUSSIAN_LETTERS) or word in _RUSSIAN_WORDS
    if uk and not ru:
        return "uk"
    if ru and not uk:
        return "ru"
    return CYRILLIC


def message_language(text: str) -> str | None:
    """The language a user message is written in, when it is not English; else None."""
    plain = _plain(text)
    if _TRANSLATION.search(plain):
        return None
    units: dict[str, float] = defaultdict(float)
    for char in plain:
        script = _script(char)
        if script in ("han", "ja", "th", "ko"):  # Hangul's syllable blocks are counted alike
            units[script] += 1 / CHARS_PER_WORD
    words = _LATIN_WORD.findall(plain)
    cyrillic: list[str] = []
    for word in words:
        scripts = {_script(c) for c in word}
        if "cyrillic" in scripts:
            cyrillic.append(word)
            units["cyrillic"] += 1
        elif own := sorted(s for s in scripts if s in ("el", "ar", "he", "hi")):
            units[own[0]] += 1
        elif scripts <= {"latin"}:
            units["latin"] += 1
    if units.get("ja"):  # Japanese writes Han and kana together
        units["ja"] += units.pop("han", 0.0)
    if cyrillic and (found := cyrillic_language(cyrillic)) != CYRILLIC:
        units[found] += units.pop("cyrillic")
    total = sum(units.values())
    other = [(n, lang) for lang, n in units.items() if lang != "latin" and n]
    if other:
        count, lang = max(other)
        lang = "zh" if lang == "han" else lang
        ok = count >= MIN_UNITS and count >= MIN_MESSAGE_SHARE * total and lang != CYRILLIC
        return lang if ok else None
    return _latin_language(words)


def _latin_language(words: list[str]) -> str | None:
    """A Latin-script language by its function words, when they outnumber English's."""
    lowered = [w.lower() for w in words]
    english = sum(w in _ENGLISH for w in lowered)
    hits = {lang: sum(w in found for w in lowered) for lang, found in _FUNCTION.items()}
    lang, count = max(hits.items(), key=lambda item: item[1])
    if count < MIN_FUNCTION_WORDS or count <= english:
        return None
    runner_up = max(n for other, n in hits.items() if other != lang)
    return lang if count > runner_up else None


def function_word_counts(text: str) -> tuple[int, dict[str, int]]:
    """How many of English's function words the user's own prose in `text` has, and how many
    of each Latin-script language's: for telling a message too short for `message_language`."""
    lowered = [w.lower() for w in _LATIN_WORD.findall(_plain(text))]
    english = sum(w in _ENGLISH for w in lowered)
    return english, {lang: sum(w in found for w in lowered) for lang, found in _FUNCTION.items()}


def language_name(lang: str) -> str:
    """The English name of a language code `message_language` returns."""
    return _NAMES[lang][0] if lang in _NAMES else lang


def message_lean(text: str) -> str | None:
    """The language a message `message_language` cannot read alone leans to by its letters:
    those of one script other than Latin (Cyrillic told apart by `cyrillic_language`, so
    possibly `CYRILLIC`) and no English function word; None otherwise."""
    plain = _plain(text)
    if _TRANSLATION.search(plain):
        return None
    scripts = {found for char in plain if (found := _script(char)) not in (None, "latin")}
    if "ja" in scripts:  # Japanese writes Han and kana together
        scripts.discard("han")
    if len(scripts) != 1:
        return None
    words = _LATIN_WORD.findall(plain)
    if any(word.lower() in _ENGLISH for word in words):
        return None
    (script,) = scripts
    if script == "cyrillic":
        return cyrillic_language([w for w in words if _script(w[0]) == "cyrillic"])
    return "zh" if script == "han" else script


def reply_language(events: list[StoredEvent]) -> ReplyLanguage | None:
    """The user's reply-language habit in `events` (see the module's rules), or None."""
    decided: dict[str, list[str]] = defaultdict(list)
    leaning: dict[str, list[str]] = defaultdict(list)
    written = 0
    order: list[str] = []
    session_of: dict[str, str] = {}
    told: set[str] = set()  # sessions with a message that says enough to tell
    for event, text in user_requests(events):
        order.append(event.id)
        session_of[event.id] = event.session_id or ""
        if (found := message_language(text)) is not None:
            decided[found].append(event.id)
        elif (lean := message_lean(text)) is not None:
            leaning[lean].append(event.id)
        else:  # English, when it says enough to tell
            latin = [w for w in _LATIN_WORD.findall(_plain(text)) if _script(w[0]) == "latin"]
            if len(latin) >= MIN_UNITS:
                written += 1
                told.add(session_of[event.id])
            continue
        written += 1
        told.add(session_of[event.id])
    cyrillic = {lang for lang in (*decided, *leaning) if lang in ("uk", "ru")}
    if len(cyrillic) > 1:  # Russian and Ukrainian both told apart: nothing decides
        return None
    said: dict[str, list[str]] = {
        lang: decided.get(lang, []) + leaning.get(lang, [])
        for lang in {*decided, *leaning} - {CYRILLIC}
    }
    if cyrillic:
        said[next(iter(cyrillic))] += leaning.get(CYRILLIC, [])
    if not said:
        return None
    lang, ids = max(said.items(), key=lambda item: (len(item[1]), len(decided.get(item[0], []))))
    alone = bool(decided.get(lang)) or (lang in _ONE_LANGUAGE_SCRIPTS and len(ids) == written)
    enough = len(ids) >= MIN_MESSAGES or len(ids) == written
    if not alone or not enough or len(ids) < MIN_SHARE * written:
        return None
    sessions = len({session_of[i] for i in ids})
    if sessions < MIN_SESSION_SHARE * len(told):  # most sessions are in another language
        return None
    name, own = _NAMES[lang]
    share = f"{len(ids)} of {written} messages" if written > 1 else "its one message"
    if sessions > 1:
        share += f" in {sessions} sessions"
    content = f"The user writes to the assistant in {name} ({own}), {share}: reply in {name}."
    return ReplyLanguage(lang, content, tuple(i for i in order if i in set(ids)), sessions)


def stated_language(content: str) -> str | None:
    """The language a memory of this habit names (its English name), or None."""
    found = _STATED.search(content)
    return found.group(1) if found else None


__all__ = [
    "CYRILLIC",
    "IMPORTANCE",
    "KEY",
    "TAGS",
    "ReplyLanguage",
    "function_word_counts",
    "language_name",
    "message_language",
    "message_lean",
    "reply_language",
    "stated_language",
]
