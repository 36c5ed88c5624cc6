"""The project's language from the commands its own build configuration runs, when the session
shows nothing else of it.

A session may read one release or task configuration of the project and no manifest or code
file: a `.goreleaser.yml` whose hooks run `go mod tidy`, a `Taskfile.yml` whose `cmds` run
`cargo build`, a `.gitlab-ci.yml` whose `script` runs `mix test`. What such a file runs is the
project's own work; when every command of the command table among it is one language's own
tools, the project is built with that language's tools, and the statement says that and no
more ("Commands the project's build configuration runs are Go's: `go mod tidy`
(`src/.goreleaser.yml`)."). The rule, the same for every ecosystem:

- a YAML file of the project the session read whole, from its first line (a file in an
  examples, docs, scripts or tools folder, test data, a dependency's or vendored one, and a
  file outside the project say nothing);
- the commands are the strings (one, or a list) under the keys that hold commands at any depth
  (`hooks`, `pre`, `post`, `before`, `after`, `cmd`, `cmds`, `command`, `commands`, `script`,
  `run`); any other value is data;
- every recognised command among them belongs to one language's own tools (tools of no one
  language, containers and docs, are left aside), and that ecosystem is one language
  (`toolchain_language`'s); two languages' tools, in one file or two, say nothing, nor does a
  code file of another language the session read or edited;
- it is as weak as the tools a session ran (`toolchain_language`): any count of files or root
  manifest replaces it (`touched_languages.merged_statement`).
"""

from __future__ import annotations

from datetime import UTC, datetime

import yaml

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.evidence.attempts import (
    NEUTRAL_ECOSYSTEMS,
    SIDE_ECOSYSTEMS,
    attempts,
)
from squirrel_memory.extractors.file_reads import file_text, whole_read_output
from squirrel_memory.extractors.manifests import first_project_path
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.stack_evidence import is_test_data, sample_folder
from squirrel_memory.extractors.toolchain_language import (
    CONFIG_PREFIX,
    IMPORTANCE,
    KEY,
    LANGUAGES,
    TOOLS_TAG,
    touched_languages,
)
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.languages import is_excluded
from squirrel_memory.repository.scan import PARSE_ERRORS

#: Keys whose values are commands to run.
_COMMAND_KEYS = frozenset(
    {"hooks", "pre", "post", "before", "after", "cmd", "cmds", "command", "commands"}
    | {"script", "run"}
)
_YAML_SUFFIXES = (".yml", ".yaml")
#: Longest command kept from a configuration (a whole shell script is no one command).
MAX_COMMAND_CHARS = 200
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _commands(value: object, under_key: bool = False) -> list[str]:
    """The command strings a parsed YAML value holds under the command keys (module docstring)."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, inner in value.items():
            found.extend(_commands(inner, under_key=str(key).lower() in _COMMAND_KEYS))
    elif isinstance(value, list):
        for item in value:
            found.extend(_commands(item, under_key))
    elif isinstance(value, str) and under_key and len(value) <= MAX_COMMAND_CHARS:
        found.append(value.strip())
    return [command for command in found if command]


def _configurations(events: list[StoredEvent]) -> list[tuple[str, list[str], str]]:
    """(path, commands, event id) of each YAML configuration of the project read whole."""
    found: list[tuple[str, list[str], str]] = []
    for event in events:
        path = first_project_path(event)
        if path is None or not path.lower().endswith(_YAML_SUFFIXES):
            continue
        if sample_folder(path) or is_test_data(path) or is_excluded(path):
            continue
        output = whole_read_output(event)
        if output is None:
            continue
        try:
            data = yaml.safe_load(file_text(output))
        except PARSE_ERRORS:
            continue
        commands = _commands(data)
        if commands:
            found.append((path, commands, event.id))
    return found


def config_language(events: list[StoredEvent]) -> Fact | None:
    """The one language whose tools the project's build configuration runs (module
    docstring), or None."""
    if not events:
        return None
    project_id = events[0].project_id
    ecosystems: set[str] = set()
    shown: tuple[str, str, str] | None = None  # (command, path, event id)
    for path, commands, event_id in _configurations(events):
        runs = [CommandRun(event_id, _EPOCH, command, None, "") for command in commands]
        for attempt in attempts(runs, project_id):
            use = attempt.use
            if use is None or use.ecosystem in NEUTRAL_ECOSYSTEMS | SIDE_ECOSYSTEMS:
                continue
            ecosystems.add(use.ecosystem)
            if shown is None:
                shown = (attempt.text, path, event_id)
    if shown is None or len(ecosystems) != 1:
        return None
    language = LANGUAGES.get(ecosystems.pop())
    if language is None or touched_languages(events) - {language}:
        return None
    command, path, event_id = shown
    return Fact(
        KEY,
        f"{CONFIG_PREFIX}{language}'s: `{command}` (`{path}`).",
        ("language", TOOLS_TAG, language.lower()),
        IMPORTANCE,
        (event_id,),
    )
