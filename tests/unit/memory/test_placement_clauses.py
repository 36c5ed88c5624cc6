"""Architecture summaries cut at their clauses: each clause that names a file the session read
and says where something lives or how it is wired is a fact, with its own scope words; plans,
guesses, negations, unread files and the session's own changes are not."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.closing_reports import closing_reports
from squirrel_memory.extractors.placements import placements
from squirrel_memory.extractors.reply_sentences import clauses
from tests.unit.memory.test_placements import ROOT, _event, _read, _reply

KT = "src/main/kotlin/com/fleet/plugins"
READS = ["build.gradle.kts", f"{KT}/Routing.kt", f"{KT}/Database.kt"]
SUMMARY = (
    "Routes are installed in `plugins/Routing.kt` (`configureRouting`), one extension function "
    "per resource; the database is connected in `plugins/Database.kt` with Exposed against "
    "PostgreSQL, and the tests point `db.url` at H2 through `application-test.conf`."
)


#: What the database file shows: the store the summary names (a stack the session never saw
#: named in passing is not quoted).
DATABASE_KT = 'fun Application.configureDatabases() = Database.connect("jdbc:postgresql://db")\n'


def _said(reads: list[str], text: str, *, written: tuple[str, ...] = ()) -> list[str]:
    texts = {f"{KT}/Database.kt": DATABASE_KT}
    events = [_read(i, path, texts.get(path, "")) for i, path in enumerate(reads)]
    events += [
        _event(50 + i, "code_change", {"tool": "Write"}, (f"{ROOT}/{p}",))
        for i, p in enumerate(written)
    ]
    return [p.content for p in placements([*events, _reply(99, text)])]


def test_each_clause_naming_a_read_file_is_kept_whole_and_alone() -> None:
    said = _said(READS, SUMMARY)
    assert said == [
        f"Routes are installed in `{KT}/Routing.kt` (`configureRouting`), one extension "
        "function per resource.",
        f"The database is connected in `{KT}/Database.kt` with Exposed against PostgreSQL.",
    ]
    assert not any("H2" in s for s in said)  # the tests' database never becomes the database


def test_a_clause_that_names_no_code_stays_with_the_one_before() -> None:
    assert clauses("Routes, models, and views are defined in `app/`.") == [
        "Routes, models, and views are defined in `app/`."
    ]
    assert clauses("`a.py` holds the routes; `b.py` holds the models.") == [
        "`a.py` holds the routes",
        "`b.py` holds the models.",
    ]
    assert clauses("The pool is opened in `db.go`, and it retries on start.") == [
        "The pool is opened in `db.go`, and it retries on start."
    ]


@pytest.mark.parametrize(
    ("reads", "text", "said"),
    [
        (
            ["config/initializers/sidekiq.rb", "config/sidekiq.yml"],
            "The Sidekiq client is initialized in `config/initializers/sidekiq.rb` from "
            "`REDIS_URL`, and the queues are listed in `config/sidekiq.yml`.",
            [
                "The Sidekiq client is initialized in `config/initializers/sidekiq.rb` from "
                "`REDIS_URL`.",
                "The queues are listed in `config/sidekiq.yml`.",
            ],
        ),
        (
            ["src/main/java/com/ledger/config/SecurityConfig.java"],
            "Security is set up in `SecurityConfig.java` as a single `SecurityFilterChain` bean.",
            [
                "Security is set up in `src/main/java/com/ledger/config/SecurityConfig.java` as "
                "a single `SecurityFilterChain` bean."
            ],
        ),
        (
            ["app/src/main/java/com/trail/di/AppModule.kt", "app/src/main/java/com/trail/App.kt"],
            "Dependencies are declared as Koin modules in `di/AppModule.kt`; `App.kt` starts "
            "Koin in `onCreate()`.",
            [
                "Dependencies are declared as Koin modules in "
                "`app/src/main/java/com/trail/di/AppModule.kt`.",
                "`app/src/main/java/com/trail/App.kt` starts Koin in `onCreate()`.",
            ],
        ),
        (
            ["bin/cli.js", "src/commands/publish.js"],
            "The CLI entry point is `bin/cli.js`, which loads the module of the same name from "
            "`src/commands/`.",
            [
                "The CLI entry point is `bin/cli.js`, which loads the module of the same name "
                "from `src/commands/`."
            ],
        ),
    ],
)
def test_wiring_verbs_and_paths_written_from_a_folder_inside_the_project(
    reads: list[str], text: str, said: list[str]
) -> None:
    assert _said(reads, text) == said


@pytest.mark.parametrize(
    "text",
    [
        "I'll add the route in `plugins/Routing.kt` next to `vehicleRoutes()`.",
        "The trips route should be installed in `plugins/Routing.kt`.",
        "Routes are probably installed in `plugins/Routing.kt`.",
        "Do you want it installed in `plugins/Routing.kt`?",
        "If routes are installed in `plugins/Routing.kt`, the test calls `configureRouting()`.",
        "The database is not connected in `plugins/Routing.kt`; it only calls `configure()`.",
        "Done: the health route is installed in `plugins/Routing.kt`.",
        "Then the limiter is applied in `plugins/Routing.kt` before `auth()`.",
    ],
)
def test_plans_guesses_questions_and_negations_are_not_facts(text: str) -> None:
    assert _said(READS, text) == []


def test_a_summary_naming_files_never_read_is_not_a_fact() -> None:
    assert _said(["build.gradle.kts"], SUMMARY) == []


def test_a_path_the_same_name_ends_twice_is_not_guessed() -> None:
    reads = ["a/plugins/Routing.kt", "b/plugins/Routing.kt"]
    assert _said(reads, "Routes are installed in `plugins/Routing.kt`.") == []


def test_what_the_session_just_wrote_is_its_own_change_not_the_layout() -> None:
    text = "The health route is installed in `plugins/Routing.kt` with the other resources."
    assert _said(READS, text, written=(f"{KT}/Routing.kt",)) == []
    assert _said(READS, text) != []


def test_a_closing_report_says_once_what_a_placement_keeps() -> None:
    ask = _event(0, "user_message", {"text": "How is it wired?"})
    call = _event(
        1, "tool_call", {"tool": "Read", "input": {"file_path": f"{ROOT}/{KT}/Routing.kt"}}
    )
    text = "fun Application.configureRouting() { routing { vehicleRoutes(); driverRoutes() } }"
    reads = [call, *(_read(i, path, text) for i, path in enumerate(READS, 2))]
    one = "Routes are installed in `plugins/Routing.kt` (`configureRouting`), one per resource."
    events = [ask, *reads, _reply(99, one)]
    assert [p.content for p in placements(events)] == [
        f"Routes are installed in `{KT}/Routing.kt` (`configureRouting`), one per resource."
    ]
    assert closing_reports(events) == []
    # A report statement no placement keeps stays.
    other = "`plugins/Routing.kt` calls `vehicleRoutes()` before `driverRoutes()` on start-up."
    said = [s.content for s in closing_reports([ask, *reads, _reply(99, other)])]
    assert placements([ask, *reads, _reply(99, other)]) == []
    assert said and said[0].endswith("before `driverRoutes()` on start-up.")


@pytest.mark.parametrize(
    "text",
    [
        # A modal in one clause speaks for the other.
        "The trips route should be installed in `plugins/Routing.kt`, and its table is to be "
        "created in `plugins/Database.kt`.",
        "Its table is to be created in `plugins/Database.kt`.",
        # How the code was, not how it is.
        "Previously the database was connected in `plugins/Database.kt` at start-up.",
        "Routes were installed in `plugins/Routing.kt` before the split.",
    ],
)
def test_a_plan_in_any_clause_and_the_past_are_not_facts(text: str) -> None:
    assert _said(READS, text) == []


def test_a_table_created_in_a_read_file_is_placed() -> None:
    said = _said(READS, "The `trips` table is created in `plugins/Database.kt` at start-up.")
    assert said == [f"The `trips` table is created in `{KT}/Database.kt` at start-up."]
