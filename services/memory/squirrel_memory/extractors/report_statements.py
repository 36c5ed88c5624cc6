"""What a subagent's report states about the code, read by its shape rather than its words.

A subagent sent to read the code hands back a report, often in the user's language rather than
English ("- `check` depende de `testJsonContent`.", "- **Contradicción en el core.** El
`mods.toml` committeado marca curios … como `mandatory=true`."). The rules that read reports for
problems (`subagent_findings`) or for labelled parts (`labelled_points`) wait for English cue
words; this one reads the report's structure, the same in every ecosystem and language. A
sentence of a list item of the report becomes a project fact when all of these hold:

- it names the code: two code spans at least (a file, a setting, a function, a value), and
  says something about them: three words at least outside the spans;
- it states how the code is, not a reviewer's verdict on the change under review ("`x`
  correctly short-circuits", "only `a` and `b` are touched", "as intended", "no regressions"):
  a later session does not have that diff;
- it is stated, not asked, guessed or planned: no question mark, no trailing colon (a lead-in
  to a list), no hedge or modal word in the languages reports are written in ("might",
  "probably", "should"; "quizás", "podría", "debería"; "peut-être", "devrait"; "vielleicht",
  "sollte" …), no first person (the session's own steps: "I", "we", "yo", "nosotros", "je",
  "ich" …), and not under a heading that asks something;
- it says more than that a thing was left as it was ("The existing `check` script is
  unchanged.", "`docs/api.md` stays untouched."): the state of the session's work, not how the
  code is;
- it is the report's own words: not a line the session read in a file (a sentence found as it
  stands in a tool's output is the file's text, quoted), nor a quoted line (`> …`) or a table;
- it is about this project: no path outside the root and none in a dependency's folder, the
  subagent looked at no other place (`elsewhere.replies_elsewhere`), and the whole report
  names no absolute path outside the root (a summary of another repository);
- nobody took it back (`subagent_findings.taken_back`), and the session's own run did not
  contradict the report (a command it gives failed when the session ran it:
  `contradicted_reports`).

The memory says who found it ("A subagent reading the code reported: …"), with the item's
bold label when it names the part ("… reported (settings.gradle): …"): the code may change
after the report. A report gives at most `MAX_PER_REPORT` statements, an episode
`MAX_STATEMENTS`, each once; one said twice (the hand-back and the relayed result) is kept
once.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from squirrel_core.events import EventType
from squirrel_core.subagent_tools import SUBAGENT_TOOLS
from squirrel_memory.extractors.activity import commands, relative_path
from squirrel_memory.extractors.contradicted_reports import contradicted, failed_last
from squirrel_memory.extractors.elsewhere import looked_away, replies_elsewhere
from squirrel_memory.extractors.placements import opens_with_action
from squirrel_memory.extractors.subagent_findings import (
    DEPENDENCY_CODE,
    last_replies,
    report_of,
    taken_back,
)
from squirrel_memory.extractors.wording import key_slug, sentence, without_bold
from squirrel_memory.models import StoredEvent

#: Importance of a statement read in a subagent's report: below what a file or a run shows.
IMPORTANCE = 0.35
PREFIX = "Subagent report"
KEY_PREFIX = "project:reported:"
MIN_CHARS = 25
MAX_CHARS = 240
MIN_SPANS = 2
MIN_WORDS = 2
#: Without a label, the first code span comes within this many words (the sentence's subject).
MAX_SUBJECT_WORDS = 5
MAX_LABEL_CHARS = 60
#: Statements kept per report and per episode.
MAX_PER_REPORT = 12
MAX_STATEMENTS = 12
#: Sentences of one list item said together: an item is one point.
MAX_PER_ITEM = 2

#: The markdown a report is read by (shared with `closing_reports`): fenced code, a heading, a
#: list item, the break between sentences.
FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
HEADING = re.compile(r"^\s*#{1,6}\s+(?P<title>.+?)\s*$")
ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,2}[.)])\s+(?P<body>.+)$")
#: A bold label opening an item: `**Label.**`, `**Label:**`, `**`path`**:`.
_LABEL = re.compile(r"^\*\*(?P<label>[^*]{1,80}?)[.:]?\*\*\s*[.:]?\s*")
_SPAN = re.compile(r"`[^`\n]+`")
#: A sentence ends at `.`, `!` or `?` before a capital, a code span, a quote or a bracket (any
#: script's capital: `str.isupper` is checked after the split).
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=\S)")
_WORD = re.compile(r"[^\W\d_]{2,}")
#: Hedges and modals in the languages reports are written in: a guess, a plan or advice.
_HEDGE = re.compile(
    r"\b(?:might|may|maybe|probably|perhaps|likely|possibly|presumably|seems?|could|would|"
    r"should|guess|suspect|assume|unclear|not sure|appears?|apparently|"
    r"unverified|untested|not (?:yet )?(?:verified|tested|confirmed)|"
    r"needs? (?:verification|checking)|to be (?:confirmed|verified)|tbd|"
    r"quizás?|quiza|tal vez|probablemente|posiblemente|aparentemente|parece|podría|podrían|"
    r"debería|deberían|"
    r"habría|habrían|sería|serían|"
    r"peut-être|probablement|semble|pourrait|pourraient|devrait|devraient|serait|"
    r"vielleicht|wahrscheinlich|scheint|könnte|könnten|sollte|sollten|würde|würden|"
    r"talvez|provavelmente|parece|poderia|deveria|seria|"
    r"forse|probabilmente|sembra|potrebbe|dovrebbe|sarebbe)\b",
    re.IGNORECASE,
)
#: What is planned or still to do, in the same languages.
_LATER = (
    r"will|won't|going to|need to|needs to|next|todo|to-do|yet|later|"
    r"instead|en lugar del?|en vez del?|au lieu d[e'’]|statt|anstatt|em vez de|invece di|"
    r"proposed|ahora|todavía|habrá|hay que|tendrá|próximo|pendiente|maintenant|il faut|"
    r"encore|jetzt|noch|muss|müssen|agora|ainda|precisa|adesso|ancora|bisogna"
)
#: What is planned, still to do or true only for now: a subagent's "now" is the code as it
#: read it, which the session may be about to change.
#: A word followed by a dot and a letter is part of a name ("Next.js"), not the word.
_PLAN = re.compile(rf"\b(?:now|currently|{_LATER})\b(?!\.\w)", re.IGNORECASE)
#: What is planned or still to do, where "now" is the state a change left (a closing report).
PLANNED = re.compile(rf"\b(?:{_LATER})\b(?!\.\w)", re.IGNORECASE)
#: An instruction's first word, beside those `placements.opens_with_action` knows.
_ADVICE = re.compile(
    r"^(?:modify|expand|avoid|prefer|switch|introduce|wrap|validate|handle|pass|call|drop|"
    r"split|restructure|adopt|query|store|persist|reuse|guard|export|import|return|"
    # work still to do ("Complete `x` or defer it", "Document why `y` is 500")
    r"complete|finish|finalize|resolve|document|clarify|mark|decide|verify|confirm|"
    r"investigate|simplify|consolidate|deprecate|bump|pin|defer|postpone)\b",
    re.IGNORECASE,
)
#: The first person: the session's own steps, not a statement about the code.
_FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|i've|i'll|my|me|we|we're|we'll|our|us|let's|let me|"
    r"yo|mi|nosotros|nuestro|nuestra|voy|vamos|"
    r"je|j'ai|nous|notre|mon|"
    r"ich|wir|unser|mein|"
    r"eu|nós|nosso|"
    r"io|noi|nostro)\b",
    re.IGNORECASE,
)
#: A reviewer's verdict on the change under review ("`x` correctly short-circuits", "only `a`
#: and `b` are touched"): it judges one diff, which a later session does not have.
_VERDICT = re.compile(
    r"\b(?:correctly|properly|as intended|as expected|per the (?:ruling|spec|plan)|"
    r"(?:is|are|was|were) (?:touched|left alone)|no regressions?|lgtm|looks? (?:good|fine|right)|"
    r"the diff|(?:this|the) (?:change|fix|patch|pr|commit)\b(?! of)|pass(?:es)? and cover|"
    r"needs? (?:no )?chang(?:e|es|ing)|nothing else (?:in|needs)|"
    r"correctamente|correctement|korrekt|corretamente)\b",
    re.IGNORECASE,
)
_LETTER = re.compile(r"[^\W\d_]")
_BRACKETED = re.compile(r"\([^()]*\)")
#: A listing's dash between a name and what it is ("`types.ts` - Core interfaces").
_LISTING = re.compile(r"(?:^|\s)(?:-|--|→|->)\s")
#: A sentence whose whole predicate says a thing was left as it was (its code spans taken out):
#: the state of the session's work, not how the code is.
_STATUS_ONLY = re.compile(
    r"^\s*(?:[\w-]+\s+){0,4}(?:is|are|was|were|remains?|stays?)\s+(?:left\s+|still\s+|all\s+)?"
    r"(?:unchanged|untouched|intact|as (?:it|they) (?:was|were))\s*[.!]?\s*$",
    re.IGNORECASE,
)
_ABSOLUTE = re.compile(r"(?<![\w:/.~])(?:/[\w.@-]+){2,}|\b[A-Za-z]:\\[\w.\\ -]+")
_PATH = re.compile(r"(?<![\w:/])(?:/|\.\./|\./)?(?:[\w.@-]+/)+[\w.@-]+\.\w{1,6}\b")
_KEY_DROP = frozenset(str.split("a an the is are of in on to and or el la los las de del y en"))


@dataclass(frozen=True, slots=True)
class ReportStatement:
    """A statement of a subagent's report: key, content, the report's event, files it names."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...]


def in_project(path: str) -> bool:
    """Whether `path` (relative to the root, normalised) is inside the project."""
    return bool(path) and not path.startswith(("/", "~", "../")) and path != ".."


def named_paths(text: str, project_id: str) -> list[str]:
    """The file paths `text` names, relative to the project root and normalised."""
    return [posixpath.normpath(relative_path(p, project_id)) for p in _PATH.findall(text)]


def _about_elsewhere(report: str, project_id: str) -> bool:
    """Whether the report names an absolute path outside the project root."""
    root = project_id.rstrip("/") + "/"
    for raw in _ABSOLUTE.findall(FENCE.sub(" ", report)):
        if "\\" in raw or not (raw + "/").startswith(root):
            return True
    return False


def statement(
    raw: str,
    *,
    labelled: bool = False,
    min_spans: int = MIN_SPANS,
    plans: re.Pattern[str] = _PLAN,
    reviewing: bool = False,
) -> str:
    """One sentence of a report's list item as a statement about the code, or "" when it
    asks, guesses, plans (`plans`), speaks of someone's steps or names too little (fewer than
    `min_spans` code spans). A `reviewing` report (a subagent's, reading the session's change)
    also gives no verdict on that change."""
    flat = " ".join(without_bold(raw).split()).strip()
    if not MIN_CHARS <= len(flat) <= MAX_CHARS or flat.count("`") % 2 or "``" in flat:
        return ""  # too short or long, or spans that cannot be told apart
    if "?" in _SPAN.sub(" ", flat) or "¿" in flat or flat.endswith(":"):
        return ""
    # "a name (`x`, `y`)" only lists examples; a version (`6.0.54`) names no part of the code.
    spans = [span for span in _SPAN.findall(_BRACKETED.sub(" ", flat)) if _LETTER.search(span)]
    prose = _SPAN.sub(" ", flat)
    if len(spans) < min_spans or len(_WORD.findall(prose)) < MIN_WORDS:
        return ""
    if _LISTING.search(prose):
        return ""  # "`name` - what it is": a listing, said by `report_layout`
    if _HEDGE.search(prose) or plans.search(prose) or _FIRST_PERSON.search(prose):
        return ""
    if reviewing and _VERDICT.search(prose):
        return ""
    if _STATUS_ONLY.match(prose):
        return ""  # "The existing `check` script is unchanged.": the work's state, not the code's
    if DEPENDENCY_CODE.search(flat) or opens_with_action(flat) or _ADVICE.match(flat):
        return ""
    if not (flat[0].isupper() or flat[0] == "`" or flat[0].isdigit()):
        return ""  # the rest of a sentence cut at an abbreviation
    if not labelled and "`" not in " ".join(flat.split()[:MAX_SUBJECT_WORDS]):
        return ""  # no subject named: a fragment of a list about something above it
    return sentence(flat) or ""


def _items(report: str) -> list[tuple[str, list[str]]]:
    """(label, sentences) for each of the report's list items, outside code blocks, quotes and
    tables, under no heading that asks something."""
    found: list[tuple[str, list[str]]] = []
    asking = False
    for line in FENCE.sub(" ", report).splitlines():
        if heading := HEADING.match(line):
            asking = heading.group("title").rstrip("*: ").endswith("?")
            continue
        item = ITEM.match(line)
        if asking or item is None:
            continue
        body = item.group("body").strip()
        label = ""
        if bold := _LABEL.match(body):
            label, body = bold.group("label").strip(" .:"), body[bold.end() :]
            if len(label) > MAX_LABEL_CHARS or "?" in label:
                continue
            if _SPAN.fullmatch(label):
                label = label.strip("`")
            if "`" in label:
                label = ""  # a label cut inside its code span
        found.append((label, SENTENCE.split(body)))
    return found


def _quoted(text: str, outputs: list[str]) -> bool:
    """Whether `text` stands as it is in a tool's output: the file's words, not the report's."""
    probe = text.rstrip(".")
    return len(probe) >= MIN_CHARS and any(probe in output for output in outputs)


def _sent_elsewhere(events: list[StoredEvent], index: int) -> bool:
    """Whether the subagent whose report `events[index]` carries looked outside the project:
    the prompt that launched it (the last launch before the report) names an absolute path
    outside the root, or the subagent's own events looked away."""
    event = events[index]
    if event.sidechain:
        agent = event.agent_id or event.session_id
        return any(
            e.sidechain and (e.agent_id or e.session_id) == agent and looked_away(e) for e in events
        )
    for earlier in reversed(events[:index]):
        if earlier.event_type == EventType.TOOL_CALL and earlier.content.get("tool") in (
            SUBAGENT_TOOLS
        ):
            return _about_elsewhere(str(earlier.content.get("input") or ""), event.project_id)
    return False


def report_statements(events: list[StoredEvent]) -> list[ReportStatement]:
    """What the subagents' reports in `events` (in order) state about the project's code."""
    elsewhere = replies_elsewhere(events)
    failed = failed_last(commands(events))
    last = last_replies(events)
    outputs = [
        out
        for e in events
        if e.event_type == EventType.TOOL_RESULT
        and isinstance(out := e.content.get("output"), str)
        and not report_of(e, last)
    ]
    kept: dict[str, ReportStatement] = {}
    said_before: set[str] = set()
    for index, event in enumerate(events):
        if event.id in elsewhere:
            continue
        report = report_of(event, last)
        if not report or taken_back(events, index) or contradicted(report, failed):
            continue
        if _about_elsewhere(report, event.project_id) or _sent_elsewhere(events, index):
            continue
        count = 0
        for label, raws in _items(report):
            kept_here: list[str] = []
            for raw in raws:
                said = statement(raw, labelled=bool(label), reviewing=True)
                if not said or said in said_before or _quoted(said, outputs):
                    continue
                if any(not in_project(p) for p in named_paths(said, event.project_id)):
                    continue
                said_before.add(said)
                kept_here.append(said)
            if not kept_here:
                continue
            said = " ".join(kept_here[:MAX_PER_ITEM])
            named = named_paths(said, event.project_id)
            where = f" ({label})" if label else ""
            key = f"{KEY_PREFIX}{key_slug(f'{label} {said}', _KEY_DROP) or 'statement'}"
            if key in kept:
                continue
            kept[key] = ReportStatement(
                key, f"{PREFIX}{where}: {said}", (event.id,), tuple(dict.fromkeys(named))[:2]
            )
            count += 1
            if count == MAX_PER_REPORT or len(kept) == MAX_STATEMENTS:
                break
        if len(kept) >= MAX_STATEMENTS:
            break
    return list(kept.values())
