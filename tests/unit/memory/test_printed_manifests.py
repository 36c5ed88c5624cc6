"""What the project is, from its own manifest's description field printed by a shell command
among other output (a compound command, one that failed after printing), in made-up projects of
several ecosystems; and where nothing is said (a dependency's manifest, another folder, two
descriptions)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.printed_manifests import printed_about, printed_manifest_paths
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
NODE = "/home/dev/tally"
RUST = "/Users/ana/src/ledger"
SAID = "Counts the words of Markdown files, section by section."

PACKAGE_JSON = (
    "{\n"
    '  "name": "@tally/root",\n'
    '  "private": true,\n'
    f'  "description": "{SAID}",\n'
    '  "scripts": {\n'
    '    "check": "tsc --noEmit"\n'
    "  },\n"
    '  "dependencies": {\n'
)
CARGO_TOML = (
    "[package]\n"
    'name = "ledger"\n'
    'version = "0.4.0"\n'
    'description = "A double-entry bookkeeping service for small shops"\n'
    "\n[dependencies]\n"
    'serde = { version = "1", features = ["derive"] }\n'
)
PYPROJECT = (
    "[build-system]\n"
    'requires = ["hatchling"]\n\n'
    "[project]\n"
    'name = "tally"\n'
    f'description = "{SAID}"\n'
)
MIX_EXS = (
    "defmodule Tally.MixProject do\n"
    "  use Mix.Project\n\n"
    "  def project do\n"
    "    [\n"
    "      app: :tally,\n"
    f'      description: "{SAID}",\n'
    "      deps: deps()\n"
    "    ]\n"
)
GEMSPEC = (
    "Gem::Specification.new do |spec|\n"
    '  spec.name = "tally"\n'
    f'  spec.summary = "{SAID}"\n'
    '  spec.description = "A longer text about the gem and what it does for you."\n'
)
POM = (
    "<project>\n"
    "  <artifactId>tally</artifactId>\n"
    f"  <description>{SAID}</description>\n"
    "  <dependencies>\n"
    "    <dependency>\n"
    "      <description>Another library's text, not the project's.</description>\n"
)
LS = ".\n..\nAGENTS.md\nREADME.md\nbun.lock\npackage.json\n"


def _about(
    root: str, command: str, output: str, exit_code: int = 0
) -> tuple[str, str, tuple[str, ...]] | None:
    session = Session(root, "s1", T0)
    session.user("Look around the project.")
    session.run(command, exit_code, output)
    return printed_about(session.events)


@pytest.mark.parametrize(
    ("root", "command", "output", "source"),
    [
        # A compound command: the manifest is one of several outputs, cut by `head`.
        (
            NODE,
            "pnpm list effect 2>&1 | head -n 30; cat pnpm-workspace.yaml; "
            "cat package.json | head -n 80",
            "Legend: production dependency\n\npackages:\n  - 'packages/*'\n" + PACKAGE_JSON,
            "package.json",
        ),
        # A command that failed after printing (a missing lock file), two files in one `cat`.
        (
            NODE,
            "ls -a && cat package.json AGENTS.md && ls yarn.lock pnpm-lock.yaml",
            "Exit code 2\n" + LS + PACKAGE_JSON + "# Tally (AGENTS.md)\n",
            "package.json",
        ),
        (
            NODE,
            "ls; echo; head -n 20 pyproject.toml",
            "README.md\nsrc\n\n" + PYPROJECT,
            "pyproject.toml",
        ),
        (NODE, "git status --short && cat mix.exs", " M lib/tally.ex\n" + MIX_EXS, "mix.exs"),
        (NODE, "ls *.gemspec; cat tally.gemspec", "tally.gemspec\n" + GEMSPEC, "tally.gemspec"),
        (NODE, "cat pom.xml | head -n 40; mvn -v", POM + "Apache Maven 3.9.6\n", "pom.xml"),
    ],
)
def test_a_printed_manifest_s_own_description_says_what_the_project_is(
    root: str, command: str, output: str, source: str
) -> None:
    found = _about(root, command, output, 2 if "Exit" in output else 0)
    assert found is not None
    text, file, _ = found
    assert file == source
    assert text == f"What this project (tally) is and does, per its {source}: {SAID}"


def test_a_cargo_manifest_printed_beside_a_build_says_what_the_crate_is() -> None:
    found = _about(RUST, "cargo build 2>&1 | tail -3; cat Cargo.toml", "Finished\n" + CARGO_TOML)
    assert found is not None
    assert found[0] == (
        "What this project (ledger) is and does, per its Cargo.toml: A double-entry "
        "bookkeeping service for small shops."
    )


@pytest.mark.parametrize(
    ("root", "command", "output"),
    [
        # A dependency's manifest, not the project's.
        (NODE, "ls; cat node_modules/effect/package.json", LS + PACKAGE_JSON),
        (RUST, "ls; cat vendor/serde/Cargo.toml", "src\n" + CARGO_TOML),
        # The project's manifest beside a dependency's: which description is whose is unknown.
        (
            NODE,
            "cat package.json; npm view effect --json",
            PACKAGE_JSON + '}\n{\n  "name": "effect",\n  "description": "A fully-fledged '
            'functional effect system for TypeScript"\n}\n',
        ),
        (NODE, "cat package.json packages/cli/package.json", PACKAGE_JSON + "}\n" + PACKAGE_JSON),
        # Another folder's manifest.
        (RUST, "cd ../billing && cat Cargo.toml", CARGO_TOML),
        # A description nested inside another object (a dependency's metadata).
        (
            NODE,
            "ls && cat package.json",
            LS + '{\n  "name": "tally",\n  "meta": {\n    "description": "A library the '
            'project bundles for parsing"\n  }\n}\n',
        ),
        # Only the tail of the file: the field's table is not shown.
        (RUST, "ls; tail -n 3 Cargo.toml", 'src\ndescription = "A double-entry ledger"\n'),
        # A pom's dependency's description, after its own fields end.
        (
            NODE,
            "ls; cat pom.xml",
            "src\n" + POM.replace(f"<description>{SAID}</description>", "<name>tally</name>"),
        ),
        # A placeholder.
        (
            RUST,
            "ls; cat Cargo.toml",
            "src\n"
            + CARGO_TOML.replace("A double-entry bookkeeping service for small shops", "TODO"),
        ),
    ],
)
def test_what_is_not_the_project_s_own_description_says_nothing(
    root: str, command: str, output: str
) -> None:
    assert _about(root, command, output) is None


def test_two_different_descriptions_of_the_project_say_nothing() -> None:
    session = Session(RUST, "s1", T0)
    session.user("Look around.")
    session.run("ls; cat Cargo.toml", 0, "src\n" + CARGO_TOML)
    session.run("ls; cat Cargo.toml", 0, "src\n" + CARGO_TOML.replace("small shops", "banks"))
    assert printed_about(session.events) is None


def test_the_description_is_the_project_s_overview_fact() -> None:
    session = Session(NODE, "s1", T0)
    session.user("Look around the project.")
    session.run("ls -a && cat package.json && ls bun.lock", 2, LS + PACKAGE_JSON)
    session.say("Done.")

    facts = [c.content for c in session.extracted() if c.key == "about"]

    # with the language its manifest shows (`about_stack`)
    assert facts == [
        f"What this project (tally) is and does, per its package.json: {SAID}"
        " It is a TypeScript project (package.json)."
    ]


def _language(root: str, command: str, output: str, exit_code: int = 0) -> str | None:
    session = Session(root, "s1", T0)
    session.user("Look around the project.")
    session.run(command, exit_code, output)
    return next((c.content for c in session.extracted() if c.key == "language"), None)


def test_a_manifest_printed_by_a_failed_compound_command_gives_the_language() -> None:
    output = LS + PACKAGE_JSON + "# Tally (AGENTS.md)\nls: yarn.lock: No such file or directory\n"
    said = _language(NODE, "ls -a && cat package.json AGENTS.md && ls yarn.lock", output, 2)
    assert said == "TypeScript project (package.json)."  # its `check` script runs `tsc`
    cargo = _language(RUST, "cargo build 2>&1 | tail -3; cat Cargo.toml", "Done\n" + CARGO_TOML)
    assert cargo == "Rust project (Cargo.toml)."


@pytest.mark.parametrize(
    ("root", "command", "output"),
    [
        # A dependency's manifest, another folder's, a missing one.
        (NODE, "ls; cat node_modules/effect/package.json", LS + PACKAGE_JSON),
        (RUST, "cd ../billing; cat Cargo.toml", CARGO_TOML),
        (RUST, "ls; cat Cargo.toml", "src\ncat: Cargo.toml: No such file or directory\n"),
    ],
)
def test_a_manifest_not_the_project_s_or_not_printed_gives_no_language(
    root: str, command: str, output: str
) -> None:
    assert _language(root, command, output) is None


def test_a_printed_manifest_s_description_comes_before_an_instruction_file_s_overview() -> None:
    session = Session(NODE, "s1", T0)
    session.user("Look around the project.")
    session.read("AGENTS.md", "# Tally\n\n## Overview\n\nA tool that tallies words in notes.\n")
    session.run("ls && cat package.json | head -n 20", 0, LS + PACKAGE_JSON)
    session.say("Done.")

    facts = [c.content for c in session.extracted() if c.key == "about"]

    # with the language its manifest shows (`about_stack`)
    assert facts == [
        f"What this project (tally) is and does, per its package.json: {SAID}"
        " It is a TypeScript project (package.json)."
    ]


def _metadata(root: str, manifest: str, description: str) -> str:
    package = {
        "name": "devmap",
        "description": description,
        "manifest_path": manifest,
        "targets": [{"kind": ["lib"], "src_path": f"{root}/src/lib.rs", "edition": "2024"}],
    }
    return json.dumps({"packages": [package], "workspace_root": root}, separators=(",", ":"))


def test_cargo_metadata_prints_the_root_package_description_and_its_manifest() -> None:
    session = Session(RUST, "s1", T0)
    output = "?? .codex/\n" + _metadata(RUST, f"{RUST}/Cargo.toml", "A device-mapper ioctl layer")
    session.run("git status --short && cargo metadata --no-deps --format-version 1", 0, output)

    found = printed_about(session.events)

    assert found is not None and "per its Cargo.toml: A device-mapper ioctl layer." in found[0]
    assert ("Cargo.toml", session.events[-1].id) in printed_manifest_paths(session.events)


@pytest.mark.parametrize(
    ("command", "manifest", "code"),
    [
        ("cargo metadata --no-deps --format-version 1", f"{RUST}/crates/io/Cargo.toml", 0),
        ("cargo metadata --no-deps --format-version 1", f"{RUST}/Cargo.toml", 101),  # failed
        ("cat meta.json", f"{RUST}/Cargo.toml", 0),  # printed by no cargo metadata
    ],
)
def test_no_cargo_metadata_package_of_another_folder_a_failed_run_or_another_command(
    command: str, manifest: str, code: int
) -> None:
    session = Session(RUST, "s1", T0)
    session.run(command, code, _metadata(RUST, manifest, "A device-mapper ioctl layer"))

    assert printed_about(session.events) is None
    assert printed_manifest_paths(session.events) == []
