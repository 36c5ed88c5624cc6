"""Commands that only report state (`docker ps`, `kubectl get`, `gh pr checks`, `terraform
plan`, a health URL's `curl`, a dry run): never the fix of a failure they sat between, and no
step of a routine the user asked for."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from squirrel_memory.extractors.asked_routines import asked_routines
from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.extractors.evidence.state_looks import only_reports
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session, scripted_session

ROOT = "/home/dev/orders"
T0 = datetime(2026, 6, 1, tzinfo=UTC)
REFUSED = "Error: connect ECONNREFUSED 127.0.0.1:5432"


@pytest.mark.parametrize(
    ("program", "words"),
    [
        ("docker", ["ps"]),
        ("kubectl", ["get", "pods", "-n", "payments"]),
        ("gh", ["pr", "checks", "57"]),
        ("terraform", ["plan", "-lock=false"]),
        ("systemctl", ["status", "nginx"]),
        ("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "localhost:8000/health"]),
        ("curl", ["-sf", "https://staging.example.test/healthz"]),
        ("wget", ["-qO-", "localhost:8080/ready"]),
        ("pip", ["install", "--dry-run", "-r", "requirements.txt"]),
    ],
)
def test_a_command_that_only_reports_state(program: str, words: list[str]) -> None:
    assert only_reports(program, words)


@pytest.mark.parametrize(
    ("program", "words"),
    [
        ("docker", ["start", "orders-db"]),
        ("docker", ["compose", "up", "-d", "db"]),
        ("kubectl", ["rollout", "undo", "deploy/payments"]),
        ("systemctl", ["restart", "nginx"]),
        ("curl", ["-X", "POST", "localhost:8000/admin/reset"]),
        ("curl", ["-fsSL", "https://example.test/tool.tgz", "-o", "tool.tgz"]),
        ("wget", ["https://example.test/tool.tgz"]),
        ("npm", ["install"]),
    ],
)
def test_a_command_that_changes_something_is_no_look(program: str, words: list[str]) -> None:
    assert not only_reports(program, words)


def _pitfalls(steps: Sequence[tuple[str, Any]]) -> list[str]:
    events = scripted_session(ROOT, T0, "s", steps)
    return [c.content for c in evidence_candidates(events) if c.type == MemoryType.PITFALL]


@pytest.mark.parametrize(
    "look",
    [
        "docker ps",
        "curl -s -o /dev/null -w '%{http_code}' localhost:8000/health",
        "terraform plan -lock=false",
        "kubectl get pods -n orders",
    ],
)
def test_a_look_between_a_failure_and_its_pass_fixed_nothing(look: str) -> None:
    pitfalls = _pitfalls(
        [
            ("run", ("npm test", 1, REFUSED)),
            ("run", (look, 0, "")),
            ("run", ("npm test", 0, "Tests: 9 passed, 9 total")),
        ]
    )
    assert not any(f"`{look}`" in p for p in pitfalls)


def test_a_setup_step_between_a_failure_and_its_pass_is_still_the_fix() -> None:
    (pitfall,) = _pitfalls(
        [
            ("run", ("npm test", 1, REFUSED)),
            ("run", ("docker start orders-db", 0, "orders-db")),
            ("run", ("npm test", 0, "Tests: 9 passed, 9 total")),
        ]
    )
    assert "`docker start orders-db`" in pitfall


def _routines(session: Session) -> dict[str, str]:
    return {c.key: c.content for c in asked_routines(session.events)}


def test_a_look_run_when_the_tests_were_asked_for_is_no_routine() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Run the tests.")
    session.run("npm test", 1, REFUSED)
    session.run("docker ps", 0, "CONTAINER ID   IMAGE\n")
    session.say("No database container is running.")
    assert _routines(session) == {}


def test_a_turn_whose_own_test_run_passed_is_still_the_routine() -> None:
    session = Session(ROOT, "s1", T0)
    session.user("Run the tests.")
    session.run("docker ps", 0, "CONTAINER ID   IMAGE\n")
    session.run("npm run build", 0, "built")
    session.run("npm test", 0, "Tests: 9 passed, 9 total")
    session.say("All pass.")
    assert _routines(session) == {"recipe:asked:test": "To run the tests (as asked): `npm test`."}


@pytest.mark.parametrize(
    ("program", "words", "looks"),
    [
        ("python", ["-c", "import ssl; print(ssl.OPENSSL_VERSION)"], True),
        ("node", ["-p", "process.versions.openssl"], True),
        ("ruby", ["-e", "puts RUBY_VERSION"], True),
        ("cargo", ["tree", "-i", "openssl-sys"], True),
        ("npm", ["ls", "react"], True),
        ("python3", ["-c", "import quuxtool; quuxtool.tidy()"], False),
        ("node", ["-e", 'require("fs").writeFileSync("a", "b")'], False),
        ("python", ["manage.py", "migrate"], False),
    ],
)
def test_a_one_liner_that_only_prints_and_a_graph_query_are_looks(
    program: str, words: list[str], looks: bool
) -> None:
    assert only_reports(program, words) is looks
