"""Caveats the assistant states when it reports on its work: a file that is generated, and a
command to run again after a kind of change.

A closing report or an answer often ends with what the next person must know ("Note: after
changing any `@JsonSerializable` class you must run `dart run build_runner build`; the
`*.g.dart` files are generated, so don't edit them by hand."). Nothing failed, no cue word
opens it as a finding, and it addresses the user, so the rules for findings leave it; yet it
is a standing rule of the project in every ecosystem. A clause (sentences split at `;`) of the
main agent's reply gives one when it is built as one of two shapes:

- generated: a code span names what (a file, a folder, a glob), then "is/are (auto-)generated",
  and the clause either names the generator ("by `x`", "from `y`") or forbids editing it
  ("don't edit it", "do not edit them by hand", "never edit"); "was generated" (the session's
  own step), "is now generated" (its change) and "is not generated" say nothing;
- after a change: "after/whenever/every time (you) change(d/ing) X, (you) must/need to/have
  to (re-)run `cmd`", "after any X change …", or "`cmd` must be re-run after changing X": the
  command in a code span, the change named in a few words.

Either way the clause is stated, not asked ("?"), hedged ("might", "probably", "if needed"),
planned ("I'll", "let me"), naming no place outside the project (`/home/dev/other`, `../lib`),
and not taken back by a later reply or the user's next message. The
memory keeps the assistant's words for the generated file (a pitfall: editing it is lost on
the next run) and says the recipe as "After <change>, run `cmd`" (the words after the command
that name an alternative or "again" kept). A reply gives at most `MAX_PER_REPLY` caveats, an
episode `MAX_CAVEATS`, each once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType
from squirrel_memory.extractors.delegated_commands import names_elsewhere
from squirrel_memory.extractors.elsewhere import replies_elsewhere
from squirrel_memory.extractors.finder_rows import Finder
from squirrel_memory.extractors.subagent_findings import taken_back
from squirrel_memory.extractors.wording import key_slug, plain_apostrophes, sentence, without_bold
from squirrel_memory.models import MemoryType, StoredEvent

#: A generated file: a pitfall (an edit to it is lost); a command after a change: a recipe.
GENERATED_IMPORTANCE = 0.45
AFTER_CHANGE_IMPORTANCE = 0.45
MAX_PER_REPLY = 2
MAX_CAVEATS = 4
MIN_CHARS = 25
MAX_CHARS = 240
MAX_WHAT_WORDS = 8

_FENCE = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*])")
_CLAUSE = re.compile(r";\s+")
#: A label the assistant puts before a caveat ("Note:", "**Heads up:**", "- "), left off.
_LABEL = re.compile(
    r"^(?:[-*\u2022]\s+|\d+[.)]\s+)?(?:\*\*)?(?:note|notes|heads[- ]up|gotcha|caveat|"
    r"important|warning|fyi|reminder|tip)\s*(?:\*\*)?\s*:\s*(?:\*\*)?\s*",
    re.IGNORECASE,
)
_ITEM = re.compile(r"^(?:[-*\u2022]\s+|\d+[.)]\s+)")
_SPAN = r"`[^`\n]+`"
_HEDGE = re.compile(
    r"\b(?:might|may|maybe|probably|perhaps|likely|possibly|seems?|i think|guess|if needed|"
    r"not sure)\b",
    re.IGNORECASE,
)
_PLAN = re.compile(
    r"\b(?:i'll|i will|i'd|let me|let's|we'll|next,? i|should i|want me to|shall i)\b", re.I
)
#: "`x` is generated", "the `*.g.dart` files are auto-generated": what, then the verb.
_GENERATED = re.compile(
    r"^(?:the\s+|all\s+|both\s+)?(?P<what>" + _SPAN + r"(?:\s+(?:and|or)\s+" + _SPAN + r")?)"
    r"(?:\s+(?:files?|folders?|director(?:y|ies)|modules?|code|sources?|types?|bindings?))?"
    r"(?:\s*\([^)]{0,60}\))?\s+(?:is|are)\s+(?:auto-?|code-?)?generated\b(?P<rest>.*)$",
    re.IGNORECASE,
)
#: The generated clause names its generator or forbids editing the file.
_GENERATOR = re.compile(r"^\s*(?:by|from|with)\s+`", re.IGNORECASE)
_NO_EDIT = re.compile(
    r"\b(?:don'?t|do not|never|shouldn'?t|should not)\s+(?:be\s+)?(?:hand-?|manually\s+)?"
    r"edit(?:ed)?\b|\bnot (?:be )?(?:hand-?)?edited\b|\bnot meant to be edited\b",
    re.IGNORECASE,
)
_CHANGE_VERB = (
    r"(?:chang|edit|modify|modifi|add|updat|touch|renam|remov|bump|regenerat)(?:e|es|ed|ing|ies|y)?"
)
#: "after changing X, you must run `cmd`", "after any X change you have to run `cmd` again".
_AFTER = re.compile(
    r"^(?P<when>after|whenever|every time|each time|any time)\s+"
    r"(?P<what>(?:(?:you|someone)\s+)?" + _CHANGE_VERB + r"\s+[^,;]{2,90}?|"
    r"(?:any|every|each|a)\s+[^,;]{1,60}?\s+(?:change|edit|update)s?)"
    r",?\s+(?:you\s+)?(?:must|have to|need to|'ll need to|will need to|has to)\s+"
    r"(?:re-?run|run|execute)\s+(?P<cmd>" + _SPAN + r")(?P<tail>[^.;]*)",
    re.IGNORECASE,
)
#: "`cmd` must be re-run after changing X".
_AFTER_CMD = re.compile(
    r"^(?P<cmd>" + _SPAN + r")\s+(?:must|has to|needs to)\s+(?:be\s+)?(?:re-?run|run)"
    r"(?:\s+again)?\s+(?P<when>after|whenever|every time|each time|any time)\s+"
    r"(?P<what>(?:(?:you|someone)\s+)?" + _CHANGE_VERB + r"\s+[^,;.]{2,90}|"
    r"(?:any|every|each|a)\s+[^,;.]{1,60}?\s+(?:change|edit|update)s?)\s*(?P<tail>[.,;]?.*)$",
    re.IGNORECASE,
)
#: What may follow the command in the recipe: "again", an alternative command in brackets.
_TAIL = re.compile(r"^\s*(?:again\b)?\s*(?:\((?:or\s+)?`[^`]+`[^)]{0,40}\))?")


@dataclass(frozen=True, slots=True)
class Caveat:
    """A caveat: `generated` (a pitfall) or `after_change` (a recipe)."""

    kind: str
    key: str
    content: str
    event_ids: tuple[str, ...]


def _clauses(text: str) -> list[str]:
    """The clauses of the prose of a reply: code blocks left out, split into sentences and at
    `;`, each without its list marker or caveat label."""
    prose = _FENCE.sub(" ", plain_apostrophes(text))
    found: list[str] = []
    for line in prose.split("\n"):
        flat = " ".join(_ITEM.sub("", line.strip()).split())
        if not flat or flat.startswith(("#", ">", "|")):
            continue
        for said in _SENTENCE.split(flat):
            for clause in _CLAUSE.split(_LABEL.sub("", without_bold(said))):
                found.append(_LABEL.sub("", clause.strip()))
    return found


def _plain(clause: str) -> bool:
    """Whether a clause is stated: not asked, hedged or planned, and quotable whole."""
    return (
        MIN_CHARS <= len(clause) <= MAX_CHARS
        and clause.count("`") % 2 == 0
        and not clause.rstrip().endswith(("?", ":"))
        and not _HEDGE.search(clause)
        and not _PLAN.search(clause)
    )


def generated(clause: str) -> str:
    """The generated-file caveat one clause states, as a sentence, or ""."""
    match = _GENERATED.match(clause)
    if match is None or not _plain(clause):
        return ""
    rest = match.group("rest")
    if not (_GENERATOR.match(rest) or _NO_EDIT.search(rest)):
        return ""
    return sentence(re.sub(r"^the\s+", "The ", clause)) or ""


def _gerund(verb: str) -> str:
    """A verb of change as its -ing form: "changed", "change", "changes" -> "changing"."""
    word = verb.lower()
    if word.endswith("ing"):
        return word
    base = re.sub(r"(?:ied|ies)$", "y", word)
    base = re.sub(r"(?<=[^e])(?:ed|es|s)$", "", base) if base == word else base
    if base.endswith("e") and not base.endswith("ee"):
        base = base[:-1]
    return f"{base}ing"


def after_change(clause: str) -> str:
    """The command to run after a kind of change one clause states, as a recipe, or ""."""
    if not _plain(clause):
        return ""
    match = _AFTER.match(clause) or _AFTER_CMD.match(clause)
    if match is None:
        return ""
    what = re.sub(r"^(?:you|someone)\s+", "", match.group("what").strip())
    if len(what.split()) > MAX_WHAT_WORDS or what.count("`") % 2:
        return ""
    if not re.match(r"^(?:any|every|each|a)\s", what, re.IGNORECASE):
        verb, _, rest = what.partition(" ")
        what = f"{_gerund(verb)} {rest}"
    tail = _TAIL.match(match.group("tail") or "")
    extra = tail.group(0).rstrip() if tail else ""
    return sentence(f"After {what}, run {match.group('cmd')}{extra}") or ""


def report_caveats(events: list[StoredEvent]) -> list[Caveat]:
    """The caveats the main agent's replies state in `events`, each once."""
    elsewhere = replies_elsewhere(events)
    kept: list[Caveat] = []
    keys: set[str] = set()
    for index, event in enumerate(events):
        if (
            event.event_type != EventType.ASSISTANT_RESPONSE
            or event.sidechain
            or event.id in elsewhere
        ):
            continue
        text = event.content.get("text")
        if not isinstance(text, str) or "`" not in text or taken_back(events, index):
            continue
        here = 0
        for clause in _clauses(text):
            if here >= MAX_PER_REPLY or len(kept) >= MAX_CAVEATS:
                break
            kind, said = "generated", generated(clause)
            if not said:
                kind, said = "after_change", after_change(clause)
            if not said or names_elsewhere(clause, event.project_id):
                continue  # a caveat of another checkout is that checkout's
            key = f"{'pitfall' if kind == 'generated' else 'recipe'}:caveat:{key_slug(said)}"
            if key in keys:
                continue
            keys.add(key)
            kept.append(Caveat(kind, key, said, (event.id,)))
            here += 1
    return kept


def generated_files(events: list[StoredEvent]) -> list[Caveat]:
    """The generated-file caveats of `events`."""
    return [c for c in report_caveats(events) if c.kind == "generated"]


def after_changes(events: list[StoredEvent]) -> list[Caveat]:
    """The commands to run after a kind of change, of `events`."""
    return [c for c in report_caveats(events) if c.kind == "after_change"]


#: The finders' rows of this rule: a generated file as a pitfall, a command after a change as a
#: recipe (`finder_parts.problems_and_findings` runs the rule once for both).
GENERATED_ROW = Finder(
    generated_files, MemoryType.PITFALL, GENERATED_IMPORTANCE, lambda _f: ("pitfall", "generated")
)
AFTER_CHANGE_ROW = Finder(
    after_changes, MemoryType.RECIPE, AFTER_CHANGE_IMPORTANCE, lambda _f: ("recipe", "after-change")
)
