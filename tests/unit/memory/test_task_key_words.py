"""Words that say who is to do the work or how a memory was learned, and words said only inside
a compound, pick no memory: a subagent the prompt hands its work to (`@agent-planner`,
`@"solution-architect (agent)"`), a key part such as `labelled` of `pitfall:labelled:…`, the
kind-word of a two-word key part (`table` of `invoices_table`), and a word a memory says only
in a hyphenated compound ("table" of "table-driven tests"). Made-up projects in TypeScript,
Python and Rust, with the topic embedder of `test_task_meaning` (one shared word is far in
meaning there, so only the key can pick a memory)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, Scope
from squirrel_memory.retrieval import addressee_words
from squirrel_memory.retrieval.framing import framed_only
from squirrel_memory.task_subjects import compound_only, key_subjects, subject_stem
from tests.unit.memory.test_task_meaning import PYTHON_OTHERS, TYPESCRIPT_OTHERS, _selected

Memory = tuple[MemoryType, str, str]
AGENTS: Memory = (
    MemoryType.PROJECT_FACT,
    "module:agents",
    "Module `agents`: one adapter per supported CLI. src/adapters/index.ts",
)
PLANNER: Memory = (
    MemoryType.PROJECT_FACT,
    "module:planner",
    "Module `planner`: orders the jobs of a run by their dependencies. src/planner/graph.ts",
)
RETRY: Memory = (
    MemoryType.PITFALL,
    "pitfall:labelled:retry_loop_reused_closed_socket",
    "The retry loop reused a closed socket, so every retry failed at once; the fix: open a new "
    "connection per attempt in `src/net/retry.ts`.",
)
INVOICES: Memory = (
    MemoryType.PITFALL,
    "pitfall:corrected:invoices_table",
    "The user corrected the assistant (working on ledger/migrations/0042.py): the invoices "
    "table is partitioned by month; add indexes per partition.",
)
TABLE_DRIVEN: Memory = (
    MemoryType.USER_STYLE,
    "pref:table_driven_tests",
    "Write table-driven tests.",
)
THREAD_SAFE: Memory = (
    MemoryType.USER_STYLE,
    "pref:thread_safe_handles",
    "Share database handles as thread-safe `Arc`s, never through `static mut`.",
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '@"solution-architect (agent)" write a spec for an export command',
            {"solution", "architect", "agent"},
        ),
        ("@agent-planner draft the OAuth rollout", {"agent", "planner"}),
        ("@agent-planner fix the planner's cycle check", {"agent"}),
        ("mail me@agent-x.dev about the agent pool", set()),
        ("the agent (agent) config", set()),
    ],
)
def test_the_words_of_a_subagent_the_task_is_handed_to(text: str, expected: set[str]) -> None:
    assert addressee_words(text) == expected


@pytest.mark.parametrize(
    ("memories", "task", "left"),
    [
        (
            [AGENTS, *TYPESCRIPT_OTHERS],
            '@"solution-architect (agent)" write a spec for an export command',
            "module:agents",
        ),
        (
            [PLANNER, *TYPESCRIPT_OTHERS],
            "@agent-planner draft the docs of the login",
            "module:planner",
        ),
        (
            [RETRY, *TYPESCRIPT_OTHERS],
            "make sure every input of the signup form is labelled for screen readers",
            RETRY[1],
        ),
        ([INVOICES, *PYTHON_OTHERS], "drop the unused audit_log table", INVOICES[1]),
        (
            [TABLE_DRIVEN, *PYTHON_OTHERS],
            "count the rows in the notes table per day",
            TABLE_DRIVEN[1],
        ),
        ([THREAD_SAFE, *PYTHON_OTHERS], "raise the thread count of the pool", THREAD_SAFE[1]),
    ],
)
async def test_a_word_that_says_no_subject_picks_no_memory(
    tmp_path: Path, memories: list[Memory], task: str, left: str
) -> None:
    assert left not in await _selected(tmp_path, memories, task)


@pytest.mark.parametrize(
    ("memories", "task", "kept"),
    [
        (
            [PLANNER, *TYPESCRIPT_OTHERS],
            "@agent-planner fix the cycle check of the planner",
            PLANNER[1],
        ),
        (
            [RETRY, *TYPESCRIPT_OTHERS],
            "the retry loop fails every attempt after a timeout",
            RETRY[1],
        ),
        ([INVOICES, *PYTHON_OTHERS], "add a created_at column to the invoices table", INVOICES[1]),
        ([THREAD_SAFE, *PYTHON_OTHERS], "is the connection pool thread-safe?", THREAD_SAFE[1]),
    ],
)
async def test_the_word_that_says_the_subject_still_picks(
    tmp_path: Path, memories: list[Memory], task: str, kept: str
) -> None:
    """Trap: a subagent's name the task also says on its own, a labelled pitfall's own words,
    a two-word key's first word, and a compound the task says whole still pick the memory."""
    assert kept in await _selected(tmp_path, memories, task)


@pytest.mark.parametrize(
    ("key", "named", "phrased"),
    [
        ("pitfall:labelled:retry_loop_reused_closed_socket", set(), {"retry", "socket"}),
        ("pitfall:found:session_ids_collide", set(), {"session", "collide"}),
        ("recipe:asked:release", {"release"}, set()),
        ("pitfall:corrected:invoices_table", {"invoices"}, {"table"}),
        ("module:labelled", {"labelled"}, set()),
    ],
)
def test_a_key_part_that_says_how_it_was_learned_names_nothing(
    key: str, named: set[str], phrased: set[str]
) -> None:
    found = key_subjects(key)
    assert found.named == {subject_stem(w) for w in named}
    assert {subject_stem(w) for w in phrased} <= found.phrased
    assert "labell" not in found.phrased | found.named or key == "module:labelled"


@pytest.mark.parametrize(
    ("content", "terms", "expected"),
    [
        ("Write table-driven tests.", ["rows", "notes", "table"], {"table", "driven"}),
        ("Use table-driven tests; one table per case.", ["notes", "table"], {"driven"}),
        ("The write-ahead log replays records.", ["write", "ahead", "log"], set()),
        ("Coverage needs the pytest-cov plugin.", ["coverage"], {"pytest", "cov"}),
        ("No compound here.", ["here"], set()),
    ],
)
def test_a_word_said_only_inside_a_compound(
    content: str, terms: list[str], expected: set[str]
) -> None:
    assert compound_only(content, terms) == expected


@pytest.mark.parametrize(
    ("key", "content", "framed"),
    [
        (
            "pitfall:diagnosed:fsync_timing",
            "A failure diagnosed in a session: a timing failure of the fsync test on tmpfs.",
            {"diagnosed", "session"},
        ),
        (
            "pitfall:found:ids_collide",
            "Found by a subagent reading the code (src/ids.rs): ids collide within a second.",
            {"found", "subagent", "reading"},
        ),
        (
            "pitfall:plan:retry_socket",
            "Retries reused a closed socket; the fix (an approved plan, carried out in the "
            "session): open one per attempt in `src/net.ts`.",
            {"approved", "plan", "carried", "session"},
        ),
    ],
)
def test_the_frames_of_diagnoses_findings_and_plans_are_framing(
    key: str, content: str, framed: set[str]
) -> None:
    now = datetime.now(UTC)
    item = MemoryItem(
        id=key,
        project_id="/p",
        user_id=None,
        scope=Scope.PROJECT,
        type=MemoryType.PITFALL,
        key=key,
        content=content,
        tags=(),
        importance=0.5,
        created_at=now,
        updated_at=now,
        source=MemorySource.RULES,
    )
    own = {"fsync", "ids", "socket", "tmpfs", "collide"} & set(re.findall(r"\w+", content.lower()))
    assert own
    assert framed_only([*sorted(framed), *sorted(own)], item) == framed
