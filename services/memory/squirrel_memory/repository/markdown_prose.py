"""Markdown read as prose: a line without its bullet, heading marks, emphasis, pictures, links
and tags (an autolink keeps its address), and a fragment made a sentence."""

from __future__ import annotations

import re

from squirrel_memory.markdown_links import unlinked

#: A list item's bullet or number.
BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
#: The line that opens or closes a Markdown code block (``` or ~~~).
ANY_FENCE = re.compile(r"^\s*(```|~~~)")

_TAG = re.compile(r"<[^>]{1,80}>")
_CODE_SPAN = re.compile(r"(`[^`\n]+`)")
#: A picture (`![alt](src)`), and the link left empty once a badge's picture is gone.
IMAGE = re.compile(r"!\[[^\[\]]*\]\((?:[^()]|\([^()]*\))*\)")
EMPTY_LINK = re.compile(r"\[\s*\]\((?:[^()]|\([^()]*\))*\)")
#: An autolink (`<https://hex.pm>`): its address is the text, not a tag to drop.
_AUTOLINK = re.compile(r"<((?:https?|ftp)://[^\s<>]+)>")


def clean_markdown(line: str) -> str:
    """One line of markdown as plain prose: bullets, emphasis, links and headings removed."""
    text = BULLET.sub("", line)
    text = re.sub(r"^#+\s*", "", text)
    text = unlinked(EMPTY_LINK.sub("", IMAGE.sub("", text)))
    text = re.sub(r"(\*\*|__|~~)", "", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)([^*]+)(?<!\s)\*(?![\w*])", r"\1", text)
    # An HTML tag is dropped, but not a placeholder inside a code span (`Assisted-by: <tool>`).
    text = "".join(
        part if part.startswith("`") else _TAG.sub("", _AUTOLINK.sub(r"\1", part))
        for part in _CODE_SPAN.split(text)
    )
    return " ".join(text.split()).strip()


def as_sentence(text: str) -> str:
    """`text` as a sentence: a capital first letter and a closing full stop."""
    text = text.rstrip(":;,- ")
    if text and text[-1] not in ".!?`)\"'":
        text += "."
    return text[:1].upper() + text[1:]
