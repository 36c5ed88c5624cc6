"""structlog set up once per process: JSON lines to stderr (stdout may be an MCP wire)."""

from __future__ import annotations

import logging
import sys
from typing import Any

import structlog

_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}


def configure_logging(process: str, level: str = "info", *, json: bool | None = None) -> None:
    """JSON to stderr when it is not a terminal (or when `json` says so), console otherwise."""
    as_json = (not sys.stderr.isatty()) if json is None else json
    numeric = _LEVELS.get(level.lower(), logging.INFO)
    processors: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.format_exc_info,
    ]
    renderer: Any = (
        structlog.processors.JSONRenderer()
        if as_json
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[*processors, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.WriteLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )
    structlog.contextvars.bind_contextvars(process=process)
    # Keep third-party stdlib loggers quiet and off stdout.
    logging.basicConfig(stream=sys.stderr, level=max(numeric, logging.WARNING))
