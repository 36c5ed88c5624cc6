"""The ecosystem matrix: in eighteen projects of ecosystems the answer key covers thinly or not
at all, the first facts a senior engineer notes are stated right or left unsaid, never wrong.

Each project's session reads what a developer reads first (README, root manifest, the
data-access configuration), runs its tests with their real output and edits code, and meets
the traps a real project holds (`projects_web`, `projects_lang`). A fact the session shows is
stated with its words unless the project lists it as one a rule cannot tell (`unsure`: a
driver only a manifest declares); a trap's name is never stated of the project, in a memory or
in the text a session starts with.
"""

from __future__ import annotations

import pytest

from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.ecosystem_facts.matrix import (
    FACT_KEYS,
    Project,
    extracted,
    mentions,
    stating,
    verdicts,
)
from tests.unit.memory.ecosystem_facts.projects_docs import DOCS_PROJECTS
from tests.unit.memory.ecosystem_facts.projects_lang import LANG_PROJECTS
from tests.unit.memory.ecosystem_facts.projects_web import WEB_PROJECTS
from tests.unit.memory.test_ecosystem_traps import session_start_text

PROJECTS = (*WEB_PROJECTS, *LANG_PROJECTS, *DOCS_PROJECTS)
IDS = [p.name for p in PROJECTS]


@pytest.fixture(scope="module")
def found() -> dict[str, list[MemoryCandidate]]:
    return {p.name: extracted(p) for p in PROJECTS}


@pytest.mark.parametrize("project", PROJECTS, ids=IDS)
def test_each_fact_the_session_shows_is_stated_with_its_words(
    project: Project, found: dict[str, list[MemoryCandidate]]
) -> None:
    memories = found[project.name]

    for fact, words in project.stated:
        if fact in project.unsure:
            continue
        assert any(words in text for text in stating(memories, fact)), (fact, words, memories)


@pytest.mark.parametrize("project", PROJECTS, ids=IDS)
def test_no_fact_is_stated_wrong(project: Project, found: dict[str, list[MemoryCandidate]]) -> None:
    judged = verdicts(project, found[project.name])

    assert "wrong" not in judged.values(), judged


@pytest.mark.parametrize("project", PROJECTS, ids=IDS)
async def test_no_trap_is_named_in_a_memory_or_the_session_start_text(
    project: Project, found: dict[str, list[MemoryCandidate]]
) -> None:
    memories = found[project.name]
    # What the README says the project is quotes it whole; a fact said of a sub-folder ("In
    # `docs/`, tests are written with Vitest.") holds there: neither states the root's stack.
    stack = [m for m in memories if m.key != "about" and not _of_a_folder(m.key)]
    text = await session_start_text(stack)

    for _, word in project.traps:
        for memory in stack:
            assert not mentions(word, memory.content), (word, memory.key, memory.content)
        assert not mentions(word, text), (word, text)


def _of_a_folder(key: str) -> bool:
    """Whether a memory's key scopes it to a sub-folder (`testing@docs`, `recipe:test:docs`)."""
    return "@" in key or key.count(":") >= 2


def test_the_matrix_spans_the_ecosystems_the_answer_key_lacks() -> None:
    assert len(PROJECTS) >= 18
    assert {"what", "language", "version", "framework", "database", "testing"} <= set(FACT_KEYS)
    stated = {(p.name, fact) for p in PROJECTS for fact, _ in p.stated}
    for fact in ("what", "language", "version", "framework", "database", "testing"):
        assert sum(1 for _, f in stated if f == fact) >= 10, fact
