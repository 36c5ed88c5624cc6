"""Session-start texts kept on disk: what `sqrl hook` prints when the gateway cannot answer in time.

Right after `sqrl up`, a loaded machine can take longer than a hook's deadline to start the
hook process and get the gateway's first answer; the session then starts without its memory.
So the gateway keeps, for each host, hook event and project it answered a session start in, the
host's output it printed (`<home>/run/start/<key>.json`), beside what that text was made from.
The project is the deepest registered root (`<home>/projects.json`) holding the session's
folder, so a session started in a subfolder never seen before gets the project's text; a folder
in no registered root (a linked worktree) keeps its own:

- the change mark (`<home>/run/memories-changed`), which the memory service rewrites whenever a
  memory of any project, a memory's standing (outcomes) or the user's global style changes;
- the size and modification time of each instruction file the host loads itself (what the
  text leaves out depends on them);
- the settings that shape the text (`settings_key`): a gateway started with others deletes the
  kept texts when it starts.

The hook prints a kept text only when the gateway has not answered as its deadline nears, and
only when it was kept for this host, event and project and nothing it was made from has changed
since; any doubt (a missing or unreadable mark, a changed file, another project) prints nothing.
Only the standard library is imported here: `sqrl hook` reads this on the hot path.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Final

FORMAT: Final = 2
"""2: kept per project root (1: per exact folder)."""
FOLDER: Final = "start"
PROJECTS_FILE: Final = "projects.json"
"""The home's registry of project roots, beside `run/` (`squirrel_core.home`)."""
MARK_FILE: Final = "memories-changed"
MAX_BYTES: Final = 1_000_000


def mark_path(run_dir: Path) -> Path:
    return run_dir / MARK_FILE


def change_mark(run_dir: Path) -> str | None:
    """The current change mark; "" when nothing has been marked yet, None when unreadable."""
    try:
        return mark_path(run_dir).read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return ""
    except (OSError, ValueError):
        return None


def mark_changed(run_dir: Path, *, sync: bool = True) -> None:
    """Memories changed: every kept text made before now is stale. `sync=False`: no fsync, so
    only a power cut (not a crash of the process) can lose the new mark."""
    import secrets  # noqa: PLC0415 - writers only: keeps the hook's read light

    from squirrel_core.files import write_private_file  # noqa: PLC0415 - writers only

    write_private_file(mark_path(run_dir), secrets.token_hex(16).encode("ascii"), sync=sync)


def start_folder(run_dir: Path, cwd: str) -> str:
    """What a session start in `cwd` is kept under: the deepest registered project root holding
    it (both symlink-resolved, as `squirrel_core.projects` compares them), else `cwd` itself."""
    try:
        data = json.loads((run_dir.parent / PROJECTS_FILE).read_bytes() or b"{}")
        target = Path(cwd).expanduser().resolve()
    except (OSError, ValueError, RuntimeError):
        return cwd
    roots = data.get("projects") if isinstance(data, dict) else None
    best: str | None = None
    for root in roots if isinstance(roots, list) else []:
        if not isinstance(root, str) or not root:
            continue
        if (target == Path(root) or Path(root) in target.parents) and (
            best is None or len(root) > len(best)
        ):
            best = root
    return best or cwd


def start_path(run_dir: Path, host: str, event: str, folder: str) -> Path:
    """Where the text kept for this host, hook event and project folder lives."""
    key = hashlib.sha256(f"{host}\0{event}\0{folder}".encode()).hexdigest()[:32]
    return run_dir / FOLDER / f"{key}.json"


def _stamp(path: str) -> list[int] | None:
    """[size, mtime_ns] of a file, None when it is not there."""
    try:
        stat = Path(path).stat()
    except OSError:
        return None
    return [stat.st_size, stat.st_mtime_ns]


def keep_start_text(
    run_dir: Path,
    *,
    host: str,
    event: str,
    folder: str,
    output: str,
    mark: str,
    files: Sequence[str],
    settings_key: str,
) -> None:
    """Keep `output`, the host's answer to a session start in `folder` (`start_folder`), made
    while the change mark was `mark` and the host loaded `files` (absolute paths)."""
    from squirrel_core.files import write_private_file  # noqa: PLC0415 - writers only

    record = {
        "format": FORMAT,
        "host": host,
        "event": event,
        "folder": folder,
        "mark": mark,
        "files": {path: _stamp(path) for path in files},
        "settings": settings_key,
        "output": output,
    }
    data = json.dumps(record, ensure_ascii=False).encode("utf-8")
    if len(data) <= MAX_BYTES:
        write_private_file(start_path(run_dir, host, event, folder), data)


def kept_start_text(run_dir: Path, host: str, event: str, folder: str) -> str | None:
    """The output kept for this host, event and project folder (`start_folder`), when nothing
    it was made from has changed; None otherwise."""
    try:
        with start_path(run_dir, host, event, folder).open("rb") as file:
            raw = file.read(MAX_BYTES + 1)
        record = json.loads(raw)
    except (OSError, ValueError):
        return None
    if len(raw) > MAX_BYTES or not isinstance(record, dict):
        return None
    mark = change_mark(run_dir)
    files = record.get("files")
    output = record.get("output")
    if (
        record.get("format") != FORMAT
        or (record.get("host"), record.get("event"), record.get("folder")) != (host, event, folder)
        or mark is None
        or record.get("mark") != mark
        or not isinstance(files, dict)
        or not isinstance(output, str)
        or any(_stamp(str(path)) != stamp for path, stamp in files.items())
    ):
        return None
    return output


def forget_start_texts(run_dir: Path, *, unless_settings: str | None = None) -> int:
    """Delete the kept texts (those made with other settings than `unless_settings`, when
    given); how many were deleted."""
    deleted = 0
    for path in (run_dir / FOLDER).glob("*.json"):
        if unless_settings is not None:
            try:
                if json.loads(path.read_bytes()).get("settings") == unless_settings:
                    continue
            except (OSError, ValueError, AttributeError):
                pass
        try:
            path.unlink()
        except OSError:
            continue
        deleted += 1
    return deleted
