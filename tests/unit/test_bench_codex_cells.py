"""bench/codex_cells.py: the made-up code-mode rollouts give each command, read, patch and
message the table says, and the real peq rollout keeps its four commands."""

from __future__ import annotations

from bench.codex_cells import measure, node_rollout, record_kinds, rust_rollout


def test_the_made_up_rollouts_are_read_completely() -> None:
    rows = {row["rollout"]: row for row in measure()}
    rust = rows["made-up Rust, Desktop 0.153 shape"]
    # git status, the sed reads, the read-and-search line, two loop-built `wc -l`, the PR
    # heredoc (not a test run); the reads: two files, and the one the host says the line read
    assert (rust["command"], rust["test"], rust["read"]) == (6, 1, 3)
    # the bound `tools.apply_patch(patch)` and the shell's `apply_patch <<'PATCH'`
    assert (rust["patch"], rust["change"]) == (2, 2)
    # two commentary messages and the final answer, once though written four times
    assert (rust["prompt"], rust["assistant"]) == (1, 3)
    node = rows["made-up Node, 0.154 shape"]
    assert (node["command"], node["test"], node["read"], node["change"]) == (2, 1, 2, 1)


def test_the_real_code_mode_rollout_keeps_its_commands() -> None:
    peq = next(row for row in measure() if row["rollout"].startswith("peq"))
    assert (peq["command"], peq["cell"]) == (4, 5)


def test_the_made_up_rollouts_have_the_real_record_kinds() -> None:
    rust = record_kinds(rust_rollout().data())
    assert rust["event_msg/item_completed/CommandExecution"] == 8
    assert rust["event_msg/item_completed/AgentMessage"] == rust["response_item/message"] == 3
    assert record_kinds(node_rollout().data())["event_msg/patch_apply_end"] == 1
