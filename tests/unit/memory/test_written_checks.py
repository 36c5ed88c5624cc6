"""The checks a description the assistant wrote (a pull request's, a commit's) lists as passing
become a recipe when the session never ran them; a plan, a failure, a command the session ran and
a description written in another checkout say nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.written_checks import written_checks
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 11, 9, 0, tzinfo=UTC)
RUST = "/home/dev/toolbox"
PYTHON = "/home/dev/ledger"

RUST_BODY = """python3 - <<'PY'
from pathlib import Path
Path('/tmp/toolbox-pr.md').write_text('''Adds a credential helper for git.

## Validation

- `task lint-fix` (passed)
- `cargo test --locked credential` (passed)
- Credential tests cover the host check and missing tokens.
''')
PY"""

PYTHON_BODY = """## Summary
Rounds totals to cents before they are stored.

## Test plan
- [x] `uv run pytest tests/test_totals.py`
- [x] `uv run ruff check .`
- [ ] `uv run pytest -m slow` on the staging database
"""


def _session(root: str) -> Session:
    session = Session(root, "s1", T0)
    session.user("make a pr for this")
    return session


def _found(session: Session) -> str | None:
    found = written_checks(session.events)
    return None if found is None else found.content


def test_a_heredoc_description_in_a_rust_project_gives_its_passing_checks() -> None:
    session = _session(RUST)
    session.run(RUST_BODY, 0, "")
    session.run("gh pr create --body-file /tmp/toolbox-pr.md", 0, "https://example.test/pr/7")
    assert _found(session) == (
        "The description the assistant wrote for its change lists as passing: to run the"
        " tests, `cargo test --locked credential`; to lint, `task lint-fix`."
    )


def test_a_written_description_in_a_python_project_gives_its_ticked_checks() -> None:
    session = _session(PYTHON)
    session.add(
        "tool_call",
        {"tool": "Write", "input": {"file_path": "/tmp/pr-body.md", "content": PYTHON_BODY}},
    )
    found = _found(session)
    assert found == (
        "The description the assistant wrote for its change lists as passing: to run the"
        " tests, `uv run pytest tests/test_totals.py`; to lint, `uv run ruff check .`."
    )
    assert "-m slow" not in found  # an unticked box is a plan


def test_the_rules_extractor_keeps_it_as_a_recipe() -> None:
    session = _session(RUST)
    session.run(RUST_BODY, 0, "")
    kept = [c for c in session.extracted() if c.key == "recipe:described_checks"]
    assert [c.type for c in kept] == [MemoryType.RECIPE]
    assert "`cargo test --locked credential`" in kept[0].content


@pytest.mark.parametrize(
    "body",
    [
        # a plan: nothing ticked, nothing said to pass
        "## Test plan\n- [ ] `uv run pytest`\n- [ ] `uv run ruff check .`\n",
        # a failure
        "## Validation\n- `cargo test --locked` (failed: two tests time out)\n",
        # no checks heading: a summary that names a command in passing
        "## Summary\nThe `cargo test --locked` run passed after the fix.\n",
        # a check named without saying it passed
        "## Testing\n- `uv run pytest`\n",
        # a path of one machine
        "## Validation\n- `/home/dev/bin/pytest tests` (passed)\n",
        # another place named in the section
        "## Validation\n- `make test` in ../engine (passed)\n",
    ],
)
def test_a_plan_a_failure_or_an_unsaid_outcome_gives_nothing(body: str) -> None:
    session = _session(PYTHON)
    session.add(
        "tool_call", {"tool": "Write", "input": {"file_path": "/tmp/pr.md", "content": body}}
    )
    assert _found(session) is None


def test_a_command_the_session_ran_is_left_to_its_own_runs() -> None:
    session = _session(RUST)
    session.run("cargo test --locked credential", 101, "test result: FAILED")
    session.run("task lint-fix", 0, "")
    session.run(RUST_BODY, 0, "")
    assert _found(session) is None


def test_a_description_written_in_another_checkout_gives_nothing() -> None:
    session = _session(RUST)
    session.run(RUST_BODY, 0, "", cwd="/home/dev/other-project")
    assert _found(session) is None
    elsewhere = _session(PYTHON)
    elsewhere.add(
        "tool_call",
        {
            "tool": "Write",
            "input": {"file_path": "/home/dev/other/PR.md", "content": PYTHON_BODY},
        },
    )
    assert _found(elsewhere) is None


def test_the_user_typed_command_and_a_subagents_write_say_nothing() -> None:
    session = _session(PYTHON)
    session.add(
        "tool_call",
        {"tool": "Write", "input": {"file_path": "/tmp/pr.md", "content": PYTHON_BODY}},
        sidechain=True,
    )
    assert _found(session) is None
