"""The corroboration bench matches a kept statement to the sentence it came from, and counts
each side's picks, hits and items from the labels."""

from __future__ import annotations

from bench.corroborated_facts import Row, same, table
from bench.standing_sentences import STANDING, TASK, UNLABELLED, Sentence


def _sentence(text: str, label: str, items: tuple[str, ...] = ()) -> Sentence:
    return Sentence("first", "s1", text, label, False, items)


def test_a_statement_is_its_sentence_when_the_words_agree() -> None:
    said = "`Load` reads `PORT` and falls back to 8080."
    assert same(said, "`Load` reads `PORT` and falls back to 8080")
    # one cut at a mark the other reader did not cut at
    assert same(said, "`Load` reads `PORT` and falls back to 8080; the rest is prose.")
    assert not same(said, "`Load` reads `HOST` and falls back to 8080.")
    assert not same("Too short.", "Too short.")


def test_the_table_counts_each_side() -> None:
    rows = [
        Row(_sentence("a fact both keep", STANDING, ("i1",)), rules=True, picked=True),
        Row(_sentence("a fact only the rule keeps", STANDING, ("i2",)), rules=False, picked=True),
        Row(_sentence("a wrong one the rules keep", TASK), rules=True, picked=False),
        Row(_sentence("an unlabelled pick", UNLABELLED), rules=False, picked=True),
        Row(_sentence("a fact nobody keeps", STANDING, ("i3",)), rules=False, picked=False),
    ]
    lines = table(rows, items=5, title="t")
    assert lines[0] == "t: 3 of the 5 gold items are stated by some assistant sentence"
    by_side = {line.split("|")[1].strip(): line for line in lines[4:]}
    assert by_side["rules"] == "| rules | 2 | 1 | 1 | 0 | 1/3 |"
    assert by_side["corroborated"] == "| corroborated | 3 | 2 | 0 | 1 | 2/3 |"
    assert by_side["union"] == "| union | 4 | 2 | 1 | 1 | 2/3 |"
    assert by_side["added"] == "| added | 2 | 1 | 0 | 1 | 1/3 |"
