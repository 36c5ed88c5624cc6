"""What a subagent's report states about the code becomes a project fact, in any language and
ecosystem; guesses, plans, questions, quoted file text, another repository's report and a report
taken back do not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.report_statements import PREFIX, report_statements, statement
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/shop"

#: A Gradle build, reported in Spanish.
SPANISH = (
    "## Resumen\n\n"
    "- **`settings.gradle`.** El proyecto raíz es `shop` e incluye `api` y `worker`.\n"
    "- `check` depende de `testJsonContent`.\n"
    "- **Contradicción.** El `mods.toml` marca `curios` como `mandatory=true`.\n"
)
#: A TypeScript app, reported in English.
ENGLISH = (
    "## Findings\n\n"
    "1. **Search dialog:** The modal is `SearchDialog.tsx`, opened via `renderSearch`.\n"
    "2. `buildIndex` runs `queryNodes` once per node type.\n"
)
#: A Python service, reported in French.
FRENCH = "- Le module `shop/cart.py` appelle `price_of` pour chaque ligne.\n"


def _delegated(report: str, prompt: str = "Explore the build.") -> Session:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "How is it built?"}, origin="typed")
    session.add("tool_call", {"tool": "Agent", "input": {"prompt": prompt}})
    session.add("tool_result", {"tool": "Agent", "output": report})
    return session


def _said(report: str, prompt: str = "Explore the build.") -> list[str]:
    return [found.content for found in report_statements(_delegated(report, prompt).events)]


def test_a_spanish_report_on_a_gradle_build_gives_its_statements() -> None:
    assert _said(SPANISH) == [
        f"{PREFIX} (settings.gradle): El proyecto raíz es `shop` e incluye `api` y `worker`.",
        f"{PREFIX}: `check` depende de `testJsonContent`.",
        f"{PREFIX} (Contradicción): El `mods.toml` marca `curios` como `mandatory=true`.",
    ]


def test_an_english_report_on_a_typescript_app_gives_its_statements() -> None:
    assert _said(ENGLISH) == [
        f"{PREFIX} (Search dialog): The modal is `SearchDialog.tsx`, opened via `renderSearch`.",
        f"{PREFIX}: `buildIndex` runs `queryNodes` once per node type.",
    ]


def test_a_french_report_on_a_python_module_names_its_file() -> None:
    found = report_statements(_delegated(FRENCH).events)

    assert [f.content for f in found] == [
        f"{PREFIX}: Le module `shop/cart.py` appelle `price_of` pour chaque ligne."
    ]
    assert found[0].files == ("shop/cart.py",)


def test_a_background_agents_notification_is_read_too() -> None:
    session = Session(ROOT, "s1", T0)
    session.add(
        "user_message",
        {
            "text": "<task-notification>\n<status>completed</status>\n<result>"
            f"{SPANISH}</result>\n</task-notification>"
        },
        origin="harness",
    )

    assert len(report_statements(session.events)) == 3


def test_the_rules_extractor_keeps_them_as_project_facts() -> None:
    kept = [c for c in _delegated(ENGLISH).extracted() if "reported" in c.tags]

    assert {c.type for c in kept} == {MemoryType.PROJECT_FACT}
    assert len(kept) == 2


@pytest.mark.parametrize(
    "sentence",
    [
        # Speculation, in three languages.
        "`check` might depend on `testJsonContent`.",
        "`check` podría depender de `testJsonContent`.",
        "`check` dépend peut-être de `testJsonContent`.",
        "The format appears to be `a` rather than `b` here.",
        # A plan or advice, not how the code is.
        "Habría que escribir uno con tres bloques `[[mods]]` y sus `[[deps]]`.",
        "`check` will depend on `testJsonContent` after the change.",
        "`sync.metrics` nested instead of the flat `metricsSync` field.",
        "`sync.metrics` anidado en lugar del campo plano `metricsSync`.",
        "Add `testJsonContent` to `check` before publishing.",
        "Modify `fetch_threads()` to query `path` and `line` for each thread.",
        # A question.
        "Does `check` depend on `testJsonContent`?",
        "¿`check` depende de `testJsonContent`?",
        # The session's own steps.
        "I changed `check` so it depends on `testJsonContent`.",
        # Too little named: one span, or spans listed only as examples.
        "The `check` task runs the whole self-test.",
        "Custom error classes (`ShopError`, `CartError`).",
        # A listing, said by another rule.
        "`types.ts` - core interfaces (`Cart`, `Line`).",
        # Spans written with double backticks cannot be told apart from the prose.
        "`line_pattern` expects `` `range`: title `` but gets `range: title` instead.",
        # A dependency's code.
        "`node_modules/left-pad/index.js` pads with `String.prototype.repeat` and `slice`.",
        # A lead-in to a list.
        "`api` and `worker` hold these parts of `shop`:",
    ],
)
def test_what_is_not_a_statement_about_the_code_is_not_kept(sentence: str) -> None:
    assert statement(sentence) == ""
    assert _said(f"- {sentence}\n") == []


@pytest.mark.parametrize(
    "sentence",
    [
        "`disconnect()`'s cleanup correctly short-circuits before the `WATCH#` branch.",
        "Only `live.ts` and `ws.test.ts` are touched; `handlers.test.ts` was left alone.",
        "`retry()` keeps `maxDelay` as intended, no regressions in `backoff.ts`.",
        "`parse()` maneja `None` correctamente en `reader.py`.",
        "The diff only changes `StoreInvoiceRequest.php` and `InvoiceTest.php`.",
        "The new `due_date` rule in `StoreInvoiceRequest::rules` looks good and matches the column.",
        "Both new tests in `InvoiceTest` pass and cover the missing `due_date` cases.",
        "Nothing else in `InvoiceController` or `Invoice` needs changing for this fix.",
    ],
)
def test_a_reviewers_verdict_on_the_change_is_not_a_statement_of_a_subagent(
    sentence: str,
) -> None:
    # A verdict judges the diff under review, which a later session does not have; other
    # reports (a closing report saying what a change made) read it as before.
    assert statement(sentence, reviewing=True) == ""
    assert statement(sentence) != ""
    assert _said(f"- {sentence}\n") == []


def test_a_report_about_another_repository_is_not_this_projects() -> None:
    prompt = "Give me an overview of the code in the /workspace/other-tool project."

    assert _said(ENGLISH, prompt) == []


def test_a_report_naming_paths_outside_the_root_is_not_this_projects() -> None:
    report = ENGLISH + "3. The entry point is `/workspace/other-tool/main.py`.\n"

    assert _said(report) == []


def test_text_quoted_from_a_file_the_session_read_is_not_the_reports() -> None:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "How is it built?"}, origin="typed")
    session.add(
        "tool_result",
        {"tool": "Read", "output": "`buildIndex` runs `queryNodes` once per node type."},
        (f"{ROOT}/docs/search.md",),
    )
    session.add("tool_call", {"tool": "Agent", "input": {"prompt": "Explore search."}})
    session.add("tool_result", {"tool": "Agent", "output": ENGLISH})

    said = [f.content for f in report_statements(session.events)]

    assert said == [
        f"{PREFIX} (Search dialog): The modal is `SearchDialog.tsx`, opened via `renderSearch`."
    ]


def test_a_report_the_user_calls_wrong_is_not_kept() -> None:
    session = _delegated(SPANISH)
    session.add(
        "user_message", {"text": "No, that's wrong: check runs other tasks."}, origin="typed"
    )

    assert report_statements(session.events) == []


def test_items_under_a_heading_that_asks_are_not_kept() -> None:
    report = "### ¿Qué falta?\n- `check` depende de `testJsonContent`.\n"

    assert _said(report) == []


def test_a_statement_said_twice_is_kept_once() -> None:
    assert len(_said(ENGLISH + "\n" + ENGLISH)) == 2


def test_the_sentences_of_one_item_are_one_point() -> None:
    report = (
        "- **Preview:** It renders `RenderPage` for pages, or `RenderBlock` for blocks. "
        "Both come from `window.api.ui`, wrapped in `src/utils/components.ts`.\n"
    )

    assert _said(report) == [
        f"{PREFIX} (Preview): It renders `RenderPage` for pages, or `RenderBlock` for blocks. "
        "Both come from `window.api.ui`, wrapped in `src/utils/components.ts`."
    ]


def test_versions_alone_name_no_part_of_the_code() -> None:
    assert statement("Wrapper Gradle 8.8 y ForgeGradle `6.0.54` con Forge `1.20.1-47.4.22`.") == ""


def test_a_report_the_sessions_own_run_contradicted_gives_no_statement() -> None:
    report = "- **Tests:** `make test`\n- The `Makefile` wraps `pytest` and `black`.\n"
    session = _delegated(report)
    session.run("make test", 2, "make: *** No rule to make target 'test'.  Stop.\n", cwd=ROOT)

    assert report_statements(session.events) == []
    # Without the failed run, the statement is kept.
    assert _said(report) == ["Subagent report: The `Makefile` wraps `pytest` and `black`."]


@pytest.mark.parametrize(
    "sentence",
    [
        "The existing `check` script is unchanged.",
        "The `main` branch and `release.yml` stay untouched.",
        "`docs/api.md` is left as it was.",
    ],
)
def test_a_thing_left_as_it_was_states_nothing_about_the_code(sentence: str) -> None:
    assert statement(sentence, min_spans=1) == ""


@pytest.mark.parametrize(
    "sentence",
    [
        "`src/cache.ts` is unchanged since `v2` and keeps entries for an hour.",
        "The `retry` helper is working only for `GET` requests.",
        # a file that works says the project has it: kept
        "The `vitest.config.ts` file is functional and working correctly.",
        "The `lint` config only turns on the `correctness` category as errors.",
    ],
)
def test_a_statement_that_says_more_than_the_works_state_stays(sentence: str) -> None:
    assert statement(sentence, min_spans=1) != ""
