"""Examples, demos and docs show the project in use and test data feeds its tests: neither is
the project, so what their code uses never becomes a fact about it (every ecosystem alike)."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.stack_evidence import code_scope, is_test_data, sample_folder
from tests.unit.memory.test_stack_evidence import _facts, _run


@pytest.mark.parametrize(
    ("root", "sample", "code", "framework"),
    [
        ("pyproject.toml", "examples/flask_app.py", "from flask import Flask\n", "Flask"),
        ("package.json", "examples/server.js", "const express = require('express')\n", "Express"),
        ("package.json", "demo/src/App.tsx", "import React from 'react'\n", "React"),
        ("pyproject.toml", "docs/conf.py", "import django\n", "Django"),
    ],
)
def test_what_an_example_or_docs_file_uses_is_said_of_its_folder_only(
    root: str, sample: str, code: str, framework: str
) -> None:
    found = _facts([(root, "x\n"), (sample, code)])

    assert framework not in found.get("framework", "")
    folder = sample.split("/", 1)[0]
    assert found[f"framework@{folder}"] == f"In `{folder}/`, the code is built with {framework}."


@pytest.mark.parametrize(
    ("root", "fixture", "code"),
    [
        # JavaScript: a fixture app's test file
        ("package.json", "test/fixtures/app/a.test.js", "const mocha = require('mocha')\n"),
        # Ruby / Rails: a fixture file in another language
        ("Gemfile", "spec/fixtures/files/app.py", "from django.db import models\n"),
        # Go: testdata holds inputs
        ("go.mod", "internal/parse/testdata/app.py", "from flask import Flask\n"),
        # Python: jest snapshots and mocks are the tests' data
        ("pyproject.toml", "web/__mocks__/api.js", "import React from 'react'\n"),
    ],
)
def test_test_data_is_evidence_of_nothing(root: str, fixture: str, code: str) -> None:
    found = _facts([(root, "x\n"), (fixture, code)])

    # The language, and at most the overview its folder's name and manifest give.
    assert set(found) - {"about"} == {"language"}
    assert "folder's name" in found.get("about", "folder's name")


def test_language_bindings_code_is_not_the_projects_language() -> None:
    files = [
        ("Cargo.toml", '[package]\nname = "quux"\n'),
        ("src/lib.rs", "pub fn hash() {}\n"),
        ("bindings/python/quux/__init__.py", "from ._ffi import lib\n"),
        ("bindings/python/quux/_ffi.py", "import cffi\n"),
    ]

    assert "Python" not in _facts(files)["language"]


def test_the_projects_own_code_still_speaks_for_it() -> None:
    files = [
        ("pyproject.toml", "x\n"),
        ("app/main.py", "from flask import Flask\n"),  # not a sample: "app" is the project
        ("examples/client.py", "import requests\n"),
    ]

    found = _facts(files, [_run("pytest -q")])

    assert found["framework"] == "Built with Flask."


@pytest.mark.parametrize(
    ("path", "packages", "scope"),
    [
        ("examples/web/main.go", {"examples/web"}, "examples/web"),  # its own module: deeper
        ("examples/basic.exs", set(), "examples"),
        ("docs/site/src/index.ts", {"docs"}, "docs"),
        ("lib/shop/orders.ex", set(), ""),
        ("src/main/java/com/acme/Demo.java", set(), ""),  # a class named Demo is not a folder
    ],
)
def test_code_scope_of_sample_folders(path: str, packages: set[str], scope: str) -> None:
    assert code_scope(path, packages, {"Go", "Elixir", "JavaScript", "Java"}, None) == scope


def test_folder_names_are_whole_parts() -> None:
    assert sample_folder("examples_helper/x.rb") == ""
    assert sample_folder("app/Examples/x.rb") == "app/Examples"
    assert is_test_data("test/fixtures/x.json") and not is_test_data("lib/fixtures.ex")
