"""What the assistant found in the code in answer to the user's yes-or-no question about it.

The user asks about the project ("is the loyalty bonus implemented in code?", "does removing
the tiebreaker need a new migration?"); the assistant reads the code and answers with a plain
yes or no and what it found ("No. The bonus only appears in the copy on the site, not in any
scoring logic."). That answer is what the assistant learned about the project, and the next
session would have to read the code again to learn it. It becomes one project fact quoting the
question and the answer's opening paragraph: 'Asked "is the loyalty bonus implemented in
code?", the assistant answered after reading the project's files: No. …'. The rule is the
same in every project and ecosystem:

- the user's message, in their own voice, ends with a question that asks a fact of the
  project: it opens with an auxiliary (is, are, does, do, did, has, have, can, was, were;
  after a lead such as "ok and", "so" or a short phrase set off by a comma) whose subject is
  not one of the two speakers ("can you …?", "do I …?", "should we …?" ask for an action or
  a go-ahead);
- before the reply the assistant read or searched the project's files in that turn (a file
  tool on a file of the project, or a clean reader or search command; a listing or a look at
  git's history shows no code): an answer given without reading is what the assistant
  believed, not what it found;
- the main agent's first reply of the turn that opens with a bare "Yes" or "No" (then a
  comma, full stop, colon or dash) answers it; a reply that hedges ("Yes and no", "Not
  exactly", "Partly") or opens otherwise is not kept;
- the answer is the reply's opening paragraph, cut at a sentence end within
  `MAX_ANSWER_CHARS`; the question is quoted whole when short, else its last sentence;
- a bare verdict (an opening paragraph under `SHORT_VERDICT_CHARS`) that a list follows keeps
  the list's first item too, its bold label as plain words ("No. The bonus is only in the
  site's copy. Where it's mentioned: the Rules page describes +6 …"): a list right after a
  one-line yes or no sets out what the assistant found, and the first item is where it found
  it. Prose after the verdict, a heading, or a list after a longer opening is not kept (a
  paragraph after the verdict may weigh options or propose the change, not report the code);
- an answer is not kept when the session later changes a file the assistant read for it or the
  answer names ("No. Nothing caches the rates (src/handler.ts)." and then "add a cache": the
  edit of `src/handler.ts` is the work the question opened): it said how the code stood before
  the session's own change, and kept, it would say so after.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.activity import (
    changed_files,
    core_tokens,
    in_folder,
    relative_path,
    split_segments,
)
from squirrel_memory.extractors.file_reads import SHELL_READERS
from squirrel_memory.extractors.manifests import in_project
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

IMPORTANCE = 0.5
KEY_PREFIX = "answer:"
MAX_QUESTION_CHARS = 220
MAX_ANSWER_CHARS = 320
#: An opening paragraph this short is a bare verdict: the list after it holds what was found.
SHORT_VERDICT_CHARS = 160
#: Programs whose clean run shows the text of the project's files to the assistant (a listing,
#: `ls` or `find`, or a look at git's history shows names and events, not what the code does).
_LOOKS = SHELL_READERS | {"grep", "egrep", "rg", "ag"}
_LEAD = (
    r"(?:(?:ok(?:ay)?|so|and|also|but|then|now|hm+|right)[,\s]+)*"
    # A short phrase set off by a comma ("In the leaderboard, does it …?").
    r"(?:[^,?]{1,40},\s*)?"
)
#: A yes-or-no question about the project: an auxiliary, then a subject that is not a speaker.
_FACT_QUESTION = re.compile(
    rf"^{_LEAD}(?:is|are|does|do|did|has|have|can|was|were|isn't|aren't|doesn't|don't)\s+"
    r"(?!(?:you|i|we|me|us|u)\b)\w[^?]*\?$",
    re.IGNORECASE,
)
#: A reply that opens with a bare yes or no.
_LEAD_WORDS = re.compile(rf"^{_LEAD}", re.IGNORECASE)
_PLAIN_ANSWER = re.compile(r"^(?:\*\*)?(?:yes|no)(?:\*\*)?(?:\s*[,.:;—–]|\s+-\s)", re.IGNORECASE)
_HEDGED = re.compile(r"^(?:\*\*)?(?:yes and no|no and yes)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
#: A block that opens a list ("- ", "* ", "1. "), and a bold label at an item's start.
_LIST_ITEM = re.compile(r"^(?:[-*•]|\d{1,2}[.)])\s+(?P<item>\S.*)$", re.DOTALL)
_BOLD_LABEL = re.compile(r"^\*\*(?P<label>[^*\n]{1,60}?)\*\*\s*")


@dataclass(frozen=True, slots=True)
class CodeAnswer:
    """One answer the assistant found in the code, and the question it answers."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _question(text: str) -> str | None:
    """The message quoted as the question, when it ends with a fact question (module
    docstring)."""
    plain = " ".join(text.split())
    sentences = _SENTENCE_END.split(plain)
    last = sentences[-1] if sentences else ""
    if not _FACT_QUESTION.match(last):
        return None
    return plain if len(plain) <= MAX_QUESTION_CHARS else last[:MAX_QUESTION_CHARS]


def _looked(event: StoredEvent) -> bool:
    """Whether `event` shows the assistant reading or searching the project's files."""
    if event.event_type == EventType.TOOL_CALL:
        return any(
            raw and in_project(relative_path(raw, event.project_id)) for raw in event.file_paths
        )
    if event.event_type != EventType.COMMAND_RUN:
        return False
    content = event.content
    if content.get("exit_code") not in (None, 0) or content.get("is_error") is True:
        return False
    command = content.get("command")
    if not isinstance(command, str):
        return False
    return any(
        (tokens := core_tokens(part)) and tokens[0] in _LOOKS for part in split_segments(command)
    )


def _answer(text: str) -> str | None:
    """The reply's opening paragraph within `MAX_ANSWER_CHARS`, when it opens with a bare yes
    or no (module docstring)."""
    stripped = text.strip()
    if not _PLAIN_ANSWER.match(stripped) or _HEDGED.match(stripped):
        return None
    blocks = stripped.split("\n\n")
    paragraph = " ".join(blocks[0].split())
    parts = _SENTENCE_END.split(paragraph)
    if len(paragraph) < SHORT_VERDICT_CHARS and len(blocks) > 1:
        parts += _first_item(blocks[1])
    kept = ""
    for part in parts:
        if len(kept) + len(part) + 1 > MAX_ANSWER_CHARS:
            break
        kept = f"{kept} {part}".strip()
    return kept or None


def _first_item(block: str) -> list[str]:
    """The sentences of `block`'s first list item, its bold label as plain words, when the
    block is a list (module docstring); none otherwise."""
    first = re.split(r"\n(?=\s*(?:[-*•]|\d{1,2}[.)])\s)", block.strip(), maxsplit=1)[0]
    item = _LIST_ITEM.match(first)
    if item is None:
        return []
    text = " ".join(item.group("item").split())
    text = _BOLD_LABEL.sub(lambda m: f"{m.group('label').strip()} ", text, count=1)
    return _SENTENCE_END.split(text.strip())


#: A path the answer quotes (`src/handler.ts`, `app/help/page.tsx:40`), without a line number.
_QUOTED_PATH = re.compile(r"`([^`\s:]*[/.][^`\s:]*)(?::\d+)?`|(?<![\w/.])((?:[\w.-]+/)+[\w.-]+)")


def code_answers(events: list[StoredEvent]) -> list[CodeAnswer]:
    """The assistant's answers found in the code to the user's yes-or-no questions about the
    project (module docstring)."""
    found: list[CodeAnswer] = []
    question: tuple[str, str] | None = None  # (quoted question, event id)
    looked = False
    read: set[str] = set()
    for index, event in enumerate(events):
        if event.sidechain:
            continue
        if event.event_type == EventType.USER_MESSAGE:
            if not is_user_voice(event.origin):
                continue
            text = event.content.get("text")
            asked = _question(text) if isinstance(text, str) else None
            question = (asked, event.id) if asked else None
            looked = False
            read = set()
            continue
        if question is None:
            continue
        if _looked(event):
            looked = True
            read.update(relative_path(raw, event.project_id) for raw in event.file_paths if raw)
            continue
        if event.event_type != EventType.ASSISTANT_RESPONSE or not looked:
            continue
        text = event.content.get("text")
        answer = _answer(text) if isinstance(text, str) else None
        if answer is None:
            continue
        asked, asked_id = question
        question = None
        if _changed_after(answer, read, events[index + 1 :]):
            continue
        found.append(
            CodeAnswer(
                f"{KEY_PREFIX}{key_slug(_LEAD_WORDS.sub('', asked))}",
                f'Asked "{asked}", the assistant answered after reading the project\'s files: '
                + answer,
                (asked_id, event.id),
            )
        )
    return found


def _changed_after(answer: str, read: set[str], later: list[StoredEvent]) -> bool:
    """Whether `later` events change a file the assistant read for the answer, or a file or
    folder the answer names (module docstring)."""
    named = [n for pair in _QUOTED_PATH.findall(answer) if (n := pair[0] or pair[1])]
    return any(
        path in read or any(in_folder(path, n) for n in named) for path in changed_files(later)
    )
