"""Rule-based Mem0-style update decisions, their similarity thresholds and the manual guard."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    UpdateAction,
)
from squirrel_memory.updates import (
    MAX_MERGED_CHARS,
    NEAR_DUPLICATE_JACCARD,
    NEAR_DUPLICATE_RATIO,
    RELATED_JACCARD,
    RELATED_RATIO,
    contradicts,
    decide_update,
    edit_ratio,
    edit_ratio_reaches,
    jaccard,
    merge_contents,
    reverses,
    similarity,
)

T0 = datetime(2026, 3, 2, tzinfo=UTC)


def item(
    content: str,
    *,
    key: str = "pref:testing",
    source: MemorySource = MemorySource.RULES,
    item_id: str = "mem_1",
    kind: MemoryType = MemoryType.USER_STYLE,
    deleted: bool = False,
) -> MemoryItem:
    return MemoryItem(
        id=item_id,
        project_id="/repo",
        user_id="dev",
        scope=Scope.USER,
        type=kind,
        key=key,
        content=content,
        tags=("old",),
        importance=0.8,
        created_at=T0,
        updated_at=T0,
        source=source,
        file_paths=("a.py",),
        deleted=deleted,
    )


def cand(
    content: str, *, key: str = "pref:testing", kind: MemoryType = MemoryType.USER_STYLE
) -> MemoryCandidate:
    return MemoryCandidate(
        type=kind, key=key, content=content, tags=("new",), importance=0.5, file_paths=("b.py",)
    )


def test_thresholds_are_ordered() -> None:
    assert 0 < RELATED_JACCARD < NEAR_DUPLICATE_JACCARD <= 1
    assert 0 < RELATED_RATIO < NEAR_DUPLICATE_RATIO <= 1


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("Uses pytest.", "uses   PYTEST", 1.0),
        ("alpha beta gamma delta epsilon", "alpha beta gamma delta", 0.8),
        ("alpha beta gamma delta", "alpha beta gamma zeta", 0.6),
        ("alpha", "omega", 0.0),
        ("the a of", "", 1.0),
    ],
)
def test_jaccard_is_the_token_set_overlap_without_stopwords(
    a: str, b: str, expected: float
) -> None:
    assert jaccard(a, b) == pytest.approx(expected)


def test_edit_ratio_ignores_case_and_spacing_and_caps_its_work() -> None:
    assert edit_ratio("Uses  Pytest", "uses pytest") == 1.0
    assert edit_ratio("x" * 200_000, "x" * 199_999 + "y") == 1.0


@pytest.mark.parametrize(
    ("a", "b", "near", "related"),
    [
        # Jaccard exactly at the near-duplicate threshold (4 of 5 words shared).
        ("alpha beta gamma delta epsilon", "alpha beta gamma delta", True, True),
        # Edit ratio above 0.9 with a low Jaccard (one word changed in a short phrase).
        ("Runs the unit tests", "Runs the unit test", True, True),
        # Jaccard 0.5, ratio about 0.82: related but not a duplicate.
        ("Uses black for formatting", "Uses ruff for formatting", False, True),
        # Jaccard 0.4 (above 0.3) with a ratio under 0.9.
        ("Writes docstrings for public functions", "Writes docstrings for modules", False, True),
        # Nothing shared: unrelated.
        ("Prefers small functions", "Avoids global state", False, False),
    ],
)
def test_similarity_thresholds(a: str, b: str, near: bool, related: bool) -> None:
    sim = similarity(a, b)

    assert (sim.near_duplicate, sim.related) == (near, related)


def test_no_existing_memory_adds_new() -> None:
    decision = decide_update(cand("Uses pytest."), [])

    assert decision.action == UpdateAction.ADD_NEW
    assert decision.target_id is None


def test_near_identical_content_is_a_noop() -> None:
    decision = decide_update(
        cand("Runs tests with pytest (through uv)"), [item("Runs tests with pytest (through uv).")]
    )

    assert decision.action == UpdateAction.NOOP
    assert decision.target_id == "mem_1"


def test_near_identical_content_under_another_key_is_a_noop() -> None:
    decision = decide_update(cand("Uses pytest.", key="pref:test_runner"), [item("Uses pytest.")])

    assert decision.action == UpdateAction.NOOP


def test_candidate_already_covered_by_a_fuller_memory_is_a_noop() -> None:
    decision = decide_update(cand("Uses pytest."), [item("Uses pytest, not unittest.")])

    assert decision.action == UpdateAction.NOOP


def test_refinement_updates_with_merged_content_and_keeps_every_tag() -> None:
    decision = decide_update(
        cand("Runs tests with pytest (through uv)."), [item("Runs tests with pytest.")]
    )

    assert decision.action == UpdateAction.UPDATE_EXISTING
    assert decision.target_id == "mem_1"
    assert decision.merged_content == "Runs tests with pytest (through uv)."
    assert decision.dropped_tags == ()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Uses pytest.", "Uses unittest."),
        ("Always use pytest fixtures.", "Never use pytest fixtures."),
        ("Prefers uv over pip.", "Prefers pip over uv."),
        ("Do not use print for logging.", "Use print for logging."),
        ("Built with Django.", "Built with FastAPI."),
    ],
)
def test_contradictions_delete_and_add(old: str, new: str) -> None:
    decision = decide_update(cand(new), [item(old)])

    assert decision.action == UpdateAction.DELETE_AND_ADD
    assert decision.target_id == "mem_1"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Always write tests first.", "Never use mocks in tests."),
        ("Uses pytest, not unittest.", "Uses pytest."),
        ("Runs tests with pytest (through uv).", "Runs tests with pytest."),
    ],
)
def test_statements_that_do_not_contradict(a: str, b: str) -> None:
    assert not contradicts(a, b)
    assert not contradicts(b, a)


def test_unrelated_statement_under_the_same_key_is_added() -> None:
    decision = decide_update(cand("Never use mocks in tests."), [item("Always write tests first.")])

    assert decision.action == UpdateAction.ADD_NEW


def test_pitfalls_accumulate_instead_of_contradicting() -> None:
    old = item("`pytest` failed with `KeyError`; it passed after changing a.py.", key="pitfall:k")
    new = cand(
        "`pytest` failed with `KeyError`; it passed after changing b.py and c.py.", key="pitfall:k"
    )

    decision = decide_update(new, [old])

    assert decision.action in (UpdateAction.UPDATE_EXISTING, UpdateAction.NOOP)


def test_manual_memory_is_never_overwritten() -> None:
    manual = item("Uses pytest.", source=MemorySource.MANUAL)

    contradiction = decide_update(cand("Uses unittest."), [manual])
    refinement = decide_update(cand("Uses pytest with the xdist plugin for speed."), [manual])
    duplicate = decide_update(cand("uses pytest"), [manual])

    assert contradiction.action == UpdateAction.NOOP
    assert refinement.action == UpdateAction.ADD_NEW
    assert refinement.target_id is None
    assert duplicate.action == UpdateAction.NOOP


def test_contradiction_prefers_deleting_an_extracted_memory_over_keeping_a_manual_one() -> None:
    manual = item("Uses pytest.", source=MemorySource.MANUAL, item_id="mem_manual")

    decision = decide_update(cand("Uses unittest."), [manual])

    assert decision.action == UpdateAction.NOOP
    assert decision.target_id == "mem_manual"


def test_deleted_memories_and_other_types_are_ignored() -> None:
    existing = [
        item("Uses pytest.", deleted=True),
        item("Uses pytest.", kind=MemoryType.PROJECT_FACT, item_id="mem_2"),
    ]

    decision = decide_update(cand("Uses pytest."), existing)

    assert decision.action == UpdateAction.ADD_NEW


def test_best_match_among_several_is_chosen() -> None:
    existing = [
        item("Always write docstrings.", item_id="mem_a"),
        item("Runs tests with pytest.", item_id="mem_b"),
    ]

    decision = decide_update(cand("Runs tests with pytest and hypothesis."), existing)

    assert decision.action == UpdateAction.UPDATE_EXISTING
    assert decision.target_id == "mem_b"


def test_merge_appends_new_sentences_once() -> None:
    merged = merge_contents("Uses pytest. Prefers fixtures.", "Prefers fixtures. Uses hypothesis.")

    assert merged == "Uses pytest. Prefers fixtures. Uses hypothesis."


def test_overlong_merge_keeps_the_newer_statement() -> None:
    old = "Old fact. " * (MAX_MERGED_CHARS // 10)
    new = "A different new statement entirely."

    assert merge_contents(old, new) == new


def test_empty_and_huge_contents_do_not_break_decisions() -> None:
    huge = "word " * 100_000

    assert decide_update(cand(""), [item("")]).action == UpdateAction.NOOP
    assert decide_update(cand(huge), [item(huge)]).action == UpdateAction.NOOP


def test_everyday_words_that_name_tools_are_not_values() -> None:
    assert not contradicts("Always make small commits.", "Always run cargo build first.")


def test_listed_statements_merge_their_lists() -> None:
    merged = merge_contents(
        "Module `auth`: src/auth/a.py, src/auth/b.py.",
        "Module `auth`: src/auth/b.py, src/auth/c.py.",
    )

    assert merged == "Module `auth`: src/auth/a.py, src/auth/b.py, src/auth/c.py."


def test_same_head_with_a_structured_body_takes_the_newer_statement() -> None:
    old = "Before finishing a change: `pytest` → `ruff check`."
    new = "Before finishing a change: `ty check` → `pytest`."

    assert merge_contents(old, new) == new


_RATIO_PAIRS = [
    ("Uses pytest with fixtures.", "Uses pytest with fixtures for test setup."),
    ("Run the tests with uv run pytest.", "Run the tests with `uv run pytest -x`."),
    ("Postgres listens on 5433.", "The deploy script needs a VPN."),
    ("", ""),
    ("a", ""),
    ("same text", "same text"),
    ("x" * 3000, "x" * 2999 + "y"),
    ("Prefers tabs over spaces.", "prefers   TABS over spaces."),
]


@pytest.mark.parametrize(("a", "b"), _RATIO_PAIRS)
@pytest.mark.parametrize("threshold", [0.0, 0.5, 0.8, 0.9, 0.95, 1.0])
def test_edit_ratio_reaches_agrees_with_the_full_ratio(a: str, b: str, threshold: float) -> None:
    assert edit_ratio_reaches(a, b, threshold) is (round(edit_ratio(a, b), 4) >= threshold)


COUNTED = "Code worked on in this project's sessions: C++ (3 files)."


def _language(content: str, tags: tuple[str, ...] = ("language",)) -> MemoryCandidate:
    return MemoryCandidate(
        type=MemoryType.PROJECT_FACT, key="language", content=content, tags=tags, importance=0.6
    )


def test_a_manifest_language_replaces_one_counted_from_touched_files() -> None:
    kept = item(COUNTED, key="language", kind=MemoryType.PROJECT_FACT)

    decision = decide_update(_language("C++ project (CMakeLists.txt)."), [kept])

    assert decision.action == UpdateAction.UPDATE_EXISTING
    assert decision.merged_content == "C++ project (CMakeLists.txt)."


def test_a_counted_language_never_replaces_a_manifests() -> None:
    kept = item("C++ project (CMakeLists.txt).", key="language", kind=MemoryType.PROJECT_FACT)

    decision = decide_update(_language(COUNTED), [kept])

    assert decision.action == UpdateAction.NOOP


def test_counted_languages_of_two_sessions_become_one_statement() -> None:
    kept = item(COUNTED, key="language", kind=MemoryType.PROJECT_FACT)
    newer = "Code worked on in this project's sessions: C++ (5 files)."

    grown = decide_update(_language(newer), [kept])
    same = decide_update(_language(COUNTED), [kept])

    assert grown.action == UpdateAction.UPDATE_EXISTING
    assert grown.merged_content == newer
    assert same.action == UpdateAction.NOOP


@pytest.mark.parametrize(
    ("old", "new", "merged"),
    [
        (
            "Tests live in `test/` (`test/test_cache.py` among them).",
            "Tests live in `test/` (`test/test_links.py` among them).",
            "Tests live in `test/` (`test/test_links.py` among them).",
        ),
        (
            "Specs live in `spec/` (`spec/models/user_spec.rb` among them). Uses RSpec.",
            "Specs live in `spec/` (`spec/requests/orders_spec.rb` among them).",
            "Specs live in `spec/` (`spec/requests/orders_spec.rb` among them). Uses RSpec.",
        ),
    ],
)
def test_a_sentence_restated_with_another_aside_replaces_the_old_one(
    old: str, new: str, merged: str
) -> None:
    assert merge_contents(old, new) == merged


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # another statement beside its own aside: both stay
        ("Tests live in `test/` (`test/a.py` among them).", "Docs live in `docs/` (mkdocs)."),
        # too short outside the parentheses to tell: both stay
        ("Uses Go (1.22).", "Uses Go (1.23) and Docker."),
    ],
)
def test_other_sentences_are_not_taken_for_restatements(old: str, new: str) -> None:
    assert merge_contents(old, new) == f"{old} {new}"


def test_the_same_statement_with_a_newer_version_replaces_the_stored_one() -> None:
    old = item("Python project (pyproject.toml: Python >=3.10).", key="language")
    new = cand("Python project (pyproject.toml: Python >=3.12).", key="language")

    decision = decide_update(new, [old])

    assert decision.action is UpdateAction.UPDATE_EXISTING
    assert decision.merged_content == new.content


def test_a_manual_memory_keeps_its_version() -> None:
    old = item("Deploys run on Node 20.", key="runtime", source=MemorySource.MANUAL)

    decision = decide_update(cand("Deploys run on Node 22.", key="runtime"), [old])

    assert decision.merged_content != "Deploys run on Node 22."


@pytest.mark.parametrize(
    ("later", "earlier"),
    [
        (
            "We changed the style guide: from now on always indent Lua with 4 spaces, not 2.",
            "Always indent Lua with 2 spaces in this repo.",
        ),
        (
            "From now on write commit subjects in English instead of German.",
            "Write commit subjects in German.",
        ),
        (
            "Use double quotes in Python strings, no longer single.",
            "Use single quotes in Python strings.",
        ),
    ],
)
def test_a_later_instruction_that_turns_down_the_earlier_value_takes_it_back(
    later: str, earlier: str
) -> None:
    assert reverses(later, earlier)


@pytest.mark.parametrize(
    ("later", "earlier"),
    [
        # Another subject: the turned-down word appears in the earlier one in passing.
        ("Use pytest, not unittest.", "Never use unittest mocks in integration tests."),
        # Nothing turned down.
        ("Always indent Lua with 4 spaces.", "Always indent Lua with 2 spaces in this repo."),
        # The turned-down value is not the earlier one's.
        ("Indent Lua with 4 spaces, not tabs.", "Always indent Lua with 2 spaces in this repo."),
    ],
)
def test_an_instruction_takes_back_nothing_it_does_not_turn_down(later: str, earlier: str) -> None:
    assert not reverses(later, earlier)
