"""Which projects the foresight replay takes, and which of their sessions may be studied.

The replay is split as the answer key is (`split` in bench/data/answer_key/): the `tuning`
split replays the fixture projects under `<fixtures>/claude` and `<fixtures>/codex` that no key
holds out, and the key's tuning projects whose transcripts are in bench/data/transcripts/ and
hold at least two sessions (a project of one session has nothing to foresee); the `held-out`
split replays the key's held-out projects only, shown as one pooled row. A held-out project's
transcripts are never listed nor read by the tuning split.

Within the tuning split the scored sessions are halved once more, so that a change judged on
what `--details` shows is also judged on sessions it was not shaped on: a fixture project's
session is **studied** when the first hex digit of its id's SHA-256 is even; every other
session (the odd half, and every session of a key's project, which the replay never showed
before) is **unstudied**, shown only as figures, never in `--details`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from bench import fixture_pipeline
from bench.answer_key_gold import AnswerKey, load_keys
from bench.foresight_fixtures import fixture_groups

SPLITS = ("tuning", "held-out")
KEYED = "key:"
"""The name prefix of a project replayed from the answer key's transcripts."""


def studied(project: str, session_id: str) -> bool:
    """Whether a session may be studied: a fixture project's (no `key:` prefix) whose id's
    SHA-256 opens with an even hex digit."""
    if project.startswith(KEYED):
        return False
    digit = hashlib.sha256(session_id.encode("utf-8")).hexdigest()[0]
    return int(digit, 16) % 2 == 0


def keyed_groups(
    keys: Sequence[AnswerKey], split: str, root: Path = fixture_pipeline.PROJECT_TRANSCRIPTS
) -> list[tuple[str, list[Path]]]:
    """(`key:<project>`, transcripts) for each key of `split` whose transcripts are in its own
    folder under `root`; only those folders are listed."""
    groups: list[tuple[str, list[Path]]] = []
    for key in keys:
        folder = root / key.project
        if key.split != split or not folder.is_dir():
            continue
        paths = [p for _, found in fixture_pipeline.fixture_projects(folder) for p in found]
        if paths:
            groups.append((KEYED + key.project, sorted(paths)))
    return groups


def replayed_groups(
    fixtures: Path,
    split: str = "tuning",
    keys: Sequence[AnswerKey] | None = None,
    root: Path = fixture_pipeline.PROJECT_TRANSCRIPTS,
) -> list[tuple[str, list[Path]]]:
    """The projects a split replays: for `tuning`, the fixture projects no key holds out, then
    the key's tuning projects read from `root` (but those the fixtures already hold); for
    `held-out`, the key's held-out projects, from the fixtures or `root`."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}: one of {', '.join(SPLITS)}")
    keys = load_keys() if keys is None else keys
    held_out = {k.project for k in keys if k.split == "held-out"}
    fixtures_held = [
        (n, p) for n, p in fixture_groups(fixtures) if (n.removeprefix("codex:") in held_out)
    ]
    if split == "held-out":
        shown = {n.removeprefix("codex:") for n, _ in fixtures_held}
        rest = keyed_groups(keys, "held-out", root)
        return fixtures_held + [g for g in rest if g[0].removeprefix(KEYED) not in shown]
    own = [(n, p) for n, p in fixture_groups(fixtures) if n.removeprefix("codex:") not in held_out]
    names = {n.removeprefix("codex:") for n, _ in own}
    extra = [g for g in keyed_groups(keys, "tuning", root) if g[0].removeprefix(KEYED) not in names]
    return own + extra
