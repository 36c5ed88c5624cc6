"""Two wordings of one instruction told from two instructions: whether the user said the same
thing again in other words.

The same instruction comes back in other words more often than in the same ones ("keep going
until all tasks are done", "don't stop after one task, carry on until every task is done"):
two instructions whose content words mostly overlap (`same_instruction`) are one instruction,
whatever their keys (`recurrence` then files the later one under the earlier one's key).

A standing rule kept in the user's own words (`standing_words`, another language than
English) has a key made of its words, so the same rule in other words has another key: two
such rules are compared by their words as a tentative one is. Two standing rules in other
words are one rule too, said again (its importance grows with the sessions), when one's
telling words are all in the other's ("Always run the tests before committing." / "Run the
test suite before every commit."): a telling word of each side the other lacks ("Run `cargo
test` …" / "Run `cargo clippy` …") keeps them apart, whatever the vectors say
(`same_standing_rule`). A rule that bans and one that asks ("Always use tabs." / "Never use
tabs."), or two choices of different sides ("use pnpm, not npm" / "use npm, not pnpm"), are
never one instruction.

Word overlap misses wordings that share a word or two ("run the linter before you commit" /
"lint before every commit"). With a `Likeness` (the cosine of two texts' sentence vectors,
`instruction_meaning`), two wordings are also one instruction when their meanings are close
(`MEANING_THRESHOLD`) and word overlap still agrees in part (a telling word shared, and a
lower share of the words): the vectors alone rank "run the tests before you commit" and
"commit the test fixtures too" closer than many true paraphrases, so they never decide alone.

Many rules keep an instruction in the user's own words behind a lead of their own ("Something
the user asked not to be done, said by the user in Portuguese: “Não mexe no layout.”"). Two
such memories share every word of the lead, so they are compared by the words the user said
(`said_part`). Two wordings that are one form filled with two things, the same words but in one
place where each has a word or two of its own ("Não mexe no pagamento." / "Não mexe no layout.",
"Run the tests before you commit." / "Run the tests before you push."), are two instructions
(`said_requests.slot_apart`), in any language, whatever share of their words they have in
common.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from squirrel_memory.extractors.instruction_words import instruction_words, telling_words
from squirrel_memory.extractors.rule_sides import FIGURE, opposite_choices, opposite_rules
from squirrel_memory.extractors.said_requests import slot_apart, words_of

#: Two instructions are the same when at least this many content words are shared and they
#: make up this share of the shorter one's words.
MIN_SHARED_WORDS = 2
MIN_SHARED_SHARE = 0.6
#: Two wordings whose sentence vectors are at least this close (cosine, all-MiniLM-L6-v2) are
#: one instruction when word overlap agrees in part: a telling word shared, and at least
#: `MEANING_SHARED_SHARE` of the shorter one's words (and `MEANING_TELLING_SHARE` of its
#: telling words). Measured on the rules' wordings (tests/integration/test_habit_meaning.py):
#: paraphrases the words alone miss score 0.75-0.86 ("Ask me before deleting files." / "Check
#: with me before you delete any file."), look-alikes that pass the word guard 0.29-0.63 ("Run
#: the linter …" / "Run the formatter …"); "Lint before you commit." is missed (0.68). In French
#: or German the model scores one habit in other words no higher than another habit.
MEANING_THRESHOLD = 0.7
MEANING_SHARED_SHARE = 0.4
MEANING_TELLING_SHARE = 0.5
#: A memory that ends with the user's words quoted after its lead ("…, in their words: “…”.").
_QUOTED_TAIL = re.compile(r"\A[^“”]{1,200}:\s*“([^“”]+)”[\s.]*\Z")
Likeness = Callable[[str, str], float | None]
"""How close two instructions' meanings are (cosine of their sentence vectors), None when a
text has no vector (the model was not loaded): then word overlap decides alone."""


def said_part(text: str) -> str:
    """What an instruction's memory says the user said: the quote it ends with after a lead of
    the rule's own ("…, said by the user in French: “…”."), else the whole text."""
    quoted = _QUOTED_TAIL.match(text)
    return quoted.group(1) if quoted else text


def same_instruction(first: str, second: str, likeness: Likeness | None = None) -> bool:
    """Whether two instructions say the same thing in other words: most of the shorter one's
    content words (stemmed, without the words of firmness and filler) are in the other, and
    so are most of the words that tell instructions apart (not only "run" or "add"). With a
    `likeness`, also when their meanings are close and some of those words are shared (see
    `MEANING_THRESHOLD`). Memories that quote the user are compared by the quote
    (`said_part`); one form filled with two things is never one instruction."""
    first, second = said_part(first), said_part(second)
    if slot_apart(words_of(first), words_of(second), open_end=True):
        return False
    a, b = instruction_words(first), instruction_words(second)
    ta, tb = telling_words(a), telling_words(b)
    if not (a and b and ta and tb and ta & tb):
        return False
    shared = len(a & b) / min(len(a), len(b))
    telling = len(ta & tb) / min(len(ta), len(tb))
    if (
        len(a & b) >= MIN_SHARED_WORDS
        and shared >= MIN_SHARED_SHARE
        and telling >= MIN_SHARED_SHARE
    ):
        return not opposite_choices(first, second)
    if likeness is None or shared < MEANING_SHARED_SHARE or telling < MEANING_TELLING_SHARE:
        return False
    close = likeness(first, second)
    return close is not None and close >= MEANING_THRESHOLD and not opposite_choices(first, second)


def same_standing_rule(first: str, second: str) -> bool:
    """Whether two standing rules say the same thing in other words: one instruction by
    `same_instruction`'s words, and one's telling words all in the other's ("Run the tests
    before committing." / "Run the test suite before every commit."), and most of the longer
    one's words shared, so that a detail only one of each says ("Run `cargo test` …" / "Run
    `cargo clippy` …") or a figure ("2 spaces" / "4 spaces") keeps them apart; never a rule
    that bans and one that asks, nor two choices of different sides (`opposite_rules`)."""
    first, second = said_part(first), said_part(second)
    a, b = instruction_words(first), instruction_words(second)
    ta, tb = telling_words(a), telling_words(b)
    return (
        bool(ta and tb)
        and (ta <= tb or tb <= ta)
        # most of the longer one's words too: a short rule is no part of a long quote
        and len(a & b) >= MIN_SHARED_SHARE * max(len(a), len(b))
        # "indent with 2 spaces" / "indent with 4 spaces, not 2": the figures tell them apart
        and set(FIGURE.findall(first)) == set(FIGURE.findall(second))
        and not opposite_rules(first, second)
        and same_instruction(first, second)
    )
