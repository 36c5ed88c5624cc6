# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z12`: claims that mislead without being false on their face, from
the kinds a second round of judges counted as borderline on the held-out projects: a
diagnosis kept as the state of things after the session fixed it, a bookkeeping edit (the
changelog, a version bump) listed beside the real fix as the change that fixed it, a
checklist item of an instruction file kept as a standing habit without its condition, and an
option's rule kept without the command it belongs to (`bench/wrong_traps.py` runs them).

Written blind, from those kinds alone, before any of these traps ran and with no rule changed
for them.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Trap, one_session

_NOT_FIXED = (
    r"^(?![^\n]*\b(?:fix(?:ed|es)?|chang(?:ed|ing)|worked|pass(?:ed|es)?|now|was|used to)\b)"
)

DIAGNOSIS_FIXED = Trap(
    "a-diagnosis-the-session-fixed",
    "Python",
    "the assistant says why a test fails, fixes it, and the test passes",
    one_session(
        "/home/ravi/src/tides",
        Ask("test_high_tide fails since the DST change, find out why."),
        Run(
            "python -m pytest -q tests/test_tides.py",
            "F.\nE   AssertionError: assert 14 == 13\n1 failed, 1 passed in 0.10s",
            1,
        ),
        Read(
            "tides/times.py",
            "def parse_time(text):\n    return datetime.strptime(text, FORMAT)\n",
        ),
        Say(
            "The cause: `parse_time` drops the timezone, so every comparison across the DST change is off by an hour."
        ),
        Edit(
            "tides/times.py",
            "    return datetime.strptime(text, FORMAT)",
            "    return datetime.strptime(text, FORMAT).replace(tzinfo=ZONE)",
        ),
        Run("python -m pytest -q tests/test_tides.py", "..\n2 passed in 0.09s"),
        Say("Fixed: `parse_time` keeps the timezone now and both tests pass."),
    ),
    wrong=(
        (
            _NOT_FIXED + r"[^\n]*`?parse_time`? drops the timezone",
            "the session fixed it: `parse_time` keeps the timezone now",
        ),
    ),
)

DIAGNOSIS_FIXED_GO = Trap(
    "a-diagnosis-read-from-code-then-fixed",
    "Go",
    "reading the code, the assistant names the bug, fixes it, the tests pass",
    one_session(
        "/home/ravi/src/courier",
        Ask("Retries seem to pile up after a success. Can you check the backoff code?"),
        Read(
            "backoff/backoff.go",
            "func (b *Backoff) Success() {\n\tb.last = time.Now()\n}\n",
        ),
        Say(
            "Found it: the retry counter is never reset after a success, so the delay keeps growing."
        ),
        Edit(
            "backoff/backoff.go",
            "\tb.last = time.Now()",
            "\tb.last = time.Now()\n\tb.tries = 0",
        ),
        Run("go test ./backoff/...", "ok  \texample.com/courier/backoff\t0.011s"),
        Say("Fixed: `Success` resets the counter."),
    ),
    wrong=(
        (
            _NOT_FIXED + r"[^\n]*retry counter is never reset",
            "the session fixed it: `Success` resets the counter",
        ),
    ),
)

BOOKKEEPING_BESIDE_FIX = Trap(
    "a-changelog-edit-is-not-the-fix",
    "Rust",
    "a failing test is fixed in the code; the changelog and the version are edited before the rerun",
    one_session(
        "/home/ravi/src/meterkit",
        Ask("cargo test fails on the overflow case, fix it and note it in the changelog."),
        Run(
            "cargo test",
            "thread 'tests::big_sum' panicked at src/lib.rs:14:9:\nattempt to add with overflow\ntest result: FAILED. 7 passed; 1 failed",
            101,
        ),
        Edit("src/lib.rs", "    total + value", "    total.saturating_add(value)"),
        Edit(
            "CHANGELOG.md",
            "## Unreleased\n",
            "## Unreleased\n\n- Sums saturate instead of overflowing.\n",
        ),
        Edit("Cargo.toml", 'version = "0.4.1"', 'version = "0.4.2"'),
        Run("cargo test", "test result: ok. 8 passed; 0 failed; 0 ignored"),
        Say("The sum saturates now; noted in the changelog and bumped to 0.4.2."),
    ),
    wrong=(
        (
            r"(?:editing|changing|edits? (?:to|of)|change made|changes? made)[^\n]{0,160}`(?:CHANGELOG\.md|Cargo\.toml)`|`(?:CHANGELOG\.md|Cargo\.toml)`[^\n]{0,80}(?:fixed it|got it to pass|worked)",
            "the changelog entry and the version bump fixed nothing: `saturating_add` in src/lib.rs did",
        ),
    ),
    may=(r"src/lib\.rs|saturating_add",),
)

BOOKKEEPING_BESIDE_FIX_PY = Trap(
    "a-version-bump-is-not-the-fix",
    "Python",
    "a failing test is fixed in the code; the release notes and the version are edited too",
    one_session(
        "/home/ravi/src/fares",
        Ask("Fix the rounding test and add a line to the release notes."),
        Run(
            "python -m pytest -q",
            "E   AssertionError: assert Decimal('2.34') == Decimal('2.35')\n1 failed, 30 passed in 0.5s",
            1,
        ),
        Edit("fares/money.py", "ROUND_HALF_EVEN", "ROUND_HALF_UP"),
        Edit(
            "docs/changes.rst",
            "Unreleased\n----------\n",
            "Unreleased\n----------\n\n* Fares round half up.\n",
        ),
        Edit("pyproject.toml", 'version = "2.3.0"', 'version = "2.3.1"'),
        Run("python -m pytest -q", "31 passed in 0.5s"),
        Say("Fares round half up now; release notes updated and the version is 2.3.1."),
    ),
    wrong=(
        (
            r"(?:editing|changing|edits? (?:to|of)|change made|changes? made)[^\n]{0,160}`(?:docs/changes\.rst|pyproject\.toml)`|`(?:docs/changes\.rst|pyproject\.toml)`[^\n]{0,80}(?:fixed it|got it to pass|worked)",
            "the release notes and the version fixed nothing: the rounding mode in fares/money.py did",
        ),
    ),
    may=(r"money\.py|ROUND_HALF_UP",),
)

_CHECKLIST_NOTES = (
    "# Working on hangar\n\n"
    "Run `npm test` after every change.\n\n"
    "## Before a release\n"
    "- Update CHANGELOG.md.\n"
    "- Run the full browser suite: `npm run e2e` (takes 20 minutes).\n"
)

CHECKLIST_CONDITION = Trap(
    "a-release-checklist-item-is-no-everyday-habit",
    "TypeScript",
    "an instruction file's release checklist names a long suite; everyday work runs the unit tests",
    one_session(
        "/home/ravi/src/hangar",
        Ask("Fix the typo in the login button label."),
        Read("CLAUDE.md", _CHECKLIST_NOTES),
        Edit("src/Login.tsx", "Sing in", "Sign in"),
        Run("npm test", " Test Files  12 passed (12)\n      Tests  88 passed (88)"),
        Say("Fixed the label; the unit tests pass."),
    ),
    wrong=(
        (
            r"^(?![^\n]*releas)[^\n]*npm run e2e",
            "`npm run e2e` is run before a release, not after every change",
        ),
    ),
    may=(r"npm test",),
)

_OPTION_NOTES = (
    "# Agents\n\n"
    "- Deploy with `./deploy.sh staging`.\n"
    "- `./deploy.sh` must never get `--force` for production.\n"
    "- Tests: `bundle exec rspec`.\n"
)

OPTION_WITHOUT_COMMAND = Trap(
    "an-options-rule-keeps-its-command",
    "Ruby",
    "an instruction file forbids one option of one script; the session pushes with `--force-with-lease`",
    one_session(
        "/home/ravi/src/ledger-rb",
        Ask("Rebase onto main and push the branch."),
        Read("AGENTS.md", _OPTION_NOTES),
        Run("git rebase main", "Successfully rebased and updated refs/heads/fix-rounding."),
        Run("bundle exec rspec", "54 examples, 0 failures"),
        Run(
            "git push --force-with-lease",
            "To github.com:ravi/ledger-rb.git\n + 1a2b3c4...5d6e7f8 fix-rounding -> fix-rounding (forced update)",
        ),
        Say("Rebased and pushed."),
    ),
    wrong=(
        (
            r"^(?![^\n]*deploy\.sh)[^\n]*(?:never|don't|do not|must not)[^\n]*`?--force\b",
            "the rule is about `./deploy.sh` for production, not `--force` anywhere",
        ),
    ),
    may=(r"bundle exec rspec",),
)

CASES: tuple[Trap, ...] = (
    DIAGNOSIS_FIXED,
    DIAGNOSIS_FIXED_GO,
    BOOKKEEPING_BESIDE_FIX,
    BOOKKEEPING_BESIDE_FIX_PY,
    CHECKLIST_CONDITION,
    OPTION_WITHOUT_COMMAND,
)
