"""What the project is, from its root package's own doc and its README's stack sentence."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.about import session_about
from squirrel_memory.extractors.package_doc import is_root_package_file, package_about
from squirrel_memory.extractors.readme_intro import stack_sentence
from tests.unit.memory.test_rules_extractor import Stream
from tests.unit.memory.test_session_about import _numbered, _reads

RUST_LIB = """//! Converts e-mail newsletters into Atom feeds, with one HTTP and one SMTP server.
//!
//! The binary in `src/main.rs` starts both.

pub mod time;
"""
PY_INIT = '''"""Schedules background jobs on a SQLite queue and retries them with backoff."""

from .queue import Queue
'''
GO_DOC = """// Package tiles renders map tiles from a PostGIS database for the web viewer.
package tiles
"""
GLEAM_MODULE = """//// A compiler from service-level expectations to Terraform for several vendors.

import gleam/list
"""
ELIXIR_LIB = '''defmodule Ledger do
  @moduledoc """
  Double-entry bookkeeping for small shops, with invoices and VAT reports.
  """
end
'''


@pytest.mark.parametrize(
    ("path", "text", "words"),
    [
        ("src/lib.rs", RUST_LIB, "newsletters into Atom feeds"),
        ("jobqueue/__init__.py", PY_INIT, "background jobs"),
        ("src/jobqueue/__init__.py", PY_INIT, "background jobs"),
        ("doc.go", GO_DOC, "renders map tiles"),
        ("src/caffeine.gleam", GLEAM_MODULE, "expectations to Terraform"),
        ("lib/ledger.ex", ELIXIR_LIB, "Double-entry bookkeeping"),
    ],
)
def test_the_root_package_doc_says_what_the_project_is(path: str, text: str, words: str) -> None:
    found = session_about(_reads((path, _numbered(text))))
    assert found is not None
    statement, source, _ = found
    assert source == path
    assert words in statement
    assert f"root package doc (`{path}`)" in statement


@pytest.mark.parametrize(
    "path",
    [
        "crates/core/src/lib.rs",  # a workspace member's root, not the project's
        "vendor/left-pad/src/lib.rs",
        "tests/__init__.py",
        "examples/__init__.py",
        "node_modules/x/index.js",
        "src/jobqueue/worker.py",  # a module, not the package
        "lib/ledger/invoice.ex",
    ],
)
def test_files_that_do_not_speak_for_the_project_say_nothing(path: str) -> None:
    text = PY_INIT if path.endswith(".py") else RUST_LIB
    assert not is_root_package_file(path)
    assert package_about(_reads((path, _numbered(text)))) is None


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("src/lib.rs", "// Copyright 2024 Example Ltd. Licensed under MIT.\n\npub mod a;\n"),
        ("src/lib.rs", "//! mycrate library.\n\npub mod a;\n"),  # only the name
        ("pkg/__init__.py", '"""A short description of this package."""\n'),  # placeholder
        (
            "src/index.ts",
            "/**\n * Adds two numbers and returns the sum of both.\n */\nexport const add = 1;\n",
        ),
        ("src/main.rs", "use std::io;\n\nfn main() {}\n"),  # no doc at all
    ],
)
def test_a_doc_that_says_nothing_of_the_project_is_not_quoted(path: str, text: str) -> None:
    assert package_about(_reads((path, _numbered(text)))) is None


def test_a_typescript_entry_with_a_package_doc_tag_is_read() -> None:
    text = (
        "/**\n * Renders Markdown to terminal output with syntax colours.\n *\n"
        " * @packageDocumentation\n */\nexport * from './render';\n"
    )
    found = package_about(_reads(("src/index.ts", _numbered(text))))
    assert found is not None
    assert "Markdown to terminal output" in found[0]


def test_two_python_packages_at_the_root_say_nothing() -> None:
    other = '"""Command-line tools that export the ledger to spreadsheets and PDF."""\n'
    reads = _reads(
        ("jobqueue/__init__.py", _numbered(PY_INIT)), ("exporter/__init__.py", _numbered(other))
    )
    assert package_about(reads) is None


def test_the_crate_library_speaks_before_its_binary() -> None:
    main = (
        "//! The server's entry point: reads settings and starts both listeners.\n\nfn main() {}\n"
    )
    found = package_about(
        _reads(("src/main.rs", _numbered(main)), ("src/lib.rs", _numbered(RUST_LIB)))
    )
    assert found is not None
    assert found[1] == "src/lib.rs"


def test_a_readme_speaks_before_the_package_doc() -> None:
    readme = "# jobqueue\n\nA job queue for small web apps, kept in one SQLite file.\n"
    found = session_about(
        _reads(("jobqueue/__init__.py", _numbered(PY_INIT)), ("README.md", _numbered(readme)))
    )
    assert found is not None
    assert found[1] == "README.md"


APP_README = """# Tuner

<p align="center"><img src="icon.png"></p>

**Tuner** plays internet radio stations and records them to disk on a schedule.

The application is a cross-platform desktop project built with Electron and Angular.

## Features

- recordings
"""
RUST_README = """# quill

Quill keeps a writing journal in plain text files and syncs them over git.

It is written in Rust and runs on Linux, macOS and Windows.

## Install
"""


@pytest.mark.parametrize(
    ("readme", "sentence"),
    [
        (APP_README, "built with Electron and Angular."),
        (RUST_README, "It is written in Rust and runs on Linux, macOS and Windows."),
    ],
)
def test_the_readme_description_quotes_its_stack_sentence(readme: str, sentence: str) -> None:
    found = session_about(_reads(("README.md", _numbered(readme))))
    assert found is not None
    assert found[0].endswith(sentence)


@pytest.mark.parametrize(
    "readme",
    [
        # a fork: the stack may be the other project's
        "# Tuner\n\nA fork of Radiola, built with Electron and Angular.\n\n## Use\n",
        # a past stack
        "# Tuner\n\nPlays radio stations.\n\nIt was originally built with Angular.\n\n## Use\n",
        # after the first section: not the introduction
        "# Tuner\n\nPlays radio stations on a schedule.\n\n## Stack\n\nBuilt with Electron and Angular.\n",
        # no framework or language the stack table knows
        "# Tuner\n\nPlays radio stations on a schedule.\n\nBuilt with love in Lisbon.\n",
    ],
)
def test_no_stack_sentence_is_quoted_where_it_may_not_be_this_projects(readme: str) -> None:
    assert stack_sentence(readme) is None


def test_a_stack_sentence_already_in_the_description_is_not_repeated() -> None:
    readme = "# quill\n\nQuill is a journal app written in Rust that syncs over git.\n"
    found = session_about(_reads(("README.md", _numbered(readme))))
    assert found is not None
    assert found[0].count("written in Rust") == 1


@pytest.mark.parametrize(
    ("command", "output", "path", "words"),
    [
        (  # a crate's roots printed between echoed markers
            'ls src; echo "--- lib ---"; head -20 src/lib.rs; echo "--- main ---"; head -5 src/main.rs',
            f"lib.rs\nmain.rs\n--- lib ---\n{RUST_LIB}--- main ---\nfn main() {{}}\n\n",
            "src/lib.rs",
            "newsletters into Atom feeds",
        ),
        (  # an Elixir library's module, printed alone
            "cat lib/ledger.ex",
            ELIXIR_LIB,
            "lib/ledger.ex",
            "Double-entry bookkeeping",
        ),
    ],
)
def test_a_root_package_doc_a_command_printed_says_what_the_project_is(
    command: str, output: str, path: str, words: str
) -> None:
    stream = Stream()
    stream.user("what is this project?")
    stream.run(command, 0, output)

    found = session_about(stream.events)

    assert found is not None and found[1] == path and words in found[0]


def test_a_package_doc_printed_in_another_folder_says_nothing() -> None:
    stream = Stream()
    stream.run("cd ../vendor/ledger && cat lib/ledger.ex", 0, ELIXIR_LIB)

    assert session_about(stream.events) is None
