"""Reading a timestamp as the assistants write it (ISO-8601 text, or unix seconds or
milliseconds) as an aware UTC datetime."""

from __future__ import annotations

from datetime import UTC, datetime


def parse_timestamp(value: object) -> datetime | None:
    """Read an ISO-8601 string or unix seconds/milliseconds as an aware UTC datetime."""
    try:
        if isinstance(value, str):
            text = value.strip()
            if not text or len(text) > 64:
                return None
            parsed = datetime.fromisoformat(text)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            seconds = float(value) / 1000 if abs(value) > 1e11 else float(value)
            parsed = datetime.fromtimestamp(seconds, tz=UTC)
        else:
            return None
    except (ValueError, OverflowError, OSError):
        return None
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=UTC)
    try:
        return parsed.astimezone(UTC)
    except OverflowError:
        return None
