"""Assistant instruction files, CONTRIBUTING and README: standing rules, named commands, and
what the project says it is."""

from __future__ import annotations

import re
from collections.abc import Sequence

from squirrel_core.commands import typed_commands
from squirrel_memory.repository.findings import Command, Instruction, Readings
from squirrel_memory.repository.markdown_prose import ANY_FENCE, as_sentence, clean_markdown
from squirrel_memory.repository.markdown_prose import BULLET as _BULLET
from squirrel_memory.repository.readme_description import describe_readme
from squirrel_memory.repository.snapshot import TextFile
from squirrel_memory.repository.task_records import purpose_of

#: Rules kept per instruction file, and their length bounds (characters).
MAX_RULES_PER_FILE = 20
MIN_RULE_CHARS, MAX_RULE_CHARS = 12, 300

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
    r"document|commit|push|create|update|test|format|lint|wrap|log|validate|raise|pass)\b"
    # not the first part of a compound name ("Commit-agent (conductor)", "Test-fixer")
    r"(?!-)",
    re.IGNORECASE,
)
#: A line that maps one thing to another ("Test failures → test-fixer agent"): a table's row
#: in a list, not an instruction.
_MAPPING = re.compile(r"\s(?:→|->|=>)\s")
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
_SHELL_FENCES = {"", "sh", "bash", "shell", "console", "zsh", "fish", "terminal", "cmd"}
_INLINE_CODE = re.compile(r"`([^`\n]{2,200})`")
_PROMPT = re.compile(r"^\s*(?:\$|>|%|#)\s+")
#: A heading that names the section of the project's commands ("## Commands", "### Development
#: commands", "## Useful Commands").
_COMMANDS_HEADING = re.compile(r"^#{1,6}\s+(?:[\w-]+\s+)?commands\s*:?\s*$", re.IGNORECASE)
_HEADING = re.compile(r"^#{1,6}\s")
#: A heading that says when its rules hold ("## Before a release", "### When adding a
#: dependency", "## Release checklist"): a rule under it holds then, not always.
_CONDITION_HEADING = re.compile(
    r"^#{1,6}\s+(?P<when>(?:(?:before|after|when|whenever|while|if|on|during|upon|prior to)\s+"
    r"[^#\n]{3,60}?|[^#\n]{3,40}?\s+checklist))\s*:?\s*#*\s*$",
    re.IGNORECASE,
)
#: A template's placeholder left in a generated file ("[ONLY COMMANDS FOR ACTIVE TECHNOLOGIES]"):
#: capitals in brackets, which separate the commands written around them.
_PLACEHOLDER = re.compile(r"\[[A-Z][A-Z0-9 _/,'-]{3,}\]")
#: The most words one bare command of a commands section has (more is a sentence).
_MAX_BARE_WORDS = 8
#: Words of running English that no bare command holds ("make sure the tests pass").
_PROSE_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "to",
        "and",
        "or",
        "sure",
        "before",
        "after",
        "that",
        "this",
        "these",
        "those",
        "you",
        "your",
        "we",
        "is",
        "are",
        "it",
        "of",
        "for",
        "with",
        "when",
        "if",
        "then",
        "first",
    ]
)
#: A sentence's end: a word and its full stop (not `./...`).
_SENTENCE_STOP = re.compile(r"[A-Za-z)][.:!?]$")


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


def read_instruction_file(text: TextFile, out: Readings, kind: str) -> None:
    origin = "docs" if kind == "readme" else "instructions"
    rules = 0
    fence: str | None = None
    indented = indented_code_lines(text.lines)
    in_commands = False
    when = ""
    for number, line in enumerate(text.lines, 1):
        if fence is None and _HEADING.match(line):
            in_commands = _COMMANDS_HEADING.match(line.strip()) is not None
            condition = _CONDITION_HEADING.match(line.strip())
            when = clean_markdown(condition.group("when")) if condition else ""
        if in_commands and fence is None and number - 1 not in indented:
            for bare in _bare_commands(line):
                _commands(out, text, bare, number, origin)
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
            out.instructions.append(Instruction(as_sentence(_held(rule, when)), text.ref(number)))
            rules += 1
    if kind == "readme":
        describe_readme(text, out)


def _held(rule: str, when: str) -> str:
    """`rule` said with the condition its section's heading gives ("Before a release: run the
    full browser suite …"), unless it says that condition itself."""
    if not when or when.lower() in rule.lower():
        return rule
    first = rule[:1].lower() if rule[1:2].islower() else rule[:1]
    return f"{when[:1].upper()}{when[1:]}: {first}{rule[1:]}"


#: The end of an item that is one part of an enumeration completing another line's sentence
#: ("Separate:" / "- dependent work that must run in order;" / "- user-only actions; and").
_ENUMERATED = re.compile(r"(?:;|[;,]\s+(?:and|or))\s*$", re.IGNORECASE)


def _rules_of(whole: str) -> list[str]:
    """The rules a bullet item or paragraph (read whole) states: itself when it is one rule
    short enough to keep; for a paragraph too long for one, each of its sentences that is a
    rule on its own, read as an instruction from its first words ("When writing commit
    messages, follow the format … for the title.", "Do not …"; not "What a reporter must not
    do is …", which explains)."""
    rule = clean_markdown(whole)
    bullet = _BULLET.match(whole) is not None
    if bullet and _ENUMERATED.search(rule):
        return []  # one part of an enumeration that completes the sentence above it
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


#: A template's unfilled placeholder ("[COMMANDS FOR YOUR STACK]",
#: "[NEEDS CLARIFICATION]"): a line holding one was never written for this project.
_PLACEHOLDER = re.compile(r"\[[A-Z][A-Z0-9_/-]*(?: [A-Z0-9_/-]+)+\]")


def _is_rule(text: str, *, bullet: bool, anywhere: bool = True) -> bool:
    """Whether `text` states a rule: a rule word ("always", "must", "do not"; only as its
    first words unless `anywhere`), a bullet that opens with an imperative ("Use …"), or an
    imperative after its condition ("When writing commit messages, follow …"); never a line
    that holds a template's unfilled placeholder."""
    if _PLACEHOLDER.search(text):
        return False
    if _MAPPING.search(text) and not _RULE_WORDS.search(text):
        return False
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


def _bare_commands(line: str) -> list[str]:
    """The commands a plain line of a commands section holds without code marks
    (`npm test [ONLY COMMANDS …] npm run lint`): the parts between a template's placeholders,
    each a short command and not a sentence. A line with code marks, a bullet's words or a
    heading gives none (its code spans are read as every line's are)."""
    stripped = line.strip()
    if not stripped or "`" in stripped or not _prose(line):
        return []
    parts = [p.strip() for p in _PLACEHOLDER.split(stripped)]
    return [
        p
        for p in parts
        if p
        and len(p.split()) <= _MAX_BARE_WORDS
        and not _SENTENCE_STOP.search(p)
        and not _PROSE_WORDS.intersection(w.lower() for w in p.split())
    ]


def _commands(out: Readings, text: TextFile, line: str, number: int, origin: str) -> None:
    if not line or len(line) > 400:
        return
    for typed in typed_commands(line):
        found = purpose_of(typed.text)
        if found is None or typed.use is None:
            continue
        if typed.text.split()[0].endswith("/"):
            continue  # a folder in a layout's tree (`tests/`) runs nothing
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
