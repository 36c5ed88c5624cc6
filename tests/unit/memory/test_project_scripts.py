"""How a script of the project the session ran once, and did not write, is run."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.project_scripts import project_scripts
from tests.unit.memory.session_builder import Session

ROOT = "/home/dev/src/tool"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _session() -> Session:
    session = Session(ROOT, "s1", T0)
    session.read("review.py", "import sys\nprint(sys.argv)\n")
    return session


def test_a_script_run_once_that_worked_says_how_it_is_run() -> None:
    session = _session()
    session.run("python3 review.py --help", 0, "usage: review.py [-h] number", cwd=ROOT)
    session.run("python3 review.py 42", 0, "Wrote review-42.md", cwd=ROOT)

    (found,) = project_scripts(session.events)

    assert found.key == "recipe:script:review.py"
    assert found.content == (
        "Run `review.py` with `python3 review.py` (run here as `python3 review.py 42`)."
    )
    assert found.event_ids == (session.events[-1].id,)


def test_a_script_in_a_sub_folder_says_the_folder_it_ran_from() -> None:
    session = _session()
    session.run("cd scripts && Rscript report.R", 0, "report written", cwd=ROOT)

    (found,) = project_scripts(session.events)

    assert found.content == "Run `scripts/report.R` with `Rscript report.R`, from `scripts/`."


def test_a_look_a_failure_or_a_script_elsewhere_says_nothing() -> None:
    session = _session()
    session.run("python3 review.py --help", 0, "usage: review.py [-h] number", cwd=ROOT)
    session.run("node seed.js", 1, "Error: Cannot find module 'pg'", cwd=ROOT)
    session.run("python3 /tmp/scratch.py", 0, "ok", cwd=ROOT)
    session.run("ruby report.rb", 0, "ok", cwd="/home/dev/src/other")
    session.run("python3 test_review.py", 0, "ok", cwd=ROOT)
    session.run("python3 -c 'print(1)'", 0, "1", cwd=ROOT)

    assert project_scripts(session.events) == []


def test_a_script_the_session_wrote_is_left_to_its_own_rule() -> None:
    session = Session(ROOT, "s1", T0)
    session.write("hello.py", "print('hi')\n")
    session.run("python3 hello.py", 0, "hi", cwd=ROOT)

    assert project_scripts(session.events) == []


def test_a_run_naming_a_path_of_one_machine_is_not_shown_as_typed() -> None:
    session = _session()
    session.run("python3 review.py --out /Users/ana/x.md", 0, "ok", cwd=ROOT)

    (found,) = project_scripts(session.events)

    assert found.content == "Run `review.py` with `python3 review.py`."


def test_the_projects_own_module_run_through_a_launcher_says_how_it_is_run() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("src/tool/server.py", "def main() -> None: ...\n")
    session.run("uv run python -m tool --help", 0, "usage: tool", cwd=ROOT)
    session.run("uv run python -m tool serve --port 8000", 0, "Serving on :8000", cwd=ROOT)

    (found,) = project_scripts(session.events)

    assert found.key == "recipe:script:tool"
    assert found.content == (
        "Run the project's `tool` module with `uv run python -m tool` "
        "(run here as `uv run python -m tool serve --port 8000`)."
    )


def test_a_module_that_is_not_the_projects_says_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("src/tool/server.py", "def main() -> None: ...\n")
    session.run("python3 -m http.server 8000", 0, "Serving HTTP", cwd=ROOT)
    session.run("python3 -m json.tool data.json", 0, "{}", cwd=ROOT)
    session.run("python3 -m othertool report", 0, "report written", cwd=ROOT)

    assert project_scripts(session.events) == []


def test_a_script_launched_through_a_runner_and_a_variables_loader_keeps_both() -> None:
    web = Session("/home/dev/league", "s1", T0)
    web.run(
        "pnpm exec dotenv -e .env.test -- tsx scripts/apply-migrations.ts 00012",
        0,
        "Applying 1 migration(s) to TEST ...\nDone.",
        cwd="/home/dev/league",
    )
    (found,) = project_scripts(web.events)
    assert found.content == (
        "Run `scripts/apply-migrations.ts` with `pnpm exec dotenv -e .env.test -- tsx"
        " scripts/apply-migrations.ts` (run here as `pnpm exec dotenv -e .env.test -- tsx"
        " scripts/apply-migrations.ts 00012`)."
    )
    data = Session("/home/dev/warehouse", "s1", T0)
    data.run(
        "dotenvx run -f .env.ci -- python3 tools/backfill.py --since 2026-01-01",
        0,
        "backfilled 120 rows",
        cwd="/home/dev/warehouse",
    )
    (kept,) = project_scripts(data.events)
    assert kept.key == "recipe:script:tools/backfill.py"
    assert "`dotenvx run -f .env.ci -- python3 tools/backfill.py`" in kept.content


def test_a_loaded_script_that_failed_or_ran_elsewhere_says_nothing() -> None:
    session = Session("/home/dev/league", "s1", T0)
    session.run(
        "pnpm exec dotenv -e .env.test -- tsx scripts/apply-migrations.ts 00012",
        1,
        "Error: SUPABASE_URL is not set",
        cwd="/home/dev/league",
    )
    session.run(
        "dotenv -e .env -- tsx scripts/seed.ts", 0, "seeded", cwd="/home/dev/other-checkout"
    )
    assert project_scripts(session.events) == []
