# ruff: noqa: E501  (transcript text: outputs are kept as one string a line)
"""Wrong-fact traps, part `s`: a failure the assistant explains where keeping the explanation
would be wrong: a guess taken back, a cause stated as a guess, a plan to check a cause, a typo
in a command, a test written first, a first cause that turned out wrong before the real one,
and a reply that says what a new test checks before saying what it added
(`bench/wrong_traps.py` runs them). The first six reuse the sessions of
`bench/stated_cause_cases.py`.

Every trap was written, its `wrong` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.stated_cause_cases import (
    COMMAND_TYPO,
    GUESS_TAKEN_BACK,
    HEDGED_CAUSE,
    PLAN_ONLY,
    TEST_FIRST,
    WRONG_THEN_RIGHT,
)
from bench.trap_transcripts import Ask, Edit, Run, Say, Session, Trap

GUESS_BACK = Trap(
    "cause-guess-taken-back",
    "Rust",
    "a cause the assistant takes back, the failure left open",
    GUESS_TAKEN_BACK.sessions,
    wrong=((r"serde", "a cause the assistant took back"),),
)

HEDGED = Trap(
    "cause-hedged",
    "C++",
    "a cause said as a guess and never confirmed, though the test passes after the change",
    HEDGED_CAUSE.sessions,
    wrong=((r"iterator|invalidat", "a cause the assistant only guessed"),),
)

PLANNED = Trap(
    "cause-planned-check",
    "PHP",
    "a plan to check whether a cause holds, then the user stops",
    PLAN_ONLY.sessions,
    wrong=((r"seed", "a cause the assistant only planned to check"),),
)

TYPO = Trap(
    "command-typo",
    "Ruby",
    "a typo in a program's name, retyped right at once",
    COMMAND_TYPO.sessions,
    wrong=((r"rpsec", "a typo stated as a program missing from the environment"),),
    may=(r"bundle exec rspec",),
)

RED_STEP = Trap(
    "cause-test-first",
    "Kotlin",
    "a test written first fails as it should before the feature is written",
    TEST_FIRST.sessions,
    wrong=(
        (
            r"--tests DiscountTest` failed|loyalty",
            "the red step of a test written first, kept as a pitfall",
        ),
    ),
)

WRONG_FIRST = Trap(
    "cause-wrong-then-right",
    "Kotlin",
    "a first cause that turned out wrong, then the real one",
    WRONG_THEN_RIGHT.sessions,
    wrong=((r"time zone|UTC|clock", "the cause the assistant said was not it"),),
    may=(r"hour >= 22",),
)

NEW_TEST_CHECKS = Trap(
    "cause-what-a-new-test-checks",
    "Go",
    "a reply says what a new test checks, then what it added, and the test passes",
    (
        Session(
            "claude",
            "/home/kim/go/src/shelfd",
            (
                Ask("Add expiry to the cache: write the test, then make it pass."),
                Edit(
                    "internal/cache/cache_test.go",
                    "func TestGet(t *testing.T) {",
                    'func TestExpiredItemIsGone(t *testing.T) {\n\tc := New(time.Millisecond)\n\tc.Set("k", Item{})\n\ttime.Sleep(2 * time.Millisecond)\n\tif _, ok := c.Get("k"); ok {\n\t\tt.Fatal("expired item still returned")\n\t}\n}\n\nfunc TestGet(t *testing.T) {',
                ),
                Run(
                    "go test ./internal/cache/",
                    "--- FAIL: TestExpiredItemIsGone (0.00s)\n    cache_test.go:14: expired item still returned\nFAIL\nFAIL\tshelfd/internal/cache\t0.004s",
                    1,
                ),
                Say(
                    "The expired item test checks that `Get` drops an item once its time to live is over. I added an `expires` field to `Item` and `Get` now compares it with `time.Now()`."
                ),
                Edit(
                    "internal/cache/cache.go",
                    "type Item struct {\n",
                    "type Item struct {\n\texpires time.Time\n",
                ),
                Run("go test ./internal/cache/", "ok  \tshelfd/internal/cache\t0.006s"),
                Say("Expiry works; the cache tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"expired item|time to live|expires",
            "what a test written first checks, kept as a pitfall",
        ),
    ),
)

CASES: tuple[Trap, ...] = (
    GUESS_BACK,
    HEDGED,
    PLANNED,
    TYPO,
    RED_STEP,
    WRONG_FIRST,
    NEW_TEST_CHECKS,
)
