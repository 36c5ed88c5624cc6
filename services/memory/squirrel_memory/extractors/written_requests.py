"""What a user asks a text to say: the words of a request to write one are its content, not a rule.

"Write a README that says IMPORTANT: never commit secrets" gives the README its warning; the user
states no rule of their own. `without_written_warnings` takes such words out of a message before
its preferences are read.
"""

from __future__ import annotations

import re

#: A request to write a text and the words it is to hold ("write a README that says …", "add a
#: comment saying: …", "create a page with the text '…'", "add a line to the README: '…'"):
#: those words are the text's content.
_WRITE_REQUEST = re.compile(
    r"\b(?:write|add|create|put|draft|generate|insert|include|update)\b(?:"
    r"(?:[^.!?\n]|\.(?=\w)){0,80}?"
    r"\b(?:(?:that|which)\s+(?:says?|reads?|states?)|saying|reading|stating|containing|"
    r"with the (?:text|line|words?|message|note|warning))\b[ \t]*:?|"
    # "add a line to the README: …": a piece of text named, then what it holds after a colon
    # ("add the tests: IMPORTANT: …" names none, and its warning is the user's).
    r"(?:[^.!?\n:]|\.(?=\w)){0,40}?\b(?:line|sentence|note|comment|warning|paragraph|banner|"
    r"message|text|notice|docstring|caption|callout)s?\b(?:[^.!?\n:]|\.(?=\w)){0,40}?:)"
    r"\s*(?P<quote>[\"'“‘`]?)",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")
_PARAGRAPH_END = re.compile(r"\n\s*\n")
#: Where quoted words end, by their opening quote (or at the line's end).
_CONTENT_END = {
    q: re.compile(rf"{re.escape(c)}|\n")
    for q, c in (('"', '"'), ("'", "'"), ("“", "”"), ("‘", "’"), ("`", "`"))
}
#: The stress label a written text's warning opens with ("IMPORTANT: …", "NB: …").
_STRESS_LABEL = re.compile(
    r"(?:(?:very|really|super)\s+)?(?:important|crucial|critical|essential|nb|n\.b|"
    r"heads[- ]up|reminder|note|warning|caution)\.?\s*:",
    re.IGNORECASE,
)


def without_written_warnings(message: str) -> str:
    """`message` without each request to write a text whose words open with a stress label
    ("write a README that says IMPORTANT: never …"): the warning is what the text is to say,
    not a rule the user gives. Quoted words end at the closing quote; words on the request's
    line, with their sentence; words on the lines after it ("… that says:" and a new line),
    with their paragraph."""
    kept: list[str] = []
    last = 0
    for match in _WRITE_REQUEST.finditer(message):
        if match.start() < last or not _STRESS_LABEL.match(message, match.end()):
            continue
        end = _CONTENT_END.get(match.group("quote"), _SENTENCE_END)
        if not match.group("quote") and "\n" in message[match.start() : match.end()]:
            end = _PARAGRAPH_END
        after = end.search(message, match.end())
        kept.append(message[last : match.start()])
        last = len(message) if after is None else after.end()
    return "\n".join([*kept, message[last:]])
