"""The project's language from the commands its own build configuration runs, when the session
shows nothing else: every ecosystem alike, and where it must not be said."""

from __future__ import annotations

from datetime import timedelta

import pytest

from squirrel_memory.extractors.touched_languages import merged_statement
from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_touched_languages import ROOT, T0, _extract, _said

GORELEASER = (
    "version: 2\nbefore:\n  hooks:\n    - go mod tidy\nbuilds:\n  - binary: tally\n"
    "    ldflags:\n      - -s -w\n"
)
TASKFILE = "version: '3'\ntasks:\n  build:\n    cmds:\n      - cargo build --release\n"
GITLAB = (
    "stages: [test]\ntest:\n  image: elixir:1.16\n  script:\n    - mix deps.get\n    - mix test\n"
)

#: (ecosystem, configuration path, its text, the statement)
CONFIGS = [
    ("go", "src/.goreleaser.yml", GORELEASER, "Go's: `go mod tidy` (`src/.goreleaser.yml`)."),
    ("rust", "Taskfile.yml", TASKFILE, "Rust's: `cargo build --release` (`Taskfile.yml`)."),
    ("elixir", ".gitlab-ci.yml", GITLAB, "Elixir's: `mix deps.get` (`.gitlab-ci.yml`)."),
]
PREFIX = "Commands the project's build configuration runs are "


def _session(path: str, text: str) -> Session:
    session = Session(ROOT, "s1", T0 + timedelta(days=1))
    session.user("Can the release attach a dependency archive?")
    session.read(path, text)
    return session


@pytest.mark.parametrize(("eco", "path", "text", "said"), CONFIGS, ids=[c[0] for c in CONFIGS])
async def test_the_one_language_a_build_configuration_s_commands_run_is_said(
    eco: str, path: str, text: str, said: str
) -> None:
    assert _said(await _extract(_session(path, text)), "language") == [PREFIX + said]


@pytest.mark.parametrize(
    ("path", "text"),
    [
        # Two languages' tools: nothing decides.
        (".gitlab-ci.yml", "test:\n  script:\n    - cargo test\n    - go test ./...\n"),
        # A value that is not under a command key is data, not a command.
        ("config.yml", "name: go mod tidy\nlabels:\n  - cargo build\n"),
        # An example's or a docs site's configuration is not the project's.
        ("examples/release/.goreleaser.yml", GORELEASER),
        ("docs/Taskfile.yml", TASKFILE),
        # Tools of no one language (containers, Node's package managers) say nothing.
        (
            "Taskfile.yml",
            "tasks:\n  up:\n    cmds:\n      - docker compose up -d\n      - npm ci\n",
        ),
    ],
)
async def test_a_configuration_that_does_not_decide_one_language_says_nothing(
    path: str, text: str
) -> None:
    assert _said(await _extract(_session(path, text)), "language") == []


async def test_code_of_another_language_read_beside_it_says_nothing() -> None:
    session = _session("src/.goreleaser.yml", GORELEASER)
    session.read("tools/seed.rb", "puts 1\n")
    session.read("lib/ledger.rb", "class Ledger; end\n")

    assert not any(text.startswith(PREFIX) for text in _said(await _extract(session), "language"))


def test_a_count_of_files_replaces_it_and_it_replaces_nothing() -> None:
    config = f"{PREFIX}Go's: `go mod tidy` (`src/.goreleaser.yml`)."
    counted = "Code worked on in this project's sessions: Go (3 files)."

    assert merged_statement(config, counted) == counted
    assert merged_statement(counted, config) == counted
