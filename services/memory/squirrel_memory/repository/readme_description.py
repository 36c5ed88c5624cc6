"""What a README says the project is: its title (a name when no manifest gave one) and its first
prose paragraph that describes the project, a lead-in completed by its list included."""

from __future__ import annotations

import re

from squirrel_memory.markdown_links import MARKDOWN_LINK
from squirrel_memory.repository.boilerplate import is_boilerplate
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.markdown_prose import (
    ANY_FENCE,
    BULLET,
    EMPTY_LINK,
    IMAGE,
    as_sentence,
    clean_markdown,
)
from squirrel_memory.repository.snapshot import TextFile

MAX_DESCRIPTION_CHARS = 300
#: A first paragraph shorter than this is a tagline; the paragraph after it is read too.
SHORT_DESCRIPTION_CHARS = 120

#: Sections whose first paragraph still says what the project is; any other section heading
#: (Installation, Usage, Learn more …) ends the search for a description.
_ABOUT_HEADING = re.compile(
    r"^(?:overview|about|introduction|description|summary|what\b|why\b)", re.IGNORECASE
)
#: First words of a paragraph that tells the reader what to do rather than what the project is
#: ("To start your server:", "Now you can visit …", "Please check the guides").
_STEPS = re.compile(
    r"^(?:to|run|now|ready|please|see|check|install|visit|clone|first|then|use|for)\b",
    re.IGNORECASE,
)
_SETEXT = re.compile(r"^(?:=+|-+)\s*$")


def describe_readme(text: TextFile, out: Readings) -> None:
    """The README's title (a name when no manifest gave one) and its first prose paragraph
    that says what the project is (a tagline in a blockquote counts; steps to follow do not)."""
    lines = text.lines
    paragraph: list[str] = []
    listed: list[str] = []
    start = 0
    fence = False
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if ANY_FENCE.match(line):
            fence = not fence
            if paragraph and (_is_description(paragraph) or "" in paragraph):
                break
            paragraph = []
            continue
        if fence:
            continue
        heading = _heading(stripped, lines[number].strip() if number < len(lines) else "")
        if heading is None and stripped.startswith("<"):  # a centred HTML title or tagline
            heading = _html_heading(stripped)
            stripped = (_html_prose(stripped) or stripped) if heading is None else stripped
        if heading is not None and not paragraph:
            level, title = heading
            if level == 1:
                if not out.name:
                    out.name_project(clean_markdown(title), text.ref(number))
                continue
            if not _ABOUT_HEADING.match(title):
                break
            continue
        if listed:
            if BULLET.match(line) and not line.startswith((" ", "\t")):
                listed.append(_list_item(stripped))
                continue
            break  # the list that completes the lead-in ends
        if heading is not None or not stripped or _SETEXT.match(stripped):
            if not stripped and _lead_in(paragraph):
                continue  # its list may follow a blank line
            if paragraph and paragraph[-1] and _tagline(paragraph) and heading is None:
                paragraph.append("")  # a one-line tagline: the next paragraph may explain it
                continue
            if paragraph and (_is_description(paragraph) or "" in paragraph or heading):
                break
            paragraph = []
            continue
        stripped = stripped.lstrip("> ").strip() if stripped.startswith(">") else stripped
        if BULLET.match(line) and _lead_in(paragraph):
            listed.append(_list_item(stripped))  # "X is a backend, consisting of:" and a list
            continue
        if stripped.startswith(("!", "[!", "<", "|", "[![", "* ", "- ", "+ ")) or (
            stripped.startswith("[") and "](" in stripped and _links_only(stripped)
        ):
            if paragraph and (_is_description(paragraph) or "" in paragraph):
                break
            paragraph = []
            continue
        if not paragraph:
            start = number
        paragraph.append(clean_markdown(stripped))
    if listed:
        lead = " ".join(p for p in paragraph if p).rstrip(":").strip()
        paragraph = [f"{lead}: {'; '.join(listed[:MAX_LISTED])}."]
    while paragraph and not paragraph[-1]:
        paragraph.pop()
    if "" in paragraph and not _is_description(paragraph[paragraph.index("") + 1 :]):
        paragraph = paragraph[: paragraph.index("")]
    if not _is_description(paragraph):
        return
    prose = " ".join(p for p in paragraph if p).strip()
    if is_boilerplate(prose):
        return  # a generator's or template's text, not what this project is
    sentences = re.split(r"(?<=[.!?])\s+", prose)
    description = sentences[0]
    for extra in sentences[1:]:
        if len(description) + 1 + len(extra) > MAX_DESCRIPTION_CHARS:
            break
        description += " " + extra
    out.describe_project(
        as_sentence(description[:MAX_DESCRIPTION_CHARS]), text.ref(start), readme=True
    )


def _links_only(line: str) -> bool:
    """A line of links and badges alone, not prose that opens with a linked name ("[Shop](…)
    is a …")."""
    rest = MARKDOWN_LINK.sub("", EMPTY_LINK.sub("", IMAGE.sub("", line)))
    return not rest.strip(" |·•-,.")


#: Items of a lead-in's list kept in the description.
MAX_LISTED = 6


def _lead_in(paragraph: list[str]) -> bool:
    """A paragraph that says what the project is and ends with a colon: the list after it
    completes the sentence ("X is an open source backend, consisting of:")."""
    if "" in paragraph or not paragraph or not paragraph[-1].endswith(":"):
        return False
    return _is_description([*paragraph[:-1], paragraph[-1].rstrip(":")])


def _list_item(line: str) -> str:
    """One item of a lead-in's list as prose: markup and a closing full stop gone."""
    text = clean_markdown(line)
    text = re.sub(r"(?<![\w_])_([^_]+)_(?![\w_])", r"\1", text)
    return text.rstrip(".;, ")


def _heading(line: str, following: str) -> tuple[int, str] | None:
    """(level, title) of an ATX (`## Title`) or setext (`Title` over `===`/`---`) heading."""
    if line.startswith("#"):
        level = len(line) - len(line.lstrip("#"))
        return level, line[level:].strip()
    if line and _SETEXT.match(following) and not _SETEXT.match(line):
        return (1 if following.startswith("=") else 2), line
    return None


#: An HTML heading on one line (`<h1 align="center">Name</h1>`), as READMEs centre titles.
_HTML_HEADING = re.compile(r"^<h([1-6])\b[^>]*>(?P<title>.*?)</h\1>\s*$", re.IGNORECASE)
#: HTML lines that hold markup, pictures or links only, never prose.
_HTML_MARKUP = re.compile(r"^<(?:img|a|picture|source|br|hr|!--|/)\b", re.IGNORECASE)
_HTML_TAG = re.compile(r"<[^<>]*>")


def _html_heading(line: str) -> tuple[int, str] | None:
    """(level, title) of a one-line HTML heading with text, else None."""
    match = _HTML_HEADING.match(line)
    title = " ".join(_HTML_TAG.sub(" ", match.group("title")).split()) if match else ""
    return (int(match.group(1)), title) if match and title else None


def _html_prose(line: str) -> str | None:
    """The text of one HTML line of a README (`<p align="center">A tool for …</p>`), or None
    for a line of markup, pictures or links only."""
    if _HTML_MARKUP.match(line) or _HTML_HEADING.match(line):
        return None
    text = " ".join(_HTML_TAG.sub(" ", line).split())
    return text or None


def _tagline(paragraph: list[str]) -> bool:
    """A first paragraph short enough that the one after it is read as well."""
    short = len(" ".join(paragraph)) < SHORT_DESCRIPTION_CHARS
    return short and "" not in paragraph and _is_description(paragraph)


def _is_description(paragraph: list[str]) -> bool:
    """A prose paragraph that says what the project is, not a step to follow."""
    prose = " ".join(paragraph).strip()
    return len(prose) >= 20 and not prose.endswith(":") and not _STEPS.match(prose)
