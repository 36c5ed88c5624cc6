"""How the offline rules read a phrasebook of ways a developer states a standing habit, and of
one-off requests that must not become one.

Each line of the phrasebook is one user message, written from general knowledge of how people
talk to a coding assistant (no session's wording). A habit is **kept** when
`stated_preferences` reads a standing instruction from it, **tentative** when it reads only a
tentative one (kept later only if said again), **missed** when it reads nothing. A one-off is
**wrong** when it is read as a standing instruction.

Usage: python -m bench.habits_phrasebook [--details]
"""

from __future__ import annotations

import argparse
from collections import Counter

from squirrel_memory.extractors.preferences import stated_preferences

#: Ways a developer states a habit for every later session.
HABITS: tuple[str, ...] = (
    "I told you to use pnpm",
    "make sure every commit message follows conventional commits",
    "keep using tabs for indentation",
    "write tests for every module",
    "respond in English, keep explanations brief",
    "please always run the linter before committing",
    "from now on, put type hints on every function",
    "going forward, squash commits before merging",
    "stop using print for logging",
    "we don't use ORMs here",
    "in this repo we use snake_case for file names",
    "remember that all dates are stored in UTC",
    "don't forget to update the changelog",
    "for every PR, add a short summary of the changes",
    "each time you change the schema, write a migration",
    "whenever you add a dependency, pin its version",
    "no emojis",
    "prefer composition over inheritance",
    "use tabs",
    "- always use early returns\n- never commit secrets",
    "always use double quotes",
    "never push directly to main",
    "hi! please always answer in short sentences",
    "alwasy run the formatter before commiting",
    "ALWAYS run the tests before you commit!!",
    "again, never use var in javascript",
    "i said use yarn not npm",
)
#: Requests about the task at hand, questions and quoted text: never a standing habit.
ONE_OFFS: tuple[str, ...] = (
    "fix the login bug",
    "use the second option",
    "keep going",
    "make sure it compiles now",
    "can you always run the tests?",
    "what does this function do?",
    "use the config from the previous file",
    "rename foo to bar",
    "> always use tabs",
    "delete the temp folder",
    "make sure the build passes now",
    "make sure every test passes",
    "write a test for this function",
    "don't forget the semicolon on line 3",
    "don't forget to update the readme",
    "use tabs here",
    "for this PR, add a summary",
    "keep using it",
    "keep using the old branch",
    "stop using the old config for testing",
    "remember that the server is down",
    "fix the imports in every file",
    "no comments",
    "we don't use that here",
    "again, run the tests",
    "fix the bug, run the tests",
)


def verdict(message: str) -> str:
    """`kept`, `tentative` or `missed`: what the rules read from one message."""
    found = stated_preferences(message, after_assistant_action=False)
    if any(p.standing for p in found):
        return "kept"
    return "tentative" if found else "missed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--details", action="store_true", help="print every message's verdict")
    details = parser.parse_args().details
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


if __name__ == "__main__":
    main()
