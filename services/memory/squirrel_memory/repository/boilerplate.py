"""Text a project generator wrote, not the project's authors: a template's README opening.

`create-next-app`, `rails new`, `bundle gem`, `swift package init`, Vite's and Angular's
starters all write a README whose first paragraph describes the template ("This project was
bootstrapped with …", "This README would normally document whatever steps are necessary …",
"A description of this package.", "TODO: Delete this and the text below …"). Such a paragraph
says nothing of what the project is, so a README whose opening is boilerplate gives no
description. The shapes are those generators share in every ecosystem: a project said to be
generated, bootstrapped or scaffolded by a tool, a template describing itself ("This template
provides …", not "This template engine renders …": a project may be one), a placeholder left
for the author to fill in. A manifest's `description` a generator wrote is the same: "A new
Flutter project." (`flutter create`), "Add your description here" (`uv init`), "Demo project
for Spring Boot" (Spring Initializr), "A sample command-line application." (`dart create`),
"Please see the README on GitHub at …" (`stack new`).
"""

from __future__ import annotations

import re

_BOILERPLATE = re.compile(
    r"\b(?:this|the)\s+(?:project|app|application|repo(?:sitory)?|package|site|gem|library)\s+"
    r"(?:was|is|has\s+been)\s+(?:generated|bootstrapped|created|scaffolded|initiali[sz]ed)\s+"
    r"(?:with|by|using|from)\b"
    r"|\bbootstrapped\s+with\b"
    r"|\bthis\s+(?:template|starter|boilerplate|scaffold)(?:\s+(?:kit|project|app|repo))?\s+"
    r"(?:is|was|has|provides|gives|includes|contains|comes|sets|uses|should|will|can|helps|"
    r"lets|allows|demonstrates|shows|serves|offers|creates|bootstraps)\b"
    r"|\bwould\s+normally\s+document\b"
    r"|\bwelcome\s+to\s+your\s+new\b"
    r"|^\s*(?:a|the)\s+(?:short\s+)?description\s+of\s+(?:this|the|your)\s+"
    r"(?:package|project|app|application|library|module|gem|crate)\b"
    r"|\bLorem\s+ipsum\b"
    r"|\b(?:describe|write)\s+your\s+(?:project|package|app|gem|library)\b"
    # a manifest's description as a generator left it
    r"|^\s*an?\s+new\s+flutter\s+(?:project|package|plugin|module|application)\b"
    r"|\badd\s+your\s+description\s+here\b"
    r"|^\s*demo\s+project\s+for\s+spring\s+boot\b"
    r"|^\s*an?\s+(?:sample|simple)\s+command-line\s+application\.?\s*$"
    r"|^\s*a\s+starting\s+point\s+for\s+dart\b"
    r"|\bplease\s+see\s+the\s+readme\s+on\s+github\b",
    re.IGNORECASE,
)
#: A placeholder for the author ("TODO: Delete this …"), in capitals and with its colon as
#: generators write it: a description may name TODO comments ("Lists the TODO and FIXME
#: comments of a codebase").
_PLACEHOLDER = re.compile(r"(?:^|\s)(?:TODO|FIXME|XXX)\s*:")


def is_boilerplate(text: str) -> bool:
    """Whether a README's opening paragraph (or a manifest's description) is a generator's
    text or a placeholder."""
    return bool(_BOILERPLATE.search(text) or _PLACEHOLDER.search(text))
