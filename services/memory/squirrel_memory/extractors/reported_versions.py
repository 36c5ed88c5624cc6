"""The versions a subagent's report gives for the project's toolchain, kept as one project fact.

A subagent sent to read the build often opens its report with the versions it found:
"Gradle 8.8 wrapper, ForgeGradle `6.0.54` against Forge `1.20.1-47.4.22`, Java 17 toolchain",
"Go 1.22, golangci-lint 1.59, Docker 24", "Node 20, TypeScript 5.4, Vite 5.2". That line is
what a later session needs before it suggests a flag, an API or a plugin of another version,
and it holds in any language of the report: a rule reads its shape, not its words. A line of
the report becomes the fact when

- it names at least `MIN_TOOLS` different tools, each a capitalised name directly followed by
  its version (`Java 17`, ``Gradle `8.8` ``, `Node v20.11`), at least `MIN_DOTTED` of them
  with a dotted version (a count or a step, "Found 3, Fixed 2", has none); a tool is a name
  of something a project could use (`tool_names.known_tool`: a language, runtime, dependency,
  platform or program the tables know, or a program the session ran): "Section 3.2, Table 4.1
  and Figure 5.3" are parts of a text, and a name no table knows is left out of the fact;
- no name comes twice with two versions, no arrow sits in the line and no dotted version stands
  without a name (an upgrade, "Node 18 → Node 20", "Gradle 7.6 to 8.8", states no one state),
  and it is no table row (a comparison of candidates);
- the report names a build or configuration file (`settings.gradle`, `package.json`,
  `Cargo.toml` …): it read the project's build, not a release page;
- the session did not read one of the build files the report names and find none of the
  report's dotted versions in it (the file says otherwise: `read_otherwise`);
- the subagent looked only at this project (`elsewhere.replies_elsewhere`), and nobody took
  the report back (a later reply calls it wrong, the user's next message says no).

The fact quotes the known pairs in the report's order and says who read them: "Versions a
subagent reported reading in the project's build files: Gradle 8.8, ForgeGradle 6.0.54, Java
17." One
per episode (the first line that qualifies).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from squirrel_core.events import EventType
from squirrel_memory.extractors.elsewhere import replies_elsewhere
from squirrel_memory.extractors.subagent_findings import last_replies, report_of, taken_back
from squirrel_memory.extractors.tool_names import known_tool, ran_programs
from squirrel_memory.extractors.wording import without_bold
from squirrel_memory.models import StoredEvent

KEY = "toolchain:reported-versions"
#: As a requirements list: read, not checked by a run.
IMPORTANCE = 0.5
MIN_TOOLS = 3
#: Pairs whose version has a dot (`8.8`, not `17`): counts and step numbers ("Found 3") have none.
MIN_DOTTED = 2
MAX_TOOLS = 6

#: A tool's name and its version: `Java 17`, ``Forge `1.20.1-47.4.22` ``, `Node v20.11`.
_PAIR = re.compile(
    r"(?<![\w.`/-])(?P<name>[A-Z][A-Za-z0-9+#]*(?:[.-][A-Za-z][A-Za-z0-9]*)?)"
    r"\s+`?v?(?P<version>\d+(?:\.\d+){0,3}(?:[-+][0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?)`?(?![\w%/]|\.\w)"
)
#: A dotted version standing alone once the named ones are taken out (`to 8.8`, `auf 8.8`).
_BARE_VERSION = re.compile(r"(?<![\w./-])`?v?\d+(?:\.\d+)+")
_ARROW = re.compile(r"→|->|=>|⇒")
#: A build or configuration file named in the report: it read the project's build.
_BUILD_FILE = re.compile(
    r"\b[\w.-]+\.(?:gradle|kts|toml|json|xml|ya?ml|lock|mod|cfg|ini|cabal|gemspec|csproj|"
    r"sln|rockspec|nimble|opam|sbt|props|properties)\b|\b(?:Makefile|Gemfile|Dockerfile|"
    r"CMakeLists\.txt|BUILD(?:\.bazel)?|WORKSPACE|mix\.exs|build\.zig|Package\.swift)\b"
)
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+")


@dataclass(frozen=True, slots=True)
class ReportedVersions:
    """The versions fact: key, statement and the report's event."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def versions_line(line: str, ran: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """The (tool, version) pairs one report line gives, or [] when it is no versions line;
    `ran`: the programs the session ran (`tool_names.ran_programs`)."""
    text = without_bold(_BULLET.sub("", line)).strip()
    if not text or text.startswith(("|", ">")) or _ARROW.search(text):
        return []
    if _BARE_VERSION.search(_PAIR.sub(" ", text)):
        return []  # a version no tool names: "Gradle 7.6 to 8.8" states a change, in any words
    pairs: dict[str, str] = {}
    for match in _PAIR.finditer(text):
        name, version = match.group("name"), match.group("version")
        if pairs.get(name, version) != version:
            return []  # one tool at two versions: a change, not a state
        pairs[name] = version
    found = [(name, version) for name, version in pairs.items() if known_tool(name, ran)]
    dotted = sum(1 for _, version in found if "." in version)
    return found[:MAX_TOOLS] if len(found) >= MIN_TOOLS and dotted >= MIN_DOTTED else []


def read_otherwise(
    events: list[StoredEvent],
    report: str,
    pairs: list[tuple[str, str]],
    last: frozenset[str],
) -> bool:
    """Whether the session read a build file the report names and that read shows none of the
    report's dotted versions: the file says otherwise (another version, or the report's line
    was of another place)."""
    named = {posixpath.basename(name) for name in _BUILD_FILE.findall(report)}
    shown = [
        output
        for e in events
        if e.event_type == EventType.TOOL_RESULT
        and any(posixpath.basename(path) in named for path in e.file_paths)
        and isinstance(output := e.content.get("output"), str)
        and not report_of(e, last)
    ]
    dotted = [version for _, version in pairs if "." in version]
    return bool(shown) and not any(v in output for v in dotted for output in shown)


def reported_versions(events: list[StoredEvent]) -> ReportedVersions | None:
    """The first versions line of a subagent's report on the project in `events`, or None."""
    elsewhere = replies_elsewhere(events)
    last = last_replies(events)
    ran: frozenset[str] | None = None
    for index, event in enumerate(events):
        if event.id in elsewhere:
            continue
        report = report_of(event, last)
        if not report or not _BUILD_FILE.search(report) or taken_back(events, index):
            continue
        ran = ran_programs(events) if ran is None else ran
        for line in report.splitlines():
            pairs = versions_line(line, ran)
            if pairs and read_otherwise(events, report, pairs, last):
                break  # the session's own read says otherwise: the next report, if any
            if pairs:
                listed = ", ".join(f"{name} {version}" for name, version in pairs)
                content = f"Versions a subagent reported reading in the project's build: {listed}."
                return ReportedVersions(KEY, content, (event.id,))
    return None
