"""A user message cut into clauses, each with the lead-in words ("please", "from now on", "as I
said") taken off; code blocks, quoted lines and an announced paste (someone else's words,
`own_words`) left out."""

from __future__ import annotations

import re

from squirrel_memory.extractors.own_words import own_words
from squirrel_memory.extractors.wording import strip_markdown

MAX_CLAUSE_CHARS = 240

#: A clause ends at a sentence's end (a full-width one too), a line break, a spaced dash or a
#: comma before "however", "but" or the user's own aside. The dash is tried only where a run of
#: blanks begins, so a long run of blanks with no dash after it is read once, not again from
#: each blank in it.
_CLAUSE_SPLIT = re.compile(
    r"(?<=[.!;?])\s+|\n+|(?<!\s)\s+-\s+|,\s+(?=(?:however|but)\s)"
    # a comma before the user's own aside starts another sentence ("…, I assume it's …")
    r"|,\s+(?=[Ii] (?:assume|think|guess|believe|suppose|reckon|expect|hope)\b)"
    # Chinese and Japanese end a sentence with full-width marks and no space after them
    r"|(?<=[。！？；])\s*"
)
_LEAD_IN = re.compile(
    r"^(?:(?:please|pls|and|also|but|however|so|ok|okay|oh|well|yeah|yep|yes|btw|fyi|"
    r"ugh|hmm+|hm|ah|argh|sigh|meh|alright|seriously|honestly|come on|kindly|"
    r"for (?:the love of (?:god|pete)|god'?s sake|heaven'?s sake|pete'?s sake)|"
    # "no, we use pytest here", "no no, never amend": a refusal set off by a comma opens what
    # the user wants instead ("no comments" is no lead)
    r"(?:no|nope|nah)(?:[\s,]+(?:no|nope))*(?=\s*,)|that'?s (?:wrong|incorrect)(?=\s*,)|"
    # "how many times do I have to say it, we use pnpm": said again, the rule follows
    r"how many times (?:do|must|should|will) i (?:have to |need to )?(?:say|tell you|repeat)"
    r"(?: (?:it|this|that))?|"
    # "that's not how we do it here, we …": what the team does follows
    r"that'?s not how we do (?:it|things|this)(?: here| in this (?:repo|project|codebase))?|"
    r"note(?: that)?|"
    r"just so you know|for the record|for your information|"
    r"remember to|"
    # A label that stresses the rule after it ("IMPORTANT: never …", "NB: …").
    r"(?:(?:very|really|super)\s+)?(?:important|crucial|critical|essential)(?=\s*:)|"
    r"nb(?=\s*:)|n\.b(?=\.?\s*:)|heads[- ]up(?=\s*:)|reminder(?=\s*:)|"
    # A label that names the rule after it as one ("Our convention: …", "Rule of thumb: …").
    r"(?:(?:our|the|a|my|one)\s+)?(?:(?:general|house|team|golden|coding|simple)\s+)?"
    r"(?:rule|convention|policy|standard|guideline)s?(?:\s+of\s+thumb|\s+here)?(?=\s*:)|"
    # "By convention, all timestamps are UTC", "House style is single quotes": the rule follows
    r"by convention|(?:(?:our|the)\s+)?(?:house|team|coding|code)\s+style\s+is|"
    # A lead that insists on the rule after it ("To be clear: don't use X, use Y").
    r"(?:just\s+)?to be (?:clear|explicit|precise)|to clarify|for clarity|"
    r"remember|don'?t forget(?: to)?|keep in mind(?: that)?|"
    r"actually|i (?:want|need|would like|'d like) you to|"
    r"from now on|going forward|moving forward|from here on|in (?:the )?future|"
    r"for future reference|in general|generally(?: speaking)?|"
    # "one thing: …", "quick note: …": a label that sets off what follows
    r"(?:one (?:more |last )?|quick |small )(?:thing|note|request|rule)(?=\s*:)|"
    # "one more thing, we write a spec for every module": the same label, with a comma
    r"one (?:more|last) thing(?=\s*,)|"
    r"as a (?:general )?rule|by default|(?:as|like) i (?:said|mentioned)(?: before| earlier)?|"
    r"i (?:already |just )?told you(?: before| already)?)\b[,:]?\s*)+",
    re.IGNORECASE,
)
#: Words that make a part of a run-on sentence a rule ("as always never push sensitive data"),
#: or what the things the assistant makes should be ("the examples you use … should be …").
_RULE_WORD = re.compile(
    r"\b(?:always|never|as usual|from now on|going forward|don'?t|do not|must|make sure)\b"
    r"|^\s*(?:the|any|all(?:\s+of)?\s+the)\s+[\w-]+(?:\s+[\w-]+){0,2}?\s+you\s+[a-z]+\b"
    r"[^,;]*?\bshould\b",
    re.IGNORECASE,
)
#: Where a run-on sentence's parts meet: a comma, or "and also" / "and then" between two.
#: (a run of blanks is tried from its first blank only: no backtracking through a long run)
_RUN_ON_SPLIT = re.compile(r",\s+|(?<!\s)\s+and (?:also|then)\s+", re.IGNORECASE)
#: A notice label that a spaced dash sets off from what it labels ("Reminder - ctx goes first
#: in every function"): read with it, as "Reminder: …" would be.
_DASH_LABEL = re.compile(
    r"^(?:reminder|note|nb|n\.b\.?|heads[- ]up|important|fyi|psa)$", re.IGNORECASE
)


#: A name from the code that ends in "!" or "?" ("Repo.insert!", "File.exists?"), at the end of
#: a piece the split cut off: the sentence goes on after it when a lowercase word follows.
#: Tried on the piece's last word only, from one character before its last run of letters.
_CODE_MARK_END = re.compile(r"\w[.:_]\w+[!?]$")


def _ends_in_code_mark(piece: str) -> bool:
    """Whether `piece` ends in a code name's "!" or "?" (`_CODE_MARK_END`), read from the end:
    the name's last part is the letters before the mark and the two characters before them,
    so a long word is read once."""
    end = piece[-1:]
    if end not in ("!", "?"):
        return False
    start = len(piece) - 1
    while start > 0 and (piece[start - 1].isalnum() or piece[start - 1] == "_"):
        start -= 1
    return bool(_CODE_MARK_END.search(piece[max(0, start - 2) :]))


#: An operator of "!"s standing alone at the end of a piece ("never use the !!"): code, not the
#: sentence's end.
_BANG_OPERATOR = re.compile(r"(?:^|\s)!{1,3}$")
#: A macro's name and its "!" at the end of a piece (`dbg!`, `println!`, `vec!`).
_MACRO_END = re.compile(r"\b[a-z][a-z0-9_]*!$")
#: The word after a macro's "!" that shows the name was code: what the macro's uses are called.
_MACRO_NOUN = re.compile(
    r"(?:calls?|macros?|invocations?|statements?|lines?|uses?|usages?|output)\b"
)


def _code_bang(piece: str, following: str) -> bool:
    """Whether `piece` was cut after a "!" of code and goes on in `following`: a code name's
    "!" or "?" before a lowercase word (`_CODE_MARK_END`), an operator of "!"s standing alone
    (`!!`), or a macro's name before what its uses are called (`dbg! calls`)."""
    if not following[:1].islower():
        return False
    return (
        _ends_in_code_mark(piece)
        or bool(_BANG_OPERATOR.search(piece[-4:]))
        or (bool(_MACRO_END.search(piece[-40:])) and bool(_MACRO_NOUN.match(following)))
    )


def _bangs_kept(parts: list[str]) -> list[str]:
    """The split pieces with each one cut after a "!" of code (`_code_bang`) joined again to the
    piece after it ("never use Repo.insert! in request paths", "never leave dbg! calls in
    committed code" and "never use the !! operator" are one sentence each)."""
    kept: list[str] = []
    for part in parts:
        if kept and _code_bang(kept[-1], part):
            kept[-1] = f"{kept[-1]} {part}"
        else:
            kept.append(part)
    return kept


def _run_ons_apart(parts: list[str]) -> list[str]:
    """The split pieces with each one too long to be a clause (a run-on sentence with no full
    stop: "as always never push sensitive data, the examples … should be generic and also be
    sure to push …") cut at its commas (not inside a code span or a quote), each part that
    says a rule read on its own."""
    kept: list[str] = []
    for part in parts:
        if len(part.strip()) <= MAX_CLAUSE_CHARS:
            kept.append(part)
            continue
        pieces: list[str] = []
        for piece in _RUN_ON_SPLIT.split(part):
            if pieces and _open_quote(pieces[-1]):
                pieces[-1] = f"{pieces[-1]}, {piece}"  # a comma inside a code span or a quote
            else:
                pieces.append(piece)
        # Only a part that says a rule is read: the rest of a run-on is the task, as before.
        kept.extend(p for p in pieces if _RULE_WORD.search(p))
    return kept


def _open_quote(text: str) -> bool:
    """Whether `text` leaves a code span or a double quote open."""
    return (
        text.count("`") % 2 == 1 or (text.count('"') + text.count("“") - text.count("”")) % 2 == 1
    )


def clauses(text: str) -> list[tuple[str, str]]:
    """(clause as written, clause without lead-in words) of a message; code blocks, quoted
    lines (`> …`: someone else's words, the assistant's or a document's) and an announced
    paste skipped (`own_words`)."""
    text = strip_markdown(own_words(text))
    found: list[tuple[str, str]] = []
    parts = _run_ons_apart(_bangs_kept(_CLAUSE_SPLIT.split(text)))
    for at, raw in enumerate(parts):
        clause = raw.strip()
        if _DASH_LABEL.match(clause) and at + 1 < len(parts) and parts[at + 1].strip():
            parts[at + 1] = f"{clause}: {parts[at + 1].strip()}"
            continue  # "Reminder - …": the label goes with what it sets off
        if not clause or len(clause) > MAX_CLAUSE_CHARS:
            continue
        body = _LEAD_IN.sub("", clause).strip()
        if body:
            found.append((clause, body))
    return found
