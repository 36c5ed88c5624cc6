"""What the assistant's own closing report states about the code, read by its place and shape.

After a piece of work the assistant sums up what it found and did, in the last reply of the
turn, before the user speaks again: "The `.gitignore` already has `!.claude/plans/*.md`
un-ignore rules, but since nothing ignores `.claude/` in the first place, those rules are
redundant.", "- **Hiccup:** `SendMessage` queued to terminated agents' inboxes but didn't
resurrect them.", "`World::updateCombat` owns all combat logic so `main.cpp` stays thin." Every
session of every host has such reports, in any ecosystem; the rules that wait for a cue word
("the issue is that …", `learned`) or a failed command (`lessons`, `diagnosed`) take few of
them. This rule reads them by where they stand (`closing_turns`) and how they are built
(`report_sentences`), not by their words:

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

from squirrel_memory.extractors.activity import changed_files, in_folder
from squirrel_memory.extractors.closing_turns import Report, closing_replies, written_bodies
from squirrel_memory.extractors.placements import placements
from squirrel_memory.extractors.reply_layout import reply_layout
from squirrel_memory.extractors.report_sentences import backed_statement, clauses, report_points
from squirrel_memory.extractors.report_statements import ReportStatement, in_project, named_paths
from squirrel_memory.extractors.subagent_findings import taken_back
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

#: Importance of a statement of a closing report: the assistant's word, below what a file shows.
IMPORTANCE = 0.35
PREFIX = "Closing report"
KEY_PREFIX = "project:closing:"
#: Statements kept per report and per episode.
MAX_PER_REPORT = 4
MAX_STATEMENTS = 8
_KEY_DROP = frozenset(str.split("a an the is are of in on to and or"))
#: What a statement says of a change's result ("… is `8080` now", "no longer retries").
_RESULT = re.compile(r"\bnow\b|\bno\s+longer\b", re.IGNORECASE)


def _stated(raw: str, label: str, report: Report) -> str:
    """`raw` as a statement the session's tools back, or "": the sentence whole, else its first
    clause (`clauses`)."""
    whole = backed_statement(raw, label, report.seen, report.said)
    if whole:
        return whole
    for clause in clauses(raw):
        if said := backed_statement(clause, label, report.seen, report.said):
            return said
    return ""


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
    for report in [*closing_replies(events), *written_bodies(events)]:
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
    return any(in_folder(path, n) for path in changed for n in named)


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
