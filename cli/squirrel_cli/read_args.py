"""The arguments of `sqrl status`, `context`, `search`, `view` and `memories`, in one place.

Both the commands' own modules and the quick client (`squirrel_cli.quick`) build their parsers
from here, so a command accepts and refuses the same arguments whichever way it runs. Only the
standard library is imported.
"""

from __future__ import annotations

import argparse
from typing import Any, Final

from squirrel_core.budget_limits import MAX_BUDGET_TOKENS, MIN_BUDGET_TOKENS
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.list_pages import list_page_offset
from squirrel_core.read_shapes import (
    MAX_OUTCOME_SESSIONS,
    MAX_PAGE_SIZE,
    MEMORY_SOURCES,
    MEMORY_TYPES,
    OUTCOME_SESSIONS,
    SEARCH_TOP_K_MAX,
)

# A person at a terminal reads more than a model's context should hold: these defaults let a
# typical answer show several items (the MCP tools keep the spec's 400 and 256).
CONTEXT_BUDGET: Final = 800
SEARCH_BUDGET: Final = 800
VIEW_BUDGET: Final = 600
VIEWS: Final = ("style", "brief", "pitfalls")


def add_status(sub: Any) -> argparse.ArgumentParser:
    status: argparse.ArgumentParser = sub.add_parser(
        "status", help="services (pid, port, health, uptime, restarts) and projects"
    )
    status.add_argument("--json", action="store_true")
    status.add_argument(
        "--sessions",
        default=str(OUTCOME_SESSIONS),
        metavar="N",
        help=f"served/used/missed counts over each project's last N served sessions "
        f"(default {OUTCOME_SESSIONS}, at most {MAX_OUTCOME_SESSIONS})",
    )
    return status


def outcome_sessions(args: argparse.Namespace) -> int:
    """`--sessions N` of `sqrl status`: a whole number from 1 to `MAX_OUTCOME_SESSIONS`."""
    text = str(args.sessions).strip()
    if not text.isdigit() or not 1 <= int(text) <= MAX_OUTCOME_SESSIONS:
        raise InvalidArgumentError(
            f"--sessions must be a whole number from 1 to {MAX_OUTCOME_SESSIONS}, not {text!r}"
        )
    return int(text)


def budget(args: argparse.Namespace) -> int:
    """`--budget N`: a whole number of tokens the answer fits in, refused here (naming the flag)
    when no service would take it, before any service is asked."""
    return _within(args.budget, "--budget", MIN_BUDGET_TOKENS, MAX_BUDGET_TOKENS, " tokens")


def top_k(args: argparse.Namespace) -> int:
    """`sqrl search -k N`: results per page."""
    return _within(args.top_k, "-k/--top-k", 1, SEARCH_TOP_K_MAX, " results a page")


def limit(args: argparse.Namespace) -> int:
    """`sqrl memories --limit N`: memories per page."""
    return _within(args.limit, "--limit", 1, MAX_PAGE_SIZE, " memories a page")


#: The longest `--page-token` an error says back (one `sqrl memories` prints is a dozen or so).
MAX_SHOWN_TOKEN: Final = 100


def page_token(args: argparse.Namespace) -> str:
    """`sqrl memories --page-token T`: one a `More:` line printed, refused here (naming the
    flag) when no memory service could have issued it, before any service is asked."""
    token: str = args.page_token
    try:
        list_page_offset(token)
    except ValueError:
        # a paste gone wrong is not printed back whole
        shown = repr(token) if len(token) <= MAX_SHOWN_TOKEN else f"of {len(token):,} characters"
        raise InvalidArgumentError(
            f"--page-token {shown} is not one `sqrl memories` printed; leave it out for the"
            " first page, or pass the one its last `More:` line names"
        ) from None
    return token


def _within(value: int, flag: str, low: int, high: int, unit: str) -> int:
    if not low <= value <= high:
        raise InvalidArgumentError(f"{flag} must be from {low:,} to {high:,}{unit}, not {value}")
    return value


def add_context(sub: Any) -> argparse.ArgumentParser:
    context: argparse.ArgumentParser = sub.add_parser(
        "context", help="the memories relevant to a coding task"
    )
    context.add_argument("task", help="what you are about to do, in a sentence or two")
    context.add_argument("--files", nargs="+", default=[], metavar="PATH", help="active files")
    context.add_argument(
        "--type",
        dest="types",
        action="append",
        choices=MEMORY_TYPES,
        help="prefer these memory types (repeatable; default: all)",
    )
    context.add_argument("--user", default=None, help="whose preferences (default: you)")
    common(context, default_budget=CONTEXT_BUDGET)
    return context


def add_search(sub: Any) -> argparse.ArgumentParser:
    search: argparse.ArgumentParser = sub.add_parser("search", help="search this project's memory")
    search.add_argument("query")
    search.add_argument(
        "--type", dest="types", action="append", choices=MEMORY_TYPES, help="repeatable"
    )
    search.add_argument(
        "-k", "--top-k", type=int, default=5, help=f"results per page (1-{SEARCH_TOP_K_MAX})"
    )
    search.add_argument("--paths", nargs="+", default=[], metavar="PATH", help="bias to paths")
    search.add_argument("--cursor", default=None, help="next_cursor of a previous search")
    common(search, default_budget=SEARCH_BUDGET)
    return search


def add_view(sub: Any) -> argparse.ArgumentParser:
    view: argparse.ArgumentParser = sub.add_parser(
        "view", help="a view: your style, the project brief, or pitfalls"
    )
    view.add_argument("which", choices=VIEWS)
    view.add_argument("--mode", choices=("core", "full"), default="core")
    view.add_argument(
        "--paths", nargs="+", default=[], metavar="PATH", help="pitfalls: scope paths"
    )
    view.add_argument("--task", default=None, help="pitfalls: what you are about to do")
    view.add_argument("--user", default=None, help="style: whose preferences (default: you)")
    common(view, default_budget=VIEW_BUDGET)
    return view


def common(parser: argparse.ArgumentParser, *, default_budget: int) -> None:
    """--budget, --project and --json of the reads through the gateway."""
    parser.add_argument(
        "--budget",
        type=int,
        default=default_budget,
        metavar="N",
        help=f"most tokens of output ({MIN_BUDGET_TOKENS}-{MAX_BUDGET_TOKENS:,}, default"
        f" {default_budget})",
    )
    parser.add_argument(
        "--project", default=".", metavar="PATH", help="a path in the project (default: .)"
    )
    parser.add_argument("--json", action="store_true", help="print the full response as JSON")
    with_local(parser)


def with_local(parser: argparse.ArgumentParser) -> None:
    """--local: on a laptop joined to a team, stay on this laptop's memory."""
    parser.add_argument(
        "--local",
        action="store_true",
        help="on a laptop joined to a team server: this laptop's memory only",
    )


def with_project(parser: argparse.ArgumentParser) -> None:
    """--project and --json of the manual memory commands."""
    parser.add_argument(
        "--project", default=".", help="a path inside the project (default: current directory)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")


def add_memories(sub: Any) -> argparse.ArgumentParser:
    memories: argparse.ArgumentParser = sub.add_parser(
        "memories", help="list this project's memories"
    )
    memories.add_argument(
        "--type", choices=sorted(MEMORY_TYPES), action="append", dest="types", default=[]
    )
    memories.add_argument("--source", choices=sorted(MEMORY_SOURCES), default=None)
    memories.add_argument(
        "--deleted", action="store_true", help="include forgotten/superseded ones"
    )
    memories.add_argument(
        "--limit", type=int, default=50, help=f"memories per page (1-{MAX_PAGE_SIZE})"
    )
    memories.add_argument("--page-token", default="")
    with_project(memories)
    with_local(memories)
    return memories
