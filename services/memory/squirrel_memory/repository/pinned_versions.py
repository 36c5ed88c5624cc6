"""Files that pin the runtime version the developers use, one rule for all of them: a version
file of one runtime (`.python-version`, `.ruby-version`, `.nvmrc`, `.node-version`) and asdf/mise
`.tool-versions`, which pins several.

A pinned version is a toolchain like a manifest's (`requires-python`, `engines.node`, a
Gemfile's `ruby`); where they disagree, the stack says no version (`project_stack`). A value
that is not a version — an alias (`lts/iron`, `node`, `system`), an environment's name, another
implementation's own version (`jruby-9.4.5.0`) — names none.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from squirrel_memory.repository.findings import Readings, Toolchain
from squirrel_memory.repository.snapshot import TextFile

#: Version files of one runtime → the ecosystem whose runtime they pin.
VERSION_FILES: Mapping[str, str] = {
    ".python-version": "python",
    ".ruby-version": "ruby",
    ".nvmrc": "javascript",
    ".node-version": "javascript",
}
#: `.tool-versions` names → ecosystem.
_TOOL_NAMES: Mapping[str, str] = {
    "elixir": "elixir",
    "nodejs": "javascript",
    "python": "python",
    "golang": "go",
    "ruby": "ruby",
    "rust": "rust",
    "java": "jvm",
    "php": "php",
    "erlang": "erlang",
}
#: The runtime's own name or a `v` before the number (`ruby-3.3.0`, `v20.11.0`,
#: `python-3.12`). Another name (`jruby-9.4.5.0`, `graalpy-23.1.0`, `temurin-21`) numbers
#: another implementation or distribution, whose version is not the language's: no version.
_PREFIX = re.compile(r"^(?:(?:ruby|python|cpython|node|nodejs)-|v)(?=\d)")


def pinned(value: str) -> str:
    """The version a pin names (`3.3.0` of `ruby-3.3.0`), or "" for an alias, a name or
    another implementation's version."""
    version = _PREFIX.sub("", value.strip())
    return version if version[:1].isdigit() else ""


def version_file_reader(ecosystem: str) -> Callable[[TextFile, Readings], None]:
    """The reader of a version file that pins `ecosystem`'s runtime: its first version (a
    `.python-version` may list several, the first is the one used)."""

    def read(text: TextFile, out: Readings) -> None:
        for number, line in enumerate(text.lines, 1):
            value = line.split("#", 1)[0].strip()
            if not value:
                continue
            version = pinned(value)
            if version:
                out.toolchains.append(Toolchain(ecosystem, version, text.ref(number)))
            return

    return read


def read_tool_versions(text: TextFile, out: Readings) -> None:
    """asdf/mise `.tool-versions`: `elixir 1.17.2-otp-27`, `nodejs 20.11.0`."""
    for number, line in enumerate(text.lines, 1):
        parts = line.split("#", 1)[0].split()
        if len(parts) >= 2 and parts[0] in _TOOL_NAMES and (version := pinned(parts[1])):
            out.toolchains.append(Toolchain(_TOOL_NAMES[parts[0]], version, text.ref(number)))


PINNED_READERS: Mapping[str, Callable[[TextFile, Readings], None]] = {
    ".tool-versions": read_tool_versions,
    **{name: version_file_reader(eco) for name, eco in VERSION_FILES.items()},
}
