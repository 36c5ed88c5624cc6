"""Which project facts a session starts with: what the assistant has at hand waits to be asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from squirrel_gateway import hook_context, hook_left_out
from squirrel_gateway.schemas import SearchResult, SearchSource, UserStyleItem
from tests.unit.gateway.fakes import FakeBackend
from tests.unit.gateway.test_hook_context import NOW


def the_test_command(content: str) -> SearchResult:
    return SearchResult(
        memory_id="mem_t",
        type="recipe",
        key="recipe:test",
        content=content,
        importance=0.7,
        recency_days=1,
        score=0.5,
        reason="",
        source=SearchSource(),
    )


@pytest.fixture
def backend(tmp_path: Path) -> FakeBackend:
    root = tmp_path / "repo"
    root.mkdir()
    return FakeBackend(
        roots=[str(root)],
        style_items=[
            UserStyleItem(
                key="pref:small",
                summary="Keeps changes small.",
                importance=0.8,
                last_updated_at=NOW,
            )
        ],
        key_facts=[],
        pitfalls=[],
        search_results=[],
    )


async def start(backend: FakeBackend) -> hook_context.Injection:
    return await hook_context.session_start(
        backend, project_id=backend.roots[0], user_id=None, budget=600
    )


@pytest.mark.parametrize(
    "summary",
    [
        # a TypeScript project's architecture, a Rust project's stack, a folder's purpose
        "Architecture: How the project is built, as the assistant summarised it: Auto-discovery "
        "from agent plugins; each provider registers itself.",
        "Stack: The project's language and runtime, as the assistant summarised it: Rust 1.80, "
        "tokio.",
        "Scripts: What `scripts/` is, as the assistant summarised it: release helpers.",
        "Stack: The checks a change passes, as the assistant summarised them: `go vet ./...`.",
        # an earlier assistant's closing report of a turn, in a Go and a C++ project
        "Project: Closing report (Root cause): `Serve` takes `mu` twice, so it blocks.",
        "Project: Closing report: Brace initialization `{}` disallows narrowing conversions.",
        # what an earlier assistant said about a folder it read, in a TypeScript and a Python one
        "Project: Read in `src/routes/`: Each file in `src/routes/` maps one URL to a handler.",
        "Project: Read in `ledger/plugins/`: Plugins are added by the `register` decorator.",
    ],
)
async def test_what_an_earlier_assistant_summarised_waits_to_be_asked_for(
    backend: FakeBackend, summary: str
) -> None:
    backend.key_facts = ["Framework: Built with Phoenix.", summary]
    out = await start(backend)

    assert summary.split(": ", 1)[1] not in out.text
    assert "- Framework: Built with Phoenix." in out.text
    assert all("as the assistant summarised it" not in s.content for s in out.served)


async def test_a_summary_opens_a_start_that_would_otherwise_be_blank(
    backend: FakeBackend,
) -> None:
    summary = "Architecture: How the project is built, as the assistant summarised it: a CLI."
    backend.key_facts = [summary]
    backend.style_items = []
    out = await start(backend)

    assert f"- {summary}" in out.text
    # what the project is comes only when not even a summary is known
    backend.key_facts = ["About: What this project (tally) is: counts words.", summary]
    again = await start(backend)
    assert f"- {summary}" in again.text and "counts words" not in again.text


async def test_a_fact_that_only_mentions_a_summary_word_stays(backend: FakeBackend) -> None:
    # Trap: the words "the assistant" or "summarised" alone are no earlier assistant's summary.
    kept = [
        "Architecture: The assistant plugin registers commands at start-up (src/plugin.ts).",
        "Reports: Each run is summarised in `out/summary.json`.",
        "Release: The closing report of each sprint lives in `docs/sprints/`.",
    ]
    backend.key_facts = kept
    out = await start(backend)

    assert all(f"- {fact}" in out.text for fact in kept)


@pytest.mark.parametrize(
    "report",
    [
        # a review subagent's verdicts on a TypeScript change, a research subagent's on a Go one
        "Project: Subagent report: Only `infra/lib/handlers/live.ts` is touched; "
        "`handlers.test.ts` was correctly left alone per the ruling.",
        "Project: Subagent report (Findings): `Serve` holds `mu` across the write, so it blocks.",
        "Project: Subagent report: the migration in `priv/repo/` is reversible.",
    ],
)
async def test_what_a_subagent_reported_is_not_stated_at_a_start(
    backend: FakeBackend, report: str
) -> None:
    backend.key_facts = ["Framework: Built with Phoenix.", report]
    out = await start(backend)

    assert report.split(": ", 2)[2] not in out.text
    assert "- Framework: Built with Phoenix." in out.text
    assert all("Subagent report" not in s.content for s in out.served)


async def test_a_subagent_report_alone_opens_no_start(backend: FakeBackend) -> None:
    # Trap: nothing else is known; a start made of the report states another agent's word.
    report = "Project: Subagent report: the CLI entry point is `cmd/tally/main.go`."
    versions = "Toolchain: Versions a subagent reported reading in the project's build: Go 1.22."
    backend.key_facts = [report, versions]
    backend.style_items = []
    out = await start(backend)

    assert "main.go" not in out.text and "Go 1.22" not in out.text
    assert not out.served


async def test_a_blank_start_still_says_what_the_project_is_beside_a_report(
    backend: FakeBackend,
) -> None:
    report = "Project: Subagent report: the CLI entry point is `cmd/tally/main.go`."
    about = "About: tally counts words in Markdown files."
    backend.key_facts = [about, report]
    backend.style_items = []
    out = await start(backend)

    assert f"- {about}" in out.text
    assert "main.go" not in out.text


async def test_a_fact_about_subagent_reports_is_no_report(backend: FakeBackend) -> None:
    # Trap: a project whose subject is subagents and their reports states facts about them.
    kept = [
        "Agents: Subagent report templates live in `prompts/reports/`.",
        "Architecture: Subagent reports are written to `out/<agent>.md` (src/report.ts).",
    ]
    backend.key_facts = kept
    out = await start(backend)

    assert all(f"- {fact}" in out.text for fact in kept)


async def test_where_the_source_is_hosted_is_left_to_the_repository(
    backend: FakeBackend,
) -> None:
    home = "Home: The project's repository is https://github.com/acme/tally (named in `README.md`)."
    backend.key_facts = [home, "Database: PostgreSQL, through Ecto (config/dev.exs)."]
    out = await start(backend)

    assert "github.com/acme/tally" not in out.text
    # Trap: another fact that names the file it was read from stays (where the project is
    # deployed is left to its file as well: `hook_left_out.BY_ITS_FILE`).
    assert "- Database: PostgreSQL, through Ecto (config/dev.exs)." in out.text


@pytest.mark.parametrize(
    ("fact", "command", "run"),
    [
        ("Tests are written with pytest.", "To run the tests: `uv run pytest -q`.", True),
        ("Testing: Tests are written with Vitest.", "Checks: `npx vitest run src`.", True),
        ("In `web/`, tests are written with Jest.", "To run the tests: `npx jest`.", True),
        # traps: the runner no command names, a word that merely holds its name, no command
        ("Tests are written with pytest.", "To run the tests: `mix test`.", False),
        ("Tests are written with pytest.", "To run the tests: `./pytest-wrapper.sh`.", False),
        ("Tests are written with pytest.", "Tests are run with pytest.", False),
        ("Uses pytest fixtures.", "To run the tests: `pytest`.", False),
    ],
)
def test_a_test_framework_is_run_by_a_command_that_names_it(
    fact: str, command: str, run: bool
) -> None:
    assert hook_left_out.framework_run(fact, [command]) is run


async def test_the_session_start_keeps_the_test_framework_beside_its_command(
    backend: FakeBackend,
) -> None:
    # A short fact line there can be what leaves room for the finish gate's command.
    fact = "Testing: Tests are written with pytest."
    backend.key_facts = [fact]
    backend.search_results = [the_test_command("To run the tests: `uv run pytest`.")]
    out = await start(backend)

    assert f"- {fact}" in out.text


async def test_a_session_start_asks_for_the_brief_a_session_starts_with(
    backend: FakeBackend,
) -> None:
    # The modules no session went back to stay out of it (`views.start_modules`); only the
    # session start asks for that brief, a prompt's context and the MCP view do not.
    await start(backend)
    (call,) = [c for c in backend.calls if c.method == "get_project_brief_view"]
    assert call.args["live_only"] is True
