"""The coverage-sources bench credits each covered gold item to the rules that wrote the
memories covering it, calls a rule narrow when it covers items in one or two projects, and
says how much coverage rests on narrow rules alone; the unseen splits show counts only."""

from __future__ import annotations

import re

from bench.answer_key_gold import AnswerKey, GoldItem
from bench.answer_key_score import Memory, Verdict
from bench.coverage_sources import (
    Project,
    narrow_items,
    narrow_rules,
    narrow_shares,
    report,
    rule_rows,
)


def _item(item_id: str, kind: str = "recipe", importance: str = "high") -> GoldItem:
    return GoldItem(item_id, importance, kind, "note", ((re.compile(item_id),),))


def _project(name: str, covered: dict[str, str], split: str = "tuning") -> Project:
    """A project whose gold items are the keys of `covered`, each covered by one memory the
    rule it maps to wrote; plus one junk memory of the rule `noisy`."""
    items = (*(_item(i) for i in covered), _item("missed", "pitfall"))
    key = AnswerKey(name, "Go" if name < "m" else "Ruby", items, (), split=split)
    verdicts = [Verdict(Memory("recipe", i, f"{i}."), (i,)) for i in covered]
    verdicts.append(Verdict(Memory("recipe", "x", "x"), (), junk="not a sentence"))
    return Project(key, verdicts, [*covered.values(), "noisy"])


TUNING = [
    _project("alpha", {"a1": "broad", "a2": "one_off"}),
    _project("beta", {"b1": "broad"}),
    _project("omega", {"o1": "broad", "o2": "pair"}),
    _project("pi", {"p1": "pair"}),
]


def test_a_rule_covering_items_in_three_projects_is_broad_and_fewer_narrow() -> None:
    rows = rule_rows(TUNING)

    assert narrow_rules(rows) == {"one_off", "pair"}
    assert (rows["broad"].covered, len(rows["broad"].projects)) == (3, 3)
    assert rows["broad"].languages == {"Go", "Ruby"}
    assert (rows["noisy"].covered, rows["noisy"].junk, rows["noisy"].memories) == (0, 4, 4)


def test_the_share_counts_items_only_narrow_rules_cover() -> None:
    shares = narrow_shares(TUNING, narrow_rules(rule_rows(TUNING)))

    assert (shares["all"].covered, shares["all"].narrow) == (6, 3)
    assert (shares["recipe"].covered, shares["recipe"].narrow) == (6, 3)


def test_an_item_a_broad_rule_also_covers_does_not_rest_on_narrow_rules() -> None:
    both = _project("gamma", {"g1": "pair"})
    both.verdicts.insert(0, Verdict(Memory("recipe", "g1b", "g1 again."), ("g1",)))
    both.rules.insert(0, "broad")

    shares = narrow_shares([*TUNING, both], narrow_rules(rule_rows(TUNING)))

    assert (shares["all"].covered, shares["all"].narrow) == (7, 3)


def test_the_unseen_splits_show_counts_never_names_or_items() -> None:
    fresh = [_project("secretproject", {"hiddenitem": "broad"}, split="fresh")]

    text = report({"tuning": TUNING, "fresh": fresh})

    assert "fresh (pooled): high items covered only by rules narrow on tuning: all 0/1" in text
    assert "secretproject" not in text and "hiddenitem" not in text
    assert "| broad" in text


def test_the_narrow_items_list_names_the_tuning_items_and_their_rules() -> None:
    text = narrow_items(TUNING, narrow_rules(rule_rows(TUNING)))

    assert "a2" in text and "o2" in text and "p1" in text
    assert "a1" not in text and "b1" not in text
