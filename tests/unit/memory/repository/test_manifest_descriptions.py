"""A manifest's description, whatever its format: one sentence with its words kept, however
the manifest breaks and indents it, and no space left before its period when it is cut."""

from __future__ import annotations

import json

import pytest

from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.manifests import manifest_reader
from squirrel_memory.repository.snapshot import TextFile

#: 36 words, 250 characters once each line break and indentation is one space.
WORDS = (
    "A small service that keeps the inventory of a warehouse in step with its orders, "
    "reconciles the counts that the scanners send every night, and tells the buyers which "
    "shelves run low before the weekly delivery is planned by the team"
)
INDENT = " " * 40


def _folded(words: str, every: int = 6) -> str:
    """`words` over many lines, each indented by 40 spaces (longer than 300 characters)."""
    split = words.split()
    lines = [" ".join(split[i : i + every]) for i in range(0, len(split), every)]
    return "\n".join(INDENT + line for line in lines)


def _description(path: str, content: str) -> str:
    reader = manifest_reader(path)
    assert reader is not None
    out = Readings()
    reader(TextFile.of(path, content), out)
    return out.description


MANIFESTS = {
    # A Maven build: a multi-line element, indented as an IDE writes it.
    "pom.xml": (
        "pom.xml",
        "<project><artifactId>stock</artifactId>\n  <description>\n"
        + _folded(WORDS)
        + "\n  </description>\n</project>\n",
    ),
    # A Cargo package: a multi-line TOML string.
    "Cargo.toml": (
        "Cargo.toml",
        '[package]\nname = "stock"\ndescription = """\n' + _folded(WORDS) + '\n"""\n',
    ),
    # An R package: a Debian control field continued on indented lines.
    "DESCRIPTION": (
        "DESCRIPTION",
        "Package: stock\nDescription: " + _folded(WORDS).lstrip() + "\n",
    ),
}


@pytest.mark.parametrize(("path", "content"), MANIFESTS.values(), ids=MANIFESTS.keys())
def test_an_indented_description_keeps_all_its_words(path: str, content: str) -> None:
    assert len(content) > 300 + len(WORDS) // 2

    assert _description(path, content) == WORDS + "."


@pytest.mark.parametrize("path", ["package.json", "composer.json"])
def test_a_description_cut_after_a_space_ends_with_its_word_and_a_period(path: str) -> None:
    long = ("word " * 60) + "and more words past the limit"  # the 300th character: a space

    described = _description(path, json.dumps({"name": "x", "description": long}))

    assert described == ("word " * 60).rstrip() + "."


@pytest.mark.parametrize(
    ("path", "content"),
    [
        ("package.json", '{"name": "x", "description": "  tiny  "}'),
        ("pubspec.yaml", "name: x\ndescription: '  tiny  '\n"),
    ],
)
def test_a_description_too_short_to_describe_is_not_kept(path: str, content: str) -> None:
    assert _description(path, content) == ""
