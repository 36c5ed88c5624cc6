"""The site whose pages are files of the project, from an address the user gave: where the
pair of address and page says so, and where it must say nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.site_pages import site_pages
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/handbook"
PAGE = "---\ntitle: Setup\n---\nInstall it with 200$ of credit.\n"


def _statement(asked: str, path: str, *, origin: str = "") -> str | None:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": asked}, origin=origin)
    session.read(path, PAGE)
    session.edit_lines(path, "200$", "$200")
    found = site_pages(session.events)
    return found.content if found else None


def test_a_page_given_by_its_address_names_the_folder_of_the_sites_pages() -> None:
    said = _statement(
        "Fix typos in https://docs.example.com/guides/install/setup",
        "content/guides/install/setup.md",
    )
    assert said == (
        "Pages of the site docs.example.com are files of this repository under `content/`: the "
        "page https://docs.example.com/guides/install/setup is `content/guides/install/setup.md`."
    )


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("https://example.org/guides/setup/", "guides/setup/index.md"),
        ("https://example.org/guides/setup.html", "guides/setup.mdx"),
        ("see [the page](https://example.org/Guides/Setup).", "guides/setup.rst"),
    ],
)
def test_an_index_page_a_html_address_and_a_link_match_the_file(url: str, path: str) -> None:
    said = _statement(f"Reword {url}", path)
    assert said is not None
    assert said.startswith("Pages of the site example.org are files of this repository by their")
    assert f"is `{path}`." in said


def test_a_page_read_but_not_changed_still_shows_the_pair() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("What does https://docs.example.com/guides/setup say about credits?")
    session.read("site/guides/setup.md", PAGE)
    found = site_pages(session.events)
    assert found is not None
    assert "under `site/`" in found.content


@pytest.mark.parametrize(
    ("asked", "path"),
    [
        # A forge shows a repository's files by their path: not a site of this project.
        ("Fix https://github.com/acme/handbook/blob/main/guides/setup", "guides/setup.md"),
        ("Fix https://gitlab.example.com/acme/guides/setup", "guides/setup.md"),
        # A development server's address, a numeric host.
        ("Fix http://localhost:3000/guides/setup", "guides/setup.md"),
        ("Fix http://127.0.0.1/guides/setup", "guides/setup.md"),
        # An endpoint's address, documented by a page of the same path.
        ("Why does https://api.example.com/users/list fail?", "docs/users/list.md"),
        ("Fix https://docs.example.com:8443/guides/setup", "guides/setup.md"),
        # One segment may match a page by chance.
        ("Fix https://docs.example.com/setup", "content/setup.md"),
        # Code is no page, however its path reads.
        ("Fix https://docs.example.com/guides/setup", "src/guides/setup.ts"),
        # The address's whole path must end the page's path.
        ("Fix https://docs.example.com/guides/install/setup", "content/tutorials/setup.md"),
        ("Fix https://docs.example.com/guides/setup/more", "content/guides/setup.md"),
        # A dependency's page is not the project's.
        ("Fix https://docs.example.com/guides/setup", "node_modules/pkg/guides/setup.md"),
    ],
)
def test_no_site_is_said_without_a_page_of_the_project_at_the_address(
    asked: str, path: str
) -> None:
    assert _statement(asked, path) is None


def test_an_address_in_hook_text_or_an_assistant_reply_says_nothing() -> None:
    assert (
        _statement(
            "Context: https://docs.example.com/guides/setup", "guides/setup.md", origin="hook"
        )
        is None
    )
    session = Session(ROOT, "s1", T0)
    session.user("Fix the typo.")
    session.say("The page https://docs.example.com/guides/setup has it.")
    session.edit_lines("guides/setup.md", "200$", "$200")
    assert site_pages(session.events) is None


def test_a_file_outside_the_project_says_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Fix https://docs.example.com/guides/setup")
    session.read_elsewhere("/home/dev/other-site/guides/setup.md", PAGE)
    assert site_pages(session.events) is None


def test_the_statement_becomes_a_project_fact() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Fix typos in https://docs.example.com/guides/setup")
    session.read("content/guides/setup.md", PAGE)
    kept = [m for m in session.extracted() if m.key == "site_pages"]
    assert len(kept) == 1
    assert kept[0].file_paths == ("content/guides/setup.md",)
