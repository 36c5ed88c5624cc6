"""Cues in a user's message on how to read the instructions in it, besides their forms: a
correction's lead ("no, …"), insistence ("make sure to …"), a change gated on the user's
approval, emphasis, a verb of how work is carried out, a "don't …, just …" that sets the
scope of the request at hand, and a hesitation over what the user sees ("hmm, no tests
folder"), which bans nothing."""

from __future__ import annotations

import re

from squirrel_memory.extractors.standing_marks import CONDITIONED
from squirrel_memory.extractors.wording import stem, word_set

#: "No need to …", "no problem", "no rush" open a reply that waives or reassures; they say no
#: "no" to what the assistant did.
CORRECTION_LEAD = re.compile(
    r"^(?:no(?!\s+(?:need|problem|worries|rush|hurry|pressure)\b)|nope|nah|wrong|not like that|"
    r"that's not (?:it|right|what i (?:asked|meant)))\b"
    r"[\s,.!:;—–-]*",
    re.IGNORECASE,
)
#: "hmm, no tests folder", "Hmm no log file", "oh, no output again": the user notes what they
#: do not see (a hesitation before a bare "no …"), or that it is still missing ("no changelog
#: entry yet", "no tests either"); either way a remark on what happened, no ban. A
#: "no," set off by a comma opens a correction instead, and a rule word keeps the ban ("hmm, no
#: mocks, ever").
NOTICED_MISSING = re.compile(
    r"^(?:(?:hmm+|hm+|huh|uh+|um+|oh|ah)\b[\s,.…]*no\s+(?!,)(?!.*\b(?:ever|always|never|please|"
    r"anywhere|in (?:this|our) (?:repo|project|codebase))\b)"
    r"|no\s+[\w-]+(?:\s+[\w-]+){0,3}\s+(?:either|yet|so far|still)[\s.!?]*$)",
    re.IGNORECASE,
)
#: A lead that insists on what follows ("make sure to …", "remember to …"): with a condition
#: ("… before you commit") the directive after it is a rule of conduct, tentative unless said
#: as a rule; without one it is usually about the task at hand.
INSIST = re.compile(
    r"^(?:(?:please|pls|and|also|so|ok|okay)\s+)*(?:make sure (?:to|that you|you)|be sure to|"
    r"remember to)\b",
    re.IGNORECASE,
)
#: A change made only with the user's approval ("without asking me first", "unless I approve
#: it"): a rule of conduct, even when it names "it" (the change the rule is about).
GATE = re.compile(
    r"\b(?:without (?:my |your |the user'?s |an? |explicit )?(?:approval|permission|ok|go-ahead|"
    r"asking(?: me)?|confirmation|checking with me)|unless i (?:approve|say so|ask|confirm|agree)|"
    r"until i (?:approve|say so|confirm|agree|review)|"
    # "I did not say commit": done without being asked, which the rule is about
    r"^i (?:did not|didn'?t|never) (?:say|said|ask|asked|tell|told|want|wanted)\b)",
    re.IGNORECASE,
)
#: "no file changes without approval": a thing the work must not do without the user's yes.
NO_GATE = re.compile(
    r"^no (?P<x>[\w`'./-]+(?:\s[\w`'./-]+){0,4}?)\s+(?P<gate>(?:without|unless|until)\s.{3,80}?)"
    r"[\s.!]*$",
    re.IGNORECASE,
)
#: Emphasis: a directive word in capitals, doubled punctuation, a weight word.
EMPHASIS = re.compile(
    r"\b(?:ALWAYS|NEVER|DON'?T|DO NOT|NOT|MUST|STOP|NO|ONLY|EVERY|ALL|EVERYONE|EVERYBODY|"
    r"EVERYTHING|ANYONE|NOBODY)\b|!!|\b(?i:please,?\s+please|really|"
    r"seriously|absolutely|important|crucial|critical|make sure|under no circumstances|"
    r"(?:just )?to be (?:clear|explicit|precise)|to clarify|for clarity|"
    r"(?:please )?remember(?: that| to)?|don'?t forget|keep in mind|i mean it)\b"
)
#: Verbs of how work is carried out (not what to build), for corrections without "no".
_PROCESS = word_set(
    "keep continue push commit finish stop wait ask check verify test run lint format rebase ",
    "squash document update",
)
#: A plain "don't" over the whole of the work ("don't fix anything", "don't touch the code")
#: followed by what to do instead this time ("…, but just validate it", "…, I just want the
#: size of it"): the two set the scope
#: of the request at hand, not a rule for later work. One means for another ("don't use npm,
#: just use pnpm", "don't mock the db, just hit the real one") is no scope: it stays a rule.
DONT_ANY = re.compile(
    r"^(?:don'?t|do not)\s+[a-z-]+\s+(?:anything|everything|any\s+[a-z-]+|the code|it|this|that)"
    r"(?:\s+else)?$",
    re.IGNORECASE,
)
#: A plain "don't" over every change at once ("Don't modify any files.", "do not change any
#: code", "dont touch anything yet", "don't make any edits"): a limit on the request at hand,
#: since no one bans every change for good; a bounded one ("… outside src/", "… without asking
#: me first") or one marked for good ("From now on, …", "never …") is a rule.
WHOLE_WORK_BAN = re.compile(
    r"^(?:please\s+)?(?:don'?t|do not)\s+(?:modify|change|edit|touch|alter|write|fix|make)\s+"
    r"(?:anything|any\s+(?:files?|code|changes|edits)|the code|changes|edits)"
    r"(?:\s+(?:yet|for now|right now|at all|to disk|on disk))?$",
    re.IGNORECASE,
)
_JUST = re.compile(
    r"^[\s,]*(?:(?:but|and)\s+)*(?:(?:i|we)(?:['’]m|\s+am|\s+are)?\s+)?(?:just|only|simply)\s+[a-z]",
    re.IGNORECASE,
)
SENTENCE_END = re.compile(r"[.!?\n]")
#: The users of the software being built, named in the third person ("never block the user",
#: "not get in the way of the user", "show our users a friendly message"): the user speaks of
#: themself as "I" or "me", so a rule about "the user" says what the product does for its
#: users, a principle of its design, not how the assistant works. A clause that speaks to the
#: assistant ("the error messages you write should say what the user can do next") is a rule
#: for its work all the same (`of_product_users`).
PRODUCT_USERS = re.compile(
    r"\b(?:the|our|its|their|every|each|end)\s+(?:end[- ])?users?\b(?!['’]s? (?:approval|permission"
    r"|confirmation|go-ahead|say|request))|\bend[- ]users?\b",
    re.IGNORECASE,
)
_TO_THE_ASSISTANT = re.compile(r"\byou(?:r|rs|rself)?\b", re.IGNORECASE)


def of_product_users(clause: str) -> bool:
    """Whether `clause` says what the software being built does for its users (`PRODUCT_USERS`)
    and does not speak to the assistant."""
    return bool(PRODUCT_USERS.search(clause)) and not _TO_THE_ASSISTANT.search(clause)


#: An order of work over one thing of the task at hand ("write the test first", "do the
#: migration first"): "the" names this task's test; a way of working says "tests", "a failing
#: test" or marks the rule ("always write the test first").
ONE_THING_FIRST = re.compile(
    r"^(?:write|add|do|make|create|run)\s+the\s+(?!tests\b|specs\b)[\w-]+(?:\s+[\w-]+)?\s+"
    r"first\b",
    re.IGNORECASE,
)
#: A request to look, explain or report (`asks_to_look`): with a "don't modify any files" beside
#: it, the "don't" sets how far this request goes.
_LOOK = re.compile(
    r"\b(?:tell me|explain|look (?:at|into)|review|check|investigate|find out|figure out|"
    r"show me|describe|summari[sz]e|analy[sz]e|diagnose|walk me through)\b",
    re.IGNORECASE,
)


def asks_to_look(message: str, written: str) -> bool:
    """Whether `message`, besides the clause `written`, asks the assistant to look, explain or
    report ("Look at why test_totals fails and tell me why. Don't modify any files.")."""
    return bool(_LOOK.search(message.replace(written, " ")))


def is_process_rule(clause: str) -> bool:
    """ "keep going until every task is done", "push when you are done": how to work, said
    right after the assistant acted, with the condition that makes it a rule of conduct."""
    words = clause.split(maxsplit=1)
    if not words:  # nothing left after a place word ("here", "in this repo")
        return False
    verb = stem(words[0].lower())
    return (verb in _PROCESS or words[0].lower() in _PROCESS) and bool(CONDITIONED.search(clause))


def clause_head(clause: str) -> str:
    """A clause up to its first comma, without end punctuation."""
    return clause.split(",", 1)[0].strip().rstrip(".!?").strip()


def instead_this_time(message: str, listed: list[tuple[str, str]], index: int) -> bool:
    """Whether the clause at `index` is followed, in the same sentence, by what to do instead
    ("don't fix anything, but just validate it works", "don't touch the code, just run the
    tests"): the pair says how to carry out the request at hand."""
    written = listed[index][0]
    _, comma, rest = written.partition(",")
    if comma and _JUST.match(rest):
        return True
    if index + 1 >= len(listed):
        return False
    start = message.find(written)
    following = listed[index + 1][0]
    stem_end = start + len(written.rstrip(".!? "))
    end = message.find(following, stem_end) if start >= 0 else -1
    if end < 0 or SENTENCE_END.search(message[stem_end:end]):
        return False
    return bool(_JUST.match(following))
