"""What the project is and what it is written in, in one statement (`extractors/about_stack.py`),
with the readers around it: a generator's placeholder description is no description, a README's
stack sentence is never said twice, and the kinds of software a statement may end on."""

from __future__ import annotations

from datetime import UTC, datetime

from session_builder import Session

from squirrel_memory.extractors.about_stack import with_language
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.repository.boilerplate import is_boilerplate

START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
GO_MOD = "module github.com/dara/tollgate\n\ngo 1.23\n"
CARGO = '[package]\nname = "fastcsv"\nversion = "2.0.0"\nedition = "2021"\n'
PACKAGE_JSON = '{\n  "name": "quiet-tabs",\n  "devDependencies": {"typescript": "^5.5.4"}\n}\n'


def _about(root: str, reads: list[tuple[str, str]], ask: str = "Fix the limiter.") -> list[str]:
    s = Session(root, "s1", START)
    s.user(ask)
    for path, text in reads:
        s.read(path, text)
    return [c.content for c in s.extracted() if c.content.startswith("What this project")]


def test_a_readme_description_carries_the_language_its_root_manifest_shows() -> None:
    readme = "# tollgate\n\ntollgate is a rate-limiting reverse proxy for HTTP APIs.\n"
    (said,) = _about("/home/u/tollgate", [("README.md", readme), ("go.mod", GO_MOD)])
    assert "reverse proxy" in said and "It is a Go project (go.mod" in said


def test_a_manifest_description_carries_its_own_language_in_another_ecosystem() -> None:
    cargo = CARGO.replace('edition = "2021"\n', 'edition = "2021"\ndescription = "CSV parser"\n')
    (said,) = _about("/home/u/fastcsv", [("Cargo.toml", cargo)])
    assert said.endswith("CSV parser. It is a Rust project (Cargo.toml: edition 2021).")


def test_a_description_that_names_the_language_is_left_as_it_is() -> None:
    readme = "# tollgate\n\ntollgate is a rate-limiting reverse proxy written in Go.\n"
    (said,) = _about("/home/u/tollgate", [("README.md", readme), ("go.mod", GO_MOD)])
    assert "It is a Go project" not in said


def test_a_language_only_counted_from_code_files_is_not_added() -> None:
    readme = "# tollgate\n\ntollgate is a rate-limiting reverse proxy for HTTP APIs.\n"
    code = "package limiter\n\nfunc Allow() bool { return true }\n"
    reads = [("README.md", readme), ("internal/limiter/a.go", code), ("cmd/b.go", code)]
    (said,) = _about("/home/u/tollgate", reads)
    assert "Go project" not in said


def test_a_readme_language_the_root_manifest_contradicts_is_left_out() -> None:
    readme = "# fastcsv\n\nfastcsv is a CSV parser for large files, written in Python with NumPy.\n"
    (said,) = _about("/home/u/fastcsv", [("README.md", readme), ("Cargo.toml", CARGO)])
    assert "Python" not in said and "NumPy" not in said
    assert "CSV parser for large files. It is a Rust project" in said


def test_a_kindred_language_is_no_contradiction() -> None:
    readme = "# quiet-tabs\n\nquiet-tabs is a browser extension written in JavaScript.\n"
    (said,) = _about("/home/u/quiet-tabs", [("README.md", readme), ("package.json", PACKAGE_JSON)])
    assert "written in JavaScript" in said


def _fact(content: str, *tags: str) -> Fact:
    return Fact("x", content, tags, 0.7, ("e1",))


def test_the_users_quoted_words_are_never_cut() -> None:
    about = _fact('What this project is, as the user put it: "a CLI written in Python".')
    language = _fact("Rust project (Cargo.toml: edition 2021).", "language", "rust")
    assert with_language(about, language) == about


def test_nothing_left_of_a_description_says_nothing() -> None:
    about = _fact("What this project (fastcsv) is and does, per its README.md: Written in Python.")
    language = _fact("Rust project (Cargo.toml: edition 2021).", "language", "rust")
    assert with_language(about, language) is None


def test_a_generators_manifest_description_is_boilerplate() -> None:
    for placeholder in (
        "A new Flutter project.",
        "Add your description here",
        "Demo project for Spring Boot",
        "A sample command-line application.",
    ):
        assert is_boilerplate(placeholder), placeholder
    assert not is_boilerplate("A Flutter app for logging climbing sessions.")
    assert not is_boilerplate("A sample-rate converter for command-line audio work.")


def test_a_placeholder_description_gives_way_to_the_users_words() -> None:
    pubspec = "name: cragbook\ndescription: A new Flutter project.\nversion: 0.1.0+1\n"
    ask = "We're building a Flutter app for logging climbing sessions. Fix the grade picker."
    (said,) = _about("/home/u/cragbook", [("pubspec.yaml", pubspec)], ask)
    assert "A new Flutter project" not in said and "climbing sessions" in said


def test_a_readme_stack_sentence_is_not_repeated_in_another_case() -> None:
    readme = "# fastcsv\n\nfastcsv is a CSV parser written in Rust.\n"
    (said,) = _about("/home/u/fastcsv", [("README.md", readme)])
    assert said.lower().count("csv parser written in rust") == 1


def test_the_user_naming_the_project_as_a_monitor_says_what_it_is() -> None:
    ask = (
        "since harbor is a self-hosted uptime monitor that people deploy on their own boxes, "
        "the default check interval must not hammer small sites. Raise it to 60s."
    )
    (said,) = _about("/home/u/harbor", [], ask)
    assert "harbor is a self-hosted uptime monitor" in said


def _summarised(root: str, read: tuple[str, str], reply: str) -> list[str]:
    s = Session(root, "s1", START)
    s.user("Explore the repo and summarise it.")
    s.read(*read)
    s.say(reply)
    return [c.content for c in s.extracted() if c.content.startswith("What this project")]


def test_a_summary_ending_on_a_board_says_what_it_is() -> None:
    read = ("app/board/page.tsx", "export default function Board() {}\n")
    reply = "relay-board is a real-time kanban board for small teams."
    said = _summarised("/home/u/relay-board", read, reply)
    assert said and "kanban board" in said[0]


def test_an_r_description_file_backs_the_language_too() -> None:
    description = (
        "Package: treeringr\nTitle: Tree-Ring Tools\nVersion: 0.4.0\n"
        "Description: Reads, cleans and detrends tree-ring width series.\n"
    )
    (said,) = _about("/home/u/treeringr", [("DESCRIPTION", description)])
    assert said.endswith("It is an R project (DESCRIPTION).")


def test_a_hedged_or_nested_language_statement_is_not_added() -> None:
    about = _fact("What this project (x) is and does, per its README.md: A tool for notes.")
    hedged = _fact(
        "JavaScript or TypeScript project (package.json; no code file seen says which).",
        "language",
        "javascript",
        "typescript",
    )
    nested = _fact("Python project (api/pyproject.toml).", "language", "python")
    assert with_language(about, hedged) == about
    assert with_language(about, nested) == about


def test_a_workspace_root_describes_the_project_by_its_folder_name() -> None:
    cargo = (
        '[workspace]\nmembers = ["crates/relay"]\n\n[workspace.package]\nversion = "0.7.0"\n'
        'description = "End-to-end encrypted group chat over a self-hosted relay"\n'
    )
    (said,) = _about("/home/u/murmur", [("Cargo.toml", cargo)])
    assert said.startswith("What this project (murmur) is and does, per its Cargo.toml: End-to")


def test_a_member_crates_workspace_table_is_not_the_projects_description() -> None:
    cargo = '[workspace.package]\ndescription = "Shared settings of the relay crates"\n'
    said = _about("/home/u/murmur", [("crates/relay/Cargo.toml", cargo)])
    assert not any("Shared settings" in s for s in said)


def test_a_labelled_context_naming_the_project_says_what_it_is() -> None:
    ask = "Context: Tallyho is a habit tracker for iOS. Streaks reset at midnight UTC; fix it."
    (said,) = _about("/Users/u/tallyho", [], ask)
    assert '"tallyho is a habit tracker"' in said.lower()


def test_an_overview_written_as_a_labelled_list_says_what_the_project_is() -> None:
    claude = (
        "# CLAUDE.md\n\n## Project Overview\n\n- **Name**: ParcelPal\n"
        "- **What**: Android app that tracks parcels across carriers\n"
        "- **Stack**: Kotlin, Jetpack Compose, Room\n"
    )
    (said,) = _about("/home/u/parcelpal", [("CLAUDE.md", claude)])
    assert said == (
        "What this project (ParcelPal) is and does, per its CLAUDE.md: Android app that tracks"
        " parcels across carriers. Stack: Kotlin, Jetpack Compose, Room."
    )


def test_a_listed_overview_too_short_or_asking_says_nothing() -> None:
    short = "# CLAUDE.md\n\n## Overview\n\n- **What**: a tracker\n"
    asking = "# CLAUDE.md\n\n## Overview\n\n- **Purpose**: you must never edit the generated code\n"
    assert _about("/home/u/parcelpal", [("CLAUDE.md", short)]) == []
    assert _about("/home/u/parcelpal", [("CLAUDE.md", asking)]) == []


def _answered(question: str, reply: str, *, read: bool = True) -> list[str]:
    s = Session("/home/u/menuboard", "s1", START)
    s.user(question)
    if read:
        s.read("src/App.vue", "<template><MenuList /></template>\n")
    s.say(reply)
    return [c.content for c in s.extracted() if c.content.startswith("What this project")]


ITS_A = "It's a Vue 3 single-page app that shows a café's daily menu on a TV screen."


def test_the_answer_to_what_is_in_this_repo_says_what_the_project_is() -> None:
    (said,) = _answered("what's in this repo?", ITS_A)
    assert said.startswith("What this project is, as the assistant summarised it: a Vue 3 single")


def test_an_answer_without_the_question_a_look_or_with_a_hedge_says_nothing() -> None:
    assert _answered("Fix the menu colours.", ITS_A) == []
    assert _answered("what's in this repo?", ITS_A, read=False) == []
    hedged = "It's a Vue 3 single-page app that probably shows a café's menu."
    assert _answered("what's in this repo?", hedged) == []


def test_a_collector_is_a_kind_of_software() -> None:
    read = ("lib/beacon/router.ex", "defmodule Beacon.Router do\nend\n")
    reply = "- **Project**: Beacon, a privacy-friendly web analytics collector written in Elixir."
    said = _summarised("/home/u/beacon", read, reply)
    assert said and "analytics collector" in said[0]


def test_an_answer_about_a_part_of_the_repository_says_nothing() -> None:
    reply = "It's a pipeline that installs the dependencies and runs the tests on every push."
    assert _answered("what does the repo's CI do?", reply) == []


def test_a_kindred_language_named_leaves_the_statement_as_it_is() -> None:
    about = _fact("What this project (q) is and does, per its README.md: A queue UI in JavaScript.")
    language = _fact("TypeScript project (package.json).", "language", "typescript")
    assert with_language(about, language) == about
