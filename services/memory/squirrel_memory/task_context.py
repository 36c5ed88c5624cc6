"""Task context (spec §5.5): the memories relevant to one coding task, explained, or abstention.

Candidates are the top ~20 memories by the spec's score over the preferred types. A candidate is
selected when its fused relevance to the task clears `min_relevance` (calibrated on labelled
queries by `bench/retrieval_quality.py`), when one of its files is an active file, or when its
key names a subject of the task (`recipe:test` or `test_command` for "add an endpoint and its
tests", `module:billing` for "fix the billing export": the key says what a memory is about, and
a task that names that subject needs it, however little else of its wording matches; a key
part that is a phrase cut from the memory's text, `pref:simplest_reuse_existing`, names a
subject only where the text says the task's word too: `task_subjects`). Words
every request uses ("add", "new", "fix", "update" — `retrieval.GENERIC_WORDS`) are never a
subject, and a memory that shares only such words with the task counts as relevant only when
its meaning (its cosine) clears the threshold by itself; reasons name the other words. So are
the words most of the project's memories hold (`retrieval.common_words`: "ocean", "log" and
"py" in a project called ocean-sound-log), and the extensions of the file names the task gives
(`retrieval.extension_words`: `py` in "look at renderer.py"), the folders its paths go
through (`retrieval.folder_words`: `src`, `app` in "see src/app/renderer.py") and the words of
the project's own folder name (`retrieval.project_words`: "claude" and "log" picked pitfalls
for prompts of the foresight replay that were about something else) and the name of a subagent
the task is handed to (`retrieval.addressee_words`: "solution", "architect", "agent" in
'@"solution-architect (agent)" analyze the CLI commands'), neither a subject nor a
reason; nor are the words a memory holds only in its framing ("The user corrected the
assistant", "Found in a session", "Closing report": `retrieval.framing`). With
vectors, one telling word shared also needs the memory's meaning close to the task's, or the
word to name a file both give (`retrieval.task_relevance`); a phrase key's word other than its
head needs the same closeness to name a subject. When
nothing clears it the answer abstains: `has_relevant_memory = False`, no memories and the fixed
markdown `ABSTAIN_MARKDOWN`.

Standing coding-style preferences: when something relevant was found and `user_style` is a
preferred type, up to `style_supplement` of the most important standing user-style memories
(importance at least `style_min_importance`; one-off instructions still waiting for a repeat are
left out) are added after the relevant ones, because how this user writes code applies to any
code change; the budget then cuts from the end. They are never added on their own, so an
off-topic task still abstains.

With an `LlmWriter` (an Anthropic key configured), Claude writes the pack whenever the rules
found something relevant (spec §5.5 step 2): it chooses among the candidates (ids it invents are
ignored), writes each reason and the markdown. Its markdown is kept only when its estimate fits
the budget, otherwise its selection is rendered here (whole memories only); when it selects
nothing the answer abstains. On any failure of the call the rules' pack stands. Memory content
is always the stored content. `written_by` says which of the two wrote the answer.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

import structlog

from squirrel_core.budget import longest_cut
from squirrel_core.budget_limits import validate_budget
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.style_supplement import STYLE_REASON as _STANDING
from squirrel_core.tokens import estimate_tokens
from squirrel_memory.llm.read_prompts import Note, WrittenBy
from squirrel_memory.loaded_sources import checked_files, only_from
from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.promotion import is_tentative
from squirrel_memory.retrieval import (
    MAX_QUERY_CHARS,
    RELEVANT_LEXICAL_ONLY,
    RELEVANT_WITH_VECTORS,
    Retriever,
    ScoredMemory,
    addressee_words,
    explain,
    extension_words,
    file_names,
    folder_words,
    project_words,
    query_terms,
)
from squirrel_memory.retrieval.common_words import common_of, rarest_first
from squirrel_memory.retrieval.task_relevance import close_in_meaning, relevant, touches_active
from squirrel_memory.storage.checks import Clock, utc_now
from squirrel_memory.task_subjects import names_subject, subject_stem
from squirrel_memory.user_memories.confirmations import Injectable, unflagged

if TYPE_CHECKING:
    from squirrel_memory.llm.read_writer import LlmWriter

log = structlog.get_logger()

ABSTAIN_MARKDOWN = "No relevant long-term memory found for this task."
HEADER = "## Relevant memory for this task"
DEFAULT_BUDGET_TOKENS = 400
DEFAULT_TYPES: tuple[MemoryType, ...] = (
    MemoryType.USER_STYLE,
    MemoryType.PROJECT_FACT,
    MemoryType.PITFALL,
    MemoryType.RECIPE,
)
TOO_SMALL_MARKDOWN = "Relevant memory exists; raise context_budget_tokens to see it."
STYLE_REASON = _STANDING
"""A standing preference's reason (`squirrel_core.style_supplement`)."""


@dataclass(frozen=True, slots=True)
class TaskContextSettings:
    """Selection knobs. The thresholds are calibrated by `bench/retrieval_quality.py`:
    `min_relevance` applies when vectors were used (hybrid: abstention accuracy 1.00, 0.98
    cross-validated), `min_relevance_lexical` while the model loads (BM25 only: 0.98)."""

    candidates: int = 20
    min_relevance: float = RELEVANT_WITH_VECTORS
    min_relevance_lexical: float = RELEVANT_LEXICAL_ONLY
    style_supplement: int = 5
    style_min_importance: float = 0.7

    def __post_init__(self) -> None:
        if not 1 <= self.candidates <= 200:
            raise ValueError("candidates must be in [1, 200]")
        for value in (self.min_relevance, self.min_relevance_lexical, self.style_min_importance):
            if not (math.isfinite(value) and 0 <= value <= 1):
                raise ValueError("thresholds must be in [0, 1]")
        if self.style_supplement < 0:
            raise ValueError("style_supplement must be non-negative")


@dataclass(frozen=True, slots=True)
class SelectedMemory:
    """A memory chosen for the task and why it matters (spec §5.5)."""

    memory_id: str
    type: MemoryType
    key: str
    content: str
    importance: float
    reason: str
    score: float
    source_refs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TaskContext:
    """The spec's `TaskContext`; `selected_memories` holds what `markdown` shows."""

    project_id: str
    user_id: str | None
    task_description: str
    generated_at: datetime
    token_estimate: int
    has_relevant_memory: bool
    selected_memories: tuple[SelectedMemory, ...]
    markdown: str
    budget_tokens: int
    items_total: int
    capped: bool
    type: str = "task_context"
    written_by: WrittenBy = WrittenBy.RULES


class TaskContextBuilder:
    """Builds task context from a project's `Retriever`."""

    def __init__(
        self,
        retriever: Retriever,
        *,
        settings: TaskContextSettings | None = None,
        clock: Clock = utc_now,
        writer: LlmWriter | None = None,
        injectable: Injectable = unflagged,
    ) -> None:
        self._retriever = retriever
        self.settings = settings or TaskContextSettings()
        self._clock = clock
        self._writer = writer
        self._injectable = injectable

    async def candidates(
        self,
        project_id: str,
        task_description: str,
        *,
        active_file_paths: Sequence[str] = (),
        preferred_memory_types: Sequence[MemoryType] | None = None,
        omit_sources_in: Sequence[str] = (),
    ) -> tuple[list[ScoredMemory], list[ScoredMemory]]:
        """(selected, candidates): the top candidates by score, and those relevant enough;
        never a memory read only from `omit_sources_in`."""
        types = list(preferred_memory_types) if preferred_memory_types else list(DEFAULT_TYPES)
        terms = query_terms(task_description)
        subjects = frozenset(subject_stem(w) for w in terms)

        def names_task_subject(item: MemoryItem) -> bool:
            return names_subject(item, terms, subjects)

        (ranked, vector_used), shares = await asyncio.gather(
            self._retriever.rank(
                project_id,
                task_description,
                types=types,
                active_paths=active_file_paths,
                include_path_matches=True,
                limit=self.settings.candidates,
                keep=names_task_subject,
            ),
            self._retriever.term_shares(project_id, task_description, types),
        )
        # The words most memories hold, the extensions of the file names the task gives (`py`
        # in "look at renderer.py") and the folders its paths go through (`src`, `app` in
        # "see src/app/renderer.py"), neither select a memory nor explain why it is; a reason
        # names the words few memories hold first.
        common = (
            common_of(shares)
            | extension_words(task_description)
            | folder_words(task_description)
            | project_words(project_id)
            | addressee_words(task_description)
        )
        if common or shares:
            order = rarest_first(shares) if shares else ()
            ranked = [replace(s, common_terms=common, term_order=order) for s in ranked]
        if common:
            terms = tuple(w for w in terms if w not in common)
            subjects = frozenset(subject_stem(w) for w in terms)
        allowed = {m.id for m in self._injectable([s.item for s in ranked])}
        omitted = checked_files(omit_sources_in)
        ranked = [s for s in ranked if s.item.id in allowed and not only_from(s.item, omitted)]
        threshold = (
            self.settings.min_relevance if vector_used else self.settings.min_relevance_lexical
        )
        named = file_names(task_description)
        selected = [
            s
            for s in ranked
            if relevant(s, threshold, vector_used, named)
            or touches_active(s)
            or names_subject(s.item, terms, subjects, close=close_in_meaning(s, vector_used))
        ]
        return selected, ranked

    async def build(
        self,
        project_id: str,
        task_description: str,
        *,
        user_id: str | None = None,
        active_file_paths: Sequence[str] = (),
        context_budget_tokens: int | None = None,
        preferred_memory_types: Sequence[MemoryType] | None = None,
        omit_sources_in: Sequence[str] = (),
    ) -> TaskContext:
        """The task context for `task_description`, within `context_budget_tokens` (default 400);
        memories read only from `omit_sources_in` (the instruction files the asking host loads
        itself, such as `CLAUDE.md` for Claude Code) are never selected."""
        if not isinstance(task_description, str) or not task_description.strip():
            raise InvalidArgumentError("task_description must be a non-empty string")
        task = task_description.strip()[:MAX_QUERY_CHARS]
        budget = validate_budget(context_budget_tokens, DEFAULT_BUDGET_TOKENS)
        types = set(preferred_memory_types or DEFAULT_TYPES)
        # The style memories that may round the pack off are read beside the ranking.
        styles = (
            asyncio.create_task(self._retriever.style_memories(project_id))
            if MemoryType.USER_STYLE in types and self.settings.style_supplement
            else None
        )
        try:
            selected, ranked = await self.candidates(
                project_id,
                task,
                active_file_paths=active_file_paths,
                preferred_memory_types=preferred_memory_types,
                omit_sources_in=omit_sources_in,
            )
            chosen = [_selected(s) for s in selected]
            if chosen and styles is not None:
                taken = {c.memory_id for c in chosen}
                omitted = checked_files(omit_sources_in)
                own = [m for m in await styles if not only_from(m, omitted)]
                chosen.extend(self._style_supplement(own, taken))
        finally:
            if styles is not None and not styles.done():
                styles.cancel()
            elif styles is not None and not styles.cancelled():
                styles.exception()  # retrieved, if the ranking failed first
        written_by = WrittenBy.RULES
        written = await self._written(task, ranked, chosen, budget) if chosen else None
        if written is None:
            shown, markdown = _render(chosen, budget)
        else:
            chosen, shown, markdown = written
            written_by = WrittenBy.LLM
        log.info(
            "task_context_built",
            project_id=project_id,
            candidates=len(ranked),
            selected=len(chosen),
            shown=len(shown),
            abstained=not chosen,
            written_by=str(written_by),
        )
        return TaskContext(
            project_id=project_id,
            user_id=user_id,
            task_description=task,
            generated_at=self._clock(),
            token_estimate=estimate_tokens(markdown),
            has_relevant_memory=bool(chosen),
            selected_memories=tuple(shown),
            markdown=markdown,
            budget_tokens=budget,
            items_total=len(chosen),
            capped=len(shown) < len(chosen),
            written_by=written_by,
        )

    async def _written(
        self,
        task: str,
        ranked: list[ScoredMemory],
        chosen: list[SelectedMemory],
        budget: int,
    ) -> tuple[list[SelectedMemory], list[SelectedMemory], str] | None:
        """(selected, shown, markdown) as Claude wrote them, or None to keep the rules' pack."""
        if self._writer is None:
            return None
        pool = {s.item.id: _selected(s) for s in ranked}
        for memory in chosen:
            pool.setdefault(memory.memory_id, memory)
        preselected = {m.memory_id for m in chosen}
        notes = [
            Note(
                id=m.memory_id,
                type=str(m.type),
                key=m.key,
                text=m.content,
                evidence=f"{m.reason} Score {m.score:.2f}"
                + ("; above the relevance threshold." if m.memory_id in preselected else "."),
            )
            for m in pool.values()
        ]
        draft = await self._writer.task_context(task, notes, budget)
        if draft is None:
            return None
        reasons = dict(draft.selected)
        selection = [
            replace(memory, reason=reasons[memory_id] or memory.reason)
            for memory_id, memory in pool.items()
            if memory_id in reasons
        ]
        if not selection:
            return [], [], ABSTAIN_MARKDOWN
        if draft.markdown and estimate_tokens(draft.markdown) <= budget:
            return selection, selection, draft.markdown
        shown, markdown = _render(selection, budget)
        return selection, shown, markdown

    def _style_supplement(
        self, styles: Sequence[MemoryItem], taken: set[str]
    ) -> list[SelectedMemory]:
        items = self._injectable(styles)
        extra: list[SelectedMemory] = []
        for item in items:
            if len(extra) >= self.settings.style_supplement:
                break
            if item.id in taken or item.importance < self.settings.style_min_importance:
                continue
            if is_tentative(item.tags):
                continue
            extra.append(
                SelectedMemory(
                    memory_id=item.id,
                    type=item.type,
                    key=item.key,
                    content=item.content,
                    importance=item.importance,
                    reason=STYLE_REASON,
                    score=0.0,
                    source_refs=item.source_refs,
                )
            )
        return extra


def _selected(scored: ScoredMemory) -> SelectedMemory:
    return SelectedMemory(
        memory_id=scored.item.id,
        type=scored.item.type,
        key=scored.item.key,
        content=scored.item.content,
        importance=scored.item.importance,
        reason=explain(scored, subject="the task"),
        score=round(scored.score.total, 4),
        source_refs=scored.item.source_refs,
    )


def _line(memory: SelectedMemory) -> str:
    content = " ".join(memory.content.split())
    reason = " ".join(memory.reason.split())
    return f"- [{memory.type}] {content} — why: {reason}"


def _render(chosen: list[SelectedMemory], budget: int) -> tuple[list[SelectedMemory], str]:
    """Whole memories in order while the markdown's estimate stays within `budget`."""
    if not chosen:
        return [], ABSTAIN_MARKDOWN
    lines = [HEADER, ""]
    shown: list[SelectedMemory] = []
    for memory in chosen:
        candidate = "\n".join([*lines, _line(memory)])
        if estimate_tokens(candidate) > budget:
            break
        lines.append(_line(memory))
        shown.append(memory)
    if not shown:  # a budget shapes the answer, never blanks it: the best one, shortened
        head = "\n".join(lines)
        cut = longest_cut(
            _line(chosen[0]), lambda piece: estimate_tokens(f"{head}\n{piece}") <= budget
        )
        if cut is None:
            return [], f"{HEADER}\n\n{TOO_SMALL_MARKDOWN}"
        return chosen[:1], f"{head}\n{cut}"
    return shown, "\n".join(lines)
