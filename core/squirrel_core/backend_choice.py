"""Which model backend writes memories, as the user's settings choose it: read by the memory
service, which builds it, and by `sqrl init` and `sqrl doctor`, which say it."""

from __future__ import annotations

from squirrel_core.settings import Settings


def chosen_backend(settings: Settings) -> str:
    """The backend the user chose: `extractor.backend`, or for `auto` the older
    `processor.extractor` when it names `anthropic`; else `rules`. A key found in the
    environment (or in the config) never chooses a backend by itself: it is only used once
    the user chose the backend it belongs to."""
    backend = settings.str_("extractor.backend")
    if backend != "auto":
        return backend
    return "anthropic" if settings.str_("processor.extractor") == "anthropic" else "rules"
