"""Which memory `sqrl status` answers from (its own, or a team server, and which) and, on a
laptop sharing with a team server, what it has still to deliver there: events waiting or
rejected, remembers queued, and what it keeps while the server refuses its token. A team
server's own projects are listed from its memory service's counts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from squirrel_core.home import HomeLayout
from squirrel_core.outbox_count import queued_remembers
from squirrel_core.service_info import pid_alive, read_service_info
from squirrel_core.team_refusal import token_refused

if TYPE_CHECKING:
    from squirrel_core.settings import Settings


def team_rows(counts: dict[str, dict[str, Any]], local: set[str]) -> list[dict[str, Any]]:
    """A team server's projects (its memory service counts them; they have no local root)."""
    return [
        {"project": project, "initialised": True, "team": True, "store": None, "notice": None}
        | counted
        for project, counted in sorted(counts.items())
        if project not in local
    ]


def team_delivery(projects: list[dict[str, Any]]) -> dict[str, Any]:
    """What a laptop has still to deliver to its team server, and the last failure."""
    count = sum(int(p.get("team_events_waiting") or 0) for p in projects)
    error = next((p["team_delivery_error"] for p in projects if p.get("team_delivery_error")), None)
    note = f"; {count:,} events waiting to be delivered" if count else "; all events delivered"
    if error:
        note += f" (last attempt: {error})"
    rejected = sum(int(p.get("team_events_rejected") or 0) for p in projects)
    reason = next(
        (p["team_rejected_reason"] for p in projects if p.get("team_rejected_reason")), None
    )
    if rejected:
        note += rejected_note(rejected, reason)
    return {
        "events_waiting": count,
        "delivery_error": error,
        "events_rejected": rejected,
        "text_delivery": note,
    }


def rejected_note(count: int, reason: str | None) -> str:
    """Events the team server rejected, in a few words: they reached local memory only."""
    why = f" ({reason})" if reason else ""
    if reason == "timestamp_out_of_range":
        why = (
            " (their times are over a day ahead of the server's clock: is this laptop's clock"
            " right?)"
        )
    return (
        f"; {count:,} event{'s' * (count != 1)} the team server rejected{why}, kept in local"
        " memory only"
    )


def outbox_note(memory: dict[str, Any]) -> str:
    """The remembers still queued for the team server, in a few words (nothing when none)."""
    queued = memory.get("remembers_queued")
    if queued is None:
        return "; the queue of remembers for the team server could not be read"
    if not queued:
        return ""
    return f"; {queued:,} remember{'s' * (queued != 1)} queued for the team server"


def kept_while_refused(server: str, events: int | None, remembers: int | None) -> str:
    """What a laptop whose token the team server refused keeps, and what to do, in a few words
    (`events` None: not counted now)."""
    kept = []
    if events is None:
        kept.append("its undelivered events")
    elif events:
        kept.append(f"{events:,} event{'s' * (events != 1)} to deliver")
    if remembers:
        kept.append(f"{remembers:,} remember{'s' * (remembers != 1)} queued")
    held = " and ".join(kept) if kept else "what it learns"
    return (
        f"{held} kept on this laptop, nothing dropped; sent once a new token is saved: ask your"
        f" admin for one, then `sqrl team join {server} < new.token` (no restart)"
    )


def memory_in_use(settings: Settings) -> dict[str, Any]:
    """Which memory this home answers from: its own, or a team server (and which)."""
    server = settings.str_("team.server").strip()
    serving = settings.str_("serve.address").strip()
    if server:
        layout = HomeLayout(settings.home)
        has_token = layout.team_token.is_file()
        note = "" if has_token else " — no token: run `sqrl team join`"
        queued = queued_remembers(layout.team_outbox)
        refused = has_token and token_refused(layout.team_refused, layout.team_token)
        text = (
            f"team server {server} refused this laptop's token (revoked or unknown);"
            " local memory only"
            if refused
            else f"team server {server} (local memory while it is unreachable){note}"
        )
        return {
            "mode": "team",
            "server": server,
            "token": has_token,
            "token_refused": refused,
            "remembers_queued": queued,
            "text": text,
        }
    layout = HomeLayout(settings.home)
    # `sqrl serve --address …` sets no setting: the memory service's listener says it once it
    # serves, `sqrl serve`'s own record while that service starts (opens or migrates its store).
    for record in (layout.team_server_file, layout.serve_file):
        listening = read_service_info(record)
        if listening is not None and pid_alive(listening.pid):
            serving = f"{listening.host}:{listening.port}"
            break
    if serving:
        return {"mode": "team-server", "server": serving, "text": f"serving a team on {serving}"}
    return {"mode": "local", "server": None, "text": "local (this machine only)"}
