"""What a file's own text says of a licence, in any ecosystem: a manifest's licence field
(`Cargo.toml`, `package.json`, `pyproject.toml`, a gemspec, `mix.exs`, a `.csproj` …), a
licence file's own heading ("MIT License", "Apache License / Version 2.0" …) and the one
licence a README's licence section settles; a value must read as a licence's identifier or
expression (`licence_value`). `licence` weighs what the session showed of these files."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import PurePosixPath
from typing import Any

#: A licence file at the root, by its name.
LICENCE_FILE = re.compile(
    r"^(?:LICEN[CS]E|COPYING)(?:[-_.][A-Za-z0-9.-]{1,20})?(?:\.(?:md|txt|rst))?$", re.IGNORECASE
)
#: A licence's own heading, in the first lines of its text: (pattern, identifier, name).
_HEADINGS: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), spdx, name)
    for pattern, spdx, name in (
        (r"^(?:the\s+)?MIT\s+Licen[cs]e\b", "MIT", "MIT License"),
        (r"^Apache\s+License,?\s+Version\s+2\.0\b", "Apache-2.0", "Apache License 2.0"),
        (
            r"^GNU\s+AFFERO\s+GENERAL\s+PUBLIC\s+LICENSE\s+Version\s+3\b",
            "AGPL-3.0",
            "GNU Affero General Public License v3",
        ),
        (
            r"^GNU\s+LESSER\s+GENERAL\s+PUBLIC\s+LICENSE\s+Version\s+3\b",
            "LGPL-3.0",
            "GNU Lesser General Public License v3",
        ),
        (
            r"^GNU\s+LESSER\s+GENERAL\s+PUBLIC\s+LICENSE\s+Version\s+2\.1\b",
            "LGPL-2.1",
            "GNU Lesser General Public License v2.1",
        ),
        (
            r"^GNU\s+GENERAL\s+PUBLIC\s+LICENSE\s+Version\s+3\b",
            "GPL-3.0",
            "GNU General Public License v3",
        ),
        (
            r"^GNU\s+GENERAL\s+PUBLIC\s+LICENSE\s+Version\s+2\b",
            "GPL-2.0",
            "GNU General Public License v2",
        ),
        (
            r"^Mozilla\s+Public\s+License,?\s+Version\s+2\.0\b",
            "MPL-2.0",
            "Mozilla Public License 2.0",
        ),
        (r"^BSD\s+3-Clause\s+License\b", "BSD-3-Clause", "BSD 3-Clause License"),
        (r"^BSD\s+2-Clause\s+License\b", "BSD-2-Clause", "BSD 2-Clause License"),
        (r"^ISC\s+License\b", "ISC", "ISC License"),
        (
            r"^Boost\s+Software\s+License\s+-\s+Version\s+1\.0\b",
            "BSL-1.0",
            "Boost Software License",
        ),
        (r"^Eclipse\s+Public\s+License\s+-\s+v\s+2\.0\b", "EPL-2.0", "Eclipse Public License 2.0"),
        (
            r"^This\s+is\s+free\s+and\s+unencumbered\s+software\s+released\s+into\s+the\s+public",
            "Unlicense",
            "Unlicense",
        ),
    )
)
#: How many of a licence file's first lines its heading may take.
_HEADING_LINES = 4

#: A licence identifier or expression (`MIT`, `MIT OR Apache-2.0`, `(MIT OR Apache-2.0) AND
#: BSD-3-Clause`, `GPL-2.0-or-later WITH Classpath-exception-2.0`, `Apache-2.0/MIT`).
_EXPRESSION = re.compile(
    r"^\(?[A-Za-z][A-Za-z0-9.+-]{1,40}\)?"
    r"(?:\s*(?:\s(?:OR|AND|WITH|or|and)\s|/)\s*\(?[A-Za-z][A-Za-z0-9.+-]{1,40}\)?){0,3}$"
)
#: Values that name no licence one may use the code under.
_NO_LICENCE = re.compile(
    r"^(?:UNLICENSED|proprietary|commercial|none|other|NOASSERTION|private|closed|"
    r"all[\s-]rights[\s-]reserved)$",
    re.IGNORECASE,
)
#: A licence field on one line, as an edit's text shows it (any manifest format).
FIELD_LINE = re.compile(
    r"""^\s*(?:
        "license"\s*:\s*"(?P<json>[^"]*)"
        | (?:\w+\.)?licen[cs]e\s*=\s*["'](?P<toml>[^"']*)["']
        | (?:\w+\.)?licenses\s*=\s*\[\s*["'](?P<gem>[^"']*)["']\s*\]
        | licenses:\s*\[\s*"(?P<mix>[^"]*)"\s*\]
        | <PackageLicenseExpression>(?P<xml>[^<]*)</PackageLicenseExpression>
    )""",
    re.VERBOSE | re.MULTILINE,
)


def heading_licence(text: str) -> tuple[str, str] | None:
    """(identifier, name) of the licence whose own heading opens `text`, else None."""
    lines = [line.strip() for line in text.splitlines() if line.strip()][:_HEADING_LINES]
    head = " ".join(lines)
    for pattern, spdx, name in _HEADINGS:
        if pattern.match(head):
            return spdx, name
    return None


def licence_value(raw: Any) -> str:
    """A field's value when it reads as a licence's identifier or expression, else ""."""
    if isinstance(raw, list) and raw and all(isinstance(v, str) for v in raw):
        raw = " OR ".join(raw) if len(raw) > 1 else raw[0]
    if not isinstance(raw, str):
        return ""
    value = raw.strip()
    if not value or _NO_LICENCE.match(value) or not _EXPRESSION.match(value):
        return ""
    return value


def _toml_field(text: str, name: str) -> tuple[str, str] | None:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    if name == "Cargo.toml":
        package = data.get("package")
        package = package if isinstance(package, dict) else {}
        shared = data.get("workspace", {}).get("package", {}) if not package else {}
        table = package or (shared if isinstance(shared, dict) else {})
        return licence_value(table.get("license")), str(package.get("name") or "")
    project = data.get("project")
    if isinstance(project, dict):
        raw = project.get("license")
        if isinstance(raw, dict):
            raw = raw.get("text")
        return licence_value(raw), str(project.get("name") or "")
    poetry = data.get("tool", {}).get("poetry")
    if isinstance(poetry, dict):
        return licence_value(poetry.get("license")), str(poetry.get("name") or "")
    return None


def _json_field(text: str) -> tuple[str, str] | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    return licence_value(data.get("license")), str(data.get("name") or "")


#: Manifests read line by line: (how the file is named, the field's pattern).
_LINE_FIELDS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (
        re.compile(r"\.gemspec$"),
        re.compile(r"^\s*\w+\.licen[cs]es?\s*=\s*\[?\s*[\"']([^\"']+)[\"']", re.MULTILINE),
    ),
    (re.compile(r"^mix\.exs$"), re.compile(r"^\s*licenses:\s*\[\s*\"([^\"]+)\"", re.MULTILINE)),
    (
        re.compile(r"\.(?:cs|fs|vb)proj$|^Directory\.Build\.props$"),
        re.compile(r"<PackageLicenseExpression>\s*([^<]+?)\s*</PackageLicenseExpression>"),
    ),
    (re.compile(r"^setup\.cfg$"), re.compile(r"^license\s*=\s*(\S[^\n]*?)\s*$", re.MULTILINE)),
    (re.compile(r"\.cabal$"), re.compile(r"^license:\s*(\S+)\s*$", re.MULTILINE | re.IGNORECASE)),
    (re.compile(r"^DESCRIPTION$"), re.compile(r"^License:\s*(\S[^\n]*?)\s*$", re.MULTILINE)),
    (re.compile(r"^dune-project$"), re.compile(r"^\(license\s+\"?([^\s\")]+)\"?\)", re.MULTILINE)),
)


def manifest_licence(path: str, text: str) -> tuple[str, str] | None:
    """(the licence its field names, "" when none or none usable; the package's name) of a
    manifest's text, or None when `path` is no manifest with a licence field."""
    name = PurePosixPath(path).name
    if name in ("Cargo.toml", "pyproject.toml"):
        return _toml_field(text, name)
    if name in ("package.json", "composer.json"):
        return _json_field(text)
    for named, field in _LINE_FIELDS:
        if named.search(name):
            found = field.search(text)
            return (licence_value(found.group(1)) if found else ""), ""
    return None


#: A root README, by its name.
README = re.compile(r"^README(?:\.(?:md|markdown|rst|txt|adoc))?$", re.IGNORECASE)
#: A heading of the licence section: Markdown (`## License`) or a line underlined in reST.
_SECTION = re.compile(
    r"^(?:\#{1,4}\s*)?(?:licen[cs]e|licensing|copyright\s+(?:and|&)\s+licen[cs]e|"
    r"licen[cs]e\s+(?:and|&)\s+copyright)\s*:?\s*\#*\s*$",
    re.IGNORECASE,
)
_MARKDOWN_HEADING = re.compile(r"^\#{1,6}\s")
_UNDERLINE = re.compile(r"^(?:=+|-+|~+|\^+)\s*$")
#: A link's text kept, its address dropped (`[LICENSE](LICENSE)`); an image dropped whole.
_IMAGE = re.compile(r"!\[[^\]]{0,200}\]\([^)]{0,300}\)")
_LINK = re.compile(r"\[([^\]]{0,200})\]\([^)]{0,300}\)")
#: Licences a README names in words: (pattern, identifier; "" for one stated by no identifier).
_NAMED: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), spdx)
    for pattern, spdx in (
        (r"\bMIT\b", "MIT"),
        (
            r"\bApache(?:[- ]Licen[cs]e)?,?\s*(?:version\s*|v)?2(?:\.0)?\b|\bApache-2\.0\b",
            "Apache-2.0",
        ),
        (r"\bAGPL[- ]?v?3|\bAffero\b", "AGPL-3.0"),
        (r"\bLGPL|\bLesser General Public", "LGPL"),
        (
            r"(?<![AL])\bGPL[- ]?v?3"
            r"|(?<!Lesser )(?<!Affero )General Public Licen[cs]e,?\s*(?:version\s*|v)3",
            "GPL-3.0",
        ),
        (
            r"(?<![AL])\bGPL[- ]?v?2"
            r"|(?<!Lesser )(?<!Affero )General Public Licen[cs]e,?\s*(?:version\s*|v)2",
            "GPL-2.0",
        ),
        (r"\bMPL\b|\bMozilla Public", "MPL-2.0"),
        (r"\bBSD[- ]3|\b3-Clause BSD", "BSD-3-Clause"),
        (r"\bBSD[- ]2|\b2-Clause BSD", "BSD-2-Clause"),
        (r"\bISC\b", "ISC"),
        (r"\bUnlicense\b", "Unlicense"),
        (r"\bCC[- ]?BY|\bCC0\b|\bCreative Commons", ""),
        (r"\bEUPL|\bEclipse Public|\bEPL\b|\bBoost Software|\bBSL-1|\bzlib\b", ""),
    )
)
#: Words of a licence section that is not one settled licence of the project's own: another
#: party's (a dependency, a fork), a part's, or one not chosen yet.
_NOT_SETTLED = re.compile(
    r"\b(?:depend\w*|links?\s+(?:against|to)|uses?|using|bundl\w*|third[- ]party|vendor\w*|"
    r"except\w*|excluding|fork\w*|upstream|decided|undecided|tbd|probably|maybe|will\s+be|"
    r"planned|until|once|rights\s+reserved|proprietary|assets?|artwork|images?|docs|"
    r"documentation|content|fonts?|icons?)\b",
    re.IGNORECASE,
)
#: The longest section paragraph read (characters): a long one says more than a licence.
_MAX_PARAGRAPH = 240


def _section_paragraph(text: str) -> str | None:
    """The first paragraph under a README's licence heading, links as their text, else None."""
    lines = text.splitlines()
    for at, line in enumerate(lines):
        heading = line.strip()
        underlined = at + 1 < len(lines) and _UNDERLINE.match(lines[at + 1].strip() or "x")
        if not _SECTION.match(heading) or not (heading.startswith("#") or underlined):
            continue
        body: list[str] = []
        for following in lines[at + (2 if underlined and not heading.startswith("#") else 1) :]:
            bare = following.strip()
            if _MARKDOWN_HEADING.match(bare) or (body and not bare):
                break
            if bare:
                body.append(bare)
        paragraph = _LINK.sub(r"\1", _IMAGE.sub("", " ".join(body))).strip()
        return paragraph or None
    return None


def readme_licence(text: str) -> str:
    """The one licence a README's licence section settles for the project ("" when it names
    none, several, or one not settled as the project's own: another party's, a part's, or one
    not chosen yet)."""
    paragraph = _section_paragraph(text)
    if paragraph is None or len(paragraph) > _MAX_PARAGRAPH or _NOT_SETTLED.search(paragraph):
        return ""
    named = [spdx for pattern, spdx in _NAMED if pattern.search(paragraph)]
    return named[0] if len(named) == 1 else ""
