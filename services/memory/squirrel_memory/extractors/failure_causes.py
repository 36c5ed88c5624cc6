"""Why a failed command failed: the output's own explanation, else the assistant's diagnosis.

`fixes.find_pitfalls` asks for each failure it finds. The cause is, in that order:

- the sentence the failing output itself gives to explain the error
  (`output_explanations.explanation`), unless it is the error line the memory already shows
  (`error[E0308]: mismatched types`), followed by the assistant's first diagnosis (below) when
  it gave one: the output says what went wrong, the diagnosis why;
- the assistant's diagnoses in its replies after each try of the failure and before the next
  try of the same command (`lessons.diagnosis`; a short while when no next try came), one per
  try, at most `MAX_CAUSES`; one a later reply takes back before the run after the last try
  ("The cache was not the problem.", "the real cause is …": `lessons.takes_back`) is not
  kept, and the reply that took it back may give the cause instead;
- when a run of the same intent passed after it, the sentence of a reply that names what the
  last try's output named (`named_causes`), else the sentence of the first reply after the
  last try that says what was wrong before saying what the assistant changed
  (`fixing_replies`: "The test compared a Decimal with a float. I changed …").

Nothing else is claimed: a failure that neither its output nor a reply explains has no cause.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from squirrel_memory.extractors.differences import Edit
from squirrel_memory.extractors.evidence import Attempt
from squirrel_memory.extractors.fixing_replies import fixing_reply_cause
from squirrel_memory.extractors.lessons import Reply, diagnosis, takes_back
from squirrel_memory.extractors.named_causes import named_cause
from squirrel_memory.extractors.output_explanations import explanation
from squirrel_memory.extractors.pitfalls import first_error_line

#: How long after a failure with no pass the assistant's replies may still explain it.
UNFIXED_WINDOW = timedelta(minutes=10)
MAX_CAUSES = 2


def failure_causes(
    failed: Attempt,
    said: Sequence[Reply],
    tries: list[tuple[Attempt, datetime | None]],
    edited: Sequence[Edit] = (),
    passed: bool = False,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(why the command failed, the replies that said it): the output's own explanation, else
    the assistant's diagnoses in its replies after each try of the failure and before the next
    try of the same command (a short while when none came) that no later reply takes back,
    else, when a run passed after it, the sentence naming what the last try's output
    named (`named_causes`)."""
    output = failed.run.output
    # A compiler's error line the memory already shows explains nothing: a reply may.
    own = explanation(output, shown=first_error_line(output))
    found, cited = _diagnoses(said, tries)
    if own:
        # The output's line says what went wrong; the assistant's diagnosis, when it gave one
        # that held, says why (`Connection refused` and "the test config hard-codes the port").
        quoted = own.replace("`", "'")
        return (f"`{quoted}`", *found[:1]), tuple(cited[:1])
    if not found and passed:
        last, until = tries[-1]
        text, event_id = named_cause(said, edited, last.run, until)
        if not text:
            text, event_id = _fixing_reply(said, last, until)
        if text:
            return (text,), (event_id,)
    return tuple(found[:MAX_CAUSES]), tuple(cited[:MAX_CAUSES])


def _fixing_reply(said: Sequence[Reply], last: Attempt, until: datetime | None) -> tuple[str, str]:
    """(the cause the first reply after the last try states before saying what it changed,
    its event id) when that reply came before the next try (`fixing_replies`); ("", "")."""
    start = last.run.timestamp
    for reply in said:
        if reply.session_id != last.run.session_id or reply.timestamp <= start:
            continue
        if until is not None and reply.timestamp >= until:
            break
        text = fixing_reply_cause(reply.text, last.run.output)
        return (text, reply.event_id) if text else ("", "")
    return "", ""


def _diagnoses(
    said: Sequence[Reply], tries: list[tuple[Attempt, datetime | None]]
) -> tuple[list[str], list[str]]:
    """(the diagnoses, their replies): one per try, the first reply after it and before the
    next try that explains it and that no later reply takes back."""
    found: list[str] = []
    cited: list[str] = []
    # The replies that may take a diagnosis back: up to the next run after the last try (the
    # pass, when one came), or to the end when none came.
    close = tries[-1][1]
    for attempt, until in tries:
        start = attempt.run.timestamp
        stop = until or start + UNFIXED_WINDOW
        for k, reply in enumerate(said):
            if reply.session_id != attempt.run.session_id or reply.timestamp <= start:
                continue
            if reply.timestamp >= stop:
                break
            text, event_id = diagnosis([reply], reply.session_id, reply.timestamp, None)
            if not text or text in found or _taken_back(said[k + 1 :], reply, text, close):
                continue
            found.append(text)
            cited.append(event_id)
            break  # one diagnosis per try: the first reply that explains it
    return found, cited


def _taken_back(later: Sequence[Reply], reply: Reply, claim: str, close: datetime | None) -> bool:
    """Whether a later reply of the same session, before `close`, takes back the explanation
    `claim` that `reply` gave ("The cache was not the problem.", "The real cause is …")."""
    for other in later:
        if other.session_id != reply.session_id or other.timestamp <= reply.timestamp:
            continue
        if close is not None and other.timestamp >= close:
            break
        if takes_back(other.text, claim):
            return True
    return False
