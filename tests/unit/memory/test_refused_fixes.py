"""A call the host or the user refused never ran: no later step is its fix.

Made-up projects in several ecosystems: a refused call followed by a setup step and a try that
reaches another target (no fix is claimed, the refusal is kept as what it was), the same call
run another way with its targets kept (that way is the fix), and an ordinary failure whose
setup step still fixes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.models import MemoryCandidate, MemoryType
from tests.unit.memory.session_builder import command_runs
from tests.unit.memory.test_rules_extractor import Stream

T0 = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
_POLICY = (
    "Permission for this action was denied by the Claude Code auto mode classifier. "
    "Reason: [Production Reads]. If you have other tasks that don't depend on this action, "
    "continue working on those."
)
_FOLDER = (
    "cd to '/tmp' was blocked. For security, Claude Code may only change directories to child "
    "directories of the allowed working directories for this session."
)
_DECLINED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file)."
)


def _pitfalls(root: str, runs: Sequence[tuple[str, int, str]]) -> list[MemoryCandidate]:
    found = evidence_candidates(command_runs(root, runs, T0))
    return [c for c in found if c.type == MemoryType.PITFALL]


def test_a_policy_refusal_is_not_fixed_by_a_setup_step_or_another_request() -> None:
    node = _pitfalls(
        "/w/shop",
        [
            ("curl -s https://prod.shop.example/rest/v1/orders -H 'apikey: $SERVICE'", 1, _POLICY),
            ("pnpm db:migrate", 0, "Applied 1 migration"),
            ("curl -s https://test.shop.example/rest/v1/orders -H 'apikey: $ANON'", 0, "[]"),
        ],
    )
    python = _pitfalls(
        "/w/ledger",
        [
            ("curl -s https://prod.ledger.example/api/accounts", 1, _POLICY),
            ("uv sync", 0, "Resolved 12 packages"),
            ("curl -s http://localhost:8000/api/accounts", 0, "[]"),
        ],
    )
    for found, setup in ((node, "pnpm db:migrate"), (python, "uv sync")):
        (refusal,) = found
        assert "Production Reads" in refusal.content
        assert setup not in refusal.content
        assert "re-running" not in refusal.content
        assert "fixed it" not in refusal.content
        assert refusal.content.endswith(
            "the host refused it, so it never ran, and no way past it was seen."
        )


def test_a_refused_call_run_another_way_with_its_targets_kept_is_fixed_by_that_way() -> None:
    go = _pitfalls(
        "/w/relay",
        [
            ("cd /tmp && wget https://dl.example/relay.tar.gz", 1, _FOLDER),
            ("go build ./...", 0, ""),
            ("wget -P /tmp https://dl.example/relay.tar.gz", 0, "saved"),
        ],
    )
    (refusal,) = go
    assert "go build" not in refusal.content
    # the run that worked left the refused `cd` out: the same line with `-P` added would not
    assert "running `wget -P /tmp https://dl.example/relay.tar.gz` without the `cd` worked" in (
        refusal.content
    )
    assert "added worked" not in refusal.content


def test_a_refused_line_of_several_commands_is_named_whole() -> None:
    # the host judged the whole line (its merge), not the read at its end
    merge = "gh pr checks 30 | cut -f1,2; gh pr merge 30 --squash; gh pr view 30 --json state"
    found = _pitfalls("/w/relay", [(merge, 1, _POLICY.replace("Production Reads", "Merge"))])
    (refusal,) = found
    assert refusal.content.startswith("`gh pr checks 30 | cut -f1,2; gh pr merge 30 --squash")
    assert not refusal.content.startswith("`gh pr view")


def test_an_ordinary_failure_of_a_line_of_several_commands_names_the_one_that_failed() -> None:
    found = _pitfalls(
        "/w/ledger",
        [
            ("uv sync; uv run pytest", 1, "E   ModuleNotFoundError: No module named 'httpx'"),
            ("uv add httpx", 0, "Resolved 12 packages"),
            ("uv run pytest", 0, "5 passed"),
        ],
    )
    (module,) = found
    assert module.content.startswith("`uv run pytest` failed")


def test_a_call_the_user_declined_once_is_no_pitfall_and_names_no_fix() -> None:
    rust = _pitfalls(
        "/w/tiles",
        [
            ("cargo publish", 1, _DECLINED),
            ("cargo build --release", 0, "Finished"),
            ("cargo publish --dry-run", 0, "Uploading tiles"),
        ],
    )
    assert not any("cargo build" in c.content for c in rust)


def test_an_ordinary_failure_is_still_fixed_by_the_setup_step_between() -> None:
    python = _pitfalls(
        "/w/ledger",
        [
            ("uv run pytest", 1, "E   ModuleNotFoundError: No module named 'httpx'"),
            ("uv add httpx", 0, "Resolved 12 packages"),
            ("uv run pytest", 0, "5 passed"),
        ],
    )
    (module,) = python
    assert module.content.endswith("running `uv add httpx` first fixed it.")


def test_a_reply_after_a_refused_call_gives_it_no_cause() -> None:
    # the host's reason is in the output; the reply after it speaks of the review going on
    stream = Stream()
    stream.user("review the open pull requests")
    stream.run("gh pr checks 30", 1, _POLICY)
    stream.say(
        "The rule check can be skipped because the edit's path is compared with the session's "
        "directory without resolving the symlink."
    )
    (refusal,) = [c for c in evidence_candidates(stream.events) if c.type is MemoryType.PITFALL]

    assert "Production Reads" in refusal.content
    assert "symlink" not in refusal.content
    assert refusal.content.endswith(
        "the host refused it, so it never ran, and no way past it was seen."
    )
