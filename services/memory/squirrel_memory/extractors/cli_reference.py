"""What the project is, from the command-line reference its own generator writes.

A project whose command-line reference is generated from its own code or spec (one page per
command under `docs/cli/`, rendered by a task such as `task docs:render`) has a command-line
interface, and its commands are the pages' names. A session that regenerates those pages and
commits them shows that much even when it reads no README or manifest. The rule, the same for
every ecosystem:

- a generator ran in the project and a commit of the session took its output
  (`generated_commits`: the generator passed, the commit passed, neither ran elsewhere), and
  at least one committed file is a page of a CLI reference folder: a `cli` folder (or its
  `commands` folder) inside the project's documentation (`docs/cli/unlock.md`,
  `doc/reference/cli/init.rst`, `website/docs/cli/commands/run.mdx`); a hand-edited page, a
  page only read, a `cli/` folder of code (`src/cli/main.rs`) or a `commands` folder alone
  (`docs/commands/ban.md` may be a chat bot's commands) says nothing;
- the commands named are the pages' names, not an index, a summary or a data file
  (`index.md`, `README.md`, `commands.json`);
- the statement names the project by its folder and says only what the pages show: it has a
  command-line interface whose reference is generated, and by which command ("This project
  (keyring) has a command-line interface whose reference pages in `docs/cli/` are generated:
  `task docs:render` regenerates them (its commands include `unlock` and `vault`)"), never
  what the program is for.

It is a summary (`facts.py`): a README, a manifest or the program's own help says more and
comes first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_memory.extractors.generated_commits import generated_commits
from squirrel_memory.models import StoredEvent

#: A page of a CLI reference folder inside the project's documentation; group 1 the folder,
#: group 2 the page's name without its suffix.
_PAGE = re.compile(
    r"^((?:docs?|documentation|website|site)/(?:[\w.-]{1,64}/){0,3}cli(?:[-_]reference)?"
    r"(?:/commands)?)/"
    r"([A-Za-z][\w-]{0,40})\.(?:md|mdx|rst|txt|adoc)$"
)
#: Pages that are no command's own.
_NOT_COMMAND = frozenset({"index", "readme", "summary", "commands", "overview", "toc", "cli"})
MAX_COMMANDS = 4


@dataclass(frozen=True, slots=True)
class CliReference:
    """The statement and the events it came from."""

    content: str
    event_ids: tuple[str, ...]


def reference_page(path: str) -> tuple[str, str] | None:
    """The CLI reference folder and the page's name when `path` is such a page, else None."""
    found = _PAGE.match(path)
    return (found.group(1), found.group(2)) if found else None


def _commands(pages: list[tuple[str, str]]) -> list[str]:
    names = [name for _, name in pages if name.lower() not in _NOT_COMMAND]
    return list(dict.fromkeys(names))[:MAX_COMMANDS]


def _listed(names: list[str]) -> str:
    shown = [f"`{n}`" for n in names]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" and {shown[-1]}"


def cli_reference(events: list[StoredEvent]) -> CliReference | None:
    """The project's generated command-line reference, from a generator's committed output
    (module docstring)."""
    if not events:
        return None
    folder = PurePosixPath(events[0].project_id).name
    if not folder:
        return None
    for generated in generated_commits(events):
        if not generated.command:
            continue
        pages = [page for p in generated.paths if (page := reference_page(p)) is not None]
        if not pages:
            continue
        where = pages[0][0]
        commands = _commands([page for page in pages if page[0] == where])
        include = f" (its commands include {_listed(commands)})" if commands else ""
        text = (
            f"This project ({folder}) has a command-line interface whose reference pages in "
            f"`{where}/` are generated: `{generated.command}` regenerates them{include}."
        )
        return CliReference(text, generated.event_ids)
    return None
