"""Assistant instruction files, CONTRIBUTING and README: standing rules, named commands, and
what the project says it is."""

from __future__ import annotations

import re
from collections.abc import Sequence

from squirrel_core.commands import typed_commands
from squirrel_memory.markdown_links import MARKDOWN_LINK, unlinked
from squirrel_memory.repository.boilerplate import is_boilerplate
from squirrel_memory.repository.findings import Command, Instruction, Readings
from squirrel_memory.repository.snapshot import TextFile
from squirrel_memory.repository.task_records import purpose_of

#: Rules kept per instruction file, and their length bounds (characters).
MAX_RULES_PER_FILE = 20
MIN_RULE_CHARS, MAX_RULE_CHARS = 12, 300
MAX_DESCRIPTION_CHARS = 300
#: A first paragraph shorter than this is a tagline; the paragraph after it is read too.
SHORT_DESCRIPTION_CHARS = 120

_ROOT_INSTRUCTIONS = (
    "CLAUDE.md",
    "CLAUDE.local.md",
    ".claude/CLAUDE.md",
    "AGENTS.md",
    "GEMINI.md",
    ".cursorrules",
    ".windsurfrules",
    ".github/copilot-instructions.md",
)
_CONTRIBUTING = ("CONTRIBUTING.md", ".github/CONTRIBUTING.md", "docs/CONTRIBUTING.md")
_README = ("README.md", "README.rst", "README.txt", "README", "readme.md", "Readme.md")
#: The other spellings of a root README (any case of `readme`, Markdown, reStructuredText or
#: plain text).
_README_SUFFIXES = ("", ".md", ".markdown", ".rst", ".txt")


def instruction_kind(path: str) -> str | None:
    """`instructions`, `contributing` or `readme` for the files this module reads (a path
    through `..` is none of them: `.cursor/rules/../../x.md` leaves the folder it names)."""
    if ".." in path.split("/"):
        return None
    if path in _ROOT_INSTRUCTIONS or (
        path.startswith(".cursor/rules/") and path.endswith((".md", ".mdc"))
    ):
        return "instructions"
    if path in _CONTRIBUTING:
        return "contributing"
    if path in _README or (
        path.lower().startswith("readme") and path.lower()[len("readme") :] in _README_SUFFIXES
    ):
        return "readme"
    return None


_RULE_WORDS = re.compile(
    r"\b(always|never|must|do not|don't|dont|avoid|prefer|make sure|ensure|only|instead of|"
    r"should|required?|before (?:committing|pushing|finishing|opening))\b",
    re.IGNORECASE,
)
# A bullet that starts with one of these verbs is a rule even without "always"/"never".
_IMPERATIVE = re.compile(
    r"^(?:use|run|keep|write|add|put|prefer|follow|call|check|name|place|return|handle|be|"
    r"document|commit|push|create|update|test|format|lint|wrap|log|validate|raise|pass)\b",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
#: Where a sentence of a paragraph ends (not after an abbreviation: "a table (e.g. `ctx`)").
_SENTENCE_END = re.compile(
    r"(?<=[.!?])(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bcf\.)(?<!\bvs\.)\s+(?=[A-Z`\"'(])"
)
#: The same end, matched at the position after the stop (`first_sentence`).
_AFTER_STOP = re.compile(r"\s+(?=[A-Z`\"'(])")
#: A sentence that opens as an instruction ("Do not …", "You should …", "Always …").
_DIRECTIVE = re.compile(
    r"^(?:(?:you|we|agents?|contributors?)\s+(?:must|should)\b|(?:always|never|do not|don'?t|"
    r"avoid|prefer|make sure|ensure)(?=[\s,]))",
    re.IGNORECASE,
)
#: "Only" opens an instruction when an imperative follows ("Only use …"; not "Only one
#: worker runs at a time", which explains).
_ONLY = re.compile(r"^only\s+", re.IGNORECASE)
#: A sentence that opens with its condition ("When writing commit messages, follow …").
_CONDITIONED = re.compile(
    r"^(?:when|whenever|before|after|if|once)\b[^,]{3,80},\s*(?:please\s+)?(?P<then>.+)$",
    re.IGNORECASE,
)
#: The line that opens or closes a Markdown code block (``` or ~~~).
ANY_FENCE = re.compile(r"^\s*(```|~~~)")
_SHELL_FENCES = {"", "sh", "bash", "shell", "console", "zsh", "fish", "terminal", "cmd"}
_INLINE_CODE = re.compile(r"`([^`\n]{2,200})`")
_PROMPT = re.compile(r"^\s*(?:\$|>|%|#)\s+")


#: A line of an indented code block: four spaces or a tab before its text.
_INDENTED = re.compile(r"^(?: {4}|\t)\s*\S")


def indented_code_lines(lines: Sequence[str]) -> frozenset[int]:
    """The indexes of the lines of a page's indented code blocks (a Markdown code block
    written without a fence: four spaces or a tab before each line, after a blank line). Lines
    inside a fenced block are the fence's, and indented lines under a list item continue that
    item (a fence there is still a fence)."""
    found: set[int] = set()
    fenced = in_list = block = False
    after_blank = True
    for index, line in enumerate(lines):
        if not line.strip():
            after_blank = True
            continue
        indented = bool(_INDENTED.match(line))
        if not block and ANY_FENCE.match(line):
            fenced = not fenced
        elif fenced:
            pass
        elif indented and (block or (after_blank and not in_list)):
            block = True
            found.add(index)
        else:
            block = False
            if not indented:  # a list item opens a list; a paragraph or a heading ends it
                in_list = bool(_BULLET.match(line))
        after_blank = False
    return frozenset(found)


_TAG = re.compile(r"<[^>]{1,80}>")
_CODE_SPAN = re.compile(r"(`[^`\n]+`)")
#: A picture (`![alt](src)`), and the link left empty once a badge's picture is gone.
_IMAGE = re.compile(r"!\[[^\[\]]*\]\((?:[^()]|\([^()]*\))*\)")
_EMPTY_LINK = re.compile(r"\[\s*\]\((?:[^()]|\([^()]*\))*\)")
#: An autolink (`<https://hex.pm>`): its address is the text, not a tag to drop.
_AUTOLINK = re.compile(r"<((?:https?|ftp)://[^\s<>]+)>")


def clean_markdown(line: str) -> str:
    """One line of markdown as plain prose: bullets, emphasis, links and headings removed."""
    text = _BULLET.sub("", line)
    text = re.sub(r"^#+\s*", "", text)
    text = unlinked(_EMPTY_LINK.sub("", _IMAGE.sub("", text)))
    text = re.sub(r"(\*\*|__|~~)", "", text)
    text = re.sub(r"(?<![\w*])\*(?!\s)([^*]+)(?<!\s)\*(?![\w*])", r"\1", text)
    # An HTML tag is dropped, but not a placeholder inside a code span (`Assisted-by: <tool>`).
    text = "".join(
        part if part.startswith("`") else _TAG.sub("", _AUTOLINK.sub(r"\1", part))
        for part in _CODE_SPAN.split(text)
    )
    return " ".join(text.split()).strip()


def _sentence(text: str) -> str:
    text = text.rstrip(":;,- ")
    if text and text[-1] not in ".!?`)\"'":
        text += "."
    return text[:1].upper() + text[1:]


def read_instruction_file(text: TextFile, out: Readings, kind: str) -> None:
    origin = "docs" if kind == "readme" else "instructions"
    rules = 0
    fence: str | None = None
    indented = indented_code_lines(text.lines)
    for number, line in enumerate(text.lines, 1):
        if number - 1 in indented:  # a block without a fence: its commands, never a rule
            _commands(out, text, _PROMPT.sub("", line).strip(), number, origin)
            continue
        if ANY_FENCE.match(line):
            fence = None if fence is not None else line.strip()[3:].strip().lower()
            continue
        if fence is not None:
            if fence in _SHELL_FENCES:
                _commands(out, text, _PROMPT.sub("", line).strip(), number, origin)
            continue
        for code in _INLINE_CODE.findall(line):
            _commands(out, text, code, number, origin)
        if kind == "readme" or rules >= MAX_RULES_PER_FILE:
            continue
        if (not _prose(line) and not _BULLET.match(line)) or _continues(text.lines, number - 1):
            continue
        whole = with_continuation(text.lines, number - 1)
        if kind == "contributing" and not _BULLET.match(line):
            continue  # CONTRIBUTING's prose explains; its bullet lists are the rules
        for rule in _rules_of(whole)[: MAX_RULES_PER_FILE - rules]:
            out.instructions.append(Instruction(_sentence(rule), text.ref(number)))
            rules += 1
    if kind == "readme":
        _describe(text, out)


def _rules_of(whole: str) -> list[str]:
    """The rules a bullet item or paragraph (read whole) states: itself when it is one rule
    short enough to keep; for a paragraph too long for one, each of its sentences that is a
    rule on its own, read as an instruction from its first words ("When writing commit
    messages, follow the format … for the title.", "Do not …"; not "What a reporter must not
    do is …", which explains)."""
    rule = clean_markdown(whole)
    bullet = _BULLET.match(whole) is not None
    if len(rule) <= MAX_RULE_CHARS:
        keep = len(rule) >= MIN_RULE_CHARS and _is_rule(rule, bullet=bullet)
        return [rule] if keep and not rule.endswith(":") else []
    if bullet:
        return []
    found: list[str] = []
    kept = False
    for sentence in _SENTENCE_END.split(rule):
        if not MIN_RULE_CHARS <= len(sentence) <= MAX_RULE_CHARS or sentence.endswith(":"):
            kept = False
        elif _is_rule(sentence, bullet=False, anywhere=False):
            found.append(sentence)
            kept = True
        elif kept and _IMPERATIVE.match(sentence):
            # "Do not store state in globals. Pass one context table down.": what to do
            # instead is the same rule's other half, kept with it while it stays one rule long.
            joined = f"{found[-1].rstrip('.')}; {sentence[:1].lower()}{sentence[1:]}"
            if len(joined) <= MAX_RULE_CHARS:
                found[-1] = joined
            kept = False
        else:
            kept = False
    return found


def _is_rule(text: str, *, bullet: bool, anywhere: bool = True) -> bool:
    """Whether `text` states a rule: a rule word ("always", "must", "do not"; only as its
    first words unless `anywhere`), a bullet that opens with an imperative ("Use …"), or an
    imperative after its condition ("When writing commit messages, follow …")."""
    words = _RULE_WORDS.search(text) if anywhere else _directive(text)
    if words or (bullet and _IMPERATIVE.match(text)):
        return True
    then = _CONDITIONED.match(text)
    return then is not None and _IMPERATIVE.match(then.group("then")) is not None


def _directive(text: str) -> bool:
    """Whether a sentence opens as an instruction (`_DIRECTIVE`, or "Only" and an imperative)."""
    only = _ONLY.match(text)
    if only is not None:
        return _IMPERATIVE.match(text[only.end() :]) is not None
    return _DIRECTIVE.match(text) is not None


def _prose(line: str) -> bool:
    """Whether a line is running text: not blank, a bullet, a heading, a table, a quote, a fence."""
    stripped = line.strip()
    return bool(stripped) and not (
        stripped.startswith(("#", "|", ">", "<!--")) or _BULLET.match(line) or ANY_FENCE.match(line)
    )


def _continues(lines: Sequence[str], index: int) -> bool:
    """Whether line `index` carries on the sentence of the line above (a hard-wrapped paragraph
    or bullet item): it is no rule of its own, its first line holds it."""
    if index == 0 or not _prose(lines[index]):
        return False
    above = lines[index - 1]
    return _prose(above) or bool(_BULLET.match(above))


#: Abbreviations whose full stop ends no sentence ("e.g. `make`", "i.e. the", "vs. the").
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp)|\b[A-Za-z])\.$", re.I)


def first_sentence(text: str) -> str:
    """The first sentence of a paragraph or list item read whole: it ends at a full stop, "!"
    or "?" followed by a space and a capital (or a code span or quote), never inside a code
    span, after an abbreviation ("e.g.") or at the end of a hard-wrapped line."""
    flat = " ".join(text.split())
    inside = False
    for index, char in enumerate(flat):
        if char == "`":
            inside = not inside
            continue
        if inside or char not in ".!?" or not _AFTER_STOP.match(flat, index + 1):
            continue
        if char == "." and _ABBREVIATION.search(flat[: index + 1]):
            continue
        return flat[: index + 1]
    return flat


def with_continuation(lines: Sequence[str], index: int) -> str:
    """Line `index` with the lines that carry on its sentence, joined: a hard-wrapped paragraph
    or bullet item read whole, never cut at the end of its first line."""
    joined = [lines[index]]
    for line in lines[index + 1 :]:
        if not _prose(line):
            break
        joined.append(line.strip())
    return " ".join(joined)


def _commands(out: Readings, text: TextFile, line: str, number: int, origin: str) -> None:
    if not line or len(line) > 400:
        return
    for typed in typed_commands(line):
        found = purpose_of(typed.text)
        if found is None or typed.use is None:
            continue
        out.commands.append(
            Command(
                text=typed.text,
                purpose=found[0],
                ecosystem=found[1],
                scope=typed.scope,
                origin=origin,
                ref=text.ref(number),
            )
        )


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


def _describe(text: TextFile, out: Readings) -> None:
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
            if _BULLET.match(line) and not line.startswith((" ", "\t")):
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
        if _BULLET.match(line) and _lead_in(paragraph):
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
        _sentence(description[:MAX_DESCRIPTION_CHARS]), text.ref(start), readme=True
    )


def _links_only(line: str) -> bool:
    """A line of links and badges alone, not prose that opens with a linked name ("[Shop](…)
    is a …")."""
    rest = MARKDOWN_LINK.sub("", _EMPTY_LINK.sub("", _IMAGE.sub("", line)))
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
_HTML_TAG = re.compile(r"<[^>]*>")


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
