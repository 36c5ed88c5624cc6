"""A module memory says what the module does (its docstring, moduledoc, doc comment or README),
or is not written: never a list of its files. The same rules in every ecosystem."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.facts import project_facts
from squirrel_memory.extractors.modules import file_description, speaks_for_module
from tests.unit.memory.test_session_about import _numbered, _reads

DESCRIBED = [
    ("src/billing/__init__.py", '"""Invoices, credit notes and their PDF rendering."""\n'),
    (
        "lib/birds/sightings.ex",
        'defmodule Birds.Sightings do\n  @moduledoc """\n  Records and queries bird sightings.\n'
        '\n  More detail here.\n  """\nend\n',
    ),
    ("src/tiles/mod.rs", "//! Tile caching and the renderer's tile pyramid.\n\nuse std::io;\n"),
    (
        "internal/links/doc.go",
        "// Package links stores short links and resolves them.\npackage links\n",
    ),
    (
        "src/agents/index.ts",
        "/**\n * Agent plugins: discovery, registration and lifecycle.\n */\nexport * from './x'\n",
    ),
    (
        "src/main/java/com/acme/billing/Billing.java",
        "/** Billing service entry: invoices and payments. */\npackage com.acme.billing;\n",
    ),
]


@pytest.mark.parametrize(("path", "text"), DESCRIBED, ids=[p for p, _ in DESCRIBED])
def test_each_language_states_what_a_file_is(path: str, text: str) -> None:
    found = file_description(path, text)

    assert found is not None and found.endswith(".") and len(found) > 15
    assert "\n" not in found and "More detail" not in found


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("src/a/__init__.py", "from .x import y\n"),
        ("src/a/__init__.py", '"""Copyright 2024 Acme. Licensed under MIT."""\n'),
        ("src/a/__init__.py", 'import os\n"""Not a docstring: after code."""\n'),
        ("lib/a/b.ex", "defmodule A.B do\n  @moduledoc false\nend\n"),
        ("src/a/index.ts", "// eslint-disable\nexport const a = 1\n"),
        ("src/a/index.ts", "/** @jsx h */\nexport const a = 1\n"),
        ("internal/a/a.go", "// nolint\npackage a\n"),
        ("src/a/mod.rs", "use std::io;\n"),
        ("src/a/__init__.py", '"""Short."""\n'),
    ],
)
def test_no_description_where_the_file_says_nothing_of_itself(path: str, text: str) -> None:
    assert file_description(path, text) is None


def test_which_file_speaks_for_its_module() -> None:
    assert speaks_for_module("src/billing/__init__.py", "billing")
    assert speaks_for_module("src/tiles/mod.rs", "tiles")
    assert speaks_for_module("internal/links/store.go", "links")
    assert speaks_for_module("src/duration.rs", "duration")
    assert speaks_for_module("lib/birds/sightings.ex", "sightings")
    assert not speaks_for_module("src/billing/pdf.py", "billing")  # one file of many
    assert not speaks_for_module("src/agents/core/registry.ts", "agents")


def _facts(*files: tuple[str, str]) -> dict[str, str]:
    events = _reads(*((path, _numbered(text)) for path, text in files))
    return {f.key: f.content for f in project_facts(events, [], repository=False)}


def test_a_module_that_says_what_it_does_is_a_fact() -> None:
    found = _facts(
        ("src/billing/__init__.py", '"""Invoices, credit notes and their PDF rendering."""\n'),
        ("src/billing/pdf.py", "def render():\n    pass\n"),
    )

    assert found["module:billing"] == (
        "Module `billing`: Invoices, credit notes and their PDF rendering."
    )


def test_a_module_readme_says_what_it_does() -> None:
    readme = "# Links\n\nShort links: creation, expiry and the redirect handler.\n"
    found = _facts(
        ("internal/links/README.md", readme),
        ("internal/links/store.go", "package links\n"),
        ("internal/links/http.go", "package links\n"),
    )

    assert found["module:links"] == (
        "Module `links`: Short links: creation, expiry and the redirect handler."
    )


def test_a_module_that_says_nothing_of_itself_is_not_written() -> None:
    found = _facts(
        ("src/billing/invoice.py", "def total():\n    pass\n"),
        ("src/billing/pdf.py", "import io\n\ndef render():\n    pass\n"),
    )

    assert not any(key.startswith("module:") for key in found)


def test_without_a_module_doc_its_files_say_what_they_do() -> None:
    found = _facts(
        (
            "src/agents/core/registry.ts",
            "/**\n * Agent Registry\n *\n * Finds agent plugins.\n */\n",
        ),
        ("src/agents/plugins/codex.ts", "import { x } from './y'\n"),
    )

    assert found["module:agents"] == (
        "Module `agents`: `src/agents/core/registry.ts`: Agent Registry: finds agent plugins."
    )


def test_a_partial_read_is_not_taken_for_the_file_top() -> None:
    partial = '    40→"""Not the module docstring."""\n    41→x = 1\n'
    events = _reads(
        ("src/billing/__init__.py", partial), ("src/billing/pdf.py", _numbered("x = 1\n"))
    )

    assert not any(f.key.startswith("module:") for f in project_facts(events, [], repository=False))


def test_a_doc_that_only_restates_the_module_name_says_nothing() -> None:
    from squirrel_memory.extractors.modules import says_more_than  # noqa: PLC0415

    assert not says_more_than("deep_manifest", "Deep manifest module.")
    assert not says_more_than("utils", "Utility functions.")
    assert says_more_than("utils", "Path utilities: resolving the home folder.")
    found = _facts(
        ("src/billing/__init__.py", '"""The billing package module."""\n'),
        ("src/billing/pdf.py", "x = 1\n"),
    )
    assert "module:billing" not in found


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("src/utils/paths.ts", "/**\n * Path Utilities\n *\n * Path operations including:\n"),
        ("lib/cart.rb", "# Cart helpers such as\n# - totals\nclass Cart; end\n"),
        ("src/store.rs", "//! Storage backends for the\n//! - disk\n"),
        ("app/jobs.py", '"""Background jobs, e.g."""\n'),
    ],
)
def test_a_doc_cut_before_the_list_it_introduces_says_nothing(path: str, text: str) -> None:
    assert file_description(path, text) is None


@pytest.mark.parametrize(
    ("path", "text", "said"),
    [
        ("lib/app/cart.ex", '@moduledoc "Totals and taxes for the cart."', "Totals and taxes"),
        ("app/io.py", '"""Reads archives: zip and tar."""\n', "Reads archives: zip and tar."),
    ],
)
def test_a_complete_doc_is_kept(path: str, text: str, said: str) -> None:
    found = file_description(path, text)
    assert found is not None and found.startswith(said)


STAGES = (
    "//! Pipeline-level transform stages. A [`TransformStage`] wraps one of three\n"
    "//! shapes:\n"
    "//!\n"
    "//! - [`TransformStage::Map`] holds an unchanged 1→1 transform.\n"
    "//! - [`TransformStage::Filter`] is a predicate-based stage that drops\n"
    "//!   records.\n"
    "//! - [`TransformStage::PageFn`] is a whole-page closure.\n"
    "\n"
    "use crate::Value;\n"
)


def test_a_doc_that_leads_into_a_list_of_named_points_names_them() -> None:
    assert file_description("crates/core/src/stage.rs", STAGES, 120) == (
        "A `TransformStage` wraps one of three shapes: `Map`, `Filter` and `PageFn`."
    )


@pytest.mark.parametrize(
    "doc",
    [
        # a point of the list is not named in code
        STAGES.replace("[`TransformStage::Filter`] is", "The filter is"),
        # one named point is no list
        "//! A store is one of:\n//!\n//! - [`Store::Sqlite`] keeps rows on disk.\n",
        # the lead-in says nothing of its own
        STAGES.replace("A [`TransformStage`] wraps one of three\n//! shapes:", "It has:"),
    ],
)
def test_no_named_list_when_a_point_is_unnamed_alone_or_the_lead_in_says_nothing(
    doc: str,
) -> None:
    assert file_description("crates/core/src/stage.rs", doc, 120) is None
