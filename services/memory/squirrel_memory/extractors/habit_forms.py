"""Rules said in a form only a rule takes: how short a kind of thing should be, an order of work,
how a kind of name is written.

"keep commit messages short", "keep PR descriptions to one or two sentences", "keep lines under
80 characters", "keep each commit to a single logical change": how long a kind of thing the work
produces should be (a kind, not "it", "things" or "the README"). "write the tests
first, then implement", "first update the spec, then the code": an order of work whose first
step names a work product (not "fix the import first, then run it"). "Use snake_case for
function names", "name files in kebab-case", "constants should be UPPER_CASE": the naming
convention of a kind of name (plural, or "… names": never "this function" or one name), which
holds for all the code however long the task prompt that says it.

"keep commit messages in the imperative", "use the imperative mood in commit subjects", "commit
messages in the imperative mood, under 72 characters": the style a change's write-up (a commit
message, a PR description, a changelog entry) is written in; named in the plural with no verb,
a kind of write-up or name ("variable names in snake_case") is every one of them.

Habits said with no rule word, read from their shape:
- the indentation to use ("use tabs", "keep using tabs for indentation"; not "use tabs here");
- a means kept or dropped for a purpose ("keep using pnpm", "stop using print for logging"; a
  bare name, never "the old branch" or "it");
- a step for every thing of a kind, condition first or last ("for every PR, add a short
  summary", "write tests for every module"; not "for this PR, …", "add a test for each file"
  or "fix the imports in every file", which name things at hand);
- a property every thing of a kind must have ("make sure every commit message follows
  conventional commits"; not "make sure every test passes", a check of the moment);
- a standing fact about all things of a kind ("remember that all dates are stored in UTC"; not
  "remember that the server is down");
- a reminder of a step every change takes ("don't forget to update the changelog"; not "don't
  forget the semicolon on line 3");
- a step that waits for the user ("ask before deleting files", "ask before adding a
  dependency", "ask me first before you push"; not "ask before deleting the old branch");
- the commit convention ("use conventional commits", "commit with conventional commit messages").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: "keep commit messages short", "keep PR descriptions to one or two sentences".
_KEEP_SHORT = re.compile(
    r"^keep\s+(?P<x>(?!(?:it|this|that|them|these|those|things|everything|the|my|your|our|its|"
    r"going|working|at)\b)[\w`'./+-]+(?:\s+(?:and\s+)?[\w`'./+-]+){0,5}?)\s+"
    r"(?:(?:very\s+|really\s+)?(?:short|brief|concise|small|minimal|terse|focused|lean|atomic)|"
    r"to\s+(?:one|two|three|a few|\d+(?:-\d+)?|one or two)\s+(?:sentences?|lines?|words?|"
    r"paragraphs?|bullets?)|"
    # "keep lines under 80 characters", "keep functions below 40 lines": a limit in a unit
    r"(?P<limit>(?:under|below|within|(?:to\s+)?(?:at most|no more than|fewer than|less than))"
    r"\s+\d+\s+(?:characters?|chars?|columns?|cols?|lines?|words?|sentences?))|"
    # "keep each commit to a single logical change": one of a thing, not a size
    r"to\s+(?:a\s+single|one)\s+(?:logical\s+)?(?:change|concern|purpose|topic|feature))\b",
    re.IGNORECASE,
)
#: "keep it brief when you reply", "keep it short in your answers": the length of every reply
#: ("keep it short" alone may be this one text).
_KEEP_REPLIES_SHORT = re.compile(
    r"^keep\s+(?:it|things)\s+(?:very\s+|really\s+)?(?:short|brief|concise|terse)\s+(?:when(?:ever)?"
    r"\s+you\s+(?:reply|answer|respond|write\s+back)|in\s+(?:your|all|every)\s+(?:replies|answers|"
    r"responses|reply|answer|response))\b",
    re.IGNORECASE,
)
#: The texts a change is written up in, whose style is a habit of the user's.
_WRITE_UP = (
    r"(?:commit|pr|pull request|merge request|changelog)\s+(?:messages?|subjects?|titles?|"
    r"descriptions?|summar(?:y|ies)|entr(?:y|ies))"
)
#: The style such a text is written in.
_WRITE_UP_STYLE = (
    r"(?:imperative(?:\s+mood)?|present tense|past tense|lower-?case|english|"
    r"conventional commits?(?: style| format)?)"
)
#: Such texts as a kind, in the plural ("commit messages", "PR titles"): named bare, with no
#: verb, they can only be every one of them.
_WRITE_UPS = (
    r"(?:commit|pr|pull request|merge request|changelog)\s+(?:messages|subjects|titles|"
    r"descriptions|summaries|entries)"
)
#: "keep commit messages in the imperative", "keep the commit subject imperative", "use the
#: imperative mood in commit subjects", "write commit messages in English"; with no verb, the
#: kind in the plural and its style, maybe more of it after commas ("Commit messages in the
#: imperative mood, under 72 characters, no emojis", "PR titles: present tense").
_WRITE_UP_STYLED = re.compile(
    rf"^(?:(?:keep|write)\s+(?:the\s+|all\s+|our\s+)?(?P<x1>{_WRITE_UP})\s+(?:in\s+)?(?:the\s+)?"
    rf"(?P<s1>{_WRITE_UP_STYLE})"
    rf"|(?:use|follow)\s+(?:the\s+)?(?P<s2>{_WRITE_UP_STYLE})\s+(?:in|for)\s+(?:the\s+|all\s+)?"
    rf"(?P<x2>{_WRITE_UP})"
    # (the language a kind is written in is `way_forms`' reading: "commit messages in English")
    rf"|(?:all\s+)?(?P<x3>{_WRITE_UPS})\s*(?:\s+in|:)\s+(?:the\s+)?(?!english\b)"
    rf"(?P<s3>{_WRITE_UP_STYLE})"
    r"(?:\s*,\s*(?:and\s+)?(?!(?:the|this|that|it|for|in|on|please|pls|thanks)\b)[^,;]{2,40})"
    r"{0,3})"
    r"(?:\s*,?\s+(?:like|e\.g\.|such as)\b.*)?$",
    re.IGNORECASE,
)
#: "keep the commit message imperative": the one write-up of the change at hand, not a kind.
_THIS_WRITE_UP = re.compile(
    r"^(?:keep|write)\s+the\s+(?:commit|pr|pull request|merge request|changelog)\s+"
    r"(?:message|subject|title|description|summary|entry)\b",
    re.IGNORECASE,
)
#: The assistant's answers, as a kind whose length is asked for.
_ANSWER_KINDS = frozenset({"answers", "replies", "responses", "explanations"})
#: "write the tests first, then implement", "first update the spec, then the code".
_ORDER = re.compile(
    r"^(?:first,?\s+(?P<a1>[^,;]{4,70}?)|(?P<a2>[^,;]{4,70}?)\s+first),?\s+(?:and\s+)?then\s+"
    r"(?P<b>[^;]{3,120})$",
    re.IGNORECASE,
)
_WORK_PRODUCT = re.compile(
    r"\b(?:tests?|specs?|specifications?|docs?|documentation|plans?|designs?|changelog|"
    r"interfaces?|schemas?|types?)\b",
    re.IGNORECASE,
)
MAX_ORDER_STEP_WORDS = 5
#: A naming convention by its usual name.
NAMING_CONVENTION = re.compile(
    r"\b(?:(?:screaming[_ ])?snake[_ ]case|camel[_ ]?case|pascal[_ ]?case|kebab[-_ ]case|"
    r"upper[_ ]case|lower[_ ]case)\b",
    re.IGNORECASE,
)
_CONVENTION = NAMING_CONVENTION.pattern.replace("\\b", "")
#: A kind of name, in the plural or as "… names" (`function names`, `React components`).
_NAME_KIND = (
    r"(?:(?:all|every|new)\s+)?(?:[a-z]+\s+)?(?:"
    r"functions|methods|variables|classes|types|files|folders|directories|modules|packages|"
    r"constants|components|fields|properties|columns|tables|tests|branches|structs|"
    r"interfaces|enums|hooks|routes|endpoints|identifiers|arguments|parameters|keys|"
    r"(?:function|method|variable|class|type|file|folder|module|package|constant|component|"
    r"field|column|table|test|branch|struct|enum|key)\s+names)"
)
#: "use snake_case for function names", "name files in kebab-case", "constants should be
#: UPPER_CASE".
_NAMING = re.compile(
    rf"^(?:(?:use|write|prefer)\s+`?(?P<c1>{_CONVENTION})`?\s+(?:for|in)\s+(?:the\s+)?"
    rf"(?P<k1>{_NAME_KIND})"
    rf"|name\s+(?:the\s+)?(?P<k2>{_NAME_KIND})\s+(?:in|with|using)\s+`?(?P<c2>{_CONVENTION})`?"
    rf"|(?:the\s+)?(?P<k3>{_NAME_KIND})\s+(?:should|must)\s+(?:be\s+(?:written\s+)?(?:in\s+)?|"
    rf"use\s+)`?(?P<c3>{_CONVENTION})`?"
    # "variable names in snake_case", "files: kebab-case": the kind and its convention, no verb
    rf"|(?P<k4>{_NAME_KIND})\s*(?:\s+in|:)\s+`?(?P<c4>{_CONVENTION})`?)"
    r"\s*[.!]?$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class HabitForm:
    """A clause in a habit form: the rule as said, the words its key is made from, and for an
    order of work its first step (the caller checks that step starts with a verb of work)."""

    content: str
    subject: str
    first_step: str | None = None


#: "keep the commit messages short": a kind named with "the", in the plural.
_THE_KIND = re.compile(r"^(keep)\s+the\s+(?=(?:[\w`'./+-]+\s+){0,4}?[\w`'./+-]*[^s\W]s\s)", re.I)
#: "write the test first", "add a failing test first": the test before the change it tests.
_TEST_FIRST = re.compile(
    r"^(?:write|add|create)\s+(?:the\s+|a\s+)?(?:failing\s+|new\s+|unit\s+)?"
    r"(?P<x>tests?|specs?)\s+first$",
    re.IGNORECASE,
)


#: "use tabs", "keep using tabs for indentation", "indent with 4 spaces".
_INDENT = re.compile(
    r"^(?:(?:keep\s+)?(?:use|using)|indent\s+with|stick\s+(?:to|with))\s+"
    r"(?P<x>tabs|spaces|(?:\d|two|four|eight)\s+spaces)(?:\s+for\s+(?:indentation|indenting))?$",
    re.IGNORECASE,
)
#: Words that pick one thing of the moment rather than name a means.
_PICKED = (
    r"(?!(?:the|this|that|these|those|it|them|my|your|our|a|an|one|another|same|other|old|new|"
    r"previous|next|first|second|last)\b)"
)
#: "keep using pnpm", "keep using ruff for linting".
_KEEP_USING = re.compile(
    rf"^keep\s+using\s+{_PICKED}(?P<x>[a-z][\w.+-]*(?:\s+for\s+{_PICKED}[a-z][\w-]*)?)$",
    re.IGNORECASE,
)
#: "stop using print for logging": a means dropped for a purpose.
_STOP_USING = re.compile(
    rf"^stop\s+using\s+{_PICKED}(?P<x>[a-z][\w.+-]*)\s+for\s+{_PICKED}(?P<y>[a-z][\w-]*)$",
    re.IGNORECASE,
)
#: "for every PR, add a short summary": the step after a condition over every thing of a kind
#: ("for each file, …" shares out the files at hand).
_FOR_EVERY = re.compile(
    r"^(?:for|on|with|in)\s+every\s+(?:new\s+)?(?P<k>[\w-]+(?:\s+[\w-]+)?),\s*"
    r"(?P<d>[a-z][^,;]{3,120})$",
    re.IGNORECASE,
)
#: Verbs that make something for each thing of a kind.
_MAKE = r"(?:write|add|include|put|create|keep|document|update|bump)"
#: "write tests for every module", "add a docstring to every function" ("each" shares out a set
#: at hand: "add a test for each file").
_FOR_EVERY_AFTER = re.compile(
    rf"^{_MAKE}\s+(?P<o>(?:an?\s+)?{_PICKED}[a-z][\w-]*(?:\s+[a-z][\w-]*){{0,2}}?)\s+"
    r"(?:for|to|in|on)\s+every\s+(?:new\s+)?(?P<k>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)$",
    re.IGNORECASE,
)
#: "make sure every commit message follows conventional commits".
_EVERY_MUST = re.compile(
    r"^(?:make sure|ensure|be sure)\s+(?:that\s+)?(?P<x>(?:every|each)\s+(?:new\s+)?"
    r"[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+(?P<v>[a-z]+s)\b.{3,120})$",
    re.IGNORECASE,
)
#: A state of the moment the check is about, not a property things keep.
_MOMENT_CHECK = re.compile(
    r"^(?:passes|works|compiles|runs|builds|succeeds|loads|starts|fails)$", re.IGNORECASE
)
#: "remember that all dates are stored in UTC": a fact about every thing of a kind.
_FACT_OF_ALL = re.compile(
    r"^(?:remember|keep in mind|note|bear in mind)\s*,?\s+that\s+(?P<x>(?:all|every|each)\s+"
    r"[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+(?:are|is|must|should|get|go|live|use|uses)\s+"
    r"(?!\w+ing\b)[^,;]{2,100})$",
    re.IGNORECASE,
)
#: "don't forget to update the changelog": a step every change takes.
_REMINDER = re.compile(
    r"^(?:don'?t|do not|never)\s+forget\s+to\s+(?P<x>(?:update|bump|add|write|run)\s+(?:the\s+)?"
    r"(?:changelog|change log|release notes|version(?:\s+number)?|migrations?|type hints|"
    r"(?:unit\s+)?tests|docs|documentation))(?:\s+(?:too|as well|entry))?$",
    re.IGNORECASE,
)


#: "ask before deleting files", "ask me first before you push": a step that waits for the user
#: (a kind of action, not "ask before deleting the old branch").
_ASK_BEFORE = re.compile(
    rf"^(?:always\s+)?ask(?:\s+me)?(?:\s+first)?\s+before\s+(?:you\s+)?"
    # "ask before adding a dependency": any one of a kind ("the old branch" is one at hand)
    rf"(?P<x>[a-z]+(?:\s+(?:(?:a|an|any|new)\s+){{0,2}}{_PICKED}[a-z][\w-]*){{0,3}})$",
    re.IGNORECASE,
)
#: Steps whose effect outlives the session, worth the user's word on their own ("ask before
#: you push"; "ask before you start" waits for this task's go-ahead, not a habit).
_WEIGHTY = frozenset(
    {"push", "pushing", "commit", "committing", "merge", "merging", "deploy", "deploying"}
    | {"release", "releasing", "publish", "publishing", "delete", "deleting", "force-push"}
)
#: "use conventional commits", "commit with conventional commit messages".
_CONVENTIONAL = re.compile(
    r"^(?:(?:use|follow|stick\s+to|write)\s+(?:the\s+)?|commit\s+(?:with|using)\s+)"
    r"conventional[- ]commits?(?:\s+(?:format|style|spec(?:ification)?|messages?))?$",
    re.IGNORECASE,
)


def _kind_habit(text: str) -> HabitForm | None:
    """A habit said with no rule word, told by its shape (see the module's rules)."""
    if (match := _ASK_BEFORE.match(text)) and (
        len(match.group("x").split()) > 1 or match.group("x").lower() in _WEIGHTY
    ):
        return HabitForm(text, f"ask before {match.group('x')}")
    if _CONVENTIONAL.match(text):
        return HabitForm(text, "commit message conventional")
    if match := _INDENT.match(text):
        return HabitForm(
            f"Use {match.group('x')} for indentation", f"indentation {match.group('x')}"
        )
    if match := _KEEP_USING.match(text):
        return HabitForm(f"Keep using {match.group('x')}", f"use {match.group('x')}")
    if match := _STOP_USING.match(text):
        said = f"{match.group('x')} for {match.group('y')}"
        return HabitForm(f"Don't use {said}", f"use {said}")
    if match := _FOR_EVERY.match(text):
        return HabitForm(text, f"every {match.group('k')} {match.group('d')}", match.group("d"))
    if match := _FOR_EVERY_AFTER.match(text):
        return HabitForm(text, f"every {match.group('k')} {match.group('o')}")
    if (match := _EVERY_MUST.match(text)) and not _MOMENT_CHECK.match(match.group("v")):
        return HabitForm(text, match.group("x"))
    if match := _FACT_OF_ALL.match(text):
        said = match.group("x")
        return HabitForm(said[0].upper() + said[1:], said)
    if match := _REMINDER.match(text):
        return HabitForm(f"Always {match.group('x')}", match.group("x"))
    return None


def reply_length_form(clause: str) -> HabitForm | None:
    """ "keep it brief when you reply" → the length of every reply, whose "it" is no thing of
    the task; None for other clauses."""
    if _KEEP_REPLIES_SHORT.match(clause.strip()):
        return HabitForm(clause.strip(" .!,;:"), "answer length")
    return None


def habit_form(clause: str) -> HabitForm | None:
    """The habit form `clause` takes ("keep <kind of thing> short", "<work product> first,
    then …"), or None."""
    if form := _kind_habit(clause.strip(" .!,;:")):
        return form
    if (match := _WRITE_UP_STYLED.match(clause.strip(" .!;:"))) and not _THIS_WRITE_UP.match(
        clause.strip()
    ):
        kind = (match.group("x1") or match.group("x2") or match.group("x3")).lower()
        style = (match.group("s1") or match.group("s2") or match.group("s3")).split()[0].lower()
        # One key for one habit, whichever part of the write-up it names.
        base = "commit message" if kind.startswith("commit") else kind.split()[0]
        return HabitForm(clause.strip(" .!,;:"), f"{base} {style}")
    if match := _KEEP_SHORT.match(_THE_KIND.sub(r"\1 ", clause.strip())):
        kind = match.group("x")
        # "keep answers short" is the length of every answer, as "keep your answers short" is
        subject = "answer length" if kind.lower() in _ANSWER_KINDS else kind
        if match.group("limit"):
            # "keep components under 200 lines": keyed by the limit, as a rule word would key it
            subject = clause.strip(" .!,;:")
        return HabitForm(clause.strip(" .!,;:"), subject)
    if match := _TEST_FIRST.match(clause.strip(" .!,;:")):
        return HabitForm(clause.strip(" .!,;:"), f"{match.group('x')} first")
    if match := _NAMING.match(clause.strip()):
        kind = match.group("k1") or match.group("k2") or match.group("k3") or match.group("k4")
        convention = (
            match.group("c1") or match.group("c2") or match.group("c3") or match.group("c4")
        )
        return HabitForm(clause.strip(" .!,;:"), f"{kind} {convention}")
    if match := _ORDER.match(clause):
        first = match.group("a1") or match.group("a2")
        if _WORK_PRODUCT.search(first) and len(first.split()) <= MAX_ORDER_STEP_WORDS:
            return HabitForm(clause.strip(" .!,;:"), f"{first} {match.group('b')}", first)
    return None
