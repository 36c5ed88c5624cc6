"""The files a continued conversation's summary lists under its files part are the project's
files for its language; names outside the part, outside a summary, or outside the project are
not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.summary_files import listed_names, summarised_paths
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/tally"

FILES = (
    "   - **lib/tally/rate_limit.ex**\n     - ETS token bucket, see `lib/tally/old.ex`\n"
    "   - `lib/tally_web/plugs/limit_plug.ex` (new)\n"
    "   - **test/tally/rate_limit_test.exs and helpers.exs**\n"
)


def _summary(files: str, heading: str = "3. Files and Code Sections:") -> str:
    return (
        "This session is being continued from a previous conversation that ran out of context. "
        "The conversation is summarized below:\nSummary:\n1. Primary Request and Intent:\n"
        "   - **lib/intent.ex** asked about\n\n"
        f"{heading}\n{files}\n"
        "4. Errors and fixes:\n   - **lib/errors.ex**\n"
    )


def _continued(files: str, heading: str = "3. Files and Code Sections:") -> Session:
    session = Session(ROOT, "s1", T0)
    session.add("compaction_summary", {"text": _summary(files, heading)}, origin="compaction")
    session.say("Continuing.")
    return session


def test_the_names_each_item_of_the_files_part_opens_with_are_read() -> None:
    assert listed_names(_summary(FILES)) == [
        "lib/tally/rate_limit.ex",
        "lib/tally_web/plugs/limit_plug.ex",
        "test/tally/rate_limit_test.exs",
        "helpers.exs",
    ]


def test_a_markdown_files_part_ends_at_the_next_heading_of_its_level() -> None:
    text = _summary(FILES, "## Files and Code Sections").replace("4. Errors", "## Errors")

    assert "lib/errors.ex" not in listed_names(text)
    assert len(listed_names(text)) == 4


def test_paths_inside_the_project_are_made_relative_and_others_left_out() -> None:
    files = (
        f"   - **{ROOT}/lib/tally/rate_limit.ex**\n"
        "   - **/home/dev/other/src/lib.rs**\n"
        "   - **~/src/other/src/main.rs**\n"
    )

    assert summarised_paths(_continued(files).events) == [("lib/tally/rate_limit.ex", "s1_0001")]


@pytest.mark.parametrize("origin", ["typed", "assistant"])
def test_outside_a_summary_nothing_is_read(origin: str) -> None:
    session = Session(ROOT, "s1", T0)
    kind = "user_message" if origin == "typed" else "assistant_response"
    session.add(kind, {"text": _summary(FILES)}, origin=origin)

    assert summarised_paths(session.events) == []


def test_the_rules_extractor_states_the_language_the_listed_files_show() -> None:
    facts = [c for c in _continued(FILES).extracted() if c.key == "language"]

    assert [c.content for c in facts] == [
        "Code in the files a summary of an earlier conversation lists: Elixir (4 files)."
    ]


def test_vendored_files_alone_state_no_language() -> None:
    files = "   - **static/vendor/chart.umd.js**\n   - **node_modules/x/index.js**\n"

    assert [c for c in _continued(files).extracted() if c.key == "language"] == []
