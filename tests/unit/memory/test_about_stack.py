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


def test_a_summary_ending_on_a_board_says_what_it_is() -> None:
    s = Session("/home/u/relay-board", "s1", START)
    s.user("Explore the repo and summarise it.")
    s.read("app/board/page.tsx", "export default function Board() {}\n")
    s.say("relay-board is a real-time kanban board for small teams.")
    said = [c.content for c in s.extracted() if c.content.startswith("What this project")]
    assert said and "kanban board" in said[0]
