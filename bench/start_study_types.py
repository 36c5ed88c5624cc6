"""The shapes of the session-start study (`bench/start_study.py`): a made-up project's earlier
sessions, and what its later session had to know."""

from __future__ import annotations

from dataclasses import dataclass

from bench.trap_transcripts import Session

__all__ = ["Need", "Project"]


@dataclass(frozen=True)
class Need:
    """One thing a later session may need from memory: a short id and the regexes
    (case-insensitive) one line of a hook's text must all match to give it."""

    id: str
    patterns: tuple[str, ...]


@dataclass(frozen=True)
class Project:
    """A made-up project: its earlier sessions (what is stored), the rare items they leave in
    memory (a release's steps, a one-off pitfall: what a session start leaves out today), the
    later session's first prompt, what that session had to know (`needs`, which may or may not
    name a rare item) and the patterns no line of its hooks may match (`never`, with why)."""

    name: str
    ecosystem: str
    story: str
    earlier: tuple[Session, ...]
    rare: tuple[Need, ...]
    prompt: str
    needs: tuple[Need, ...]
    never: tuple[tuple[str, str], ...] = ()

    @property
    def rare_needed(self) -> tuple[Need, ...]:
        """The rare items the later session had to know."""
        ids = {n.id for n in self.needs}
        return tuple(r for r in self.rare if r.id in ids)

    @property
    def rare_spare(self) -> tuple[Need, ...]:
        """The rare items the later session did not need."""
        ids = {n.id for n in self.needs}
        return tuple(r for r in self.rare if r.id not in ids)
