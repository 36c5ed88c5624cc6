"""Commands whose table purpose does not hold for the words they were given: a program's run
command started on a test target, and a release or deploy rehearsed, not done.

- A run command (`cargo run`, `go run`, `dotnet run`) started on a target its own words call a
  test suite (`--bin conformance`, `./cmd/e2e`, `--project tests/Api.IntegrationChecks`) or
  a test runner (`-m kaocha.runner`) runs that suite, not the app. Only the target is read:
  the words before `--`, the value of a target option, and the first word that is no option;
  what is passed to the program (`-- --config tests/fixture.toml`) is the app's input.
- A release or deploy given a rehearsal option (`--dry-run`, `--snapshot`, `-DdryRun=true`,
  `--skip=publish`, `--check`) checks what would be published and publishes nothing.
- A run command given code to evaluate (`rebar3 shell --eval '…, init:stop().'`, `mix run -e
  'Shop.Seeds.run()'`) runs that code (a module's tests, a one-off call), not the app; nor does
  one started on a tool beside the app (`dotnet run --project tools/Seeder`, `cargo run
  --example demo`, `go run ./scripts/backfill`).
- A build step told not to build (`dotnet pack --no-build`, `dotnet publish --no-build`)
  packs or copies what an earlier build made: it is no way to build.
- A check (a test runner, linter, formatter or type checker) asked to write or print its own
  configuration (`eslint --init`, `tsc --init`, `pylint --generate-rcfile`, `rubocop
  --auto-gen-config`, `clang-format --dump-config`, `biome init`) checks nothing: it sets the
  tool up once.
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
#: Words that name a tool beside the app as a target's name or one of its path's folders: a
#: seeder, a script, an example, a benchmark.
_SIDE_WORDS = frozenset(
    {"tools", "tool", "scripts", "script", "seed", "seeds", "seeder", "seeders", "seeding"}
    | {"examples", "example", "samples", "sample", "bench", "benches", "benchmarks", "fixtures"}
)
#: Options of a run command that start an example or a benchmark instead of the app.
_SIDE_OPTIONS = frozenset({"--example", "--bench"})
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
    return any(part.lower() in _TEST_WORDS for part in _target_parts(words))


def names_side_target(words: Sequence[str]) -> bool:
    """Whether a run command's target is named for a tool beside the app (`--project
    tools/Seeder`, `./scripts/…`, `--example demo`, `--bench`): a target option's value, the
    first operand, or the option that names an example or a benchmark."""
    if any(w.partition("=")[0] in _SIDE_OPTIONS for w in _before_input(words)):
        return True
    return any(part.lower() in _SIDE_WORDS for part in _target_parts(words))


def _before_input(words: Sequence[str]) -> list[str]:
    """`words` up to `--` (what follows is the program's own input)."""
    found: list[str] = []
    for word in words:
        if word == "--":
            break
        found.append(word)
    return found


def _target_parts(words: Sequence[str]) -> list[str]:
    """The parts of a run command's target: a target option's value, else the first operand,
    split at path and name separators (`tests/Api.IntegrationChecks` → tests, Api, …)."""
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
    return [part for target in targets for part in _PARTS.split(target)]


def rehearses(words: Sequence[str]) -> bool:
    """Whether a release's or deploy's words hold a rehearsal option (`--dry-run`)."""
    return any(_REHEARSAL.match(w) for w in words if w != "--")


def skips_build(words: Sequence[str]) -> bool:
    """Whether a build command's words tell it not to build (`--no-build`)."""
    return any(w.lower() == "--no-build" for w in words if w != "--")


#: Options that make a checker write or print its own configuration instead of checking.
_CONFIG_OPTIONS = frozenset(
    {"--init", "--generate-rcfile", "--auto-gen-config", "--dump-config", "--print-config"}
    | {"--show-config", "--generate-config", "--write-config"}
)


def sets_up_config(words: Sequence[str]) -> bool:
    """Whether a check's words (after its program) ask it to write or print its own
    configuration: one of `_CONFIG_OPTIONS` (a value given with `=` too), or `init` as its
    first word that is no option (`biome init`)."""
    before = [w for w in words[: words.index("--")]] if "--" in words else list(words)
    if any(w.split("=", 1)[0] in _CONFIG_OPTIONS for w in before):
        return True
    first = next((w for w in before if not w.startswith("-")), None)
    return first == "init"


#: Options that give a run command code to evaluate instead of starting the app.
_EVAL_OPTIONS = frozenset({"--eval", "-eval"})
#: Programs whose `-e` is code to evaluate (elsewhere `-e` can be an environment's name).
_E_EVALUATES = frozenset({"mix", "iex", "elixir", "erl", "ruby", "perl", "node", "bun", "clojure"})


def evaluates_code(program: str, words: Sequence[str]) -> bool:
    """Whether a run command's words (before `--`) give it code to evaluate (`--eval '…'`,
    `mix run -e '…'`)."""
    for word in _before_input(words):
        name = word.partition("=")[0]
        if name in _EVAL_OPTIONS or (name == "-e" and program in _E_EVALUATES):
            return True
    return False
