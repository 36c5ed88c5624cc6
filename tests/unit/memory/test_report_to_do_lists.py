"""A closing report's list of work still to do is no statement about the code: the items under a
heading or lead line that names it ("**Required changes before implementation:**", "## Remaining
work", "Action items:", "Next steps") and an item opening with a verb of such work ("Complete `x`
or mark it as phase 2", "Document why `y` is 500") are steps; statements beside them stay."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.report_sentences import report_points
from squirrel_memory.extractors.report_statements import statement


def _said(report: str) -> list[str]:
    return [s for _label, sentences in report_points(report) for s in sentences if s]


@pytest.mark.parametrize(
    "lead",
    [
        "**Required changes before implementation:**",
        "## Remaining work",
        "Action items:",
        "**Next steps**",
        "### TODO",
        "Follow-ups:",
        "What's left before merging:",
    ],
)
def test_items_under_a_lead_of_work_to_do_are_steps(lead: str) -> None:
    report = (
        f"{lead}\n\n1. **[api]** `retryQueue` keeps job order\n2. `Store.Compact` holds the lock\n"
    )
    assert _said(report) == []


@pytest.mark.parametrize(
    "lead", ["**Summary:**", "## How it works", "Findings:", "**Layout**", "Key points:"]
)
def test_items_under_another_lead_are_read(lead: str) -> None:
    report = f"{lead}\n\n- `retryQueue` keeps job order in `src/retry.ts`.\n"
    assert _said(report) == ["`retryQueue` keeps job order in `src/retry.ts`."]


def test_a_lead_of_work_to_do_holds_until_the_next_lead() -> None:
    report = (
        "**Next steps:**\n- `Cache::evict` metrics are missing\n\n"
        "**How it works:**\n- `Cache::evict` drops the tail of `LruList`.\n"
    )
    assert _said(report) == ["`Cache::evict` drops the tail of `LruList`."]


@pytest.mark.parametrize(
    "item",
    [
        "Complete `parseRows` logic or mark it as phase 2",
        "Document why `FLUSH_INTERVAL` is `500`",
        "Clarify whether `retryQueue` keeps job order",
        "Decide whether `export_csv` streams or buffers",
        "Verify `Store.Compact` holds the write lock",
        "Finish `export_csv` pagination or defer `page_size`",
    ],
)
def test_an_item_opening_with_a_verb_of_work_to_do_is_no_statement(item: str) -> None:
    assert statement(item, min_spans=1) == ""


@pytest.mark.parametrize(
    "item",
    [
        "`Cache::evict` drops the tail of `LruList`, the least recently used entry",
        "Documents under `docs/` are built by `mkdocs.yml`",
        "Completed jobs move from `queue/` to `done/` in `worker.ts`",
    ],
)
def test_a_statement_opening_with_a_like_word_stays(item: str) -> None:
    assert statement(item, min_spans=1) != ""
