"""One memory per recipe: the sessions' recipe joins the repository's when both name one command.

The repository reader writes `repo:recipe:<purpose>[@<scope>]` (its `path:line` references are
the source of truth); the sessions' evidence writes `recipe:<purpose>[:<scope>]` and the
`test_command` fact. When both name the same command for the same purpose and scope — compared
after the shared normalisation of `squirrel_core.commands` (no runner prefixes, wrappers or
arguments) — the repository's memory is kept and enriched with the sessions' evidence (event
ids, the spellings seen, importance from use) and the session memory is never written, or
retired with a reason when it was written first. When they name different commands both stay,
and the session recipe says that it is what the sessions ran and what the repository names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from squirrel_core.commands import core_tokens
from squirrel_memory.extractors.evidence import command_base
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.storage import Store

#: Purposes a recipe of either source can have (the quality gate and routines are not joined).
PURPOSES = frozenset({"test", "lint", "format", "typecheck", "run", "migrate", "build", "install"})
#: Session facts that only restate a recipe's command, by the recipe slot they restate.
FACT_SLOTS = {"test_command": ("test", "")}
#: The repository reader's key prefix (`repository.wording.KEY_PREFIX`; this module sits below
#: the repository package, which calls it after each reading).
KEY_PREFIX = "repo:"
#: What precedes the sessions' evidence appended to a repository recipe.
SESSION_NOTE = " In sessions: "
_PAGE = 1000
_SPAN = re.compile(r"`([^`\n]+)`")
_SCOPE_HEAD = re.compile(r"^In `[^`]+/`, ")
_SESSION_HEAD = re.compile(r"^(?:In `[^`]+/`, |For the [^,]+ part, )?([^:]+): ")


@dataclass(frozen=True, slots=True)
class Slot:
    """What a recipe is for and where: (`test`, ``) or (`test`, `assets`) or (`test`, `go`)."""

    purpose: str
    scope: str


def slot_of(memory_type: MemoryType | str, key: str) -> Slot | None:
    """The slot of a repository recipe (`repo:recipe:test@assets`), a session recipe
    (`recipe:test:assets`) or a fact restating one (`test_command`); None for anything else."""
    if str(memory_type) == str(MemoryType.PROJECT_FACT) and key in FACT_SLOTS:
        return Slot(*FACT_SLOTS[key])
    if str(memory_type) != str(MemoryType.RECIPE):
        return None
    if key.startswith(KEY_PREFIX + "recipe:"):
        purpose, _, scope = key[len(KEY_PREFIX + "recipe:") :].partition("@")
    elif key.startswith("recipe:"):
        purpose, _, scope = key[len("recipe:") :].partition(":")
    else:
        return None
    return Slot(purpose, scope) if purpose in PURPOSES else None


def is_repository(key: str) -> bool:
    """Whether a key is the repository reader's."""
    return key.startswith(KEY_PREFIX)


def main_command(content: str) -> str:
    """The command a recipe names first (its first inline-code span after the folder it is
    scoped to); "" when none."""
    match = _SPAN.search(_SCOPE_HEAD.sub("", own_text(content), count=1))
    return match.group(1).strip() if match else ""


def command_identity(command: str) -> tuple[str, ...]:
    """A command without runner prefixes, wrappers or arguments: `uv run pytest -x` and
    `pytest tests/` are both (`pytest`,); `mix test --cover` is (`mix`, `test`)."""
    base = command_base(command.strip())
    return tuple(core_tokens(base.split())) if base else ()


def same_command(a: str, b: str) -> bool:
    """Whether two recipe commands are the same command after normalisation."""
    left, right = command_identity(a), command_identity(b)
    return bool(left) and left == right


def own_text(content: str) -> str:
    """A repository recipe's own text, without the sessions' note appended to it."""
    return content.split(SESSION_NOTE, 1)[0]


def session_note(content: str) -> str:
    """The sessions' note appended to a repository recipe ("" when none)."""
    _, sep, note = content.partition(SESSION_NOTE)
    return note if sep else ""


def with_session_note(content: str, note: str) -> str:
    """A repository recipe's own text followed by the sessions' note (replacing an older one)."""
    own = own_text(content).rstrip()
    return f"{own}{SESSION_NOTE}{note}" if note else own


def note_from_session(content: str) -> str:
    """What the sessions saw, from a session recipe's text: "To run the tests: `pytest` (worked
    in 3 sessions)." → "`pytest` (worked in 3 sessions)."."""
    return _SESSION_HEAD.sub("", content, count=1).strip()


def _partner(slot: Slot, repository: Sequence[MemoryItem]) -> MemoryItem | None:
    for item in repository:
        if slot_of(item.type, item.key) == slot and is_repository(item.key):
            return item
    return None


def enrich(repo: MemoryItem, session: MemoryCandidate | MemoryItem) -> UpdateDecision | None:
    """The update that adds a session recipe's evidence to the repository's recipe, or None when
    the repository's memory already says all of it."""
    note = note_from_session(session.content) if session.type == MemoryType.RECIPE else ""
    content = with_session_note(repo.content, note or session_note(repo.content))
    events = tuple(session.source_event_ids)
    if (
        content == repo.content
        and set(events) <= set(repo.source_event_ids)
        and session.importance <= repo.importance
    ):
        return None
    candidate = MemoryCandidate(
        type=MemoryType.RECIPE,
        key=repo.key,
        content=content,
        tags=("sessions",),
        importance=session.importance,
        file_paths=(),
        source_episode_id=getattr(session, "source_episode_id", None),
        source_event_ids=events,
        scope=repo.scope,
        source_refs=repo.source_refs,
        rule="recipe_join",
    )
    reason = "joined the sessions' evidence: they ran the command the repository names"
    return UpdateDecision(UpdateAction.UPDATE_EXISTING, candidate, target_id=repo.id, reason=reason)


def distinguish(session: MemoryCandidate, repo: MemoryItem) -> MemoryCandidate:
    """A session recipe whose command differs from the repository's, worded as what the
    sessions ran beside what the repository names."""
    if session.type != MemoryType.RECIPE:
        return session
    named = main_command(repo.content)
    text = session.content.rstrip(".")
    body = text[:1].lower() + text[1:]
    content = f"In sessions, {body}; the repository names `{named}` instead."
    return replace(session, content=content)


def join_candidates(
    candidates: Sequence[MemoryCandidate], repository: Sequence[MemoryItem]
) -> tuple[list[MemoryCandidate], list[UpdateDecision]]:
    """Session candidates that stay (reworded when the repository names another command) and
    the updates that fold the others into the repository's recipes."""
    kept: list[MemoryCandidate] = []
    updates: dict[str, UpdateDecision] = {}
    for cand in candidates:
        slot = None if is_repository(cand.key) else slot_of(cand.type, cand.key)
        repo = _partner(slot, repository) if slot is not None else None
        if slot is None or repo is None:
            kept.append(cand)
            continue
        if not same_command(main_command(cand.content), main_command(repo.content)):
            kept.append(distinguish(cand, repo))
            continue
        if cand.type != MemoryType.RECIPE:
            continue  # a fact restating the repository's recipe adds nothing to it
        decision = enrich(repo, cand)
        if decision is not None:
            updates[repo.id] = decision
    return kept, list(updates.values())


def duplicates_of(items: Sequence[MemoryItem]) -> list[tuple[MemoryItem, MemoryItem]]:
    """Stored (session memory, recipe) pairs where the session memory says nothing the recipe
    does not: a session recipe beside the repository's recipe for the same slot and command, a
    fact restating the command of either source's recipe. Manual memories are never paired."""
    live = [m for m in items if not m.deleted and m.source is not MemorySource.MANUAL]
    recipes = [m for m in live if m.type == MemoryType.RECIPE and slot_of(m.type, m.key)]
    recipes.sort(key=lambda m: not is_repository(m.key))  # the repository's first
    pairs: list[tuple[MemoryItem, MemoryItem]] = []
    for item in live:
        slot = None if is_repository(item.key) else slot_of(item.type, item.key)
        if slot is None:
            continue
        command = main_command(item.content)
        partner = next(
            (
                r
                for r in recipes
                if r.id != item.id
                and (is_repository(r.key) or item.type == MemoryType.PROJECT_FACT)
                and slot_of(r.type, r.key) == slot
                and same_command(command, main_command(r.content))
            ),
            None,
        )
        if partner is not None:
            pairs.append((item, partner))
    return pairs


async def retire_duplicates(store: Store, *, user_id: str) -> int:
    """Fold stored session recipes (and facts restating them) into the repository's recipe for
    the same command, then retire them with the reason; returns how many were retired. Runs
    after a repository reading (which may come after the sessions were processed) and after
    each processing pass (facts written before a recipe named their command)."""
    items: list[MemoryItem] = []
    for kind in (MemoryType.RECIPE, MemoryType.PROJECT_FACT):
        offset = 0
        while True:
            page, total = await store.list_memories(
                store.project_id, types=[kind], limit=_PAGE, offset=offset
            )
            items.extend(page)
            offset += len(page)
            if not page or offset >= total:
                break
    retired = 0
    for session, recipe in duplicates_of(items):
        if session.type == MemoryType.RECIPE:
            decision = enrich(await store.get_memory(recipe.id), session)
            if decision is not None:
                await store.apply_decision(decision, user_id=user_id, source=MemorySource.RULES)
        whose = "the repository's recipe" if is_repository(recipe.key) else "the recipe"
        command = main_command(recipe.content)
        await store.forget(session.id, f"retired: {whose} ({recipe.key}) names `{command}` too")
        retired += 1
    return retired
