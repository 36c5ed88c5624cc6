"""The habits of every reply the user states, each under one key whatever the words: no summary
closing a reply ("no summary at the end", "skip the recap", "don't summarise what you did"), its
length ("short replies please", "keep your answers short"), no explanation unasked ("don't
bother explaining"), and its form (bullet points, plain text, code in fenced blocks, only the
changed lines shown).

These are one table of cues (`REPLY_HABITS`: key, statement lead, cues); `workflow_habits`
reads a user message with them, as it reads the other workflow habits. A reply habit may follow
the task after an "and" in the same sentence ("fix it and keep your answers short"), which
`AND_CLAUSE` finds; `OWN_WORDS` are the cues of the reply habits another rule may already read
in its own words ("be concise").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SUMMARY_KEY = "pref:no_closing_summary"
LENGTH_KEY = "pref:answer_length"
EXPLAIN_KEY = "pref:no_unasked_explanations"
BULLETS_KEY = "pref:reply_in_bullets"
PLAIN_KEY = "pref:reply_in_plain_text"
FENCED_KEY = "pref:code_in_fenced_blocks"
CHANGED_LINES_KEY = "pref:changed_lines_only"

_REPLIES = r"(?:answers?|replies|reply|responses?|messages)"
_SHORT = r"(?:very\s+|really\s+)?(?:short|shorter|brief|briefer|concise|terse|succinct)"
_RECAP = r"(?:final\s+|closing\s+)?(?:summary|summaries|recap|wrap-up)"
_BULLETS = r"bullet(?:\s+points|s)"
_DONT = r"don'?t|do not"
_NO_NEED = r"no need to|(?:you\s+)?(?:don'?t|do not)\s+(?:need|have)\s+to"


def _alone(*more: str) -> str:
    """The end of a cue said on its own: the sentence's end, a stop, "please", a comma (or
    `more`)."""
    return r"(?=\s*(?:$|[.!]|please\b|," + "".join(f"|{m}" for m in more) + "))"


@dataclass(frozen=True)
class ReplyHabit:
    """One habit of every reply: its key, how its statement opens, and the words that state it
    (`own_words`: another rule may already keep it in the user's own words)."""

    key: str
    lead: str
    cues: tuple[re.Pattern[str], ...]
    own_words: bool = True


def _cues(*patterns: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.IGNORECASE) for p in patterns)


REPLY_HABITS: tuple[ReplyHabit, ...] = (
    # No summary closing each reply: "no summary at the end", "skip the recap at the end of your
    # replies", "don't summarize what you did at the end" (not "summarize what changed").
    ReplyHabit(
        SUMMARY_KEY,
        "The user wants no summary at the end of a reply",
        _cues(
            r"\b(?:no|skip\s+(?:the|a)|without\s+(?:the|a)|drop\s+the|leave\s+out\s+the|"
            r"(?:don'?t|do not|stop)\s+(?:add|writ|giv|includ|end with|put)\w*\s+(?:the\s+|a\s+)?)"
            rf"\s*{_RECAP}\b[^.?!;]{{0,30}}?\bat\s+the\s+end\b",
            rf"\b(?:{_DONT}|stop|avoid|{_NO_NEED})\s+(?:summari[sz]|recap)\w*\b[^.?!;]{{0,40}}?"
            r"\bat\s+the\s+end\b",
            # no recap please / skip the final summary / no need for a summary when you're done
            r"\b(?:no|skip\s+the|leave\s+out\s+the|drop\s+the|no\s+need\s+for\s+(?:a|the))\s+"
            + _RECAP
            + _alone(r"\s(?:when|once|after)\s+you(?:'re|\s+are)?\s+(?:done|finish)"),
            # don't summarise what you did / you don't need to recap your changes
            rf"\b(?:{_DONT}|{_NO_NEED})\s+"
            r"(?:summari[sz]e|recap)\s+(?:what\s+you(?:'ve)?\s+(?:did|done|changed)|your\s+(?:changes|"
            r"work)|the\s+changes\s+you\s+made)\b",
        ),
        own_words=False,
    ),
    # The length of every reply: "keep your answers short and …", "short replies please",
    # "answers should be brief", "be brief and to the point" (not "keep this function short",
    # "answer this one briefly"; not "keep the responses short in the API docs": the docs' own).
    ReplyHabit(
        LENGTH_KEY,
        "The user wants short replies",
        _cues(
            rf"\b(?:keep|make)\s+(?:your\s+|the\s+)?{_REPLIES}\s+{_SHORT}\b"
            r"(?!\s+(?:in|of|for|on)\s+(?:the|this|that|our|these|those)\b)",
            rf"^{_SHORT}\s+{_REPLIES}" + _alone(),
            rf"^(?:your\s+)?{_REPLIES}\s+should\s+(?:always\s+)?be\s+{_SHORT}\b",
            r"^be\s+(?:brief|concise|terse|succinct)\s+and\s+to\s+the\s+point\b",
        ),
    ),
    # No explanation the user did not ask for: "don't bother explaining", "just give me the
    # code, no explanation", "skip the explanations", "you don't have to explain what each line
    # does" (not "explain this function", "can you explain what this regex does?").
    ReplyHabit(
        EXPLAIN_KEY,
        "The user wants no explanations they did not ask for",
        _cues(
            rf"\b(?:{_DONT}|never|{_NO_NEED})"
            r"\s+(?:bother\s+)?explain(?:ing)?\b(?!\s+(?:this|that|the\s+\w+\s+(?:in|to)\s+the)\b)",
            r"\b(?:skip|drop|leave\s+out)\s+the\s+explanations\b",
            r"\bno\s+explanations?" + _alone(r"needed\b"),
        ),
    ),
    # The form of every reply: "answer in bullet points", "use bullet points when you list
    # things", "write your replies in plain text", "put code in fenced blocks", "show only the
    # changed lines, not the whole file" (not "write the commit message in bullet points").
    ReplyHabit(
        BULLETS_KEY,
        "The user wants replies in bullet points",
        _cues(
            r"\b(?:answer|reply|respond|write\s+your\s+(?:answers|replies))\s+(?:in|with|using)\s+"
            rf"(?:(?:short|brief|concise|terse)\s+)?{_BULLETS}\b",
            rf"\buse\s+{_BULLETS}\s+when(?:ever)?\s+you\b",
        ),
    ),
    ReplyHabit(
        PLAIN_KEY,
        "The user wants replies in plain text",
        _cues(
            rf"\b(?:write|keep)\s+(?:your\s+|the\s+|all\s+)?{_REPLIES}\s+(?:in\s+)?plain(?:\s+text)?\b"
        ),
    ),
    ReplyHabit(
        FENCED_KEY,
        "The user wants code in fenced blocks",
        _cues(
            r"\b(?:put|wrap|show)\s+(?:all\s+|any\s+)?code\s+(?:snippets\s+)?in\s+fenced\s+"
            r"(?:code\s+)?blocks\b"
        ),
    ),
    ReplyHabit(
        CHANGED_LINES_KEY,
        "The user wants only the changed lines shown",
        _cues(
            r"\b(?:show|give)\s+(?:me\s+)?only\s+the\s+(?:changed\s+lines|lines\s+(?:that\s+|you\s+)"
            r"changed?)\b"
        ),
    ),
)
#: Each reply habit's cues, by its key.
REPLY_CUES = {habit.key: habit.cues for habit in REPLY_HABITS}
#: Habits of every reply, which may follow the task after an "and" in the same sentence ("fix
#: it and keep your answers short").
REPLY_KEYS = frozenset(REPLY_CUES)
OWN_WORDS = {habit.key: habit.cues for habit in REPLY_HABITS if habit.own_words}
#: A message that asks for an answer: a question, or a request opening with "explain", "why" …
ASKS_ANSWER = re.compile(
    r"[?？]|^[ \t]*(?:explain|describe|why|what|how|tell\s+me)\b", re.IGNORECASE | re.MULTILINE
)
#: The answer's length asked in a message that asks for one ("Why does it fail? Keep it short.",
#: "Explain the retry loop, briefly.", "简短回答。"); said of a text to write ("Rewrite the intro.
#: Keep it short.") it is that text's, so a message that asks nothing never counts.
ANSWER_SHORT = re.compile(
    r"^(?:please\s+)?keep\s+it\s+(?:short|brief)(?:\s+please)?\s*[.!]?$"
    r"|^(?:explain|describe|tell\s+me|why|what|how)\b[^.?!;]{0,160},\s*(?:briefly|in\s+brief|"
    r"in\s+short|in\s+a\s+few\s+words)\s*[.!]?$"
    r"|(?:^|[？?。！!][ \t]*)(?:简短|簡短|简洁|簡潔)(?:回答|点|一点|些|に)?[ \t]*[。.!！]?$",
    re.IGNORECASE,
)
AND_CLAUSE = re.compile(r"\s(?:and|but)\s+(?:please\s+|also\s+|just\s+)*$", re.IGNORECASE)
