"""The project's language, test framework and checks, as the assistant listed them.

Having read the project (its notes, manifest or code), the assistant often sums up its stack
in a labelled list: "- **Runtime**: Node.js ≥24, TypeScript 5.3", "- **Testing**: Vitest 4.0
(integration-first)", "- **CI Pipeline**: `npm run ci` → licence check + lint + build +
tests". A one-session project often says no more of how it is tested and checked, so such an
item becomes a project fact when a rule can tell it, the same for every ecosystem:

- the reply comes after the assistant read something in the episode (a tool's result): it
  sums up what was read, not what it guesses;
- its heading (if any) is not about a change or a proposal (`architecture.NOT_AS_IS`);
- its bold label names one facet: the language or runtime ("Runtime", "Language", or a
  language's own name), the tests ("Testing", "Test framework"), or the checks a change
  passes ("CI", "Quality", "Linting", "Pre-commit Hooks");
- its text names what the facet needs: a language (or a version) for the language (a
  language's own label needs its version, target or module system), a test runner of some
  ecosystem or a test command in a code span for the tests, a command in a code span or a
  check tool for the checks; it speaks of no one, hedges and plans nothing (`architecture.PERSONAL`,
  `HEDGE_OR_PLAN`), and is short enough to quote whole.

One memory per facet and episode (its items joined in order), saying it is the assistant's
summary: the tests are a recipe when they quote a test command (the session-start text opens
with it), else a project fact, as the language and the checks are. A fact the commands or a
read manifest give says it better: the rules extractor keeps this one only where those said
nothing of the facet.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.commands import is_test_command
from squirrel_core.events import EventType
from squirrel_memory.extractors.architecture import (
    HEADING,
    HEDGE_OR_PLAN,
    ITEM,
    NOT_AS_IS,
    PERSONAL,
)
from squirrel_memory.extractors.elsewhere import (
    read_in_project,
    replies_elsewhere,
)
from squirrel_memory.extractors.wording import sentence, without_bold
from squirrel_memory.models import StoredEvent

IMPORTANCE = 0.5
KEY_PREFIX = "stack:"
MAX_CHARS = 160
#: Items kept per facet.
MAX_ITEMS = 3

_LANGUAGES = (
    r"python|typescript|javascript|node(?:\.?js)?|deno|bun|go(?:lang)?|rust|ruby|elixir|erlang|"
    r"gleam|swift|kotlin|java|scala|c#|f#|\.net|php|dart|flutter|zig|haskell|ocaml|lua|perl|"
    r"c\+\+|r"
)
_LANGUAGE_NAME = re.compile(rf"^(?:{_LANGUAGES})$", re.IGNORECASE)
_NAMES_LANGUAGE = re.compile(rf"(?<![\w.+#-])(?:{_LANGUAGES})(?![\w+#-])|\b\d+\.\d+", re.IGNORECASE)
#: How a language is set up: a version, its target or module system, its edition.
_LANGUAGE_DETAIL = re.compile(
    r"\b\d+(?:\.\d+)+\b|\b(?:target|modules?|esm|commonjs|edition|strict|toolchain)\b",
    re.IGNORECASE,
)
#: Test runners of many ecosystems, as a summary names them.
_TEST_RUNNER = re.compile(
    r"\b(?:vitest|jest|mocha|jasmine|ava|playwright|cypress|pytest|unittest|nose2?|"
    r"go test|cargo (?:test|nextest)|nextest|rspec|minitest|exunit|mix test|gleam test|"
    r"gleeunit|xctest|swift test|swift testing|junit|kotest|spock|testng|gradle test|"
    r"mvn test|phpunit|pest|testthat|r cmd check|dotnet test|xunit|nunit|mstest|"
    r"flutter test|dart test|deno test|bun test|hspec|tasty|busted|catch2|googletest|gtest|"
    r"ctest|zig build test|ounit|alcotest|gradlew test|cabal test|stack test|dune test|"
    r"devtools::test|rails test|rake test)\b",
    re.IGNORECASE,
)
#: Check tools of many ecosystems (linters, formatters, type-checkers, hook runners).
_CHECK_TOOL = re.compile(
    r"\b(?:eslint|prettier|biome|oxlint|tsc|ruff|black|flake8|pylint|mypy|pyright|isort|"
    r"clippy|rustfmt|gofmt|golangci-lint|go vet|staticcheck|rubocop|standardrb|credo|"
    r"dialyzer|mix format|gleam format|swiftlint|swiftformat|ktlint|detekt|spotless|"
    r"checkstyle|phpstan|psalm|php-cs-fixer|lintr|styler|dotnet format|shellcheck|"
    r"husky|lint-staged|lefthook|pre-commit|gitleaks|clang-format|clang-tidy)\b",
    re.IGNORECASE,
)
_CODE_SPAN = re.compile(r"`[^`\s][^`]*`")
#: A command in a code span that says it tests: `npm test`, `make check`, `just spec`.
_TEST_SPAN = re.compile(r"`[^`]*\b(?:test|tests|spec|check)\b[^`]*`", re.IGNORECASE)
_FACET_LABELS = {
    "language": re.compile(
        r"^(?:runtime|language|languages|language & runtime|language and runtime|platform)$"
    ),
    "tests": re.compile(r"^(?:testing|tests?|test (?:framework|runner|suite)|test strategy)$"),
    "checks": re.compile(
        r"^(?:ci|ci/cd|ci pipeline|ci checks|quality|code quality|quality gates?|checks|"
        r"linting|lint(?:ing)? (?:and|&) format(?:ting)?|pre-commit(?: hooks)?|git hooks)$"
    ),
}
_WORDING = {
    "language": "The project's language and runtime, as the assistant summarised it: ",
    "tests": "How the project is tested, as the assistant summarised it: ",
    "checks": "The checks a change passes, as the assistant summarised them: ",
}
#: `- **Label**: text` or `- **Label** - text`, the label without emphasis or emoji.
_LABELLED = re.compile(r"^\*\*(?P<label>[^*]{1,40})\*\*\s*(?::|[-–—])\s*(?P<text>.+)$")


@dataclass(frozen=True, slots=True)
class StackPoint:
    """One facet of the stack the assistant listed, and the replies it was in."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    #: It quotes the project's test command: a recipe.
    runs: bool = False


def facet_of(label: str, text: str) -> str | None:
    """The facet a labelled item states ("language", "tests", "checks"), or None."""
    name = " ".join(re.sub(r"[^\w\s/&#+.-]", " ", label).split()).lower()
    body = " ".join(text.split())
    if not body or len(body) > MAX_CHARS or body.endswith(("?", ":")) or body.count("`") % 2:
        return None
    if PERSONAL.search(body) or HEDGE_OR_PLAN.search(body):
        return None
    if _FACET_LABELS["language"].match(name):
        return "language" if _NAMES_LANGUAGE.search(body) else None
    if _LANGUAGE_NAME.match(name):
        # A language's own label must say how the project uses it, not where it appears.
        return "language" if _LANGUAGE_DETAIL.search(body) else None
    if _FACET_LABELS["tests"].match(name):
        return "tests" if _TEST_RUNNER.search(body) or _TEST_SPAN.search(body) else None
    if _FACET_LABELS["checks"].match(name):
        return "checks" if _CODE_SPAN.search(body) or _CHECK_TOOL.search(body) else None
    return None


def _reply_items(text: str) -> list[tuple[str, str]]:
    """(facet, "Label: text") for the labelled items of one reply, in order."""
    prose = re.sub(r"```.*?(?:```|$)", " ", text, flags=re.DOTALL)
    planned = False
    found: list[tuple[str, str]] = []
    for line in prose.split("\n"):
        heading = HEADING.match(line)
        if heading:
            planned = bool(NOT_AS_IS.search(heading.group("atx") or heading.group("bold") or ""))
            continue
        item = ITEM.match(line)
        labelled = _LABELLED.match(item.group("item").strip()) if item else None
        if planned or labelled is None:
            continue
        label = labelled.group("label").strip()
        body = without_bold(labelled.group("text")).strip()
        facet = facet_of(label, body)
        if facet is not None:
            found.append((facet, f"{label}: {body}"))
    return found


def stack_summary(events: list[StoredEvent]) -> list[StackPoint]:
    """The language, tests and checks the assistant listed after reading (module docstring)."""
    items: dict[str, list[str]] = {}
    ids: dict[str, list[str]] = {}
    read = False
    elsewhere = replies_elsewhere(events)
    for event in events:
        if event.event_type == EventType.TOOL_RESULT:
            read = read or read_in_project(event)
            continue
        text = event.content.get("text")
        if not read or event.event_type != EventType.ASSISTANT_RESPONSE:
            continue
        if event.id in elsewhere:
            continue  # a subagent's report on another folder it read, or its relay
        if not isinstance(text, str):
            continue
        for facet, said in _reply_items(text):
            known = items.setdefault(facet, [])
            if said not in known and len(known) < MAX_ITEMS:
                known.append(said)
                ids.setdefault(facet, []).append(event.id)
    found: list[StackPoint] = []
    for facet, wording in _WORDING.items():
        content = sentence(wording + "; ".join(items.get(facet, [])))
        if facet in items and content:
            spans = [s.strip("`") for s in _CODE_SPAN.findall(content)]
            runs = facet == "tests" and any(map(is_test_command, spans))
            event_ids = tuple(dict.fromkeys(ids[facet]))
            found.append(StackPoint(KEY_PREFIX + facet, content, event_ids, runs))
    return found
