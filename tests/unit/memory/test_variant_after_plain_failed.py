"""Going back to words that had failed before is no fix: a command failed, a variant of it
(another option, another program of its kind) failed too, and then the first words passed;
something else changed in between (a network joined, a service started). Made-up projects in
several ecosystems; a variant tried first and given up for the plain words still is the fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import command_runs

T0 = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)


def _pitfalls(root: str, runs: Sequence[tuple[str, int, str]]) -> list[str]:
    found = evidence_candidates(command_runs(root, runs, T0))
    return [c.content for c in found if c.type == MemoryType.PITFALL]


_UNREACHABLE = (
    "> Could not resolve com.acme:money-kt:4.2.0.\n  > repo.internal: Name or service not known"
)
_REGISTRY = "ERR_PNPM_META_FETCH_FAIL  GET https://npm.internal/left-pad: getaddrinfo ENOTFOUND"


def test_the_words_that_had_failed_before_the_variant_are_no_fix() -> None:
    gradle = _pitfalls(
        "/w/ledger",
        [
            ("./gradlew build", 1, _UNREACHABLE),
            ("./gradlew build --refresh-dependencies", 1, _UNREACHABLE),
            ("./gradlew build", 0, "BUILD SUCCESSFUL in 1m 2s"),
        ],
    )
    pnpm = _pitfalls(
        "/w/web",
        [
            ("pnpm install", 1, _REGISTRY),
            ("npm install", 1, "npm ERR! getaddrinfo ENOTFOUND npm.internal"),
            ("pnpm install", 0, "Done in 4.1s"),
        ],
    )
    for found in (gradle, pnpm):
        assert not any("worked" in text or "fixed" in text for text in found), found


def test_a_variant_given_up_for_words_never_tried_still_is_the_fix() -> None:
    found = _pitfalls(
        "/w/ledger",
        [
            ("./gradlew build --offline", 1, _UNREACHABLE),
            ("./gradlew build", 0, "BUILD SUCCESSFUL in 1m 2s"),
        ],
    )

    assert any("without `--offline` worked" in text for text in found), found


def test_a_run_narrowed_to_some_tests_is_no_fix_of_the_whole_run() -> None:
    found = _pitfalls(
        "/w/throttle",
        [
            ("rebar3 eunit", 1, "Failure/Error: ?assertEqual(3, count(W))\n7 tests, 1 failures"),
            ("rebar3 eunit --module=rl_bucket", 0, "4 tests, 0 failures"),
        ],
    )

    assert not any("worked" in text or "fixed" in text for text in found), found


def test_an_option_that_selects_no_test_still_is_the_fix() -> None:
    found = _pitfalls(
        "/w/store",
        [
            ("cargo test", 1, "error[E0432]: unresolved import `crate::sqlite`"),
            ("cargo test --features sqlite", 0, "test result: ok. 12 passed; 0 failed"),
        ],
    )

    assert any("`--features sqlite` added worked" in text for text in found), found
