"""The habits of every reply the user states, each under one key whatever the words: no summary
closing a reply ("no summary at the end", "skip the recap", "don't summarise what you did"), its
length ("short replies please", "keep your answers short"), no explanation unasked ("don't
bother explaining"), and its form (bullet points, plain text, code in fenced blocks, only the
changed lines shown).

These are cue tables; `workflow_habits` reads a user message with them, as it reads the other
workflow habits. A reply habit may follow the task after an "and" in the same sentence ("fix it
and keep your answers short"), which `AND_CLAUSE` finds; `OWN_WORDS` are the cues of the reply
habits another rule may already read in its own words ("be concise").
"""

from __future__ import annotations

import re

SUMMARY_KEY = "pref:no_closing_summary"
LENGTH_KEY = "pref:answer_length"
EXPLAIN_KEY = "pref:no_unasked_explanations"
BULLETS_KEY = "pref:reply_in_bullets"
PLAIN_KEY = "pref:reply_in_plain_text"
FENCED_KEY = "pref:code_in_fenced_blocks"
CHANGED_LINES_KEY = "pref:changed_lines_only"
#: No summary closing each reply: "no summary at the end", "skip the recap at the end of your
#: replies", "don't summarize what you did at the end" (not "summarize what changed").
SUMMARY = (
    re.compile(
        r"\b(?:no|skip\s+(?:the|a)|without\s+(?:the|a)|drop\s+the|leave\s+out\s+the|"
        r"(?:don'?t|do not|stop)\s+(?:add|writ|giv|includ|end with|put)\w*\s+(?:the\s+|a\s+)?)"
        r"\s*(?:final\s+|closing\s+)?(?:summary|summaries|recap|wrap-up)\b[^.?!;]{0,30}?"
        r"\bat\s+the\s+end\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:don'?t|do not|stop|avoid|no need to|(?:you\s+)?(?:don'?t|do not)\s+(?:need|have)\s+"
        r"to)\s+(?:summari[sz]|recap)\w*\b[^.?!;]{0,40}?\bat\s+the\s+end\b",
        re.IGNORECASE,
    ),
    # no recap please / skip the final summary / no need for a summary when you're done
    re.compile(
        r"\b(?:no|skip\s+the|leave\s+out\s+the|drop\s+the|no\s+need\s+for\s+(?:a|the))\s+"
        r"(?:final\s+|closing\s+)?(?:summary|summaries|recap|wrap-up)"
        r"(?=\s*(?:$|[.!]|please\b|,|\s(?:when|once|after)\s+you(?:'re|\s+are)?\s+(?:done|finish)))",
        re.IGNORECASE,
    ),
    # don't summarise what you did / you don't need to recap your changes
    re.compile(
        r"\b(?:don'?t|do not|no need to|(?:you\s+)?(?:don'?t|do not)\s+(?:need|have)\s+to)\s+"
        r"(?:summari[sz]e|recap)\s+(?:what\s+you(?:'ve)?\s+(?:did|done|changed)|your\s+(?:changes|"
        r"work)|the\s+changes\s+you\s+made)\b",
        re.IGNORECASE,
    ),
)
_REPLIES = r"(?:answers?|replies|reply|responses?|messages)"
_SHORT = r"(?:very\s+|really\s+)?(?:short|shorter|brief|briefer|concise|terse|succinct)"
#: The length of every reply: "keep your answers short and …", "short replies please", "answers
#: should be brief", "be brief and to the point" (not "keep this function short", "answer this
#: one briefly").
LENGTH = (
    # (not "keep the responses short in the API docs": the docs' own)
    re.compile(
        rf"\b(?:keep|make)\s+(?:your\s+|the\s+)?{_REPLIES}\s+{_SHORT}\b"
        r"(?!\s+(?:in|of|for|on)\s+(?:the|this|that|our|these|those)\b)",
        re.I,
    ),
    re.compile(rf"^{_SHORT}\s+{_REPLIES}(?=\s*(?:$|[.!]|please\b|,))", re.I),
    re.compile(rf"^(?:your\s+)?{_REPLIES}\s+should\s+(?:always\s+)?be\s+{_SHORT}\b", re.I),
    re.compile(r"^be\s+(?:brief|concise|terse|succinct)\s+and\s+to\s+the\s+point\b", re.I),
)
#: No explanation the user did not ask for: "don't bother explaining", "just give me the code,
#: no explanation", "skip the explanations", "you don't have to explain what each line does"
#: (not "explain this function", "can you explain what this regex does?").
EXPLAIN = (
    re.compile(
        r"\b(?:don'?t|do not|never|no need to|(?:you\s+)?(?:don'?t|do not)\s+(?:need|have)\s+to)"
        r"\s+(?:bother\s+)?explain(?:ing)?\b(?!\s+(?:this|that|the\s+\w+\s+(?:in|to)\s+the)\b)",
        re.IGNORECASE,
    ),
    re.compile(r"\b(?:skip|drop|leave\s+out)\s+the\s+explanations\b", re.IGNORECASE),
    re.compile(r"\bno\s+explanations?(?=\s*(?:$|[.!]|please\b|,|needed\b))", re.IGNORECASE),
)
#: The form of every reply: "answer in bullet points", "use bullet points when you list things",
#: "write your replies in plain text", "put code in fenced blocks", "show only the changed
#: lines, not the whole file" (not "write the commit message in bullet points").
BULLETS = (
    re.compile(
        r"\b(?:answer|reply|respond|write\s+your\s+(?:answers|replies))\s+(?:in|with|using)\s+"
        r"(?:(?:short|brief|concise|terse)\s+)?bullet(?:\s+points|s)\b",
        re.IGNORECASE,
    ),
    re.compile(r"\buse\s+bullet(?:\s+points|s)\s+when(?:ever)?\s+you\b", re.IGNORECASE),
)
PLAIN = (
    re.compile(
        rf"\b(?:write|keep)\s+(?:your\s+|the\s+|all\s+)?{_REPLIES}\s+(?:in\s+)?plain(?:\s+text)?\b",
        re.IGNORECASE,
    ),
)
FENCED = (
    re.compile(
        r"\b(?:put|wrap|show)\s+(?:all\s+|any\s+)?code\s+(?:snippets\s+)?in\s+fenced\s+"
        r"(?:code\s+)?blocks\b",
        re.IGNORECASE,
    ),
)
CHANGED_LINES = (
    re.compile(
        r"\b(?:show|give)\s+(?:me\s+)?only\s+the\s+(?:changed\s+lines|lines\s+(?:that\s+|you\s+)"
        r"changed?)\b",
        re.IGNORECASE,
    ),
)
#: Habits of every reply, which may follow the task after an "and" in the same sentence ("fix
#: it and keep your answers short").
REPLY_KEYS = frozenset(
    {SUMMARY_KEY, LENGTH_KEY, EXPLAIN_KEY, BULLETS_KEY, PLAIN_KEY, FENCED_KEY, CHANGED_LINES_KEY}
)
OWN_WORDS = {
    LENGTH_KEY: LENGTH,
    EXPLAIN_KEY: EXPLAIN,
    BULLETS_KEY: BULLETS,
    PLAIN_KEY: PLAIN,
    FENCED_KEY: FENCED,
    CHANGED_LINES_KEY: CHANGED_LINES,
}
AND_CLAUSE = re.compile(r"\s(?:and|but)\s+(?:please\s+|also\s+|just\s+)*$", re.IGNORECASE)
