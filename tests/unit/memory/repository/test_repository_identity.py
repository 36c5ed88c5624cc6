"""What the project is and what it is called, read from its own files: a README's autolinks and
badges, the root manifests that only describe it, the manifest named as the repository's folder,
and configuration folders that are not application code."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from squirrel_memory.models import MemoryCandidate
from squirrel_memory.repository import read_repository, repository_candidates
from tests.unit.memory.repository.conftest import Files, MakeRepo, commit, git
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


def _facts(root: Path) -> dict[str, str]:
    return {c.key: c.content for c in repository_candidates(read_repository(root))}


def _named_repo(tmp_path: Path, folder: str, files: Files) -> Path:
    root = (tmp_path / folder).resolve()
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    commit(root, files)
    return root


def _session_about(root: str, files: Files) -> str:
    session = Session(root, "s1", T0)
    session.user("Read how this repository is set up.")
    for path, text in files.items():
        session.read(path, str(text))
    found: list[MemoryCandidate] = session.extracted()
    return next((c.content for c in found if c.key == "about"), "")


MIX = 'defmodule Hub.MixProject do\n  def project, do: [app: :hub, deps: [{:phoenix, "~> 1.7"}]]\nend\n'
GO_MOD = "module example.com/hub\n\ngo 1.22\n"


@pytest.mark.parametrize(("manifest", "body"), [("mix.exs", MIX), ("go.mod", GO_MOD)])
def test_an_autolink_in_the_readme_stays_in_what_the_project_is(
    make_repo: MakeRepo, manifest: str, body: str
) -> None:
    readme = "# Hub\n\nAPI server and website for <https://hub.example.org>.\n"
    facts = _facts(make_repo({manifest: body, "README.md": readme}))
    assert "API server and website for https://hub.example.org." in facts["repo:about"]
    said = _session_about("/src/hub", {manifest: body, "README.md": readme})
    assert "website for https://hub.example.org" in said


def test_an_html_tag_in_the_readme_is_still_dropped(make_repo: MakeRepo) -> None:
    readme = "# Hub\n\nA package index<br> for teams that host their own packages.\n"
    facts = _facts(make_repo({"go.mod": GO_MOD, "README.md": readme}))
    assert "A package index for teams" in facts["repo:about"]
    assert "<br>" not in facts["repo:about"]


POM = (
    "<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId>"
    "<properties><java.version>17</java.version></properties></project>\n"
)
PYPROJECT = '[project]\nrequires-python = ">=3.11"\n'


@pytest.mark.parametrize(("manifest", "body"), [("pom.xml", POM), ("pyproject.toml", PYPROJECT)])
def test_a_badge_in_the_readme_title_is_not_part_of_the_name(
    make_repo: MakeRepo, manifest: str, body: str
) -> None:
    readme = (
        "# Clinic Sample [![Build](https://ci.example.org/badge.svg)](https://ci.example.org)\n\n"
        "A sample application that books visits for a clinic.\n"
    )
    stack = _facts(make_repo({manifest: body, "README.md": readme}))["repo:stack"]
    assert stack.startswith("Clinic Sample is ")
    assert "[" not in stack and "](" not in stack


SETUP_PY = (
    "from setuptools import setup\n\nsetup(\n"
    '    name="atlas",\n'
    '    description="A multi-tool for exploring and publishing data",\n'
    ")\n"
)
GEMSPEC = (
    "Gem::Specification.new do |spec|\n"
    '  spec.name = "atlas"\n'
    '  spec.summary = "A multi-tool for exploring and publishing data"\n'
    "end\n"
)


@pytest.mark.parametrize(("path", "body"), [("setup.py", SETUP_PY), ("atlas.gemspec", GEMSPEC)])
def test_a_root_manifest_that_only_describes_the_project_says_what_it_is(
    make_repo: MakeRepo, path: str, body: str
) -> None:
    facts = _facts(make_repo({path: body, "atlas/cli.py": "print('atlas')\n"}))
    assert "A multi-tool for exploring and publishing data." in facts["repo:about"]


def test_a_manifest_in_a_sub_folder_does_not_describe_the_project(make_repo: MakeRepo) -> None:
    facts = _facts(make_repo({"tools/setup.py": SETUP_PY, "atlas/cli.py": "print('atlas')\n"}))
    assert "repo:about" not in facts


CLIENT = '{"name": "ledger-client", "description": "The frontend part of Ledger."}\n'
BACKEND_PY = (
    '[project]\nname = "ledger"\ndescription = "Double-entry books for small shops."\n'
    'requires-python = ">=3.11"\n'
)
BACKEND_RS = (
    '[package]\nname = "ledger"\nversion = "0.1.0"\n'
    'description = "Double-entry books for small shops."\n'
)


@pytest.mark.parametrize(
    ("manifest", "body"), [("pyproject.toml", BACKEND_PY), ("Cargo.toml", BACKEND_RS)]
)
def test_the_manifest_named_as_the_folder_says_what_the_project_is(
    tmp_path: Path, manifest: str, body: str
) -> None:
    files = {"package.json": CLIENT, manifest: body}
    facts = _facts(_named_repo(tmp_path, "ledger", files))
    assert facts["repo:about"].startswith("What this project (ledger) is")
    assert "Double-entry books for small shops." in facts["repo:about"]
    said = _session_about("/src/ledger", files)
    assert "(ledger)" in said and "Double-entry books" in said


def test_a_folder_named_as_no_manifest_keeps_the_first_description(tmp_path: Path) -> None:
    # Root manifests are read in path order: package.json before pyproject.toml.
    files = {"package.json": CLIENT, "pyproject.toml": BACKEND_PY}
    facts = _facts(_named_repo(tmp_path, "books", files))
    assert "The frontend part of Ledger." in facts["repo:about"]


def test_the_readme_still_says_what_the_project_is_over_the_manifest_named_as_the_folder(
    tmp_path: Path,
) -> None:
    readme = "# Ledger\n\nBooks, invoices and reports for small shops, kept in one place.\n"
    files = {"package.json": CLIENT, "pyproject.toml": BACKEND_PY, "README.md": readme}
    facts = _facts(_named_repo(tmp_path, "ledger", files))
    assert "Books, invoices and reports" in facts["repo:about"]


@pytest.mark.parametrize(
    ("files", "code"),
    [
        (
            {
                "mix.exs": MIX,
                "config/config.exs": "import Config\n" + "config :hub, key: 1\n" * 40,
                "lib/hub.ex": "defmodule Hub do\nend\n",
            },
            "`lib/`",
        ),
        (
            {
                "pyproject.toml": PYPROJECT,
                "config/settings.py": "DEBUG = False\n" * 60,
                "app/views.py": "def index():\n    return 'ok'\n",
            },
            "`app/`",
        ),
    ],
)
def test_a_configuration_folder_is_not_where_the_application_code_is(
    make_repo: MakeRepo, files: Files, code: str
) -> None:
    layout = _facts(make_repo(files))["repo:layout"]
    assert code in layout
    assert "`config/`" not in layout


LEAD_IN = (
    "# Pocket\n\n"
    "[Pocket](https://pocket.example.org) is an open source backend, consisting of:\n\n"
    "- embedded database (_SQLite_) with **realtime subscriptions**\n"
    "- built-in files and users management\n"
    "- a simple REST-ish API\n\n"
    "## Installation\n"
)
GEMFILE = 'source "https://rubygems.org"\n\ngem "sinatra", "~> 4.0"\n'


@pytest.mark.parametrize(("manifest", "body"), [("go.mod", GO_MOD), ("Gemfile", GEMFILE)])
def test_a_lead_in_and_its_list_say_what_the_project_is(
    make_repo: MakeRepo, manifest: str, body: str
) -> None:
    facts = _facts(make_repo({manifest: body, "README.md": LEAD_IN}))
    assert facts["repo:about"].endswith(
        "per its README.md: Pocket is an open source backend, consisting of: embedded database"
        " (SQLite) with realtime subscriptions; built-in files and users management; a simple"
        " REST-ish API."
    )
    assert "built-in files" in _session_about("/src/pocket", {manifest: body, "README.md": LEAD_IN})


@pytest.mark.parametrize(
    "readme",
    [
        "# Shop\n\nTo start your server:\n\n- run `mix setup`\n- run `mix phx.server`\n",
        "# Shop\n\nFeatures:\n\n- fast\n- small\n",
        "# Shop\n\n[![CI](https://ci.example.org/b.svg)](https://ci.example.org) [Docs](https://d.example.org)\n\n"
        "- a list after badges is not a description\n",
    ],
    ids=["steps", "short-lead-in", "badges"],
)
def test_steps_a_bare_heading_word_or_badges_before_a_list_say_nothing(
    make_repo: MakeRepo, readme: str
) -> None:
    assert "repo:about" not in _facts(make_repo({"go.mod": GO_MOD, "README.md": readme}))


REACT = '{"name": "books-client", "dependencies": {"react": "^18.2.0", "react-dom": "^18.2.0"}}\n'
VUE = '{"name": "books-client", "dependencies": {"vue": "^3.4.0"}}\n'
FLASK = '[project]\nname = "books"\ndependencies = ["flask>=3.0"]\n'
SINATRA = 'source "https://rubygems.org"\n\ngem "sinatra", "~> 4.0"\n'


@pytest.mark.parametrize(
    ("files", "names"),
    [
        (
            {
                "package.json": REACT,
                "pyproject.toml": FLASK,
                "books/app.py": "x = 1\n" * 50,
                "client/app.js": "let x = 1;\n" * 50,
            },
            ("React", "Flask"),
        ),
        (
            {
                "package.json": VUE,
                "Gemfile": SINATRA,
                "app.rb": "x = 1\n" * 50,
                "web/main.js": "let x = 1;\n" * 50,
            },
            ("Vue", "Sinatra"),
        ),
    ],
    ids=["python-and-javascript", "ruby-and-javascript"],
)
def test_two_languages_each_with_its_framework_name_both(
    make_repo: MakeRepo, files: Files, names: tuple[str, str]
) -> None:
    stack = _facts(make_repo(files))["repo:stack"]
    assert all(name in stack for name in names)


def test_two_frameworks_of_one_language_keep_the_first_alone(make_repo: MakeRepo) -> None:
    files = {
        "package.json": '{"name": "site", "dependencies": {"next": "14.2.0", "react": "18.2.0"}}\n'
    }
    stack = _facts(make_repo(files))["repo:stack"]
    assert "built with" not in stack and "React" not in stack
