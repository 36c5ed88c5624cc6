"""Whether a ranked memory is relevant to a task: by its words, its meaning and its files.

A memory is relevant when its fused relevance clears the calibrated threshold, and what lifted
it says what the task is about. Words every request uses ("add", "new", "fix" …) say nothing:
a memory that shares only such words with the task is judged on its meaning alone, its cosine
clearing the threshold by itself. With vectors, one telling word shared is not enough on its own
either: a short prompt shares one word with a memory about something else ("urls" of a docs
build and of a server's trailing slash, "agent" in a project about agents), and BM25 alone lifts
it over the threshold. Such a memory is relevant when its meaning is close to the task's too
(`MEANING_SIMILARITY`, the bar from which a reason says "close in meaning"), or when the word
is the name of a file both give (`renderer` of `renderer.py` in a pasted diff and in a recipe's
example). While the model loads (BM25 alone, a higher threshold) meaning cannot be told, and the
words decide as before.
"""

from __future__ import annotations

from squirrel_memory.retrieval import (
    MENTION_SIMILARITY,
    ScoredMemory,
    file_name_words,
    file_names,
)

MEANING_SIMILARITY = MENTION_SIMILARITY
"""The rescaled cosine to the task a memory sharing one telling word with it needs when vectors
were used (0.25: a raw cosine of about 0.44 with the shipped embedder and floor)."""


def close_in_meaning(scored: ScoredMemory, vector_used: bool) -> bool:
    """Whether the memory's meaning is close to the task's (always, when no vectors were used:
    then nothing can tell)."""
    return not vector_used or scored.vector >= MEANING_SIMILARITY


def relevant(
    scored: ScoredMemory,
    threshold: float,
    vector_used: bool,
    task_files: frozenset[str] = frozenset(),
) -> bool:
    """Relevant enough to the task whose text names the files `task_files` (`file_names`)."""
    if scored.relevance < threshold:
        return False
    if scored.matched_terms and not scored.meaningful_terms:
        return vector_used and scored.vector >= threshold
    telling = scored.deciding_terms
    if len(telling) == 1 and not close_in_meaning(scored, vector_used):
        return names_a_file_of(telling[0], scored.item.content, task_files)
    return True


def names_a_file_of(word: str, content: str, task_files: frozenset[str]) -> bool:
    """Whether `word` is said by the name of a file both the task (`task_files`) and the
    memory's text give."""
    if not task_files:
        return False
    shared = task_files & file_names(content)
    return any(word in file_name_words(name) for name in shared)


def touches_active(scored: ScoredMemory) -> bool:
    """Whether one of the memory's files is a file the task is working on."""
    return scored.score.path_match >= 1.0
