"""Mem0-style update decisions by rules: similarity, refinement and contradiction."""

from __future__ import annotations

import functools
import re
from dataclasses import replace

import structlog

from squirrel_memory.extractors.about import ABOUT_KEY
from squirrel_memory.extractors.evidence import EVIDENCE_TAG
from squirrel_memory.extractors.manifests import known_stack
from squirrel_memory.extractors.reply_language import KEY as REPLY_LANGUAGE_KEY
from squirrel_memory.extractors.reply_language import stated_language
from squirrel_memory.extractors.session_language import KEY as LANGUAGE_KEY
from squirrel_memory.extractors.summaries import SUMMARY_TAG
from squirrel_memory.extractors.toolchain import known_tools
from squirrel_memory.extractors.touched_languages import (
    TOUCHED_TAG,
    is_touched_statement,
    merged_statement,
)
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.updates.similarity import (
    WORD_CACHE_SIZE,
    Similarity,
    content_words,
    similarity,
)

log = structlog.get_logger()

#: A polarity flip is a contradiction only when the statements share this much (polarity
#: words left out), so "never use mocks" does not contradict "always write tests".
NEGATION_OVERLAP = 0.5
#: Contradiction checks read this much of each statement.
MAX_COMPARE_CHARS = 4000
#: Merged statements longer than this give way to the newer statement alone.
MAX_MERGED_CHARS = 600
#: Keys whose content accumulates observations (a project may use several languages and
#: libraries; a pitfall or module gains files): differences refine, never contradict.
ACCUMULATING_PREFIXES = ("pitfall:", "module:", "language", "libraries")
#: A version number ("3.12", "20.11.1", "v2"), masked to compare statements that differ only
#: by it.
_VERSION = re.compile(r"\bv?\d+(?:\.\d+)*\b")
#: Keys whose content is what one file says (a task file's tasks): a later read replaces it.
SNAPSHOT_PREFIXES = ("tasks:",)

_NEGATIONS = frozenset(
    {"never", "not", "no", "don't", "dont", "avoid", "without", "stop", "doesn't", "isn't"}
)
_POLARITY_WORDS = _NEGATIONS | {"always", "do", "does", "prefer", "prefers", "use", "uses"}
#: Where the chosen value ends and the rejected one begins ("X over Y", "X, not Y").
_PREFERRED_SPLIT = re.compile(r",\s*not\b|\b(?:over|instead of|rather than)\b", re.IGNORECASE)
#: Tool names that are also everyday words ("make sure", "go ahead") are not values.
_AMBIGUOUS_NAMES = frozenset({"make", "go", "ty", "express", "click", "requests", "motor", "pg"})
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _build_entities() -> dict[str, str]:
    """Names of values a statement can choose, by category (stack names win over tools)."""
    entities = known_tools()
    entities.update(known_stack())
    return {name: kind for name, kind in entities.items() if name not in _AMBIGUOUS_NAMES}


_ENTITIES = _build_entities()
# One-word names are looked up among a statement's words, names of several words in its text.
_WORD_ENTITIES = {name: kind for name, kind in _ENTITIES.items() if " " not in name}
_PHRASE_ENTITIES = [(name, kind) for name, kind in _ENTITIES.items() if " " in name]


@functools.lru_cache(maxsize=WORD_CACHE_SIZE)
def _chosen(text: str) -> str:
    """The part of a statement before "over", "instead of", "rather than" or ", not",
    lower-cased (what it chooses)."""
    return _PREFERRED_SPLIT.split(text[:MAX_COMPARE_CHARS], maxsplit=1)[0].lower()


def _negative(text: str) -> bool:
    """Whether the statement's chosen part is negated ("never X", "don't X", "avoid X")."""
    chosen = _chosen(text).replace("’", "'")
    return bool(set(re.findall(r"[a-z']+", chosen)) & _NEGATIONS)


def _preferred_entities(text: str) -> dict[str, set[str]]:
    """Known tools/frameworks named as the chosen value, grouped by category."""
    chosen = _chosen(text)
    words = {w.rstrip(".") for w in re.findall(r"[a-z0-9@][a-z0-9_.+#/@-]*", chosen)}
    found: dict[str, set[str]] = {}
    for name in words & _WORD_ENTITIES.keys():
        found.setdefault(_WORD_ENTITIES[name], set()).add(name)
    for name, category in _PHRASE_ENTITIES:
        if name in chosen:
            found.setdefault(category, set()).add(name)
    return found


def contradicts(candidate: str, existing: str) -> bool:
    """True for a negation flip on the same statement, or a different value of the same kind.

    "Always use pytest" vs "Never use pytest" flips; "Uses pytest" vs "Uses unittest" and
    "Prefers uv over pip" vs "Prefers pip over uv" name different values of one category.
    """
    if _negative(candidate) != _negative(existing):
        left = content_words(candidate, _POLARITY_WORDS)
        right = content_words(existing, _POLARITY_WORDS)
        if left and right and len(left & right) / len(left | right) >= NEGATION_OVERLAP:
            return True
    new, old = _preferred_entities(candidate), _preferred_entities(existing)
    return any(new[cat] and old[cat] and not new[cat] & old[cat] for cat in new.keys() & old)


def _merge_listed(existing: str, candidate: str) -> str | None:
    """Merge `Head: a, b.` with `Head: b, c.` into `Head: a, b, c.`; None if not that shape.

    Statements with the same head whose body is not a plain list (parentheses, arrows) are
    replaced by the newer one.
    """
    old_head, sep, old_body = existing.partition(": ")
    new_head, _, new_body = candidate.partition(": ")
    if not sep or old_head != new_head or len(old_head) > 60:
        return None
    if any(mark in body for body in (old_body, new_body) for mark in ("(", "→", ". ")):
        return candidate
    items = [i.strip() for i in f"{old_body.rstrip('.')}, {new_body.rstrip('.')}".split(", ")]
    return f"{old_head}: {', '.join(dict.fromkeys(i for i in items if i))}."


_ASIDE = re.compile(r"\s*\([^()]*\)")
#: Fewest words a sentence keeps outside its parentheses to be recognised as restated.
_MIN_STATED_WORDS = 3


def _restates(sentence: str, other: str) -> bool:
    """Whether two sentences say the same once their parenthesised asides are left out, and
    one of them has an aside (a sentence without any is the same sentence, or another one)."""
    if "(" not in sentence and "(" not in other:
        return False
    bare = " ".join(_ASIDE.sub("", sentence).lower().split()).rstrip(".!?")
    return len(bare.split()) >= _MIN_STATED_WORDS and bare == " ".join(
        _ASIDE.sub("", other).lower().split()
    ).rstrip(".!?")


def merge_contents(existing: str, candidate: str) -> str:
    """One statement keeping what both say.

    `Head: list` statements (as the rules extractor writes them) merge their lists; other
    statements get the candidate's new sentences appended, repeats dropped; a sentence that
    restates one with only another aside in parentheses takes its place. A merge longer
    than `MAX_MERGED_CHARS` gives way to the candidate.
    """
    old_norm, new_norm = " ".join(existing.lower().split()), " ".join(candidate.lower().split())
    if old_norm.rstrip(".") in new_norm:
        return candidate
    listed = _merge_listed(existing, candidate)
    if listed is not None:
        return listed if len(listed) <= MAX_MERGED_CHARS else candidate
    sentences = [s for s in _SENTENCE.split(existing.strip()) if s]
    for sentence in _SENTENCE.split(candidate.strip()):
        if not sentence:
            continue
        # The same statement with another example in parentheses ("Tests live in `test/`
        # (`test/a.py` among them)." then "(`test/b.py` among them)"): the newer one stands.
        same = [i for i, s in enumerate(sentences) if _restates(sentence, s)]
        if same:
            sentences[same[0]] = sentence
        elif not any(similarity(sentence, s).near_duplicate for s in sentences):
            sentences.append(sentence)
    merged = " ".join(s if s.endswith((".", "!", "?")) else s + "." for s in sentences)
    return merged if len(merged) <= MAX_MERGED_CHARS else candidate


def decide_update(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
    """The rule-based decision for `candidate` against memories sharing its anchor.

    In order: the same statement with another version → UPDATE_EXISTING with the candidate's
    words; a contradiction with a same-key memory → DELETE_AND_ADD (NOOP if that memory
    is manual: what the user wrote wins); a near-identical memory of the same type (any key)
    → NOOP; a same-key memory whose words already cover the candidate's → NOOP; a related
    same-key memory → UPDATE_EXISTING with merged content (ADD_NEW if it is manual: manual
    memories are never overwritten); otherwise ADD_NEW. Deleted memories and other types
    are ignored. Contradictions are not looked for under `ACCUMULATING_PREFIXES` keys.
    """
    live = [m for m in existing if not m.deleted and m.type == candidate.type]
    scored = sorted(
        ((similarity(candidate.content, m.content), m) for m in live),
        key=lambda pair: (-pair[0].score, pair[1].id),
    )
    same_key = [(sim, m) for sim, m in scored if m.key == candidate.key]
    restated = (
        _restate(candidate, same_key)
        or _overview(candidate, same_key)
        or _touched_language(candidate, same_key)
        or _reply_language(candidate, same_key)
    )
    if restated is not None:
        return restated
    for sim, item in same_key:
        # The same statement with another version (a raised `requires-python`): the newer.
        if (
            item.source != MemorySource.MANUAL
            and item.content != candidate.content
            and _VERSION.sub("#", item.content) == _VERSION.sub("#", candidate.content)
        ):
            decision = _decision(UpdateAction.UPDATE_EXISTING, candidate, item, sim, "new version")
            return replace(decision, merged_content=candidate.content)
    if not candidate.key.startswith(ACCUMULATING_PREFIXES):
        for sim, item in same_key:
            if contradicts(candidate.content, item.content):
                if item.source == MemorySource.MANUAL:
                    return _decision(
                        UpdateAction.NOOP, candidate, item, sim, "contradicts a manual memory"
                    )
                return _decision(
                    UpdateAction.DELETE_AND_ADD, candidate, item, sim, "contradicts existing"
                )
    for sim, item in scored:
        if sim.near_duplicate:
            return _decision(UpdateAction.NOOP, candidate, item, sim, "near-identical content")
    new_words = content_words(candidate.content)
    for sim, item in same_key:
        if new_words and new_words <= content_words(item.content):
            return _decision(UpdateAction.NOOP, candidate, item, sim, "already covered")
    for sim, item in same_key:
        if sim.related:
            if item.source == MemorySource.MANUAL:
                return _decision(
                    UpdateAction.ADD_NEW, candidate, None, sim, "refines a manual memory"
                )
            decision = _decision(UpdateAction.UPDATE_EXISTING, candidate, item, sim, "refines")
            return replace(decision, merged_content=merge_contents(item.content, candidate.content))
    return UpdateDecision(UpdateAction.ADD_NEW, candidate, reason="no matching memory")


def _restate(
    candidate: MemoryCandidate, same_key: list[tuple[Similarity, MemoryItem]]
) -> UpdateDecision | None:
    """One memory per key for statements that summarise all evidence seen so far (recipes,
    habits and pitfalls weighed across sessions) and for modules: the newer statement replaces
    the stored one (paths and tags are pooled), never a second row. Manual memories stay."""
    if EVIDENCE_TAG not in candidate.tags and not candidate.key.startswith("module:"):
        return None
    automatic = [(sim, m) for sim, m in same_key if m.source != MemorySource.MANUAL]
    if not automatic:
        return None
    sim, item = automatic[0]
    if item.content == candidate.content and set(candidate.file_paths) <= set(item.file_paths):
        return _decision(UpdateAction.NOOP, candidate, item, sim, "same statement")
    decision = _decision(UpdateAction.UPDATE_EXISTING, candidate, item, sim, "restated")
    return replace(decision, merged_content=candidate.content)


def _overview(
    candidate: MemoryCandidate, same_key: list[tuple[Similarity, MemoryItem]]
) -> UpdateDecision | None:
    """One overview of what the project is: the assistant's summary of it is not added beside
    one already kept, and the project's own description (a README, a manifest) replaces a
    summary. Manual memories stay."""
    if candidate.key != ABOUT_KEY:
        return None
    automatic = [(sim, m) for sim, m in same_key if m.source != MemorySource.MANUAL]
    if not automatic:
        return None
    sim, item = automatic[0]
    if SUMMARY_TAG in candidate.tags:
        return _decision(UpdateAction.NOOP, candidate, item, sim, "an overview is kept")
    if SUMMARY_TAG in item.tags:
        decision = _decision(UpdateAction.UPDATE_EXISTING, candidate, item, sim, "described")
        return replace(decision, merged_content=candidate.content, dropped_tags=(SUMMARY_TAG,))
    return None


def _touched_language(
    candidate: MemoryCandidate, same_key: list[tuple[Similarity, MemoryItem]]
) -> UpdateDecision | None:
    """One language statement per project: a root manifest's ("Python project
    (pyproject.toml).") replaces one counted from the files sessions touched, which never
    replaces it; two counted statements become one over both sessions' files. Manual
    memories stay."""
    if candidate.key != LANGUAGE_KEY:
        return None
    automatic = [(sim, m) for sim, m in same_key if m.source != MemorySource.MANUAL]
    if not automatic:
        return None
    sim, item = automatic[0]
    counted, kept = is_touched_statement(candidate.content), is_touched_statement(item.content)
    if counted and not kept:
        return _decision(UpdateAction.NOOP, candidate, item, sim, "a manifest says it")
    if not counted and not kept:
        return None
    if not counted:
        decision = _decision(UpdateAction.UPDATE_EXISTING, candidate, item, sim, "manifest read")
        return replace(decision, merged_content=candidate.content, dropped_tags=(TOUCHED_TAG,))
    content = merged_statement(item.content, candidate.content)
    if content is None or content == item.content:
        return _decision(UpdateAction.NOOP, candidate, item, sim, "no more code counted")
    decision = _decision(UpdateAction.UPDATE_EXISTING, candidate, item, sim, "more code counted")
    return replace(decision, merged_content=content)


def _reply_language(
    candidate: MemoryCandidate, same_key: list[tuple[Similarity, MemoryItem]]
) -> UpdateDecision | None:
    """One statement of the language the user writes in, decided over every session of the
    project (`project_work`): counted again in the same language it replaces the stored
    wording (its importance grows with the sessions), in another language it replaces the
    memory. Manual memories stay."""
    if candidate.key != REPLY_LANGUAGE_KEY:
        return None
    automatic = [(sim, m) for sim, m in same_key if m.source != MemorySource.MANUAL]
    if not automatic:
        return None
    sim, item = automatic[0]
    if item.content == candidate.content and candidate.importance <= item.importance:
        return _decision(UpdateAction.NOOP, candidate, item, sim, "same statement")
    if stated_language(item.content) != stated_language(candidate.content):
        return _decision(UpdateAction.DELETE_AND_ADD, candidate, item, sim, "another language")
    decision = _decision(UpdateAction.UPDATE_EXISTING, candidate, item, sim, "counted again")
    return replace(decision, merged_content=candidate.content)


def says_less(candidate: MemoryCandidate, other: MemoryCandidate) -> bool:
    """Whether `candidate` says less than `other` of the same key, as the rules above weigh
    them: a language counted from touched or listed files says less than a root manifest's,
    and the assistant's summary of the project less than its own description. Two episodes of
    one batch are weighed so too (`candidate_decisions.merge_candidates`): an earlier session's
    listing must not win over a later one's manifest only because it came first."""
    if candidate.key != other.key:
        return False
    if candidate.key == LANGUAGE_KEY:
        return is_touched_statement(candidate.content) and not is_touched_statement(other.content)
    if candidate.key == ABOUT_KEY:
        return SUMMARY_TAG in candidate.tags and SUMMARY_TAG not in other.tags
    return False


#: What a statement turns down: "…, not 2", "instead of tabs", "no longer squash".
_REJECTED = re.compile(
    r"(?:,\s*not|\binstead of|\brather than|\bno longer)\s+(?:the\s+|a\s+|an\s+)?"
    r"(?P<old>[a-z0-9][a-z0-9_.+#/-]*)",
    re.IGNORECASE,
)
#: Share of the earlier instruction's subject words the later one must repeat.
REVERSAL_SUBJECT_SHARE = 0.6


def reverses(later: str, earlier: str) -> bool:
    """Whether a later instruction takes an earlier one back: it turns down, in so many words,
    a value the earlier one states ("from now on indent Lua with 4 spaces, not 2" after
    "Always indent Lua with 2 spaces in this repo"), and repeats most of the earlier one's
    other words (its subject: indent, Lua, spaces), at least two of them. An instruction that
    turns down a value of another subject ("use pytest, not unittest" against "never mock in
    unittest suites") takes nothing back."""
    rejected = {m.group("old").lower().rstrip(".") for m in _REJECTED.finditer(later)}
    earlier_words = content_words(earlier)
    taken_back = rejected & earlier_words
    if not taken_back:
        return False
    subject = {
        w for w in earlier_words - _POLARITY_WORDS - taken_back if not re.fullmatch(r"[\d.]+", w)
    }
    shared = subject & content_words(later)
    return len(shared) >= 2 and len(shared) >= REVERSAL_SUBJECT_SHARE * len(subject)


def replaces(later: MemoryCandidate, earlier: MemoryCandidate) -> bool:
    """Whether a later episode's candidate takes the place of an earlier one's of the same key
    in one batch, as `decide_update` would have it replace the stored memory had the earlier
    episode been processed first: it contradicts it ("Tests are written with Vitest." after
    "… with Jest.": the project moved on) under a key that does not accumulate, or it is a
    later read of the same file (`SNAPSHOT_PREFIXES`), or the same statement with another
    version, and says no less. Without this, a history imported in one pass kept the oldest
    state."""
    if later.key != earlier.key or says_less(later, earlier):
        return False
    if later.key.startswith(SNAPSHOT_PREFIXES):
        return True  # what a file defines, as it was last read
    if later.content != earlier.content and _VERSION.sub("#", later.content) == _VERSION.sub(
        "#", earlier.content
    ):
        return True  # the same statement with another version: a newer one (3.10 -> 3.12)
    return not later.key.startswith(ACCUMULATING_PREFIXES) and contradicts(
        later.content, earlier.content
    )


def _decision(
    action: UpdateAction,
    candidate: MemoryCandidate,
    target: MemoryItem | None,
    sim: Similarity,
    reason: str,
) -> UpdateDecision:
    return UpdateDecision(
        action=action,
        candidate=candidate,
        target_id=target.id if target else None,
        reason=reason,
        extra={"jaccard": sim.jaccard, "edit_ratio": sim.ratio, "decided_by": "rules"},
    )
