"""Where the project is deployed and what its tests are written with, from session files."""

from __future__ import annotations

from pathlib import Path

import pytest

from squirrel_memory.extractors.facts import project_facts
from squirrel_memory.repository import read_repository, repository_candidates
from tests.gitrepos import git, make_repo
from tests.unit.memory.test_session_about import _event, _numbered, _reads


def _facts(*files: tuple[str, str]) -> dict[str, str]:
    return {f.key: f.content for f in project_facts(_reads(*files), [])}


@pytest.mark.parametrize(
    ("path", "platform"),
    [("vercel.json", "Vercel"), ("fly.toml", "Fly.io"), ("netlify.toml", "Netlify")],
)
def test_a_root_deploy_config_touched_in_a_session_names_the_platform(
    path: str, platform: str
) -> None:
    found = _facts((path, _numbered('{"redirects": []}')))
    assert found["deploy"] == f"The project is hosted and deployed on {platform} ({path})."


@pytest.mark.parametrize("path", ["examples/vercel.json", "node_modules/x/fly.toml", "app.yaml"])
def test_no_deploy_fact_from_nested_or_ambiguous_files(path: str) -> None:
    assert "deploy" not in _facts((path, _numbered("{}")))


@pytest.mark.parametrize(
    ("path", "code", "framework"),
    [
        ("tests/cli.test.ts", "import { describe, it, expect } from 'vitest';\n", "Vitest"),
        ("test/app.spec.js", "const { test } = require('@playwright/test');\n", "Playwright"),
        ("tests/test_app.py", "import pytest\n\ndef test_x():\n    assert True\n", "pytest"),
    ],
)
def test_a_test_framework_imported_in_code_is_a_fact(path: str, code: str, framework: str) -> None:
    assert _facts((path, _numbered(code)))["testing"] == f"Tests are written with {framework}."


def test_mock_helpers_are_not_a_test_framework() -> None:
    code = "from unittest.mock import patch\nimport json\n"
    assert "testing" not in _facts(("tests/test_app.py", _numbered(code)))


def test_a_failed_read_names_nothing() -> None:
    events = [_event("tool_result", {"tool": "Read", "output": "import vitest", "is_error": True})]
    assert project_facts(events, []) == []


def test_the_repository_reader_names_the_deploy_platform(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo")
    (root / "fly.toml").write_text('app = "heron"\nprimary_region = "ams"\n')
    (root / "nested").mkdir()
    (root / "nested" / "vercel.json").write_text("{}\n")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "Deploy on Fly")
    found = {c.key: c for c in repository_candidates(read_repository(root))}
    deploy = found["repo:deploy"]
    assert deploy.content == "The project is hosted and deployed on Fly.io (fly.toml)."
    assert deploy.source_refs == ("fly.toml:1",)
