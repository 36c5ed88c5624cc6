"""Code spans in a message: a run of backticks closed by the next run of its length."""

from __future__ import annotations

import re
import time

from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.wording import outside_code, plain_apostrophes

_WORD = re.compile(r"x")


def test_code_spans_are_left_as_they_are() -> None:
    text = "x `x` x ``x`x`` x ```x```"
    assert outside_code(text, _WORD, "y") == "y `x` y ``x`x`` y ```x```"


def test_a_message_of_backticks_is_read_in_one_pass() -> None:
    # Each run of backticks was tried at every split: 1,000 of them took ~20 s of CPU time.
    started = time.process_time()
    assert stated_preferences("`" * 4_000, after_assistant_action=True) == []
    assert outside_code("`" * 4_000 + " x", _WORD, "y").endswith(" y")
    assert time.process_time() - started < 1.0  # this process's CPU time, not wall-clock


def test_an_apostrophe_inside_a_word_is_made_plain_outside_code_spans() -> None:
    text = "It\u2019s `don\u2019t` and doesn\u2019t, said \u2018quoted\u2019 here."
    assert plain_apostrophes(text) == "It's `don\u2019t` and doesn't, said \u2018quoted\u2019 here."
