"""Commands whose table purpose does not hold for the words they were given: a program's run
command started on a test target, and a release or deploy rehearsed, not done.

- A run command (`cargo run`, `go run`, `dotnet run`) started on a target its own words call a
  test suite (`--bin conformance`, `./cmd/e2e`, `--project tests/Api.IntegrationChecks`) or
  a test runner (`-m kaocha.runner`) runs that suite, not the app. Only the target is read:
  the words before `--`, the value of a target option, and the first word that is no option;
  what is passed to the program (`-- --config tests/fixture.toml`) is the app's input.
- A release or deploy given a rehearsal option (`--dry-run`, `--snapshot`, `-DdryRun=true`,
  `--skip=publish`, `--check`) checks what would be published and publishes nothing.
- A run command given code to evaluate (`rebar3 shell --eval '…, init:stop().'`, `clojure -M
  --eval …`) runs that code (a module's tests, a one-off call), not the app.
- A build step told not to build (`dotnet pack --no-build`, `dotnet publish --no-build`)
  packs or copies what an earlier build made: it is no way to build.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: Words that name a test suite as a target's name or one of its path's folders.
_TEST_WORDS = frozenset(
    {"test", "tests", "testing", "e2e", "integration", "conformance", "smoke", "acceptance"}
    | {"spec", "specs", "testsuite", "harness"}
    # Test runners a run command can be given as its main (`lein run -m kaocha.runner`).
    | {"kaocha", "eftest", "midje", "pytest", "unittest", "nose2", "jest", "vitest", "mocha"}
    | {"rspec", "minitest", "junit", "testng", "xunit", "nunit", "hspec", "tasty", "alcotest"}
)
#: Options whose value names what a run command starts.
_TARGET_OPTIONS = frozenset(
    {"--bin", "--example", "--project", "-p", "--package", "--target", "--module", "-m"}
)
_PARTS = re.compile(r"[/\\.:_\-\s]+|(?<=[a-z0-9])(?=[A-Z])")
#: A rehearsal of a release or a deploy: nothing is published.
_REHEARSAL = re.compile(
    r"^(?:--dry-?run(?:=\S*)?|--dry|-DdryRun(?:=true)?|--snapshot|--skip[=-]publish\S*|"
    r"--what-?if|--noop|--no-publish|--preview|--check(?:-only)?|--verify(?:-only)?|"
    r"--validate)$",
    re.IGNORECASE,
)


def names_test_target(words: Sequence[str]) -> bool:
    """Whether a run command's target (`words` after the run command's own words, e.g. after
    `cargo run`) is named for tests: a target option's value or the first operand."""
    targets: list[str] = []
    taking = False
    for word in words:
        if word == "--":
            break
        if taking:
            targets.append(word)
            taking = False
            continue
        name, _, value = word.partition("=")
        if name in _TARGET_OPTIONS:
            if value:
                targets.append(value)
            else:
                taking = True
            continue
        if word.startswith("-"):
            continue
        targets.append(word)
        break
    return any(part.lower() in _TEST_WORDS for target in targets for part in _PARTS.split(target))


def rehearses(words: Sequence[str]) -> bool:
    """Whether a release's or deploy's words hold a rehearsal option (`--dry-run`)."""
    return any(_REHEARSAL.match(w) for w in words if w != "--")


def skips_build(words: Sequence[str]) -> bool:
    """Whether a build command's words tell it not to build (`--no-build`)."""
    return any(w.lower() == "--no-build" for w in words if w != "--")


#: Options that give a run command code to evaluate instead of starting the app.
_EVAL_OPTIONS = frozenset({"--eval", "-eval"})


def evaluates_code(words: Sequence[str]) -> bool:
    """Whether a run command's words (before `--`) give it code to evaluate (`--eval '…'`)."""
    for word in words:
        if word == "--":
            return False
        if word.partition("=")[0] in _EVAL_OPTIONS:
            return True
    return False
