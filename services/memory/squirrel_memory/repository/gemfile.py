"""A Gemfile: its gems, whether each serves development or tests only, and the Ruby version.

A Gemfile is Ruby, with no parser in Python: it is read line by line with anchored patterns,
and its blocks are followed to their `end` whatever the indentation (a `group :test do` inside a
`source … do` block, a `platforms :mri do` inside a group, a file that indents nothing).
"""

from __future__ import annotations

import re

from squirrel_memory.repository.findings import Dependency, Readings, Toolchain
from squirrel_memory.repository.snapshot import TextFile

_GEM = re.compile(r"""^\s*gem\s+["']([^"']+)["'](?:\s*,\s*["']([^"']+)["'])?""")
_RUBY = re.compile(r"""^\s*ruby\s+["']([^"']+)["']""")
_GROUP = re.compile(r"^\s*group\s+(.+?)\s+do\b")
_INLINE_GROUP = re.compile(r"\bgroups?:\s*(\[[^\]]*\]|:\w+)")
#: Gemfile groups of the running application (any other group serves development or tests).
_RUNTIME_GROUPS = frozenset({"default", "production"})
#: A quoted string (blanked before a line's blocks are read: `gem "x" # do` opens nothing).
_STRING = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'""")
#: What opens a block that an `end` closes: `… do` or `… do |x|` ending the line, or a
#: statement that starts with a keyword of its own (`if ENV["CI"]`, never `gem "x" if …`).
_OPENS_DO = re.compile(r"\bdo(?:\s*\|[^|]*\|)?\s*$")
_OPENS_KEYWORD = re.compile(r"^\s*(?:if|unless|case|begin|while|until|def|class|module)\b")
_ENDS = re.compile(r"^\s*end\b")
#: A block that closes on the line that opens it (`if RUBY_VERSION > "3" then gem "x" end`).
_ENDS_LINE = re.compile(r"\bend\s*$")


def _dev_groups(spec: str) -> bool:
    groups = set(re.findall(r":(\w+)", spec))
    return bool(groups) and not groups & _RUNTIME_GROUPS


def _code(line: str) -> str:
    """The line with its strings blanked and its comment cut."""
    return _STRING.sub('""', line).split("#", 1)[0].rstrip()


def _opens(code: str) -> bool:
    if _ENDS.match(code):
        return False
    opens = bool(_OPENS_DO.search(code) or _OPENS_KEYWORD.match(code))
    return opens and not (_OPENS_KEYWORD.match(code) and _ENDS_LINE.search(code))


def read_gemfile(text: TextFile, out: Readings) -> None:
    out.manifests[text.path] = "ruby"
    # One entry per open block: a group's dev flag, None for any other block.
    blocks: list[bool | None] = []
    for number, line in enumerate(text.lines, 1):
        code = _code(line)
        if _ENDS.match(code) and blocks:
            blocks.pop()
        group_dev = next((dev for dev in reversed(blocks) if dev is not None), False)
        if match := _GEM.match(line):
            inline = _INLINE_GROUP.search(line[match.end() :])
            dev = _dev_groups(inline.group(1)) if inline else group_dev
            version = match.group(2) or ""
            out.dependencies.append(
                Dependency("ruby", match.group(1), version, text.ref(number), text.path, dev=dev)
            )
        elif match := _RUBY.match(line):
            out.toolchains.append(Toolchain("ruby", match.group(1), text.ref(number)))
        if _opens(code):
            group = _GROUP.match(line)
            blocks.append(_dev_groups(group.group(1)) if group else None)
