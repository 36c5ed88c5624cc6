"""The checks a CI workflow runs, from the workflow files a session read whole or wrote."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.ci_commands import ci_commands, ci_triggers
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType
from squirrel_memory.repository.ci import project_folder, read_ci
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.snapshot import TextFile
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 1, 9, tzinfo=UTC)
ROOT = "/work/app"
GITHUB = """name: CI
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Install dependencies
        run: uv sync --all-extras --dev
      - name: Run tests
        run: uv run pytest
      - name: Lint
        run: uv run ruff check
      - name: Type-check
        run: uv run mypy src
"""
GITLAB = """stages: [test]
unit:
  stage: test
  script:
    - npm ci
    - npm run lint
    - npm test
"""


def session() -> Session:
    return Session(ROOT, "s1", T0)


def test_a_workflow_the_session_wrote_is_one_recipe_of_its_checks() -> None:
    s = session()
    s.write(".github/workflows/ci.yml", GITHUB)
    (found,) = ci_commands(s.events)
    assert found.key == "ci:.github/workflows/ci.yml"
    assert found.content == (
        "CI (.github/workflows/ci.yml) runs the tests with `uv run pytest`; lints with "
        "`uv run ruff check`; type-checks with `uv run mypy src`."
    )
    assert found.event_ids == (s.events[0].id,)


def test_a_gitlab_file_read_whole_is_read_too() -> None:
    s = session()
    s.read(".gitlab-ci.yml", GITLAB)
    (found,) = ci_commands(s.events)
    assert found.content == (
        "CI (.gitlab-ci.yml) runs the tests with `npm test`; lints with `npm run lint`."
    )


def test_an_edit_after_the_write_is_applied() -> None:
    s = session()
    s.write(".github/workflows/ci.yml", GITHUB)
    s.edit_lines(".github/workflows/ci.yml", "run: uv run pytest", "run: uv run pytest -x")
    (found,) = ci_commands(s.events)
    assert "`uv run pytest -x`" in found.content
    assert len(found.event_ids) == 2


def test_an_edit_that_no_longer_matches_the_text_silences_the_file() -> None:
    s = session()
    s.write(".github/workflows/ci.yml", GITHUB)
    s.edit_lines(".github/workflows/ci.yml", "run: make check", "run: make test")
    assert ci_commands(s.events) == []


def test_a_write_that_was_not_made_says_nothing() -> None:
    s = session()
    s.write(".github/workflows/ci.yml", GITHUB)
    s.events.pop()  # no code change: the write was declined or failed
    assert ci_commands(s.events) == []


@pytest.mark.parametrize(
    ("path", "text"),
    [
        # Only installs and deploys: no everyday check, no build.
        (
            ".github/workflows/deploy.yml",
            "jobs:\n  d:\n    steps:\n      - run: npm ci\n      - run: npx vercel deploy\n",
        ),
        # A build that reads a CI variable is CI's own.
        (
            ".github/workflows/build.yml",
            "jobs:\n  b:\n    steps:\n      - run: go build -o $OUT ./cmd/server\n",
        ),
        # Not a workflow: a YAML file elsewhere.
        ("config/ci.yml", GITHUB),
        # A workflow that does not parse.
        (".github/workflows/ci.yml", "jobs: [unclosed\n  - run: uv run pytest\n"),
        # A sub-folder's checks (`working-directory`) are not the project's own.
        (
            ".github/workflows/docs.yml",
            "jobs:\n  d:\n    steps:\n      - run: npm test\n        working-directory: docs\n",
        ),
    ],
)
def test_workflows_that_name_no_project_check_make_no_recipe(path: str, text: str) -> None:
    s = session()
    s.read(path, text)
    assert ci_commands(s.events) == []


def test_a_partial_read_says_nothing() -> None:
    s = session()
    s.read(".github/workflows/ci.yml", GITHUB)
    result = s.events[-1]
    partial = "".join(f"{i + 40:6d}→{line}\n" for i, line in enumerate(GITHUB.splitlines()))
    s.events[-1] = dataclasses.replace(result, content={**result.content, "output": partial})
    assert ci_commands(s.events) == []


def test_the_rules_keep_the_workflow_as_a_recipe() -> None:
    s = session()
    s.user("add a GitHub Action that runs the tests")
    s.write(".github/workflows/ci.yml", GITHUB)
    (episode,) = segment_episodes(s.events, now=T0 + timedelta(days=1))
    found = [c for c in RulesExtractor().extract_sync(episode, s.events) if c.key.startswith("ci:")]
    assert [(c.type, c.key) for c in found] == [(MemoryType.RECIPE, "ci:.github/workflows/ci.yml")]


@pytest.mark.parametrize(
    ("run", "said"),
    [
        ("go test ./...", "runs the tests with `go test ./...`"),
        ("cargo test --all", "runs the tests with `cargo test --all`"),
        ("mix test", "runs the tests with `mix test`"),
        ("bundle exec rspec", "runs the tests with `bundle exec rspec`"),
        ("./gradlew test", "runs the tests with `./gradlew test`"),
        ("cargo fmt --all --check", "checks the formatting with `cargo fmt --all --check`"),
        ("golangci-lint run", "lints with `golangci-lint run`"),
    ],
)
def test_each_ecosystems_check_is_named(run: str, said: str) -> None:
    s = session()
    s.read(".github/workflows/ci.yml", f"jobs:\n  t:\n    steps:\n      - run: {run}\n")
    (found,) = ci_commands(s.events)
    assert found.content == f"CI (.github/workflows/ci.yml) {said}."


def test_a_check_run_in_a_sub_folder_is_not_the_projects_own() -> None:
    s = session()
    s.read(".github/workflows/ci.yml", "jobs:\n  t:\n    steps:\n      - run: cd web && npm test\n")
    assert ci_commands(s.events) == []


def test_a_command_that_reads_a_ci_variable_is_passed_over() -> None:
    s = session()
    workflow = (
        "jobs:\n  t:\n    steps:\n      - run: |\n"
        "          uv run pytest --python ${{ matrix.python }}\n"
        "          uv run pytest -n $WORKERS\n"
        "          uv run ruff check\n"
    )
    s.read(".github/workflows/ci.yml", workflow)
    (found,) = ci_commands(s.events)
    assert found.content == "CI (.github/workflows/ci.yml) lints with `uv run ruff check`."


DEPLOY = """on:
  push:
    branches: [main]
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Build
        working-directory: server
        run: go build -o ../app ./cmd/app/
      - name: Deploy
        run: rsync -avz app "root@$HOST:/srv/app"
"""


def test_the_build_a_workflow_runs_is_kept_from_its_sub_folder() -> None:
    s = session()
    s.read(".github/workflows/deploy.yml", DEPLOY)
    (found,) = ci_commands(s.events)
    assert found.content == (
        "CI (.github/workflows/deploy.yml) builds with `go build -o ../app ./cmd/app/` "
        "(in `server/`)."
    )


def test_a_build_at_the_root_follows_the_checks() -> None:
    s = session()
    s.read(".github/workflows/ci.yml", GITHUB + "      - name: Build\n        run: uv build\n")
    (found,) = ci_commands(s.events)
    assert found.content.endswith("type-checks with `uv run mypy src`; builds with `uv build`.")


FILTERED = """on:
  push:
    branches: [main]
    paths:
      - 'server/**'
      - 'server/go.mod'
  workflow_dispatch:
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - run: go build ./cmd/app
"""


def test_a_workflow_filtered_by_branch_and_path_says_when_it_runs() -> None:
    s = session()
    s.read(".github/workflows/deploy.yml", FILTERED)
    (found,) = ci_triggers(s.events)
    assert found.key == "ci:trigger:.github/workflows/deploy.yml"
    assert found.content == (
        "`.github/workflows/deploy.yml` runs on a push to `main` that changes `server/**` or "
        "`server/go.mod`, and by hand (`workflow_dispatch`)."
    )


@pytest.mark.parametrize(
    "text",
    [
        GITHUB,  # `on: [push]`: every push
        "on:\n  push:\n  pull_request:\njobs: {}\n",  # every push, no filter
        "on:\n  pull_request:\n    branches: [main]\njobs: {}\n",  # no push trigger
        "on:\n  push:\n    branches: [main\n",  # does not parse
    ],
    ids=["every-push-list", "every-push-map", "pull-request-only", "malformed"],
)
def test_a_workflow_run_on_every_push_or_not_on_push_says_nothing(text: str) -> None:
    s = session()
    s.read(".github/workflows/ci.yml", text)
    assert ci_triggers(s.events) == []


def test_a_gitlab_file_has_no_push_trigger_read() -> None:
    s = session()
    s.read(".gitlab-ci.yml", GITLAB)
    assert ci_triggers(s.events) == []


async def test_the_trigger_is_a_project_fact() -> None:
    s = session()
    s.read(".github/workflows/deploy.yml", FILTERED)
    (episode,) = segment_episodes(s.events, now=T0 + timedelta(days=1))
    found = {c.key: c for c in await RulesExtractor().extract(episode, s.events)}
    assert found["ci:trigger:.github/workflows/deploy.yml"].type is MemoryType.PROJECT_FACT


_BUILD_JOB = """name: CI
on: [push]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
"""


@pytest.mark.parametrize(
    "steps",
    [
        "      - run: git clone https://github.com/x/protobuf && cd protobuf && make\n",
        "      - run: cd ../vendor-lib && cargo build --release\n",
        "      - uses: actions/checkout@v4\n        with:\n          repository: other/tool\n"
        "          path: tool\n      - run: go build ./...\n        working-directory: tool\n",
    ],
)
def test_a_build_of_another_repository_s_folder_is_not_the_project_s(steps: str) -> None:
    s = session()
    s.read(".github/workflows/ci.yml", _BUILD_JOB + steps)

    assert ci_commands(s.events) == []


@pytest.mark.parametrize(
    ("folder", "scope"),
    [
        ("", ""),
        (".", ""),
        ("./server/", "server"),
        ("server", "server"),
        (".config", ".config"),
        ("a/./b/../c", "a/c"),
        ("${{ github.workspace }}/server", "server"),
        ("$GITHUB_WORKSPACE", ""),
        ("${CI_PROJECT_DIR}/web", "web"),
        ("../lib", None),
        ("..", None),
        ("a/../../lib", None),
        ("/opt/tool", None),
        ("~/tool", None),
        ("$HOME/tool", None),
    ],
)
def test_a_workflow_folder_is_a_path_in_the_checkout_or_none(
    folder: str, scope: str | None
) -> None:
    assert project_folder(folder) == scope


def test_a_step_run_outside_the_checkout_gives_no_command_and_a_dot_folder_keeps_its_dot() -> None:
    workflow = (
        _BUILD_JOB
        + "      - run: cargo build --release\n        working-directory: ../vendor-lib\n"
        + "      - run: npm test\n        working-directory: .config\n"
    )
    out = Readings()
    read_ci(TextFile.of(".github/workflows/ci.yml", workflow), out)

    assert [(c.text, c.scope) for c in out.commands] == [("npm test", ".config")]
