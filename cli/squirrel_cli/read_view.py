"""How `sqrl search`, `sqrl context`, `sqrl view` and `sqrl memories` print their answer.

The answer is the plain data of `squirrel_core.read_shapes`, whichever way it was fetched (the
gateway's loopback HTTP routes, or gRPC), so both ways print the same. Only the standard library
is imported here (rich only when a table or markdown is drawn on a terminal, by `Console`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from squirrel_cli.console import Console


def print_context(output: dict[str, Any], console: Console) -> None:
    if "json" in output:
        console.json(output["json"])
    else:
        console.markdown(str(output["markdown"]))


def print_view(output: dict[str, Any], console: Console) -> None:
    """`sqrl view`: the view's markdown, or its JSON (`read_shapes.view_output`)."""
    print_context(output, console)


def print_search(query: str, output: dict[str, Any], console: Console) -> None:
    if "json" in output:
        console.json(output["json"])
        return
    rows: list[list[str]] = output["rows"]
    if not rows:
        console.line("No relevant memory found for this query.")
    else:
        console.table(
            f"Memory search: {' '.join(query.split())}",
            ["score", "type", "memory", "content", "why"],
            rows,
            whole=("memory",),
        )
    console.line(str(output["budget_line"]))
    if output["next_cursor"]:
        console.line(f"More: sqrl search {quoted(query)} --cursor {output['next_cursor']}")


def quoted(text: str) -> str:
    """`text` as one shell word."""
    return "'" + text.replace("'", "'\\''") + "'"


def flag_cell(row: dict[str, Any]) -> str:
    """The flags column: empty for an ordinary memory, the hazards and whether confirmed."""
    if not row["flags"]:
        return ""
    from squirrel_core.hazards import describe  # noqa: PLC0415 - only for a flagged memory

    state = "confirmed" if row["confirmed"] else "not injected until `sqrl confirm`"
    return f"⚠ {describe(row['flags'])} ({state})"


def _source_cell(row: dict[str, Any]) -> str:
    """Who wrote a memory and where it was read, with how many teammates remembered it."""
    from squirrel_core.read_shapes import writers_note  # noqa: PLC0415

    note = writers_note(row.get("writers") or [])
    cell = " ".join([row["written_by"], *row["source_refs"][:2]])
    return f"{cell} ({note})" if note else cell


def print_memories(
    project: str,
    output: dict[str, Any],
    console: Console,
    *,
    as_json: bool,
    where: str | None = None,
) -> None:
    """`where` "team": the gateway listed the team project's memories, as the header says."""
    if as_json:
        console.json(output)
        return
    rows: list[dict[str, Any]] = output["memories"]
    flagged = any(r["flags"] for r in rows)
    shown = f"{len(rows)} of {output['total']}"
    if where == "team":
        shown += "; `--local` lists this laptop's"
    on = " on the team server" if where == "team" else ""
    console.table(
        f"Memories of {project}{on} ({shown})",
        ["id", "type", "key", "content", "source", "imp.", *(["flags"] if flagged else [])],
        [
            [
                r.get("handle") or r["memory_id"],
                r["type"],
                r["key"],
                ("⚠ " if r["flags"] else "") + r["content"][:100],
                _source_cell(r),
                f"{r['importance']:.2f}",
                *([flag_cell(r)] if flagged else []),
            ]
            for r in rows
        ],
        whole=("id",),
    )
    if output["next_page_token"]:
        console.line(f"More: sqrl memories --page-token {output['next_page_token']}")
