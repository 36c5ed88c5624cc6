"""What the assistant's own closing report states about the code, read by its place and shape.

After a piece of work the assistant sums up what it found and did, in the last reply of the
turn, before the user speaks again: "The `.gitignore` already has `!.claude/plans/*.md`
un-ignore rules, but since nothing ignores `.claude/` in the first place, those rules are
redundant.", "- **Hiccup:** `SendMessage` queued to terminated agents' inboxes but didn't
resurrect them.", "`World::updateCombat` owns all combat logic so `main.cpp` stays thin." Every
session of every host has such reports, in any ecosystem; the rules that wait for a cue word
("the issue is that …", `learned`) or a failed command (`lessons`, `diagnosed`) take few of
them. This rule reads them by where they stand and how they are built, not by their words:

- the report is the main agent's last reply of a turn that ran at least one tool (a reply
  with no work behind it reports nothing) or whose user message attached a file the host read
  in (`file_reads.attached_file_texts`: the first reply's summary of it is what the session
  read), about this project (`elsewhere`), and neither the
  user's next message nor a later reply takes it back (`subagent_findings.taken_back`);
- each sentence of its paragraphs and list items (a bold label kept as the point's subject;
  outside code blocks, tables, quoted lines and sections whose heading asks) is read as a
  statement (`report_statements.statement`, one code span at least): not asked, guessed,
  planned or told as anyone's steps, and not a report of the session's own change
  ("Added …", "Removing …"), a "key: value" fragment nor a listing's "`path/` — what it
  holds" (the folders a reply lists are `reply_layout`'s); the parts a summary names, each
  with what it is, count without a verb ("3 crates: `core` (the engine), `cli` (the binary)");
- it states only what the session shows: every code span it names occurs in what the
  session's own tools were given or printed before the report (a command run, a file read or
  written, a file the user attached, an output; a qualified name such as `fx.Rate` by each
  of its parts as a word), and
  it is not a line an output holds as it stands (a file's words, or a subagent's report
  relayed, which `report_statements` reads); it names no database, framework or test runner
  that no tool of the session showed ("backed by Postgres via sqlx" with no manifest, import
  or output naming either: `stack_mentions`); a sentence too long to quote whole, or opened
  by a short lead-in's colon, gives its first clause (`clauses`);
- a statement of a change's result ("`DEFAULT_PORT` is `8080` now", "no longer retries") is
  kept only when the turn changed something: a file written or edited, or a command that did
  something (not a look, nor a report of state) and passed; after an edit that failed or was
  refused, or a check that only listed what it would change, nothing changed;
- it names no file or folder that a later turn of the session changed: it said how the code
  stood before that change ("Nothing caches the rates (src/handler.ts)", then the cache is
  added there);
- it names no path outside the project or in a dependency's folder, does not address the
  user ("you", "your": advice, not a statement about the code) and its subject is not only a
  pronoun ("This is …", "It …": what the project is, the summaries rule says).

The body the assistant writes for a pull request or a commit is the same kind of report: a
here-document on the line of a `gh pr create`, `glab mr create` or `git commit` command that
succeeded is read the same way, checked against what the tools saw before that command, and
left out when the user's next message says the work did not hold.

The memory says where it comes from ("Closing report (<label>): …"), since the code may change
after it. A report gives at most `MAX_PER_REPORT` statements, an episode `MAX_STATEMENTS`, each
once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.activity import changed_files, commands
from squirrel_memory.extractors.elsewhere import replies_elsewhere
from squirrel_memory.extractors.evidence import attempts
from squirrel_memory.extractors.evidence.state_looks import only_reports
from squirrel_memory.extractors.evidence.workflows import looks_around
from squirrel_memory.extractors.file_reads import attached_file_texts
from squirrel_memory.extractors.placements import placements
from squirrel_memory.extractors.reply_layout import reply_layout
from squirrel_memory.extractors.report_statements import (
    FENCE,
    HEADING,
    ITEM,
    PLANNED,
    SENTENCE,
    ReportStatement,
    in_project,
    named_paths,
    statement,
)
from squirrel_memory.extractors.report_statements import (
    MAX_CHARS as MAX_STATEMENT_CHARS,
)
from squirrel_memory.extractors.stack_mentions import unshown_stack
from squirrel_memory.extractors.subagent_findings import taken_back
from squirrel_memory.extractors.wording import key_slug, plain_apostrophes, without_bold
from squirrel_memory.models import StoredEvent

#: Importance of a statement of a closing report: the assistant's word, below what a file shows.
IMPORTANCE = 0.35
PREFIX = "Closing report"
KEY_PREFIX = "project:closing:"
MIN_SPANS = 1
MAX_LABEL_CHARS = 60
#: Statements kept per report and per episode.
MAX_PER_REPORT = 4
MAX_STATEMENTS = 8

_LABEL = re.compile(r"^\*\*(?P<label>[^*]{1,80}?)[.:]?\*\*\s*[.:—-]?\s*")
_SPAN = re.compile(r"`([^`\n]+)`")
#: The user addressed: advice or a question for them, not a statement about the code.
_ADDRESSED = re.compile(r"\b(?:you|your|you're|you'll|you've|yours)\b", re.IGNORECASE)
#: A report of the session's own step: its first word a participle or a past form of doing.
_STEP = re.compile(
    r"^(?!(?:no|some|every|any)thing\b)(?:\w+ing|\w+ed|made|ran|set|put|wrote|built|kept|got|saw|did|done|left|split|"
    r"plan|saved)\b",
    re.IGNORECASE,
)
#: A step of the session told as done, or a check's result of the moment: a progress line.
_DONE = re.compile(
    r"\b(?:confirmed|executed|verified|updated|created|committed|pushed|saved|completed|"
    r"passes|passed|succeeded|ready to|(?:is|are|stays|stay) (?:clean|green))\b",
    re.IGNORECASE,
)
#: A finite verb the statement is built on: an auxiliary, a negation's or a copula.
_AUXILIARY = re.compile(
    r"\b(?:is|are|was|were|has|have|had|does|do|did|can|cannot|must|"
    r"isn't|aren't|wasn't|weren't|hasn't|haven't|doesn't|don't|didn't|can't|won't)\b",
    re.IGNORECASE,
)
_ARTICLE = frozenset(("the", "a", "an", "this", "that", "each", "every", "all", "both"))
#: The user's next message says the work did not hold: a report of work that later failed.
_FAILED_AFTER = re.compile(
    r"^\s*(?:no\b|nope\b)|\b(?:still (?:\w+s|\w+ing|fail|broken|doesn'?t|does not|not)|"
    r"does ?n[o']t work|did ?n[o']t work|not working|broke|broken|revert|undo|roll back)\b",
    re.IGNORECASE,
)
#: A subject that is only a pronoun ("This is the `x` game — …", "It uses `y`."): it names
#: nothing a later reader can recognise (what the project is, the summaries rule says).
_PRONOUN_SUBJECT = re.compile(r"^(?:this|that|it|these|those|they|there|here)\b", re.IGNORECASE)
#: A command that creates a pull request or a commit, whose here-document is its body.
_CREATES = re.compile(r"\b(?:gh pr create|glab mr create|git commit)\b")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?[^\n]*\n(.*?)\n\s*\1\s*(?:\n|\)|$)", re.DOTALL)
#: "Key: value" with no sentence around it ("Sessions: `sessions/`"), unlabelled.
_FRAGMENT = re.compile(r"^(?:[^\s:`]+\s+){0,2}[^\s:`]+:\s")
#: "`path/` — what it holds": a listing's item, the layout when the session looked into the
#: folder (`reply_layout`), its own work when it made it.
_PATH_LISTING = re.compile(r"^`[^`]+`\s*(?:[—–]+|-{1,2})\s")
_KEY_DROP = frozenset(str.split("a an the is are of in on to and or"))
#: The parts a summary names, each in backticks with what it is in brackets: "3 crates:
#: `core` (the engine), `rules` (every rule), `cli` (the binary)". A list without a gloss
#: ("Modules: `a`, `b`") names the parts and says nothing of them.
_PARTS = re.compile(
    r"^(?:(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+)?"
    r"(?:crates|modules|packages|layers|services|apps|components|libraries|tiers):\s*"
    r"`[^`\n]{1,80}`\s*\([^()\n]{1,160}\)"
    r"(?:[,;]\s+(?:and\s+)?`[^`\n]{1,80}`\s*\([^()\n]{1,160}\)){1,11}\.?$",
    re.IGNORECASE,
)
#: Parts a list of parts names at least.
MIN_PARTS = 2
#: A short lead-in closed by a colon, before a statement: "Settings are split: ".
_LEAD_IN = re.compile(r"^(?:[A-Za-z][\w'-]*\s+){1,4}[a-z][\w'-]*:\s+(?=[`A-Z])")
_PREPOSITIONS = frozenset(
    str.split("in of for from on at with under over by into onto to as about within without")
)
#: A qualified name: identifiers joined by `.`, `::` or `#`, maybe called (`Store::open()`).
_QUALIFIED = re.compile(r"^[A-Za-z_]\w*(?:(?:\.|::|#)[A-Za-z_]\w*)+(?:\(\))?$")


@dataclass(frozen=True, slots=True)
class _Report:
    """A closing report: its event's index, and what the session's tools saw before it."""

    index: int
    seen: str
    #: What the user said in the turn: a report restating it is not the session's finding.
    said: str
    #: The report's text when it is not the reply's own (a pull request's or commit's body).
    body: str = ""
    #: Whether the turn changed anything: a file written or edited, or a command that did
    #: something (not a look) and passed.
    changed: bool = True


def _closing(events: list[StoredEvent]) -> list[_Report]:
    """The closing reports of `events`: each turn's last main reply, after a tool ran."""
    elsewhere = replies_elsewhere(events)
    found: list[_Report] = []
    seen: list[str] = []
    said = ""
    last = -1
    tools = False
    turn: list[StoredEvent] = []
    for index, event in enumerate(events):
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            if last >= 0 and tools:
                found.append(_Report(last, "\n".join(seen), said, changed=_changed(turn)))
            turn = []
            text = event.content.get("text")
            if last >= 0 and tools and isinstance(text, str) and _FAILED_AFTER.search(text):
                found.pop()  # the user says the work did not hold
            said = text if isinstance(text, str) else ""
            # A file the user attached was read by the host: the reply may sum it up.
            attached = attached_file_texts(event)
            seen.extend(part for path, text in attached for part in (path, text))
            last, tools = -1, bool(attached)
            continue
        if event.sidechain:
            continue
        if event.event_type in TOOL_EVENTS:
            seen.extend(seen_by_tools(event))
            tools = tools or event.event_type == EventType.TOOL_CALL
            turn.append(event)
        elif event.event_type == EventType.ASSISTANT_RESPONSE and event.id not in elsewhere:
            last = index
    if last >= 0 and tools:
        found.append(_Report(last, "\n".join(seen), said, changed=_changed(turn)))
    return found


#: An option that edits a file in place (`sed -i`, `perl -pi -e`): a change, whatever program.
_IN_PLACE = re.compile(r"^(?:-[a-z]*i\S*|--in-place\S*)$")
#: What a statement says of a change's result ("… is `8080` now", "no longer retries").
_RESULT = re.compile(r"\bnow\b|\bno\s+longer\b", re.IGNORECASE)


def _changed(turn: list[StoredEvent]) -> bool:
    """Whether a turn's tools changed anything: a file written or edited, or a command that did
    something (not a look nor a report of state) and passed. A failed or refused edit, and a
    check that only lists what it would change, change nothing."""
    if any(e.event_type == EventType.CODE_CHANGE for e in turn):
        return True
    if not turn:
        return False
    for attempt in attempts(commands(turn), turn[0].project_id):
        if not attempt.run.ok:
            continue
        words = attempt.tokens[1:]
        look = looks_around(attempt) or only_reports(attempt.program, words)
        if not look or any(_IN_PLACE.match(w) for w in words):
            return True
    return False


def _body(event: StoredEvent) -> str:
    """The body a shell command of `event` writes for a pull request or a commit it creates
    (a here-document on the same line as `gh pr create`, `glab mr create` or `git commit`),
    or ""."""
    given = event.content.get("input")
    command = given.get("command") if isinstance(given, dict) else None
    if not isinstance(command, str) or not _CREATES.search(command):
        return ""
    heredoc = _HEREDOC.search(command)
    return heredoc.group(2) if heredoc else ""


def _failed(event: StoredEvent) -> bool:
    code = event.content.get("exit_code")
    return event.content.get("is_error") is True or (isinstance(code, int) and code != 0)


def _written(events: list[StoredEvent]) -> list[_Report]:
    """The pull request and commit bodies the main agent wrote in `events` with a command that
    succeeded, each with what the session's tools saw before it."""
    found: list[_Report] = []
    seen: list[str] = []
    said = ""
    pending: _Report | None = None
    for index, event in enumerate(events):
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            text = event.content.get("text")
            said = text if isinstance(text, str) else ""
            if found and _FAILED_AFTER.search(said) and found[-1].said != said:
                found.pop()  # the user says the work did not hold
            continue
        if event.sidechain:
            continue
        if pending is not None and event.event_type == EventType.TOOL_RESULT:
            if not _failed(event):
                found.append(pending)
            pending = None
        if event.event_type == EventType.TOOL_CALL and (body := _body(event)):
            pending = _Report(index, "\n".join(seen), said, body)
        seen.extend(seen_by_tools(event))
    return found


#: The events whose content is what the session's tools were given or printed.
TOOL_EVENTS = frozenset(
    (EventType.TOOL_CALL, EventType.TOOL_RESULT, EventType.COMMAND_RUN, EventType.CODE_CHANGE)
)


def seen_by_tools(event: StoredEvent) -> list[str]:
    """What the session's tools saw in `event`: every string a tool call, its result, a command
    run or a code change holds, and the paths it names; nothing for any other event."""
    if event.event_type not in TOOL_EVENTS:
        return []
    return [*tool_strings(event.content), *(event.file_paths or ())]


def tool_strings(value: object) -> list[str]:
    """Every string of a tool event's content, nested values included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in tool_strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in tool_strings(v)]
    return []


def report_points(report: str) -> list[tuple[str, list[str]]]:
    """(label, sentences) of each list item and paragraph line of `report`, outside code
    blocks, tables and quoted lines, under no heading that asks something."""
    found: list[tuple[str, list[str]]] = []
    asking = False
    for line in FENCE.sub(" ", plain_apostrophes(report)).splitlines():
        if heading := HEADING.match(line):
            asking = heading.group("title").rstrip("*: ").endswith("?")
            continue
        stripped = line.strip()
        if asking or not stripped or stripped.startswith(("|", ">")):
            continue
        item = ITEM.match(line)
        body = item.group("body").strip() if item else stripped
        label = ""
        if bold := _LABEL.match(body):
            label, body = bold.group("label").strip(" .:`"), body[bold.end() :]
            if len(label) > MAX_LABEL_CHARS or "?" in label or "`" in label:
                continue
        if label and body[:1].islower():
            body = body[0].upper() + body[1:]  # the label is its lead-in: "**Cause:** the …"
        found.append((label, SENTENCE.split(body)))
    return found


def _has_verb(flat: str) -> bool:
    """Whether `flat` is built on a finite verb (an auxiliary, or a present-tense verb ending
    in -s after its subject: a code span or a word that is not an article), rather than a
    fragment ("Support for `.tar` archives.") or an instruction ("Aggregate deltas by `x`.")."""
    prose = _SPAN.sub(" SPAN ", flat)
    if _AUXILIARY.search(prose):
        return True
    words = re.findall(r"[\w'-]+", prose)
    # A code span opening the sentence is its subject: its verb comes right after it
    # ("`src/routes/index.ts` mounts every handler under `/api`."), unless a preposition
    # follows that word, a plural noun's ("`Serve` handlers in the `api` package").
    if words[:1] == ["SPAN"] and len(words) > 2 and words[2].lower() not in _PREPOSITIONS:
        second = words[1]
        if second.endswith("s") and not second.endswith("ss") and second.islower():
            return True
    for position in range(2, len(words) - 1):
        word, before = words[position], words[position - 1]
        verb = word.endswith("s") and not word.endswith("ss") and word.islower()
        if verb and (before == "SPAN" or (before.islower() and before not in _ARTICLE)):
            return True
    return False


def _shown(said: str, seen: str) -> bool:
    """Whether every code span of `said` occurs in what the session's tools saw: as it is, or,
    for a qualified name (`fx.Rate`, `Book#slug`, `Store::open()`), each of its parts as a
    word of its own (the file showed `package fx` and `func Rate`)."""
    spans = [s.strip() for s in _SPAN.findall(said)]
    return all(span in seen or _parts_shown(span, seen) for span in spans)


def _parts_shown(span: str, seen: str) -> bool:
    if not _QUALIFIED.match(span):
        return False
    parts = re.split(r"\.|::|#", span.removesuffix("()"))
    return all(re.search(rf"(?<!\w){re.escape(part)}(?!\w)", seen) for part in parts)


def _stated(raw: str, label: str, report: _Report) -> str:
    """`raw` as a statement the session's tools back, or "": the sentence whole, else its first
    clause (`clauses`)."""
    whole = backed_statement(raw, label, report.seen, report.said)
    if whole:
        return whole
    for clause in clauses(raw):
        if said := backed_statement(clause, label, report.seen, report.said):
            return said
    return ""


#: A consequence said as advice after a statement: ", so <something> would/should …".
_SO_ADVICE = re.compile(
    r",? so (?:(?!so )[\w`'.-]+ ){1,4}?(?:would|should|could|can|might)(?: [^,;]{1,160})?\.?$",
    re.IGNORECASE,
)


def clauses(raw: str) -> list[str]:
    """The first clause of a sentence too long to quote whole, or opened by a short lead-in's
    colon ("Settings are split: `base.py` holds …; `manage.py` selects …"): what stands before
    its first semicolon, after the lead-in, when it opens with a capital or a code span. A
    later clause may lean on an earlier one ("… registers them all"); a sentence short enough
    and without a lead-in was judged whole ("Slug now uses `parameterize`; the test passes."
    is a report of the work, whichever half is read)."""
    flat = " ".join(raw.split())
    advice = _SO_ADVICE.search(flat)
    if advice and advice.start() > 0:
        # "… never touches `Repo` directly, so refunds would belong in `Billing`": the advice
        # that follows from it is left off, the statement before it judged alone
        return [f"{flat[: advice.start()].rstrip(' ,')}."]
    lead = _LEAD_IN.match(flat)
    if not lead and len(flat) <= MAX_STATEMENT_CHARS:
        return []
    first = flat[lead.end() if lead else 0 :].split("; ")[0].strip()
    if first == flat or not (first[:1] == "`" or first[:1].isupper()):
        return []
    return [first]


def stated_shape(raw: str, label: str, *, min_spans: int = MIN_SPANS) -> str:
    """`raw`, a sentence of a reply under `label`, as a statement about the code, or "": built
    on a verb, not asked, guessed, planned, addressed to the user or told as the session's own
    step, its subject not only a pronoun, with `min_spans` code spans at least (with none
    asked, the caller says what the sentence must name)."""
    flat = " ".join(without_bold(raw).split())
    prose = _SPAN.sub(" ", flat)
    if _ADDRESSED.search(prose) or _DONE.search(prose) or _STEP.match(flat):
        return ""
    if _PRONOUN_SUBJECT.match(flat):
        return ""
    if _PARTS.match(flat):
        # the parts a summary names, each with what it is: a statement without a verb
        return statement(flat, labelled=True, min_spans=max(min_spans, MIN_PARTS), plans=PLANNED)
    if not _has_verb(flat):
        return ""
    if not label and (_FRAGMENT.match(flat) or _PATH_LISTING.match(flat)):
        return ""
    labelled = bool(label) or min_spans == 0
    return statement(flat, labelled=labelled, min_spans=min_spans, plans=PLANNED)


def backed_statement(raw: str, label: str, seen: str, said_by_user: str) -> str:
    """`raw`, a sentence of a reply under `label`, as a statement about the code that what the
    session's tools showed (`seen`) backs, or "": its shape `stated_shape`'s, every code span
    of it in `seen`, and not a line of `seen` or the user's words (`said_by_user`) quoted."""
    said = stated_shape(raw, label)
    if not said or not _shown(said, seen):
        return ""
    if unshown_stack(said, seen):
        return ""  # a database, framework or test runner named in passing that nothing showed
    probe = said.rstrip(".")
    if probe in seen or probe in " ".join(said_by_user.split()):
        return ""  # a file's words or the user's own, quoted
    if "'" in probe and probe in seen.replace("\u2019", "'"):
        return ""  # the same, its typographic apostrophes read as plain ones
    return said


#: Words of a placement's clause that make a report's sentence opening with it the same one.
MIN_PLACED_WORDS = 2
#: A code span that names a path: a folder or a file name.
_PATH_LIKE = re.compile(r"/|\.[A-Za-z]\w{0,9}$")


def closing_reports(events: list[StoredEvent]) -> list[ReportStatement]:
    """What the main agent's closing reports in `events` (in order) state about the code."""
    kept: dict[str, ReportStatement] = {}
    # What `placements` keeps of the same clause (its paths written from the root) is said once.
    placed = {_words(p.content) for p in [*placements(events), *reply_layout(events)]}
    # A placement's clause the report's sentence opens with says it again, with more words
    # ("`internal/http` holds the handlers" / "…; they only parse requests and call `ledger`").
    opened = [(p.content.split("`")[1], _words(p.content)) for p in placements(events)]
    for report in [*_closing(events), *_written(events)]:
        event = events[report.index]
        text = report.body or event.content.get("text")
        if not isinstance(text, str) or taken_back(events, report.index):
            continue
        count = 0
        changed_after = changed_files(events[report.index + 1 :])
        for label, raws in report_points(text):
            said = next((s for raw in raws if (s := _stated(raw, label, report))), "")
            named = named_paths(said, event.project_id)
            if not said or not all(in_project(p) for p in named):
                continue
            if not report.changed and _RESULT.search(said):
                continue  # a change's result, in a turn whose edits failed or were refused
            if _changed_later(named, changed_after):
                continue  # how the code stood before a later turn changed what it names
            key = f"{KEY_PREFIX}{key_slug(f'{label} {said}', _KEY_DROP) or 'statement'}"
            if key in kept or any(k.content.endswith(said) for k in kept.values()):
                continue
            if _words(said) in placed or _opens_with_placed(said, opened):
                continue
            where = f" ({label})" if label else ""
            kept[key] = ReportStatement(
                key, f"{PREFIX}{where}: {said}", (event.id,), tuple(dict.fromkeys(named))[:2]
            )
            count += 1
            if count == MAX_PER_REPORT or len(kept) == MAX_STATEMENTS:
                break
        if len(kept) >= MAX_STATEMENTS:
            break
    return list(kept.values())


def _changed_later(named: list[str], changed: list[str]) -> bool:
    """Whether a file a later turn changed is one a statement names, or lies in a folder it
    names."""
    folders = [n.rstrip("/") for n in named]
    return any(path == n or path.startswith(f"{n}/") for path in changed for n in folders)


def _opens_with_placed(said: str, opened: list[tuple[str, str]]) -> bool:
    """Whether `said` opens with the clause of a placement (its first path, then at least
    `MIN_PLACED_WORDS` of its words) and goes on naming no other path: one statement said
    once ("`internal/http` holds the handlers; they only parse requests and call `ledger`").
    What it goes on to place elsewhere ("…, and `settings/local.py` overrides them") is its
    own."""
    words = _words(said)
    others = [span for span in re.findall(r"`([^`]+)`", said)[1:] if _PATH_LIKE.search(span)]
    return not others and any(
        said.lstrip("`").startswith(path.rstrip("/"))
        and len(clause.split()) >= MIN_PLACED_WORDS
        and (words + " ").startswith(clause + " ")
        for path, clause in opened
    )


def _words(text: str) -> str:
    """`text`'s words outside its code spans, lower case: one clause however its paths are
    written."""
    return " ".join(re.findall(r"[a-z0-9]+", re.sub(r"`[^`]*`", " ", text).lower()))
