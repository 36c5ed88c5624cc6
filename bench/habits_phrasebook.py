"""How the offline rules read a phrasebook of ways a developer states a standing habit, and of
one-off requests that must not become one.

Each line of the phrasebook is one user message, written from general knowledge of how people
talk to a coding assistant (no session's wording). A habit is **kept** when
`stated_preferences` reads a standing instruction from it, **tentative** when it reads only a
tentative one (kept later only if said again), **missed** when it reads nothing. A one-off is
**wrong** when it is read as a standing instruction.

The second phrasebook (`HABITS_SECOND`, `ONE_OFFS_SECOND`) was written apart from the first and
from the rules, across ecosystems, and is read the way a session is: the offline rules extractor
over a session of that one message, once as the message that opens the session and once as the
answer to the assistant's work (a reply and an edit before it). A habit is kept only when both
readings keep it as a standing user_style memory; a one-off is wrong when either does. The third to
twelfth phrasebooks are read the same way (in the eleventh and twelfth a one-off kept even
tentatively is wrong; the twelfth's habits are doubts said once, found when read tentatively).
The books themselves live in `bench/habits_book_first.py` … `bench/habits_book_twelfth.py`;
the tenth also holds two sets of wordings held back from its rules (written after them, each
run once as written). The ninth also holds texts of custom
commands the user runs: a ban written as a line of one is kept when a standing user_style memory
citing the command's text names what it bans; a text with no ban is wrong when one does. Its
assistant's words are wrong when any user_style memory cites them.

Usage: python -m bench.habits_phrasebook [--details]
"""

from __future__ import annotations

import argparse
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.habits_book_eighth import HABITS_EIGHTH, ONE_OFFS_EIGHTH
from bench.habits_book_eleventh import HABITS_ELEVENTH, ONE_OFFS_ELEVENTH
from bench.habits_book_fifth import HABITS_FIFTH, ONE_OFFS_FIFTH
from bench.habits_book_first import HABITS, ONE_OFFS
from bench.habits_book_fourth import HABITS_FOURTH, ONE_OFFS_FOURTH
from bench.habits_book_ninth import (
    ASSISTANT_SAYS_NINTH,
    COMMAND_HABITS_NINTH,
    COMMAND_ONE_OFFS_NINTH,
    HABITS_NINTH,
    ONE_OFFS_NINTH,
)
from bench.habits_book_second import HABITS_SECOND, ONE_OFFS_SECOND
from bench.habits_book_seventh import HABITS_SEVENTH, ONE_OFFS_SEVENTH
from bench.habits_book_sixth import HABITS_SIXTH, ONE_OFFS_SIXTH
from bench.habits_book_tenth import (
    HABITS_TENTH,
    HELD_BACK_ONE_OFFS_TENTH,
    HELD_BACK_SECOND_ONE_OFFS_TENTH,
    HELD_BACK_SECOND_TENTH,
    HELD_BACK_TENTH,
    ONE_OFFS_TENTH,
)
from bench.habits_book_third import HABITS_THIRD, ONE_OFFS_THIRD
from bench.habits_book_twelfth import HABITS_TWELFTH, ONE_OFFS_TWELFTH
from squirrel_core.logs import configure_logging
from squirrel_memory.extractors.firmness import STANDING_TAG
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import Episode, MemoryCandidate, MemoryType, StoredEvent

#: Where a second-phrasebook message sits: opening the session, or answering the assistant.
OPENING = "opening"
REPLYING = "replying"
_START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
_ROOT = "/home/dev/project"


def verdict(message: str) -> str:
    """`kept`, `tentative` or `missed`: what the rules read from one message."""
    found = stated_preferences(message, after_assistant_action=False)
    if any(p.standing for p in found):
        return "kept"
    return "tentative" if found else "missed"


def _event(n: int, kind: str, content: dict[str, Any], origin: str = "") -> StoredEvent:
    return StoredEvent(
        id=f"s1_{n:04d}",
        project_id=_ROOT,
        user_id="dev",
        source_tool="claude_code",
        session_id="s1",
        timestamp=_START + timedelta(seconds=20 * n),
        event_type=kind,
        content=content,
        file_paths=(),
        hash=f"phrasebook{n}",
        origin=origin,
    )


def session_verdict(message: str, where: str) -> str:
    """`kept`, `tentative` or `missed`: the user_style memories the rules extractor keeps of a
    session where `message` opens the session or answers the assistant's work (`where`)."""
    events = []
    if where == REPLYING:
        events = [
            _event(1, "user_message", {"text": "Please tidy up the request handler."}),
            _event(2, "assistant_response", {"text": "I tidied the handler up."}),
            _event(3, "tool_call", {"tool": "Edit", "tool_use_id": "t3", "input": {}}),
            _event(4, "code_change", {"tool": "Edit", "tool_use_id": "t3", "path": "app.txt"}),
        ]
    events.append(_event(len(events) + 1, "user_message", {"text": message}))
    said = events[-1].id
    episode = Episode(
        "ep1", _ROOT, "dev", "s1", _START, events[-1].timestamp, len(events), "", 0.5, _START
    )
    found = [
        c
        for c in RulesExtractor().extract_sync(episode, events)
        if c.type is MemoryType.USER_STYLE and said in c.source_event_ids
    ]
    if any(STANDING_TAG in c.tags for c in found):
        return "kept"
    return "tentative" if found else "missed"


def _user_styles(events: list[StoredEvent], cited: str) -> list[MemoryCandidate]:
    """The user_style memories the rules extractor keeps of `events` that cite event `cited`."""
    episode = Episode(
        "ep1", _ROOT, "dev", "s1", _START, events[-1].timestamp, len(events), "", 0.5, _START
    )
    return [
        c
        for c in RulesExtractor().extract_sync(episode, events)
        if c.type is MemoryType.USER_STYLE and cited in c.source_event_ids
    ]


def command_verdict(command: str, text: str, banned: str = "") -> str:
    """`kept`, `tentative` or `missed`: the user_style memories of a session where the user runs
    the custom command `command`, whose text the host expands to `text`; with `banned`, only
    those that name it count."""
    events = [
        _event(
            1, "user_message", {"text": command, "command": command, "args": ""}, "slash_command"
        ),
        _event(2, "user_message", {"text": text}, "harness"),
        _event(3, "assistant_response", {"text": "I ran the checks."}),
    ]
    found = [c for c in _user_styles(events, events[1].id) if banned.lower() in c.content.lower()]
    if any(STANDING_TAG in c.tags for c in found):
        return "kept"
    return "tentative" if found else "missed"


def assistant_verdict(words: str) -> bool:
    """Whether a user_style memory cites the assistant's own `words` (always wrong)."""
    events = [
        _event(1, "user_message", {"text": "Please tidy up the request handler."}),
        _event(2, "assistant_response", {"text": words}),
    ]
    return bool(_user_styles(events, events[1].id))


def second_verdict(message: str, *, habit: bool) -> str:
    """A second-phrasebook message's verdict over both places it may sit: a habit's weakest
    reading, a one-off's strongest."""
    readings = [session_verdict(message, where) for where in (OPENING, REPLYING)]
    order = ("kept", "tentative", "missed")
    return (max if habit else min)(readings, key=order.index)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--details", action="store_true", help="print every message's verdict")
    details = parser.parse_args().details
    configure_logging("bench", "error", json=True)
    habits = Counter(verdict(m) for m in HABITS)
    wrong = [m for m in ONE_OFFS if verdict(m) == "kept"]
    print(
        f"habits {len(HABITS)}: kept {habits['kept']}, tentative {habits['tentative']}, "
        f"missed {habits['missed']}; one-offs {len(ONE_OFFS)}: wrong {len(wrong)}"
    )
    if details:
        for message in HABITS:
            print(f"  habit   {verdict(message):9} {message!r}")
        for message in ONE_OFFS:
            print(f"  one-off {verdict(message):9} {message!r}")
    for name, habits_book, one_offs_book in (
        ("second", HABITS_SECOND, ONE_OFFS_SECOND),
        ("third", HABITS_THIRD, ONE_OFFS_THIRD),
        ("fourth", HABITS_FOURTH, ONE_OFFS_FOURTH),
        ("fifth", HABITS_FIFTH, ONE_OFFS_FIFTH),
        ("sixth", HABITS_SIXTH, ONE_OFFS_SIXTH),
        ("seventh", HABITS_SEVENTH, ONE_OFFS_SEVENTH),
        ("eighth", HABITS_EIGHTH, ONE_OFFS_EIGHTH),
        ("ninth", HABITS_NINTH, ONE_OFFS_NINTH),
        ("tenth", HABITS_TENTH, ONE_OFFS_TENTH),
        ("tenth, held back", HELD_BACK_TENTH, HELD_BACK_ONE_OFFS_TENTH),
        ("tenth, held back again", HELD_BACK_SECOND_TENTH, HELD_BACK_SECOND_ONE_OFFS_TENTH),
    ):
        _report_as_sessions(name, habits_book, one_offs_book, details=details)
    _report_as_sessions(
        "eleventh", HABITS_ELEVENTH, ONE_OFFS_ELEVENTH, details=details, tentative_wrong=True
    )
    _report_as_sessions(
        "twelfth", HABITS_TWELFTH, ONE_OFFS_TWELFTH, details=details, tentative_wrong=True
    )
    _report_commands(details=details)


def _report_commands(*, details: bool) -> None:
    """The ninth book's command texts and the assistant's words."""
    said = {c: command_verdict(c, t, b) for c, t, b in COMMAND_HABITS_NINTH}
    wrong = {c: command_verdict(c, t) == "kept" for c, t in COMMAND_ONE_OFFS_NINTH}
    theirs = {w: assistant_verdict(w) for w in ASSISTANT_SAYS_NINTH}
    counts = Counter(said.values())
    print(
        f"ninth, command texts: habits {len(said)}: kept {counts['kept']}, "
        f"tentative {counts['tentative']}, missed {counts['missed']}; "
        f"texts without one {len(wrong)}: wrong {sum(wrong.values())}; "
        f"assistant's words {len(theirs)}: wrong {sum(theirs.values())}"
    )
    if details:
        for command, verdict_ in said.items():
            print(f"  command {verdict_:9} {command}")
        for command, bad in wrong.items():
            print(f"  no ban  {'wrong' if bad else 'ok':9} {command}")
        for words, bad in theirs.items():
            print(f"  said    {'wrong' if bad else 'ok':9} {words!r}")


def _report_as_sessions(
    name: str,
    habits: tuple[str, ...],
    one_offs: tuple[str, ...],
    *,
    details: bool,
    tentative_wrong: bool = False,
) -> None:
    """One book's line; with `tentative_wrong`, a one-off kept even tentatively is wrong."""
    said = {m: second_verdict(m, habit=True) for m in habits}
    one_off_said = {m: second_verdict(m, habit=False) for m in one_offs}
    counts = Counter(said.values())
    wrong_verdicts = ("kept", "tentative") if tentative_wrong else ("kept",)
    wrong = sum(v in wrong_verdicts for v in one_off_said.values())
    print(
        f"{name}, as sessions: habits {len(habits)}: kept {counts['kept']}, "
        f"tentative {counts['tentative']}, missed {counts['missed']}; "
        f"one-offs {len(one_offs)}: wrong {wrong}"
    )
    if details:
        for message, verdict_ in said.items():
            print(f"  habit   {verdict_:9} {message!r}")
        for message, verdict_ in one_off_said.items():
            print(f"  one-off {verdict_:9} {message!r}")


if __name__ == "__main__":
    main()
