"""Where a user's words stand in the exchange: after the assistant acted, or relayed by the host.

Whether a message corrects the assistant depends on what came before it, not on its words.
Two shapes of the exchange are read here, the same for every project and language:

- **What the message answers.** Between the assistant's last action and the user's next words
  the host often puts its own text: a reminder it injects into the turn, a hook's output, the
  marker it writes when the user interrupts the assistant ("[Request interrupted by user]").
  None of that is anyone speaking to the assistant, so it is looked past: the message answers
  the assistant when the last event before it that is not host or hook text is one of the
  assistant's actions. A compaction summary is not looked past (the conversation restarted).
- **Words said while declining a call.** When the user declines one of the assistant's tool calls
  and says why, the host relays the user's words inside the call's result ("The user provided
  the following reason for the rejection: use pnpm", "To tell you how to proceed, the user
  said: …"). Those words answer the assistant's action as directly as a message does; they are
  the user's, only the host carried them. Only the text after the host's own lead counts, and
  only in a call's result that says the call was declined.

- **What the assistant just did.** A "don't …" right after the assistant acted is a correction
  when it names what those actions did: "don't amend commits" after `git commit --amend`, "no
  npm here" after `npm install`. The actions are the assistant's calls since the user last
  spoke: their commands and tool names (not the files they wrote, whose text names anything).

- **Words after stopping the assistant.** When the user interrupts the assistant (the host's
  marker, "[Request interrupted by user]" or "… for tool use]", comes right before the
  message), what they say next redirects the work the assistant was doing: an instruction in
  it corrects the assistant as a declined call's reason does.

What the words say (an instruction, a quote, a one-off request) is for the preference rules to
judge, as for any message of the user's.
"""

from __future__ import annotations

import re

from squirrel_core.events import EventType, Origin, is_user_voice
from squirrel_memory.extractors.wording import stem, word_set
from squirrel_memory.models import StoredEvent

#: Events that are the assistant acting: a message of the user's right after one answers it.
ASSISTANT_ACTIONS = frozenset(
    {
        EventType.ASSISTANT_RESPONSE,
        EventType.TOOL_CALL,
        EventType.TOOL_RESULT,
        EventType.CODE_CHANGE,
        EventType.COMMAND_RUN,
        EventType.TEST_RUN,
    }
)
#: Who speaks in a user-role event without speaking to the assistant: the host and hooks.
_PLUMBING = frozenset({str(Origin.HARNESS), str(Origin.HOOK)})
#: The host's words opening the result of a declined call, then its lead before the user's own
#: words (a file or a log that merely quotes them does not open with them).
_DECLINED = re.compile(r"\A\s*(?:the )?user doesn't want to proceed with this tool use", re.I)
_RELAYED = re.compile(
    r"(?:the user provided the following reason for the rejection:|"
    r"to tell you how to proceed, the user said:)\s*(?P<said>.+)\Z",
    re.IGNORECASE | re.DOTALL,
)
#: The most of a relayed reason read: a reason is a line or two, not a pasted document.
MAX_RELAYED_CHARS = 600


def answers_assistant(events: list[StoredEvent], index: int) -> bool:
    """Whether the event at `index` comes right after the assistant acted, looking past the
    host's and hooks' text (reminders, an interrupt's marker) in between."""
    for before in reversed(events[:index]):
        if before.event_type == EventType.USER_MESSAGE and before.origin in _PLUMBING:
            continue
        return before.event_type in ASSISTANT_ACTIONS
    return False


#: The host's marker for the user stopping the assistant mid-turn.
_INTERRUPTED = re.compile(r"\A\s*\[Request interrupted by user(?: for tool use)?\]")


def after_interrupt(events: list[StoredEvent], index: int) -> bool:
    """Whether the event at `index` is what the user said right after stopping the assistant:
    the event before it is the host's interrupt marker."""
    if index <= 0:
        return False
    before = events[index - 1]
    text = before.content.get("text")
    return (
        before.event_type == EventType.USER_MESSAGE
        and before.origin == str(Origin.HARNESS)
        and isinstance(text, str)
        and bool(_INTERRUPTED.match(text))
    )


def relayed_reason(event: StoredEvent) -> str | None:
    """The words the user gave when declining the call `event` is the result of, or None."""
    if event.event_type != EventType.TOOL_RESULT:
        return None
    output = event.content.get("output")
    if not isinstance(output, str) or event.content.get("exit_code") is not None:
        return None  # a command that ran and printed the host's words is no decline
    if not _DECLINED.match(output):
        return None
    match = _RELAYED.search(output)
    said = match.group("said").strip() if match else ""
    return said if 0 < len(said) <= MAX_RELAYED_CHARS else None


#: Verbs too common in commands to say what was done ("git add", "npm run"): a "don't" with one
#: of them names what it rules out by its object ("don't add comments").
_COMMON_VERBS = word_set(
    "add run use make create write do get set put change update edit go let keep try"
)
_WORD = re.compile(r"[a-z][a-z0-9]*(?:[._][a-z0-9]+)*")
_NEGATIVE = re.compile(r"^(?:don'?t|do not|avoid|never|stop|no)\s+(?P<rest>.+)$", re.IGNORECASE)
_GLUE = word_set("the a an any this that these those to in on of for with it them")


def acted_words(events: list[StoredEvent], index: int) -> frozenset[str]:
    """The stemmed words of the assistant's commands and tool names between the user's
    previous words and the event at `index`."""
    found: set[str] = set()
    for before in reversed(events[:index]):
        if before.event_type == EventType.USER_MESSAGE and is_user_voice(before.origin):
            break
        said: list[str] = []
        if before.event_type == EventType.TOOL_CALL:
            tool_input = before.content.get("input")
            command = tool_input.get("command") if isinstance(tool_input, dict) else None
            said = [str(before.content.get("tool") or "")]
            said.append(command if isinstance(command, str) else "")
        elif before.event_type in (EventType.COMMAND_RUN, EventType.TEST_RUN):
            said = [str(before.content.get("command") or "")]
        for text in said:
            found.update(stem(w) for w in _WORD.findall(text.lower()))
    return frozenset(found)


def names_what_was_done(statement: str, acted: frozenset[str]) -> bool:
    """Whether a "don't …" statement names what the assistant's actions (`acted_words`) did:
    its verb, unless a common one, or the first word of its object."""
    match = _NEGATIVE.match(statement.strip())
    if match is None or not acted:
        return False
    words = [w for w in _WORD.findall(match.group("rest").lower()) if w not in _GLUE]
    if not words:
        return False
    verb, rest = words[0], words[1:2]
    if verb not in _COMMON_VERBS and stem(verb) in acted:
        return True
    return any(len(w) > 2 and stem(w) in acted for w in rest)
