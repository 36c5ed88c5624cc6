"""A command whose quote is left open (the first line of a here-document or a multi-line
message) keeps the grouping of the quotes before it: its title is one word, never split at
its spaces with the quote marks left in."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.activity import core_tokens
from squirrel_memory.extractors.forge_workflows import forge_workflows
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 7, 1, 9, 0, tzinfo=UTC)
OPEN_PR = (
    'gh pr create --base main --head release/v1.2.0 --title "chore(release): v1.2.0" '
    "--body \"$(cat <<'EOF'\n## Summary\n\n- the parser's fix\nEOF\n)\""
)


@pytest.mark.parametrize(
    ("segment", "tokens"),
    [
        (
            'gh pr create --title "chore(release): v1.2.0" --body "$(cat <<\'EOF\'',
            ["gh", "pr", "create", "--title", "chore(release): v1.2.0", "--body", "$(cat <<'EOF'"],
        ),
        (
            "git commit -m \"fix: don't drop the last field",
            ["git", "commit", "-m", "fix: don't drop the last field"],
        ),
        ('echo "a b" c', ["echo", "a b", "c"]),
    ],
)
def test_an_open_quote_ends_the_words_with_what_it_read(segment: str, tokens: list[str]) -> None:
    assert core_tokens(segment) == tokens


def test_a_pull_request_opened_with_a_here_document_body_shows_one_title() -> None:
    session = Session("/home/dev/shelf", "s1", T0)
    session.run(OPEN_PR, 0, "https://github.com/dev/shelf/pull/12")

    (opened,) = [f for f in forge_workflows(session.events) if f.key == "recipe:forge:open"]
    assert opened.content == (
        'Open pull requests with `gh pr create --base main --head <value> --title "<text>" '
        '--body "<text>"`.'
    )
