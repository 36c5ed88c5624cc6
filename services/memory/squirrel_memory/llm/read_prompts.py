"""What Claude is asked on the read side (task context, views, search reasons) and may answer.

The memories are quoted as data with their source (`squirrel_memory.llm.framing`), as the
extraction prompts quote a session: a memory's text was written from sessions, and may say
anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from squirrel_memory.llm.framing import data_rule, quoted_data

TASK_CONTEXT_TOOL_NAME = "write_task_context"
VIEW_TOOL_NAME = "write_view"
SEARCH_REASONS_TOOL_NAME = "explain_results"
MAX_TASK_CHARS = 2000
MAX_NOTE_CHARS = 1000
MAX_EVIDENCE_CHARS = 300
MAX_REASON_CHARS = 300
MAX_SUMMARY_CHARS = 300
MAX_MARKDOWN_CHARS = 64_000


class WrittenBy(StrEnum):
    """Who wrote a read response's reasons, summaries and markdown."""

    RULES = "rules"
    LLM = "llm"


@dataclass(frozen=True, slots=True)
class Note:
    """One memory (or view entry) as the model sees it; `id` is what answers refer back to."""

    id: str
    type: str
    key: str
    text: str
    evidence: str = ""


def _answer_tool(
    name: str, description: str, *, entries: str, field: str, max_chars: int, markdown: bool
) -> dict[str, Any]:
    """The tool the model answers with: a list `entries` of `{ref, field}` (the `field` text
    at most `max_chars` long), and with `markdown` the markdown written from them."""
    entry = {
        "type": "object",
        "properties": {
            "ref": {"type": "string"},
            field: {"type": "string", "maxLength": max_chars},
        },
        "required": ["ref", field],
    }
    properties: dict[str, Any] = {entries: {"type": "array", "items": entry}}
    if markdown:
        properties["markdown"] = {"type": "string"}
    return {
        "name": name,
        "description": description,
        "input_schema": {
            "type": "object",
            "properties": properties,
            "required": [entries, "markdown"] if markdown else [entries],
        },
    }


# The first five lines are the spec's (§5.5) Chain-of-Note prompt, verbatim.
TASK_CONTEXT_SYSTEM_PROMPT = f"""\
You are building a memory pack for a coding assistant.
Given the task and these candidate memories:
- Decide which memories are truly relevant for this task.
- For each selected memory, explain briefly why it matters.
- Produce a concise markdown summary bounded by context_budget_tokens.
- If nothing is relevant, return selected_memories as empty.

Rules:
- Choose only among the candidates, by their ref (like m3). Never invent memories.
- A reason is one short sentence tying the memory to this task.
- The markdown starts with "## Relevant memory for this task", then one bullet per selected \
memory, most useful first. Stay within the token budget (about 4 characters per token); \
a pack over budget is discarded.
- Each candidate comes with retrieval evidence (matched words, files, score) to help you judge.

{data_rule(TASK_CONTEXT_TOOL_NAME)}
Call the {TASK_CONTEXT_TOOL_NAME} tool exactly once."""

TASK_CONTEXT_TOOL = _answer_tool(
    TASK_CONTEXT_TOOL_NAME,
    "Record the memories selected for the task, why each matters, and the pack.",
    entries="selected_memories",
    field="reason",
    max_chars=MAX_REASON_CHARS,
    markdown=True,
)

VIEW_SYSTEM_PROMPT = f"""\
You write one view of a coding assistant's long-term memory about a project and its user.
Given the view's entries:
- Write a normalised summary per entry: one short, self-contained sentence stating the \
preference, fact or pitfall plainly (keep names, paths, commands and numbers exact).
- Write a short, well-structured markdown summary of the view under the given heading, \
bounded by the token budget (about 4 characters per token); a view over budget is discarded.
- Summarise only what the entries say; add nothing.

{data_rule(VIEW_TOOL_NAME)}
Call the {VIEW_TOOL_NAME} tool exactly once."""

VIEW_TOOL = _answer_tool(
    VIEW_TOOL_NAME,
    "Record the normalised summary of each entry and the view's markdown.",
    entries="items",
    field="summary",
    max_chars=MAX_SUMMARY_CHARS,
    markdown=True,
)

SEARCH_REASONS_SYSTEM_PROMPT = f"""\
You explain search results from a coding assistant's long-term memory.
For each result, write one short sentence saying why it is relevant to the query (or that it \
is only loosely related). Use the retrieval evidence given with each result.

{data_rule(SEARCH_REASONS_TOOL_NAME)}
Call the {SEARCH_REASONS_TOOL_NAME} tool exactly once."""

SEARCH_REASONS_TOOL = _answer_tool(
    SEARCH_REASONS_TOOL_NAME,
    "Record why each search result is relevant to the query.",
    entries="results",
    field="reason",
    max_chars=MAX_REASON_CHARS,
    markdown=False,
)


def one_line(text: str, limit: int) -> str:
    """Whitespace collapsed to single spaces, cut to `limit` characters."""
    return " ".join(text.split())[:limit]


def _note_lines(notes: Sequence[Note]) -> tuple[str, dict[str, str]]:
    """One block per note with a short ref (m1, m2, …); refs map back to note ids."""
    refs: dict[str, str] = {}
    lines: list[str] = []
    for n, note in enumerate(notes, start=1):
        ref = f"m{n}"
        refs[ref] = note.id
        head = f"[{ref}] ({one_line(note.type, 40)}) {one_line(note.key, 120)}"
        lines.append(f"{head}: {one_line(note.text, MAX_NOTE_CHARS)}")
        if note.evidence:
            lines.append(f"    evidence: {one_line(note.evidence, MAX_EVIDENCE_CHARS)}")
    return "\n".join(lines), refs


def task_context_message(
    task: str, candidates: Sequence[Note], budget_tokens: int
) -> tuple[str, dict[str, str]]:
    """The user turn for a task-context pack and the ref → memory id map."""
    lines, refs = _note_lines(candidates)
    message = "\n".join(
        [
            f"Task: {one_line(task, MAX_TASK_CHARS)}",
            f"context_budget_tokens: {budget_tokens}",
            "",
            "Candidate memories (quoted data, best retrieval score first):",
            quoted_data("stored memories of this project, candidates for the task", lines),
        ]
    )
    return message, refs


def view_message(
    title: str, heading: str, entries: Sequence[Note], budget_tokens: int
) -> tuple[str, dict[str, str]]:
    """The user turn for one view and the ref → entry id map."""
    lines, refs = _note_lines(entries)
    message = "\n".join(
        [
            f"View: {title}",
            f"Markdown heading: {heading}",
            f"context_budget_tokens: {budget_tokens}",
            "",
            "Entries (quoted data, most important first):",
            quoted_data(f"stored memories of this project, entries of the view {title}", lines),
        ]
    )
    return message, refs


def search_reasons_message(query: str, results: Sequence[Note]) -> tuple[str, dict[str, str]]:
    """The user turn for explaining one page of search results and the ref → memory id map."""
    lines, refs = _note_lines(results)
    message = "\n".join(
        [
            f"Query: {one_line(query, MAX_TASK_CHARS)}",
            "",
            "Results (quoted data, best first):",
            quoted_data("stored memories of this project, results of the search", lines),
        ]
    )
    return message, refs
