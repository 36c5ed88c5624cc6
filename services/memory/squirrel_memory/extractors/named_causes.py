"""A failure's cause read by its structure: the assistant's sentence about a name the output showed.

After a failure the assistant often says why without a cue word ("because", "the issue is"):
"`parse_date` returns a naive datetime here.", "The `--frozen` flag needs `uv.lock` to list every
member.", "Version 3.9 has no `match` statement." What ties such a sentence to the failure is
not its wording but what it names: something the failing output named too (a path, a dotted or
snake_case symbol, a flag, a version). A sentence of a reply is the cause when all of these
hold, the same in every ecosystem and language:

- a run of the same intent passed after it (`fixes` asks only then): the explanation held;
- its reply came after the failure and before the first edit and the next try of the command:
  a reply after the change says what was done, and one a later failure follows was wrong;
- it states something (`lessons.stated_sentences`: no plan, question, reaction or
  observation), about a state ("is", "has", "needs", "expects", "returns", "only" …); not a
  guess ("might", "probably", "seems"), the assistant's own doing ("I updated …", "we need"),
  an instruction ("Add `x` …"), what holds after the change ("now …"), or the outcome again
  ("`x` failed", "the tests pass");
- it names a code-like word that the failing output names too, or quotes in a code span a
  name (four letters at least) that the edits between the failure and the pass wrote and the
  text they replaced did not hold ("`Book#slug` keeps the title's case; `parameterize`
  lowercases …" before the edit that wrote `title.parameterize`): the fix it led to held.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from squirrel_memory.extractors.activity import MAX_OUTPUT_SCAN_CHARS, CommandRun
from squirrel_memory.extractors.differences import Edit
from squirrel_memory.extractors.lessons import MAX_DIAGNOSIS_CHARS, Reply, clipped, stated_sentences
from squirrel_memory.extractors.output_explanations import is_progress

_SPAN = re.compile(r"`[^`]*`")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: A name shorter than this ("id", "ok") says too little to tie a sentence to an edit.
MIN_NAME_CHARS = 4
#: A file written whole, longer than this, names too much to tie a sentence to the fix.
MAX_WRITTEN_LINES = 40
_TOKEN = re.compile(r"[\w./:@+-]+")
#: A word only code would use: a flag, a path, a dotted or `::` name, snake_case, camelCase or
#: a version.
_CODE_LIKE = re.compile(
    r"^(?:--?[A-Za-z][\w-]+|.*\w/\w.*|.*\w(?:\.|::)[A-Za-z_].*|\w*[A-Za-z]_\w*|"
    r"[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|v?\d+\.\d+(?:\.\d+)*)$"
)
_QUOTED = re.compile(r"['\"`‘“]([^'\"`\s’”]{3,60})['\"`’”]")
_NOT_NAMES = frozenset({"e.g", "i.e", "etc", "vs"})
#: A state the sentence states (its verb), in the present or past.
_STATE = re.compile(
    r"\b(?:is|are|was|were|isn't|aren't|wasn't|weren't|has|have|had|hasn't|haven't|hadn't|"
    r"does|did|doesn't|don't|didn't|needs?|requires?|expects?|returns?|uses?|takes?|reads?|"
    r"points?|refers?|resolves?|lacks?|only|no longer|never|defaults?|contains?|accepts?|"
    r"rejects?|treats?|matches|ignores?|overrides?|shadows?|conflicts?|belongs?|lives?|"
    r"calls?|imports?|loads?|gets?|gives?|produces?|comes?|means?|wants?|keeps?|drops?|"
    r"strips?|skips?|sends?|writes?|holds?)\b",
    re.IGNORECASE,
)
#: A guess: said before anything showed it.
_GUESS = re.compile(
    r"\b(?:might|may|maybe|perhaps|possibly|probably|likely|unlikely|could|should|would|"
    r"seems?|appears?|suspect|guess|think|assume|wonder|presumably|not sure)\b",
    re.IGNORECASE,
)
#: The assistant's own doing or intent, said in the first person.
_FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|i've|i'll|i'd|we|we're|we've|we'll|let's|me|my|our|us)\b", re.IGNORECASE
)
#: What holds after the change, or the outcome said again: a symptom, not a cause.
_OUTCOME = re.compile(
    r"\b(?:now|fail\w*|error\w*|pass|passes|passed|passing|succeed\w*|success\w*|works?|"
    r"worked|working|broken|crash\w*)\b",
    re.IGNORECASE,
)
#: An instruction: the sentence opens with a verb of what to do.
_INSTRUCTION = re.compile(
    r"^(?:add|remove|change|update|fix|use|run|install|set|make|try|replace|move|rename|"
    r"delete|create|check|ensure|call|import|wrap|switch|revert|bump|pin|drop|keep|put|"
    r"define|declare|edit|pass|configure|enable|disable)\b",
    re.IGNORECASE,
)


def _code_words(text: str) -> set[str]:
    """The code-like words of `text`, each path also by its file name, and what it quotes
    whole (`'Entry'`, `` `Entry` ``): a quoted word is a name whatever its shape."""
    found = {q.strip("()") for q in _QUOTED.findall(text) if len(q.strip("()")) >= 3}
    for raw in _TOKEN.findall(text):
        flag = raw.startswith("-") and not raw.startswith("---")
        word = raw.rstrip(".:,") if flag else raw.strip(".:,-+@/")
        if len(word) < 3 or word.lower() in _NOT_NAMES or not _CODE_LIKE.match(word):
            continue
        found.add(word)
        if "/" in word and (name := word.rsplit("/", 1)[1]) and len(name) >= 3:
            found.add(name)
    return found


def _states_a_cause(sentence: str) -> bool:
    prose = _SPAN.sub(" x ", sentence)
    if _GUESS.search(prose) or _FIRST_PERSON.search(prose) or _OUTCOME.search(prose):
        return False
    if _INSTRUCTION.match(prose.lstrip()) or is_progress(sentence):
        return False
    return bool(_STATE.search(prose))


def named_cause(
    said: Sequence[Reply], edited: Sequence[Edit], failed: CommandRun, until: datetime | None
) -> tuple[str, str]:
    """(the sentence that explains the `failed` run by naming what its output named, its
    reply's event id) from the replies of its session after it, before the first edit and
    `until` (the next try); ("", "") when none does."""
    session, start = failed.session_id, failed.timestamp
    names = _code_words(failed.output[:MAX_OUTPUT_SCAN_CHARS])
    fixing = [
        e
        for e in edited
        if e.session_id == session
        and e.timestamp > start
        and (until is None or e.timestamp < until)
    ]
    changed = [e.timestamp for e in fixing]
    fixed = _changed_names(fixing)
    if not names and not fixed:
        return "", ""
    stop = min([*changed, *([until] if until is not None else [])], default=None)
    for reply in said:
        if reply.session_id != session or reply.timestamp <= start:
            continue
        if stop is not None and reply.timestamp >= stop:
            break
        for sentence in stated_sentences(reply.text):
            named = _code_words(sentence) & names or _quoted_names(sentence) & fixed
            if not named or not _states_a_cause(sentence):
                continue
            if said_whole := clipped(sentence, MAX_DIAGNOSIS_CHARS):
                return said_whole.rstrip("."), reply.event_id
    return "", ""


def _quoted_names(sentence: str) -> set[str]:
    """The names a sentence quotes in code spans, each part of a qualified one too."""
    found: set[str] = set()
    for span in _SPAN.findall(sentence):
        for part in re.split(r"\.|::|#|\(\)", span.strip("`").strip()):
            if len(part) >= MIN_NAME_CHARS and _IDENTIFIER.fullmatch(part):
                found.add(part)
    return found


def _changed_names(found: Sequence[Edit]) -> set[str]:
    """The identifiers the edits wrote that the text they replaced did not hold (what the fix
    changed); a file written whole counts only when it is short (`MAX_WRITTEN_LINES`)."""
    names: set[str] = set()
    for edit in found:
        if not edit.before and edit.after.count("\n") > MAX_WRITTEN_LINES:
            continue
        old = set(_IDENTIFIER.findall(edit.before))
        names.update(
            w for w in _IDENTIFIER.findall(edit.after) if len(w) >= MIN_NAME_CHARS and w not in old
        )
    return names
