"""Candidates decided and written outside a pass's own episodes, in one transaction each: the
cross-session finds a drain put off, candidates found outside a pass, a parked episode's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from squirrel_memory.candidate_decisions import decide_candidates
from squirrel_memory.embedding.base import Embedder
from squirrel_memory.models import MemoryCandidate, MemorySource, UpdateDecision
from squirrel_memory.pass_report import Decide, PassReport
from squirrel_memory.project_work import UserFindings
from squirrel_memory.recipe_join import join_candidates, retire_duplicates
from squirrel_memory.repository.sync import repository_memories
from squirrel_memory.storage import Retirement, Store
from squirrel_memory.style_scope import merge_global_style
from squirrel_memory.user_memories.style_owner import owned_styles
from squirrel_memory.user_memories.userstore import UserStore


@dataclass(frozen=True, slots=True)
class PassWrites:
    """The processor's writes of decided candidates, as a pass writes its own.

    `rules_decide` decides the rules' candidates, `meaning` tells an instruction said again in
    other words (`recurrence`), `per_user` is a team server's processor (each user's events
    decided as that user's); a user-wide style is also kept in `user_store`."""

    user_store: UserStore
    rules_decide: Decide
    meaning: Embedder | None
    per_user: bool

    def owner(self, user: str) -> str | None:
        """Whose messages the passes over a user's messages read and whose memories they
        write: `user` on a team server; None on a laptop (every message, project memories)."""
        return user if self.per_user else None

    async def found_work(
        self,
        store: Store,
        user: str,
        owner: str | None,
        found: list[MemoryCandidate],
        findings: UserFindings,
    ) -> PassReport:
        """Put-off cross-session candidates of `user`, joined with the repository's recipes,
        decided and written with what the passes retire, in one transaction; `owner` is the
        team server's user whose style they are (None: the project-wide passes, a laptop)."""
        candidates, joined = join_candidates(
            [*found, *findings.candidates], await repository_memories(store)
        )
        return await self.candidates(
            store, candidates, joined, user=user, owner=owner, retirements=findings.retirements
        )

    async def candidates(
        self,
        store: Store,
        candidates: Sequence[MemoryCandidate],
        joined: Sequence[UpdateDecision],
        *,
        user: str,
        owner: str | None = None,
        retirements: Sequence[Retirement] = (),
    ) -> PassReport:
        """The rules' `candidates` decided against the store, written with the decisions
        already `joined` and with `retirements`; then duplicates left by the write retire."""
        decisions = [
            *joined,
            *await decide_candidates(
                store, candidates, user, self.rules_decide, self.meaning, owner=owner
            ),
        ]
        if not decisions and not retirements:
            return PassReport()
        report = await self.decisions(store, decisions, user, MemorySource.RULES, retirements)
        report.memories_deleted += await retire_duplicates(store, user_id=user)
        return report

    async def found(
        self,
        store: Store,
        found: Sequence[MemoryCandidate],
        user: str,
        decide: Decide,
        source: MemorySource,
    ) -> PassReport:
        """Candidates of a parked episode, decided and written in one transaction under
        `source` (the rules' part as `RULES`, the model's as `LLM`, as a pass writes them)."""
        # `decide_candidates` merges them itself, weighing recurrence by sessions.
        owner = self.owner(user)
        decisions = await decide_candidates(
            store, owned_styles(found, owner), user, decide, self.meaning, owner=owner
        )
        if not decisions:
            return PassReport()
        return await self.decisions(store, decisions, user, source)

    async def decisions(
        self,
        store: Store,
        decisions: list[UpdateDecision],
        user: str,
        source: MemorySource,
        retirements: Sequence[Retirement] = (),
    ) -> PassReport:
        """Decisions outside a pass's own episodes (with what the pass retires), written in one
        transaction under `source`; a user-wide style is also kept in the user store."""
        result = await store.apply_processing_result(
            [], decisions, [], user_id=user, source=source, retirements=retirements
        )
        await merge_global_style(self.user_store, decisions, user, store.project_id)
        return PassReport(
            memories_added=len(result.change.added),
            memories_updated=len(result.change.updated),
            memories_deleted=len(result.change.deleted),
        )
