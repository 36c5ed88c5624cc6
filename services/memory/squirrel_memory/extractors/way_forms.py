"""Short preferences about how the work is done, said without a rule word.

"no emojis please", "be more concise", "shorter answers please", "respond in Chinese", "I don't
want any new dependencies", "we don't use classes here", "less comments", "can you stop adding
comments": each names a way of working (how the assistant answers, how code is written, how
changes are made) rather than the task at hand. What tells them apart from a request about the
task is the object: a word of `WAY_WORDS` (answers, explanations, emojis, comments, dependencies,
abstractions, commits …), never "it", "this …" or a name from the code. Each is a tentative
instruction (the preference rules weigh it) except those that hold for all later work as said:
the language to answer in ("answer me in French"), how every answer is given, not compared
with the last one ("be brief", "short answers please"; not "be more concise"), what no answer
should have ("no emojis",
"no filler"), a kind of thing the project does without ("we don't use ORMs here"), the
language a kind of written text takes ("write commit messages in English", "code comments in
German please": a language people write in, never a programming language, and a kind of text,
never one document), and the length of every answer ("keep your answers short", not "keep it
short").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.wording import word_set

#: Words that name a way of working: how the assistant talks, how code is written, how changes
#: are made. Plural and singular both, stemmed by hand where English does it irregularly.
WAY_WORDS = word_set(
    "answer answers response responses reply replies explanation explanations explaining ",
    "summary summaries recap emoji emojis emoticons tone wording verbosity preamble preambles ",
    "apology apologies filler jargon bullet bullets headings markdown tables comment comments ",
    "docstring docstrings annotation annotations type hints typing log logs logging print ",
    "prints todo todos abstraction abstractions dependency dependencies library libraries ",
    "package packages framework frameworks class classes global globals mock mocks mocking ",
    "magic numbers helper helpers wrapper wrappers inheritance indentation tabs spaces ",
    "semicolons quotes function functions method methods file files line lines nesting commit ",
    "commits message messages branch branches force-push force-pushes merge merges amend test ",
    "tests fixture fixtures snapshot snapshots refactor refactors rewrite rewrites trailer ",
    "trailers co-author co-authors footer footers signature signatures attribution",
)
#: Adjectives of how the assistant should talk.
_TALK = (
    r"(?:concise|brief|terse|succinct|short|shorter|direct|to the point|less verbose|"
    r"more direct|more concise|briefer|straightforward)"
)
_TRAILING_PLEASE = re.compile(r"[\s,]*(?:please|pls|thanks|thank you)[\s.!]*$", re.IGNORECASE)
#: What a "no …" refuses in every answer, not in the work at hand ("no emojis", "no filler").
_HOW_IT_TALKS = word_set(
    "emoji emojis emoticons preamble preambles apology apologies filler jargon"
)
#: Words that pick a thing of the moment rather than name a kind.
_PICKED_WORDS = word_set("the this that these those it them my your our its one any")
#: "no emojis please", "no more mocks", "no comments in the code".
_NO = re.compile(r"^no\s+(?:more\s+)?(?P<x>[\w-]+(?:\s+[\w-]+){0,7})$", re.IGNORECASE)
#: "be concise", "be more direct in your answers", "keep your answers short".
_BE = re.compile(rf"^be\s+(?:a\s+bit\s+|much\s+|way\s+)?{_TALK}(?:\s+in\s+your\s+\w+)?$", re.I)
#: "shorter answers please", "less verbose responses", "fewer comments", "less comments".
_LESS = re.compile(
    r"^(?:shorter|briefer|less\s+verbose|fewer|less|more\s+concise)\s+(?P<x>[\w-]+(?:\s+[\w-]+)?)$",
    re.IGNORECASE,
)
#: "a bit more concise", "shorter", "less verbose": compared with the answer just given.
_COMPARED = re.compile(r"\b(?:more|less|shorter|briefer|bit|much|way)\b", re.IGNORECASE)
#: "short answers please", "concise replies": the length of every answer, not compared.
_SHORT_ANSWERS = re.compile(
    r"^(?:short|brief|concise|terse|succinct)\s+(?:answers|replies|responses)$", re.IGNORECASE
)
_LESS_VERBOSE = re.compile(r"^(?:less verbose|more concise|shorter|briefer)$", re.IGNORECASE)
#: "respond in Chinese", "please answer in English", "reply to me in German", "answer me in
#: French".
_ANSWER_IN = re.compile(
    r"^(?i:(?:always\s+)?(?:answer|respond|reply|talk|speak|write\s+(?:your\s+)?(?:answers|"
    r"replies))(?:\s+(?:to\s+)?me)?)\s+(?:only\s+)?in\s+(?P<lang>[A-Z][a-z]+|[^\x00-\x7f]{2,8})"
    # "…, even if I write German": whatever language the user writes in
    r"(?i:,?\s+even\s+(?:if|when|though)\s+i\s+(?:write|speak|talk)\b[^,;]{0,40})?$"
)
#: Natural languages a user may ask text to be written in (not programming languages: "write
#: the docs in Rust" is no language of prose).
LANGUAGE_NAMES = word_set(
    "English Chinese Japanese Korean Russian Ukrainian Greek Arabic Hebrew Hindi Thai Spanish ",
    "Portuguese French German Italian Dutch Polish Czech Swedish Norwegian Danish Finnish ",
    "Turkish Vietnamese Indonesian Persian Hungarian Romanian Bulgarian Catalan",
)
#: The language to answer in, asked in that language: "用中文回答", "请用中文回复",
#: "日本語で答えて", "한국어로 답변해 주세요". The language's own name, then a verb of answering.
_ANSWER_IN_OWN = re.compile(
    r"^(?:(?:请|請)?(?:你)?(?:以后|以後|今后|今後)?(?:都)?用(?P<zh>中文|汉语|漢語|英文|英语|日文|日语|"
    r"韩文|韩语)(?:来|來)?(?:回答|回复|回覆|答复|答覆|交流|沟通|溝通|对话|對話)(?:我)?(?:吧|哦|啊)?"
    r"|(?P<ja>日本語|英語)で(?:答えて|回答して|返答して|返事して|話して)(?:ください|くれ|ね)?"
    r"|(?P<ko>한국어|영어)로\s*(?:답변|대답|응답)(?:해\s*주세요|해줘|해요|하세요|해)?)"
    r"[\s。！!.]*$"
)
_OWN_NAMES = {
    "中文": "Chinese",
    "汉语": "Chinese",
    "漢語": "Chinese",
    "英文": "English",
    "英语": "English",
    "英語": "English",
    "日文": "Japanese",
    "日语": "Japanese",
    "日本語": "Japanese",
    "韩文": "Korean",
    "韩语": "Korean",
    "한국어": "Korean",
    "영어": "English",
}
#: Text written for people that a language can be asked of: "write commit messages in
#: English", "code comments in English please", "always write the docs in German".
_WRITTEN_TEXT = (
    r"(?:(?:code\s+|git\s+)?comments|commit\s+messages?|docs|documentation|docstrings|"
    r"(?:pr|pull\s+request)\s+(?:descriptions?|titles?)|changelog\s+entries|log\s+messages|"
    r"error\s+messages|(?:user-facing|ui|visible)\s+(?:text|strings|copy|labels))"
)
_WRITE_IN = re.compile(
    rf"^(?:always\s+)?(?:(?:write|keep)\s+)?(?:(?:the|your|all|our)\s+)?(?P<x>{_WRITTEN_TEXT})"
    r"(?:\s+(?:always|only))?\s+in\s+(?P<lang>[A-Z][a-z]+)$",
    re.IGNORECASE,
)
#: What comes after a way in the same sentence that is a task of its own.
_TASK_AFTER = re.compile(r"^(?:and|then|also|but)\b", re.IGNORECASE)
#: The assistant's answers, by the words users call them.
_ANSWERS = word_set("answer answers reply replies response responses explanation explanations")
#: "keep your answers short", "keep the replies brief": how long the assistant's answers are.
_KEEP_SHORT = re.compile(
    r"^keep\s+(?:your\s+|the\s+|all\s+)?(?:answers|replies|responses|explanations|summaries|"
    rf"messages|updates|reports)\s+(?:very\s+|really\s+)?{_TALK}$",
    re.IGNORECASE,
)
#: "I don't want any new dependencies", "we don't like long functions", "I don't need comments".
_NOT_WANTED = re.compile(
    r"^(?:i|we)\s+(?:really\s+)?(?:don'?t|do not)\s+(?:want|like|need)\s+"
    r"(?:any\s+(?:more\s+)?|more\s+)?(?P<x>[\w-]+(?:\s+[\w-]+){0,3})$",
    re.IGNORECASE,
)
#: "we don't use classes here", "we don't mock the database": a practice of the team.
_WE_DONT = re.compile(
    r"^we\s+(?:don'?t|do not|never)\s+(?P<verb>use|write|add|mock|commit|push|merge|squash|"
    r"rebase|amend|vendor|pin)\s+(?P<x>[\w-]+(?:\s+[\w-]+){0,3}?)"
    r"(?P<place>\s+(?:here|in this (?:repo|repository|project|codebase)))?$",
    re.IGNORECASE,
)
#: "can you stop adding comments", "could you please stop apologising": a habit of making
#: something, not the run of the moment ("can you stop running the tests").
_STOP_ASKED = re.compile(
    r"^(?:can|could|would|will)\s+you\s+(?:please\s+)?stop\s+(?P<x>(?:adding|using|writing|"
    r"creating|putting|including|explaining|apologi[sz]ing|summari[sz]ing|repeating|asking|"
    r"committing|pushing|amending|mocking)\b.*?)[\s?.!]*$",
    re.IGNORECASE,
)
#: "no need to explain": the assistant's own habits of talking, not a step of the task.
_NO_NEED = re.compile(
    r"^(?:there'?s\s+)?no\s+need\s+to\s+(?P<x>explain|apologi[sz]e|summari[sz]e|recap|repeat|"
    r"ask|confirm|check with me)(?P<rest>\b.*)$",
    re.IGNORECASE,
)
#: Gerunds of the assistant's talking that need no object ("stop apologising").
_TALKING = word_set("explaining apologising apologizing summarising summarizing repeating asking")
_ONE_OFF = re.compile(r"\b(?:it|this|that|these|those|them|here|now|yet|today)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class WayStatement:
    """A short preference about a way of working: what to say, what to key it by, and whether
    it holds for all later work as said (the language to answer in)."""

    content: str
    subject: str
    standing: bool = False


def _names_a_way(text: str) -> bool:
    words = [w.strip(".,!?").lower() for w in text.split()]
    return bool(words) and any(w in WAY_WORDS for w in words) and not _ONE_OFF.search(text)


def _natural(lang: str) -> bool:
    """Whether `lang` names a language people write in ("English", "中文"), not a programming
    language or a format ("answer in Python" asks for code)."""
    return lang in LANGUAGE_NAMES or not lang.isascii()


def _a_kind(x: str) -> bool:
    """ "ORMs", "feature flags": a kind of thing in the plural, not "it" or "that library"."""
    words = x.lower().split()
    return words[-1].endswith("s") and words[0] not in _PICKED_WORDS


def way_statement(clause: str) -> WayStatement | None:
    """The way-of-working preference `clause` states in one of the short forms, or None."""
    text = _TRAILING_PLEASE.sub("", clause.strip()).strip(" .!")
    if not text or (text.endswith("?") and not _STOP_ASKED.match(text)):
        return None
    if (match := _ANSWER_IN.match(text)) and _natural(match.group("lang")):
        lang = match.group("lang")
        return WayStatement(f"Answer in {lang}", f"answer language {lang}", standing=True)
    if (match := _WRITE_IN.match(text)) and match.group("lang").title() in LANGUAGE_NAMES:
        lang, written = match.group("lang").title(), " ".join(match.group("x").lower().split())
        return WayStatement(f"Write {written} in {lang}", f"{written} language {lang}", True)
    if match := _ANSWER_IN_OWN.match(text):
        lang = _OWN_NAMES[next(g for g in match.groups() if g)]
        return WayStatement(f"Answer in {lang}", f"answer language {lang}", standing=True)
    # "keep your answers short, bullet points please": the length asked first, then the form
    first = _TRAILING_PLEASE.sub("", text.split(",", 1)[0]).strip(" .!")
    # (", and fix the parser": a task after it, not part of the way)
    said = first if _TASK_AFTER.match(text[len(first) :].lstrip(" ,")) else text
    if _KEEP_SHORT.match(text) or _KEEP_SHORT.match(first):  # "your answers": every answer
        return WayStatement(said, "answer length", standing=True)
    if _BE.match(text) or _LESS_VERBOSE.match(text):
        # "be brief": how every answer is given; "be more concise": than the answer just given
        return WayStatement(text, "answer length", standing=not _COMPARED.search(text))
    if _SHORT_ANSWERS.match(text):
        return WayStatement(text, "answer length", standing=True)
    if (match := _LESS.match(text) or _LESS.match(first)) and _names_a_way(match.group("x")):
        # "shorter replies", "less verbose answers": how long every answer is, one key
        length = match.group("x").lower().split()[-1] in _ANSWERS
        return WayStatement(said, "answer length" if length else match.group("x"))
    if (match := _NO.match(text)) and _names_a_way(match.group("x")):
        x = match.group("x")
        # "no emojis in commit messages": what nothing written should have, wherever it is
        return WayStatement(f"No {x}", x, standing=x.split()[0].lower() in _HOW_IT_TALKS)
    if (match := _NOT_WANTED.match(text)) and _names_a_way(match.group("x")):
        return WayStatement(f"Avoid {match.group('x')}", match.group("x"))
    if (match := _WE_DONT.match(text)) and (
        _names_a_way(match.group("x")) or (match.group("place") and _a_kind(match.group("x")))
    ):
        said = f"Don't {match.group('verb')} {match.group('x')}"
        return WayStatement(said, f"{match.group('verb')} {match.group('x')}", standing=True)
    if match := _STOP_ASKED.match(text):
        x = match.group("x")
        bare = x.split(maxsplit=1)[0].lower() in _TALKING
        return WayStatement(f"Avoid {x}", x) if bare or _names_a_way(x) else None
    if match := _NO_NEED.match(text):
        rest = match.group("rest").strip()
        if rest and not _names_a_way(rest):
            return None
        return WayStatement(f"Don't {match.group('x')} {rest}".strip(), match.group("x"))
    return None
