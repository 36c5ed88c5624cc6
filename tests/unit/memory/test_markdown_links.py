"""Markdown links read as their text, by the one pattern every reader of prose shares."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.written_notes import _clean
from squirrel_memory.markdown_links import unlinked


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("See [the runner](https://x.test/a) docs.", "See the runner docs."),
        ("[Rust](https://en.wikipedia.org/wiki/Rust_(language)) is used.", "Rust is used."),
        ("[a](x) and [b](y)", "a and b"),
        ("[not a link] (x)", "[not a link] (x)"),
        ("[half](open", "[half](open"),
    ],
)
def test_a_link_is_read_as_its_text(text: str, plain: str) -> None:
    assert unlinked(text) == plain


def test_a_link_inside_a_code_span_of_a_note_is_kept_as_written() -> None:
    assert _clean("- Write `[x](y)` links; see [the guide](docs/guide.md).") == (
        "Write `[x](y)` links; see the guide."
    )
