"""Documentation-site configurations: the site's name and the one line saying what it is.

A docs site or a handbook has no package manifest; its generator's configuration names it
(`site_name`, `title`) and often says what it is (`site_description`, `description`). Only
top-level keys on one line are read: a value folded over several lines, a template
(`{{ … }}`) or an environment lookup (`!ENV`) says nothing reliable and is skipped.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable

from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.snapshot import TextFile

#: Root configuration file → (name key, description key), for YAML-configured generators.
_YAML_SITES: dict[str, tuple[str, str]] = {
    "mkdocs.yml": ("site_name", "site_description"),
    "mkdocs.yaml": ("site_name", "site_description"),
    "_config.yml": ("title", "description"),  # Jekyll
}
_TOP_LEVEL = re.compile(r"^(?P<key>[A-Za-z_][\w-]*):[ \t]+(?P<value>\S.*?)\s*$")
_UNRELIABLE = re.compile(r"^[>|!&*]|\{\{|\{%|\$\{")
MAX_VALUE_CHARS = 300


def _scalar(raw: str) -> str:
    """A one-line YAML scalar as text ("" for what is not one: a block, a tag, a template)."""
    value = raw.strip()
    if _UNRELIABLE.search(value):
        return ""
    if value[:1] in "'\"":
        quote = value[0]
        end = value.find(quote, 1)
        return value[1:end] if end > 0 else ""
    value = re.sub(r"(?<!\s)\s+#.*$", "", value)  # a trailing comment
    return value if len(value) <= MAX_VALUE_CHARS else ""


def _read_yaml_site(keys: tuple[str, str]) -> Callable[[TextFile, Readings], None]:
    name_key, description_key = keys

    def read(text: TextFile, out: Readings) -> None:
        for number, line in enumerate(text.lines, 1):
            match = _TOP_LEVEL.match(line)
            if match is None:
                continue
            value = _scalar(match.group("value"))
            if not value:
                continue
            if match.group("key") == name_key:
                out.name_project(value, text.ref(number))
            elif match.group("key") == description_key:
                out.describe_project(value, text.ref(number))

    return read


def _read_mdbook(text: TextFile, out: Readings) -> None:
    book = tomllib.loads(text.text).get("book")
    if not isinstance(book, dict):
        return
    title, description = book.get("title"), book.get("description")
    if isinstance(title, str):
        out.name_project(title, text.ref_of("title"))
    if isinstance(description, str) and len(description) <= MAX_VALUE_CHARS:
        out.describe_project(description, text.ref_of("description"))


def site_config_reader(path: str) -> Callable[[TextFile, Readings], None] | None:
    """The reader of a docs site's root configuration file, or None for any other file."""
    if path == "book.toml":
        return _read_mdbook
    keys = _YAML_SITES.get(path)
    return _read_yaml_site(keys) if keys else None
