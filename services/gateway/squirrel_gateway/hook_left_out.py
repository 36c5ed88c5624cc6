"""Which remembered facts a hook leaves out, and why.

A session start leaves out what the assistant sees at a glance (what the project is, its
language), what the manifest lists, a layout a repository file explains, where the source is
hosted, where CI runs and where the project is deployed (the files that say so are there), what
an earlier assistant summarised or only a subagent reported (`reported_lines`), and a fact the
commands shown already say (the package manager, the test framework). A prompt is not given a
fact seen at a glance, an earlier assistant's report that shares fewer than two words with the
task, nor a pitfall picked only on the words of its check's purpose. Each rule says beside it
what the foresight replay showed. What is left out stays in the views and in search.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from squirrel_gateway.schemas import SelectedMemory
from squirrel_gateway.session_commands import COMMAND

__all__ = [
    "BY_ITS_FILE",
    "IN_THE_MANIFEST",
    "LAYOUT_OF_A_FILE",
    "PATHISH",
    "SUMMARISED",
    "THE_REMOTE",
    "at_a_glance",
    "framework_run",
    "left_out_of_prompt",
    "managers_shown",
]

#: The brief's facts a session start leaves out, by their label: what the project is and its
#: language. The assistant sees both at a glance (the README, the manifest at the root), and in
#: the foresight replay no later session of any project used them (4 of 51 servings, all in one
#: session). They stay in the brief view and in search; a prompt is not given them either
#: (`_glance_fact`).
_AT_A_GLANCE: Final = frozenset(
    {"about", "overview", "purpose", "description", "summary", "what", "language", "languages"}
)
#: The libraries fact ("Libraries: Key libraries: Click, Jinja2, Pydantic.") names what the
#: project's manifest lists: the assistant reads it there when a task needs a dependency, and in
#: the foresight replay no later session used one (16 servings at session start, none used).
#: It stays in the brief view, in search and in the per-prompt context; the framework fact
#: (what the code is built with, from how the code uses it) is kept.
IN_THE_MANIFEST: Final = frozenset({"libraries"})
#: The layout fact read from a file in the repository ("Layout: What the files do, per
#: README.md: …", "Layout: How the folders are organised, per AGENTS.md: …") restates that file,
#: which the assistant opens when a task needs it; it cost up to 190 tokens of a 600-token start
#: (a fifth of some starts) and kept a rule and a command out of one. It stays in the
#: brief view, in search and in the per-prompt context; a layout seen in a session ("as listed
#: in a session") is kept.
LAYOUT_OF_A_FILE = re.compile(r"^layout:\s[^:`]*\bper [\w./-]+:\s", re.IGNORECASE)
#: Where the project's source is hosted ("Home: The project's repository is
#: https://github.com/…"): the assistant has the repository's remote; no later session of the
#: foresight replay used it. It stays in the brief view, in search and in the per-prompt
#: context.
THE_REMOTE: Final = frozenset({"home"})
#: What a file of the repository says by being there: where CI runs ("Ci: CI runs on GitHub
#: Actions (.github/workflows/ci.yml).") and where the project is deployed ("Deploy: The project
#: is hosted and deployed on Vercel (vercel.json)."), each read from the file it names
#: (`extractors.layout_facts`), which the assistant opens when a task needs it. In the
#: foresight replay no later session used either (0 of 6 servings at session start, none of
#: those sessions touched the file); they stay in the brief view, in search and in the
#: per-prompt context.
BY_ITS_FILE: Final = frozenset({"ci", "deploy"})
#: A fact an earlier session's assistant summarised ("How the project is built, as the assistant
#: summarised it: …", its stack, a folder's purpose): a paraphrase of code the new session's
#: assistant reads itself, and one that may have aged. In the foresight replay none was used
#: by the session it started (0 of 9 servings, and 0 of the assistants' summaries before); they
#: stay in the brief view, in search and in the per-prompt context (on two shared words:
#: `_thin_report`), and a start with nothing else known still shows them.
#: An earlier assistant's closing report of a turn ("Project: Closing report (Root cause): …") is
#: such a summary too, and often of a state that has moved on (a change "now" made, a branch a
#: change "lives on"): searchable and in the per-prompt context, not at the start. So is what
#: it said about a folder it had read ("Project: Read in `src/routes/`: …").
SUMMARISED = re.compile(
    r",? as the assistant summari[sz]ed (?:it|them)\b|^[^:]{1,40}:\s*closing report\b|"
    r"^[^:]{1,40}:\s*read in `[^`]+`:",
    re.IGNORECASE,
)
#: What only a subagent's report says ("Project: Subagent report: …") is left out of every
#: part of a session start, even when nothing else is known: `reported_lines` says why.
#: The keys of an earlier assistant's closing report of a turn (`extractors.closing_reports`)
#: and of what it said about a folder it read (`extractors.read_findings`).
_CLOSING_KEY: Final[tuple[str, ...]] = ("project:closing:", "project:read:")
#: A word the reason says the task and the memory share ("Matches 'css', 'rule'; a fact.").
_SHARED_WORD = re.compile(r"'([^']+)'")
#: The test framework fact ("Testing: Tests are written with Vitest.", "In `web/`, tests are
#: written with Jest."): the framework named. A prompt is not given it when the session already
#: has a command that runs it (`framework_run`); the session start keeps it (a shorter fact
#: line there can be what leaves room for the finish gate's command).
_TEST_FRAMEWORK = re.compile(r"tests are written with ([\w.+-]+)", re.IGNORECASE)
_WORD = re.compile(r"[\w.+-]+")
#: The managers the brief's package-manager fact names (`habits.package_manager_fact`).
_MANAGERS = re.compile(r"run through (.+?), its package managers?\b")
#: A path in a text: a file a prompt names (`files_named`).
PATHISH = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.[A-Za-z0-9]{1,8}|(?:[\w.-]+/)+[\w.-]+)")


def at_a_glance(fact: str, also: frozenset[str] = frozenset()) -> bool:
    """Whether a brief's fact ("About: …", "Language: Go (go.mod).") says what the assistant
    sees at a glance: the label before its first colon is one of `_AT_A_GLANCE` (or `also`)."""
    label, colon, _ = fact.partition(":")
    name = label.strip().lower().replace(" ", "_")
    return bool(colon) and (name in _AT_A_GLANCE or name in also)


def managers_shown(line: str, opened: set[str]) -> bool:
    """Whether `line` is the brief's package-manager fact ("Package manager: Commands in this
    project run through uv, its package manager.") and every manager it names opens one of
    the commands shown (`opened`: `uv` for `uv run pytest`): those commands say it already."""
    label, colon, text = line.removeprefix("- ").partition(":")
    if not colon or label.strip().lower() != "package manager":
        return False
    match = _MANAGERS.search(text)
    if match is None:
        return False
    names = [name.strip().lower() for name in match.group(1).split(" and ")]
    return bool(names) and all(name in opened for name in names)


def framework_run(fact: str, lines: Iterable[str]) -> bool:
    """Whether `fact` is the brief's test framework fact ("Tests are written with pytest.")
    and the framework it names is a word of a command one of `lines` quotes (`pytest` in
    `uv run pytest -q`): those lines say it already."""
    match = _TEST_FRAMEWORK.search(fact)
    if match is None:
        return False
    name = match.group(1).rstrip(".").lower()
    return any(
        name in (word.lower() for word in _WORD.findall(quoted))
        for line in lines
        for quoted in COMMAND.findall(line)
    )


def _glance_fact(memory: SelectedMemory) -> bool:
    """Whether `memory` is a project fact the assistant sees at a glance (`_AT_A_GLANCE`: what
    the project is, its language): the session start leaves it to the repository, and so does a
    prompt. Picked on a word the project's own description holds ("html", "google", "cli") or on
    the fact's own wording ("sessions" in "Code worked on in this project's sessions"), it was
    given to five prompts of the foresight replay and none used it."""
    if memory.type != "project_fact":
        return False
    parts = memory.key.split(":")
    label = parts[1] if parts[0] == "repo" and len(parts) > 1 else parts[0]
    return at_a_glance(f"{label}: {memory.content}")


def _thin_report(memory: SelectedMemory) -> bool:
    """Whether `memory` is an earlier assistant's closing report, what it said about a folder
    it read, or its summary (`SUMMARISED`) that shares fewer than two words with the task: one
    shared word picked seven closing reports ("css", "user") and five summaries ("agent",
    "architecture") for prompts of the foresight replay and none was used; a paraphrase that
    shares two or more is about the task."""
    if not (memory.key.startswith(_CLOSING_KEY) or SUMMARISED.search(memory.content)):
        return False
    shared = memory.reason.split(";", 1)[0]
    return len(set(_SHARED_WORD.findall(shared))) < 2


#: The words of what a check is for ("tests", "lint", "format", "type", "build"): every test
#: failure a project keeps is about "tests", so a pitfall that shares no other word with a
#: prompt is about another failure than the one the prompt is on.
_PURPOSE_WORDS: Final = frozenset(
    {
        *("test", "tests", "testing", "lint", "linting", "linter"),
        *("format", "formatting", "formatter", "type", "types", "typing", "typecheck"),
        *("build", "builds", "building"),
    }
)


def _picked_on_its_purpose(memory: SelectedMemory) -> bool:
    """Whether `memory` is a pitfall the task context picked only on the words of its check's
    purpose ("Matches 'tests'; a pitfall."): in the foresight replay four such test failures were
    given to prompts about writing or updating tests, and none was used. A pitfall that also
    shares its error's words, its command's target or a file with the prompt is kept."""
    if memory.type != "pitfall":
        return False
    shared = memory.reason.partition(";")[0]
    if not shared.startswith("Matches ") or " more" in shared or "ouches " in memory.reason:
        return False
    words = {w.lower() for w in _SHARED_WORD.findall(shared)}
    return bool(words) and words <= _PURPOSE_WORDS


def left_out_of_prompt(memory: SelectedMemory) -> bool:
    """Whether a prompt's task context leaves `memory` out: a fact seen at a glance
    (`_glance_fact`), an earlier assistant's thin report (`_thin_report`) or a pitfall picked on
    its check's purpose alone (`_picked_on_its_purpose`)."""
    return _glance_fact(memory) or _thin_report(memory) or _picked_on_its_purpose(memory)
