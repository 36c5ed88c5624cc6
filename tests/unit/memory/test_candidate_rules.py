"""Every candidate the rules extractor proposes names the rule that found it (a trace for the
benches, never stored, never part of what makes two candidates the same)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from squirrel_memory.extractors.candidates import candidate, rule_of
from squirrel_memory.extractors.closing_reports import closing_reports
from squirrel_memory.extractors.finder_parts import DIAGNOSED_ROW, problems_and_findings
from squirrel_memory.extractors.finder_rows import Finder, _rule_name, one
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/shop"
GO_FILE = "package api\n\nfunc Serve() {\n\tmu.Lock()\n\tdefer mu.Unlock()\n}\n"
GO_REPORT = (
    "Done. Summary:\n\n"
    "- **Root cause:** `Serve` takes `mu` twice, so the second request blocks forever.\n"
)


def _session() -> Session:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "Why does the server hang?"}, origin="typed")
    session.add("tool_call", {"tool": "Read", "input": {"file_path": f"{ROOT}/api/serve.go"}})
    session.add("tool_result", {"tool": "Read", "output": GO_FILE}, (f"{ROOT}/api/serve.go",))
    session.add("assistant_response", {"text": GO_REPORT})
    session.add("user_message", {"text": "Always run `go test ./...` before committing."})
    return session


def test_a_candidate_names_the_module_that_made_it_unless_told() -> None:
    made = candidate(MemoryType.PITFALL, "k", "text.", tags=(), importance=0.5, event_ids=())
    named = candidate(
        MemoryType.PITFALL, "k", "text.", tags=(), importance=0.5, event_ids=(), rule="mine"
    )

    assert made.rule == "test_candidate_rules"
    assert named.rule == "mine"


def test_the_rule_is_not_part_of_what_makes_two_candidates_the_same() -> None:
    made = candidate(MemoryType.RECIPE, "k", "text.", tags=(), importance=0.5, event_ids=())

    assert replace(made, rule="other") == made
    assert replace(made, content="else.").rule == made.rule


def test_a_finders_row_names_its_rule_also_through_one() -> None:
    row = Finder(closing_reports, MemoryType.PROJECT_FACT, 0.5, lambda _f: ("closing",))
    single = Finder(one(lambda events: None), MemoryType.PROJECT_FACT, 0.5, lambda _f: ())

    found = row(_session().events)

    assert found and {c.rule for c in found} == {"closing_reports"}
    assert single.find.__module__ == __name__


def test_every_candidate_of_the_rules_extractor_names_a_rule() -> None:
    found = _session().extracted()

    assert found
    assert all(c.rule for c in found), [c.key for c in found if not c.rule]
    assert "closing_reports" in {c.rule for c in found}


def test_a_module_of_several_rules_adds_the_family() -> None:
    assert rule_of("squirrel_memory.extractors.facts", "database") == "facts:database"
    assert rule_of("squirrel_memory.extractors.placements") == "placements"


def test_a_row_of_the_parts_module_is_named_for_its_part() -> None:
    assert DIAGNOSED_ROW.rule == "diagnosed_problems"
    assert _rule_name(problems_and_findings) == "finder_parts"
    assert _rule_name(closing_reports) == "closing_reports"
