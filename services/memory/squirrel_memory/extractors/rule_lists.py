"""A sentence that lists the user's ways of working after a lead naming them: "A few things
about how we work on this repo: we always run the formatter before committing, never push to
main, open a PR instead, and keep PRs small", "Some ground rules for this project: always use
the wrapper script, never a global install", "Our conventions: format before every commit, I
like small commits, and never use unsafe casts". Each listed rule becomes a clause of its own,
with what goes with it ("…, open a PR instead", "…, never a global install", "…, one concern
each") kept on it; a lead that names the user's ways or asks them to be kept in mind
("Remember: …") makes every listed rule a standing one. A lead that only sets off context
("Background: …", "Quick notes: …") is taken off, and what follows is read as any clause is.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.clauses import clauses
from squirrel_memory.extractors.instruction_parts import first_verb

#: Words that name the user's or the team's ways of working.
_WAYS = (
    r"(?:(?:ground|house|team|basic|general)\s+rules?|rules|conventions|"
    r"norms|guidelines|practices|how (?:we|i) (?:work|do things|like to work)|"
    r"the way (?:we|i) (?:work|do things)|our ways?(?: of working)?|"
    r"(?:things|stuff) (?:to know )?about how (?:we|i))"
)
#: A lead naming the user's or the team's ways of working, up to its colon.
_WAYS_LEAD = re.compile(
    rf"^(?P<lead>[^:]{{0,60}}?\b{_WAYS}\b[^:]{{0,50}}):\s*(?P<rest>\S.*)$",
    re.IGNORECASE,
)
#: A line that is only a lead naming the user's ways ("Conventions:", "## Our house rules:",
#: "Coding guidelines for this repo:"), a list under it; "The failing rules:" names none.
_LEAD_LINE = re.compile(
    r"^[ \t]*(?:#+[ \t]*)?(?:(?:our|my|the|team|project|repo|coding|code|style|house|ground|"
    r"general|basic|some|a few|key|important)[ \t]+){0,3}(?:rules|conventions|guidelines|norms|"
    r"practices)(?:[ \t]+(?:for|in|of)[ \t]+(?:this|the|our)[ \t]+(?:repo|repository|project|"
    r"codebase|team))?[ \t]*:[ \t]*$",
    re.IGNORECASE,
)
_ITEM = re.compile(r"^[ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]+(?P<item>\S[^\n]*)$")
#: A lead that sets off context for what follows, naming no rule.
_NOTE_LEAD = re.compile(
    r"^(?P<lead>(?:(?:some|a few|quick|small|short)\s+)?(?:background|context|notes?|fyi|"
    r"for context|some context|remember|reminders?|keep in mind))\s*:\s*(?P<rest>\S.*)$",
    re.IGNORECASE,
)
#: Where one listed part ends: a comma or a semicolon, with an "and" or "but" after it.
_PART_END = re.compile(r"(?:(?<!\s)\s+)?[,;]\s+(?:(?:and|but)\s+)?")
#: A part that opens a rule of its own: a rule word and a verb, a "don't", the user's or the
#: team's way ("we …", "I like …"), or a verb of work.
_OPENS = re.compile(
    r"^(?:please\s+)?(?:(?:always|never)\s+(?P<ruled>[a-z]+)|don'?t\s|do not\s|avoid\s|"
    r"(?:we|i)\s+(?:always\s+|never\s+|usually\s+)?[a-z]+)",
    re.IGNORECASE,
)
#: A part that goes with the rule before it: what to do instead ("open a PR instead").
_INSTEAD = re.compile(r"\binstead\W*$", re.IGNORECASE)
#: A norm of a kind in a list after a ways lead ("errors are wrapped with %w", "no global
#: state"): a rule of its own there, though it opens with no verb.
_NORM = re.compile(
    r"^(?:no\s+[a-z][\w-]*\s+[a-z]|(?!(?:it|this|that|there|here|one|not|never)\b)[\w.`'-]+"
    r"(?:\s+[\w.`'-]+){0,3}\s+(?:is|are|goes|go|lives|live|stays|stay|must|should)\s)",
    re.IGNORECASE,
)
#: Fewest listed rules a sentence takes apart (one rule alone is read as the sentence).
MIN_LISTED = 2


def _opens_rule(part: str, *, norms: bool = False) -> bool:
    """Whether a listed part opens a rule of its own ("never push to main", "keep PRs small"),
    not one that goes with the rule before it ("never a global install", "one concern each",
    "open a PR instead", "not even in tests")."""
    if _INSTEAD.search(part):
        return False
    if norms and _NORM.match(part):
        return True
    if match := _OPENS.match(part):
        ruled = match.group("ruled")
        return ruled is None or bool(first_verb(ruled))
    return bool(first_verb(part.removeprefix("please ")))


def listed_rules(written: str) -> tuple[list[str], bool] | None:
    """The rules a sentence lists after a lead (each as written, with what goes with it; none
    when it lists fewer than two) and whether the lead makes them standing; None when the
    sentence opens with no such lead."""
    sentence = written.strip()
    ways = _WAYS_LEAD.match(sentence)
    lead = ways or _NOTE_LEAD.match(sentence)
    if lead is None or first_verb(lead.group("lead")):
        return None  # "Fix the rules: …", "Add a note: …": a task, then what it is about
    parts: list[str] = []
    pieces = [p for p in _PART_END.split(lead.group("rest")) if p]
    norms = ways is not None
    for piece in pieces:
        if parts and not _opens_rule(piece, norms=norms):
            parts[-1] = f"{parts[-1]}, {piece}"
        else:
            parts.append(piece)
    if len(parts) < MIN_LISTED or not _opens_rule(pieces[0], norms=norms):
        return [], ways is not None
    return parts, ways is not None


def rules_apart(listed: list[tuple[str, str]]) -> tuple[list[tuple[str, str]], set[str]]:
    """Clauses (as written, as read) with each sentence that lists rules after a lead taken
    apart, and the listed rules (as written) the lead makes standing."""
    apart: list[tuple[str, str]] = []
    standing: set[str] = set()
    listing = False  # a ways lead's list goes on after a semicolon
    for written, read in listed:
        found = listed_rules(written)
        if found is None:
            apart.append((written, read))
            if listing:
                standing.add(written)
            listing = listing and written.rstrip().endswith(";")
            continue
        parts, ways = found
        listing = ways and written.rstrip().endswith(";")
        if not parts:
            # one rule or none after the lead: the sentence as written (its label says how
            # firm the rule is), read without a lead that sets off context
            lead = _WAYS_LEAD.match(written.strip()) or _NOTE_LEAD.match(written.strip())
            rest = clauses(lead.group("rest")) if lead and read == written else []
            apart.append((written, rest[0][1] if rest else read))
            if ways:
                standing.add(written)
            continue
        for part in parts:
            read_part = clauses(part)
            apart.append((part, read_part[0][1] if read_part else part))
            if ways:
                standing.add(part)
    return apart, standing


def listed_under_lead(message: str) -> set[str]:
    """The items of a list under a line that is only a ways lead ("Conventions:\n- 4 spaces\n-
    no wildcard imports"): each a rule of the user's, however short. A line that is no list
    item ends the list."""
    items: set[str] = set()
    under = False
    for line in message.splitlines():
        if _LEAD_LINE.match(line):
            under = True
            continue
        item = _ITEM.match(line)
        if under and item is not None:
            items.add(item.group("item").strip())
            continue
        under = under and not line.strip()
    return items


def is_lead_line(written: str) -> bool:
    """Whether a clause is only a lead naming the user's ways ("Coding guidelines for this
    repo:"): the list's title, no rule of its own."""
    return bool(_LEAD_LINE.match(written.strip()))
