"""Manifest edges read from real repositories: where a Gemfile group ends, whatever its
indentation; a pyproject's optional extras, for development or an optional part of the running
project."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.declared_libraries import declared_libraries
from squirrel_memory.repository import read_repository, repository_candidates
from tests.unit.memory.repository.conftest import MakeRepo

RB = "class Quarry\nend\n" * 60


def _dev(make_repo: MakeRepo, files: dict[str, str]) -> dict[str, bool]:
    """Each dependency the repository declares → whether for development only."""
    reading = read_repository(make_repo(files))
    return {d.name: d.dev for d in reading.readings.dependencies}


def _stack(make_repo: MakeRepo, files: dict[str, str]) -> str:
    found = {c.key: c.content for c in repository_candidates(read_repository(make_repo(files)))}
    return found["repo:stack"]


GEMFILES = {
    # The group and its `end` at column 0.
    "group-at-column-0": 'source "https://rubygems.org"\n'
    'group :development, :test do\n  gem "rspec"\nend\ngem "sinatra"\n',
    # The group inside a block: its `end` is indented.
    "group-in-a-source-block": 'source "https://rubygems.org" do\n'
    '  group :development, :test do\n    gem "rspec"\n  end\n  gem "sinatra"\nend\n',
    # A block of its own inside the group, its `end` indented, the group's at column 0.
    "block-inside-the-group": 'source "https://rubygems.org"\n'
    'group :development, :test do\n  platforms :mri do\n    gem "byebug"\n  end\n'
    '  gem "rspec"\nend\ngem "sinatra"\n',
    # Nothing indented: a block inside the group closes at column 0 before the group does.
    "nothing-indented": 'source "https://rubygems.org"\n'
    'group :development, :test do\nplatforms :mri do\ngem "byebug"\nend\ngem "rspec"\nend\n'
    'gem "sinatra"\n',
    # A condition inside the group, closed at column 0 (a one-line `if … end` closes itself).
    "condition-inside-the-group": 'source "https://rubygems.org"\n'
    'group :development, :test do\nif ENV["CI"]\n  gem "byebug"\nend\n'
    'gem "rspec" if true\n  if RUBY_VERSION > "3" then gem "debug" end\n  gem "rspec"\nend\n'
    'gem "sinatra"\n',
}


@pytest.mark.parametrize("gemfile", GEMFILES.values(), ids=GEMFILES.keys())
def test_a_gemfile_group_ends_at_its_own_end_whatever_the_indentation(
    make_repo: MakeRepo, gemfile: str
) -> None:
    files = {"Gemfile": gemfile, "lib/quarry.rb": RB}

    dev = _dev(make_repo, files)

    assert dev["rspec"] is True
    assert dev["sinatra"] is False
    assert dev.get("byebug", True) is True
    assert "Ruby/Sinatra app" in _stack(make_repo, files)


def test_gems_of_an_indented_group_stay_dev_until_its_end(make_repo: MakeRepo) -> None:
    # The group's `end` is indented, and a block inside it ends first: rails stays dev-only.
    gemfile = (
        'source "https://rubygems.org" do\n  group :test do\n    platforms :mri do\n'
        '      gem "byebug"\n    end\n    gem "rails"\n  end\n  gem "rack"\nend\n'
    )

    dev = _dev(make_repo, {"Gemfile": gemfile, "lib/quarry.rb": RB})

    assert dev == {"byebug": True, "rails": True, "rack": False}


PY = "x = 1\n" * 100
EXTRAS_PYPROJECT = (
    '[project]\nname = "quarry"\ndependencies = ["attrs"]\n\n'
    "[project.optional-dependencies]\n"
    'postgres = ["psycopg>=3"]\nserver = ["fastapi", "uvicorn"]\n'
    'test = ["pytest", "django"]\ndocs = ["mkdocs"]\nlint-tools = ["ruff"]\n'
    'all = ["quarry[postgres,server]"]\n'
)


def test_an_extra_named_for_development_is_dev_and_any_other_an_optional_part(
    make_repo: MakeRepo,
) -> None:
    reading = read_repository(make_repo({"pyproject.toml": EXTRAS_PYPROJECT, "quarry/x.py": PY}))

    deps = {d.name: (d.dev, d.extra) for d in reading.readings.dependencies}

    assert deps["attrs"] == (False, "")
    assert deps["psycopg"] == (False, "postgres")
    assert deps["fastapi"] == (False, "server")
    assert deps["uvicorn"] == (False, "server")
    assert deps["pytest"] == (True, "")
    assert deps["mkdocs"] == (True, "")
    assert deps["ruff"] == (True, "")


def test_an_optional_extra_is_stated_as_optional_never_as_the_stack(make_repo: MakeRepo) -> None:
    files = {"pyproject.toml": EXTRAS_PYPROJECT, "quarry/x.py": PY}

    found = {c.key: c.content for c in repository_candidates(read_repository(make_repo(files)))}

    assert found["repo:stack"] == "quarry is a Python project."
    assert "repo:database" not in found
    extras = found["repo:extras"]
    assert extras.startswith("Optional extras, installed only on request (pyproject.toml):")
    assert "`postgres` adds psycopg" in extras and "`server` adds fastapi and uvicorn" in extras
    # Development extras are not optional parts of the project.
    assert "pytest" not in extras and "mkdocs" not in extras and "`test`" not in extras
    assert "quarry" not in extras and "`all`" not in extras  # an extra of extras adds nothing
    assert not any("Django" in text or "FastAPI" in text for text in found.values())


def test_a_project_with_development_extras_only_states_no_extras(make_repo: MakeRepo) -> None:
    pyproject = (
        '[project]\nname = "quarry"\ndependencies = ["flask"]\n\n'
        '[project.optional-dependencies]\ndev = ["pytest"]\ntesting = ["celery"]\n'
    )
    files = {"pyproject.toml": pyproject, "quarry/x.py": PY}

    found = {c.key: c.content for c in repository_candidates(read_repository(make_repo(files)))}

    assert "repo:extras" not in found
    assert found["repo:stack"] == "quarry is a Python/Flask app."


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("pyproject.toml", EXTRAS_PYPROJECT),
        (
            "setup.py",
            "setup(name='quarry', install_requires=['attrs'],\n"
            "      extras_require={'postgres': ['psycopg'], 'server': ['fastapi'],\n"
            "                      'test': ['pytest', 'django'], 'docs': ['mkdocs']})\n",
        ),
    ],
)
def test_a_session_read_manifest_takes_only_development_extras_as_dev(path: str, text: str) -> None:
    declared = declared_libraries(path, text)

    # pytest and Django of the `test` extra say how the project is tested; the runtime extras'
    # psycopg and FastAPI are neither its stack nor its development.
    assert declared.get("pytest") is True and declared.get("django") is True
    assert "fastapi" not in declared and "psycopg" not in declared


RS = "pub fn run() {}\n" * 100
JS = "export const run = () => 1;\n" * 100
CARGO = (
    '[package]\nname = "quarry"\nversion = "0.1.0"\nedition = "2021"\n\n'
    '[dependencies]\naxum = "0.7"\n'
    'sqlx = { version = "0.7", optional = true, features = ["postgres"] }\n'
    'redis = { version = "0.25", optional = true }\n'
    'tracing = { version = "0.1", optional = true }\n\n'
    '[features]\ndefault = ["logs"]\npg = ["dep:sqlx"]\nlogs = ["dep:tracing"]\n'
)
PACKAGE_JSON = (
    '{"name": "quarry", "dependencies": {"express": "^4.19"},\n'
    ' "optionalDependencies": {"pg": "^8.11", "fsevents": "^2.3"}}\n'
)
SETUP_CFG = (
    "[metadata]\nname = quarry\n\n[options]\ninstall_requires =\n    attrs\n\n"
    "[options.extras_require]\npostgres =\n    psycopg2-binary>=2.9\ntest =\n    pytest\n"
)


def _candidates(make_repo: MakeRepo, files: dict[str, str]) -> dict[str, str]:
    return {c.key: c.content for c in repository_candidates(read_repository(make_repo(files)))}


def test_an_optional_cargo_dependency_is_an_extra_of_its_feature_never_the_stack(
    make_repo: MakeRepo,
) -> None:
    files = {"Cargo.toml": CARGO, "src/lib.rs": RS}
    reading = read_repository(make_repo(files))
    deps = {d.name: (d.extra, d.optional) for d in reading.readings.dependencies}

    assert deps["axum"] == ("", False)
    assert deps["sqlx"] == deps["sqlx:postgres"] == ("pg", False)
    assert deps["redis"] == ("redis", False)  # its own implicit feature turns it on
    assert deps["tracing"] == ("", True)  # on by default: optional, but no extra to ask for
    found = _candidates(make_repo, files)
    assert not any("PostgreSQL" in text or "Redis" in text for text in found.values())
    assert found["repo:extras"] == (
        "Optional extras, installed only on request (Cargo.toml): `pg` adds sqlx; "
        "`redis` adds redis."
    )


def test_npm_optional_dependencies_are_never_the_stack_nor_an_extra(make_repo: MakeRepo) -> None:
    found = _candidates(make_repo, {"package.json": PACKAGE_JSON, "src/index.js": JS})

    assert "Express" in found["repo:stack"]
    assert "repo:extras" not in found
    assert not any("PostgreSQL" in text for text in found.values())


def test_setup_cfg_extras_are_optional_parts_or_development_ones(make_repo: MakeRepo) -> None:
    files = {"setup.cfg": SETUP_CFG, "quarry/x.py": PY}
    reading = read_repository(make_repo(files))
    deps = {d.name: (d.dev, d.extra) for d in reading.readings.dependencies}

    assert deps["attrs"] == (False, "")
    assert deps["psycopg2-binary"] == (False, "postgres")
    assert deps["pytest"] == (True, "")
    found = _candidates(make_repo, files)
    assert "PostgreSQL" not in found["repo:stack"]
    assert "repo:database" not in found
    assert "`postgres` adds psycopg2-binary" in found["repo:extras"]


@pytest.mark.parametrize(
    ("files", "named"),
    [
        ({"Cargo.toml": CARGO.replace(", optional = true", ""), "src/lib.rs": RS}, "PostgreSQL"),
        (
            {
                "package.json": PACKAGE_JSON.replace(
                    "optionalDependencies", "dependencies2"
                ).replace('"express": "^4.19"', '"express": "^4.19", "pg": "^8.11"'),
                "src/index.js": JS,
            },
            "PostgreSQL",
        ),
    ],
    ids=["cargo", "npm"],
)
def test_the_same_dependencies_required_are_the_stack(
    make_repo: MakeRepo, files: dict[str, str], named: str
) -> None:
    found = _candidates(make_repo, files)

    assert any(named in text for text in found.values())
