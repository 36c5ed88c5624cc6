"""The user's own words in a message: what someone else wrote is left out.

A message the user types often carries text the user did not write: a fenced code block, a
quoted line (`> …`), and a paste the user announces as someone else's ("following chat its the
last critique from a dumber agent:", "Here is what the reviewer said:", "the response from the
API team:"). What that text asks or forbids is its author's, not the user's, so the rules that
read the user's instructions, wishes, habits and requests read only `own_words`. The rule, the
same in every language the announcement is written in English:

- a fenced code block and a quoted line are someone else's, wherever they stand;
- a paste is announced by a line of the user's that ends with a colon, whose last sentence
  names another source (`_ANNOUNCES`): a verb of saying or writing with no first-person subject
  ("the reviewer said:", not "as I wrote:"), a source introduced by "from" ("… from a dumber
  agent:", "errors from the build:"), or a piece of writing named with an article or another's
  possessive ("the last critique:", "their feedback:", not "my notes:" nor a bare
  "Feedback:", which is how the user heads their own list);
- what follows it must look pasted: at least `MIN_PASTE_CHARS` characters on at least
  `MIN_PASTE_LINES` lines. From there to the end of the message nothing is the user's: where a
  paste ends cannot be told, so the user's own lines after it are left out too (say less);
- a message that opens with an agent's role prompt is someone else's from its start: a
  Markdown heading (after at most one line of one word, a tool's message id), then, among the
  next two lines, one that gives the agent its role ("You are the release assistant …", "You
  manage incoming issues …", "Your role is …"), and at least `MIN_PASTE_LINES` lines under
  the heading (a role given and rules for it, not a one-line title). What such
  a prompt asks is the role's, whoever pasted it (another tool's, or a bot's being debugged).
"""

from __future__ import annotations

import re

#: A fenced code block (closed), and a quoted line.
CODE_BLOCK = re.compile(r"```.*?```", re.DOTALL)
QUOTED_LINE = re.compile(r"^[ \t]*>.*$", re.MULTILINE)
#: The least a paste after an announcing line holds.
MIN_PASTE_CHARS = 300
MIN_PASTE_LINES = 3
#: The longest line read as an announcement (a longer one is read by its last sentence).
MAX_LEAD_CHARS = 2_000

_WRITING = (
    r"critique|review|feedback|response|reply|answer|comments?|output|logs?|report|message|"
    r"e-?mail|transcript|chat|conversation|analysis|suggestions?|summary|notes?|write-?up|"
    r"assessment|findings|proposal|thread|discussion"
)
_SAYING = (
    r"said|says|wrote|writes|replied|replies|suggested|suggests|recommended|recommends|"
    r"commented|answered|responded|posted|reported|proposed|concluded|claims?|claimed"
)
_ANNOUNCES = re.compile(
    # "the reviewer said:", "ChatGPT suggests:" (never "I said", "we wrote")
    rf"(?<!\bi )(?<!\bwe )\b(?:{_SAYING})\b"
    # "… from a dumber agent:", "errors from the build:"
    r"|\bfrom\s+(?:a|an|the|his|her|their|its|another|other|some|this|that|these|those)\b"
    # "the last critique:", "their feedback:", "a colleague's review:" (never "my notes:")
    rf"|\b(?:the|this|that|a|an|his|her|their|its)\s+(?:[\w'’-]+\s+){{0,2}}(?:{_WRITING})\b"
    rf"|\b\w+['’]s\s+(?:[\w-]+\s+)?(?:{_WRITING})\b",
    re.IGNORECASE,
)
#: The user's own voice in an announcement: "my notes", "as I wrote".
_FIRST_PERSON = re.compile(
    rf"\b(?:my|our)\s+(?:[\w-]+\s+)?(?:{_WRITING})\b|\b(?:i|we)\s+(?:{_SAYING})\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?。！？]\s+")
#: A Markdown heading line, and a line that gives an agent its role (`_role_prompt`).
_HEADING = re.compile(r"^#{1,3}\s+\S")
_ROLE_LINE = re.compile(
    r"^(?:you are (?:a|an|the)\b|you (?:manage|own|act as|work as|coordinate|orchestrate|"
    r"review|triage|handle)\b|your (?:role|job|task|purpose) (?:is|:)|act as (?:a|an|the)\b)",
    re.IGNORECASE,
)


def own_words(text: str) -> str:
    """`text` without fenced code blocks (each a blank), quoted lines (emptied) and an
    announced paste with all that follows it (see the module's rules)."""
    text = QUOTED_LINE.sub("", CODE_BLOCK.sub(" ", text))
    if _role_prompt(text):
        return ""
    at = paste_start(text)
    return text if at is None else text[:at]


def paste_start(text: str) -> int | None:
    """Where the paste an announcing line of `text` introduces begins (the announcing line
    kept), or None when no line announces one."""
    at = 0
    for line in text.splitlines(keepends=True):
        end = at + len(line)
        lead = line.strip()
        if lead.endswith((":", "：")) and _announces(lead[:-1]) and _looks_pasted(text[end:]):
            return end
        at = end
    return None


def _role_prompt(text: str) -> bool:
    """Whether `text` opens with an agent's role prompt (see the module's rules)."""
    lines = [line.strip() for line in text[:4_000].splitlines() if line.strip()]
    if lines and not _HEADING.match(lines[0]) and len(lines[0].split()) == 1:
        lines = lines[1:]  # "trellis-message:a626…": a tool's id for the message
    if not lines or not _HEADING.match(lines[0]):
        return False
    return any(_ROLE_LINE.match(line) for line in lines[1:3]) and len(lines) > MIN_PASTE_LINES


def _announces(lead: str) -> bool:
    """Whether the last sentence of a line (its colon taken off) names another source."""
    last = _SENTENCE_END.split(lead[-MAX_LEAD_CHARS:])[-1]
    return bool(_ANNOUNCES.search(last)) and not _FIRST_PERSON.search(last)


def _looks_pasted(rest: str) -> bool:
    lines = [line for line in rest.splitlines() if line.strip()]
    return len(lines) >= MIN_PASTE_LINES and sum(len(line) for line in lines) >= MIN_PASTE_CHARS


__all__ = ["CODE_BLOCK", "QUOTED_LINE", "own_words", "paste_start"]
