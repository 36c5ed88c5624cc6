"""Whether a memory says only what an instruction file a host loads itself already says.

Claude Code loads `CLAUDE.md`, Codex `AGENTS.md`, Gemini CLI `GEMINI.md` into every session.
A memory read only from such a file (its sources all `path:line` of it, no session adding to
it but the host loading the file, `LOADED_TAG`, or a session reading or writing the file,
`WRITTEN_TAG`) would only repeat the file to that host: the memory service's views and the
gateway's session-start commands leave it out for that host, and keep it, searchable, for the
others.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: The tag of a memory a session gave only from an instruction file its host loaded.
LOADED_TAG = "host_loaded"
#: The tag of a memory a session gave only from a file it read or wrote with a tool (the rules
#: and commands of an instruction file, the notes a session wrote into one).
WRITTEN_TAG = "written"
#: The tag of a rule of a skill the assistant launched: the host loads the skill's text again
#: whenever the skill runs, and the rule holds only then, so no session opens with it.
SKILL_TAG = "skill"
#: Tags of a memory that says only what its cited file says.
FILE_TAGS = frozenset({LOADED_TAG, WRITTEN_TAG})


def ref_file(ref: str) -> str:
    """The file of a `path:line` reference (the reference itself when it has no line)."""
    head, sep, tail = ref.rpartition(":")
    return head if sep and tail.isdigit() else ref


def only_from_files(
    refs: Sequence[str], files: Sequence[str], *, from_sessions: bool, tags: Iterable[str]
) -> bool:
    """True when every source of a memory is a line of one of `files`: it has sources, all in
    them, and no session added to it (a recipe the sessions confirmed says more than the file)
    but by the host loading the file or a session reading or writing it (`FILE_TAGS`)."""
    if not files or not refs:
        return False
    if from_sessions and FILE_TAGS.isdisjoint(tags):
        return False
    wanted = set(files)
    return all(ref_file(ref) in wanted for ref in refs)
