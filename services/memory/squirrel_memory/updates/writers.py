"""Who may change whose memory: a model's candidate refines a rules memory, never retires it."""

from __future__ import annotations

from squirrel_memory.models import (
    MemoryItem,
    MemorySource,
    UpdateAction,
    UpdateDecision,
    is_model_writer,
)


def spare_rules_memory(decision: UpdateDecision, existing: list[MemoryItem]) -> UpdateDecision:
    """`decision`, except that a model's DELETE_AND_ADD on a memory the rules wrote becomes an
    UPDATE_EXISTING of it with the model's statement: the rules' version stays in the memory's
    history and the memory stays live, so the rules' knowledge is refined, never removed."""
    cand = decision.candidate
    if decision.action is not UpdateAction.DELETE_AND_ADD or not is_model_writer(cand.written_by):
        return decision
    target = next((m for m in existing if m.id == decision.target_id), None)
    if target is None or target.source is not MemorySource.RULES:
        return decision
    return UpdateDecision(
        UpdateAction.UPDATE_EXISTING,
        cand,
        target.id,
        merged_content=cand.content,
        reason=f"refined by {cand.written_by}: {decision.reason}"[:300],
        extra={**decision.extra, "spared": "rules"},
    )
