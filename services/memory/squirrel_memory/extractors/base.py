"""The extractor contract: one episode in, memory candidates out, failures typed for retry."""

from __future__ import annotations

from typing import Protocol

from squirrel_memory.models import Episode, MemoryCandidate, StoredEvent


class ExtractionError(Exception):
    """Extraction failed. `retryable` says whether trying the same episode later can succeed.

    Retryable failures (rate limits, budget caps, 5xx, connection trouble) are retried with
    backoff; permanent ones (bad request, bad credentials, unusable model output) go straight
    to the dead-letter state. `retry_after` is a hint in seconds when the cause knows one.
    """

    retryable: bool = False

    def __init__(
        self, message: str, *, retry_after: float | None = None, quotes_output: bool = False
    ) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.quotes_output = quotes_output
        """The message quotes what a backend printed (which may echo session text): it is kept
        with the parked episode, never written to the log."""


class RetryableExtractionError(ExtractionError):
    """Extraction may succeed later (rate limit, budget cap, server or network trouble)."""

    retryable = True


class PermanentExtractionError(ExtractionError):
    """Extraction will fail the same way again (bad request, auth, unusable output)."""

    retryable = False


class Extractor(Protocol):
    """Turns one episode and its events into memory candidates (spec §5.1 step 2)."""

    @property
    def name(self) -> str:
        """Short identifier (`rules`, `anthropic`) recorded as the memories' source."""
        ...

    async def extract(self, episode: Episode, events: list[StoredEvent]) -> list[MemoryCandidate]:
        """Candidates for `episode`; `events` are the episode's events, in any order."""
        ...
