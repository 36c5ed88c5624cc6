"""How a pitfall's parts are said: the error as printed (paths made relative, a
backtrace frame and a build engine's own file left out), what fixed it, and why it failed
(its causes, without what the fix already says). `pitfall_memories` groups the pitfalls and
puts these parts together."""

from __future__ import annotations

import re

from squirrel_memory.extractors.differences import argument_change
from squirrel_memory.extractors.evidence.cleared_warnings import is_warning
from squirrel_memory.extractors.evidence.test_reports import report_line
from squirrel_memory.extractors.fix_kinds import formatter_for
from squirrel_memory.extractors.pitfall_record import MAX_FILES_SHOWN, Pitfall
from squirrel_memory.extractors.pitfalls import (
    first_error_line,
    first_line,
    nothing_ran,
    selected_nothing_line,
)
from squirrel_memory.extractors.reported_fixes import CLAIMED_CHANGE
from squirrel_memory.extractors.retries import (
    dropped_wrapper,
    environment_set,
    folder_failed,
    swapped_program,
    typed_words,
    wrapper_words,
)
from squirrel_memory.extractors.script_steps import made_environment
from squirrel_memory.extractors.shown_commands import clip, shown_command
from squirrel_memory.extractors.summary_lines import is_summary


def relative(text: str, pitfall: Pitfall, root: str) -> str:
    """`text` with the project's and the session's own folder left out of paths, so a memory
    reads the same on every checkout (`src/app.py`, not `/Users/me/work/app/src/app.py`)."""
    folders = {f.rstrip("/") for f in (root, pitfall.failed.run.cwd or "")}
    for folder in sorted(folders, key=len, reverse=True):
        if len(folder) > 1:
            text = text.replace(folder + "/", "")
    return text


def shown_error(pitfall: Pitfall, root: str) -> str:
    """The error as printed (project paths made relative), or the fingerprint."""
    output = pitfall.failed.run.output
    warned = is_warning(pitfall.fingerprint)
    line = next((w.strip() for w in output.splitlines() if is_warning(w)), "") if warned else ""
    stated = first_error_line(output)
    if stated and is_summary(stated):
        # `> Task :test FAILED` only says it failed; "No tests found for given includes" says why
        stated = selected_nothing_line(output) or stated
    line = line or stated or nothing_ran(output) or report_line(output)
    line = line or first_line(output)
    line = line or pitfall.fingerprint
    line = re.sub(r"^(?:E\s+|\d{1,2}[.)]\s+)", "", line)
    line = re.sub(r"\s*\[\s*\d{1,3}%\]$", "", line)  # a runner's progress, not the error
    line = re.sub(r"\s*\.{4,}\s*", " … ", line)  # a hook's dotted leader (`black....Failed`)
    line = relative(line, pitfall, root)
    # A build engine's own file outside the project (`/usr/share/dotnet/sdk/…/x.targets(166,5):
    # error NETSDK1045: …`): where it sits says nothing the error does not.
    line = _OUTSIDE_PLACE.sub("", line)
    line = unframed(line)
    return clip_stated(line.replace("`", "'"), 160)


_OUTSIDE_PLACE = re.compile(r"^/[^\s(]*\(\d+,\d+\):[ \t]+(?=error\b)")


#: A frame `path:line:in 'method': ` (or `in `method'`) before an error's message.
_RAISED_IN = re.compile(r"^[^\s:]+:\d+:in [`'][^`'\n]{1,200}':[ \t]+(?=\S)")


def unframed(line: str) -> str:
    """An error line without the backtrace frame before its message (`…/runtime.rb:304:in
    'check!': You have …`): where it was raised, not what went wrong."""
    return _RAISED_IN.sub("", line)


def clip_stated(text: str, limit: int) -> str:
    """An error line cut to `limit`: whole when it fits, else at the end of its last whole word
    (`… package github.com/acme/x (imported by…`), never inside a word."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    room = flat[: limit - 1]
    space = len(room) if flat[limit - 1] == " " else room.rfind(" ")
    cut = room[:space] if space >= limit // 2 else room
    return cut.rstrip(" ,;:") + "…"


def fix_said(pitfall: Pitfall, root: str = "") -> str:
    said = _fix_as_seen(pitfall, root)
    if pitfall.reported:
        return (
            f"{said} (the rerun's output is not in the transcript: the assistant reported the pass)"
        )
    return said


def _fix_as_seen(pitfall: Pitfall, root: str = "") -> str:
    fix_command = relative(pitfall.fix_command, pitfall, root)
    if pitfall.fix == "claimed":
        return (
            f"the assistant reported {fix_command} (the edit is not in the transcript), "
            "and the rerun passed"
        )
    if pitfall.steps:
        steps = [relative(s, pitfall, root) for s in pitfall.steps]
        if len(steps) == 1:
            return f"{steps[0]} fixed it"
        return f"{', then '.join(steps)} got it to pass"
    if pitfall.fix == "variant":
        passed = pitfall.passed
        if passed is not None and formatter_for(pitfall.failed, passed):
            # The check did not pass without its flag: the formatter rewrote the files.
            shown = relative(passed.text, pitfall, root)
            return f"running the formatter (`{shown_command(shown, 90)}`) fixed it"
        if (
            passed is not None
            and folder_failed(pitfall.failed)
            and passed.scope != pitfall.failed.scope
        ):
            # The refused `cd` was left out, not kept: the same line with the program's words
            # changed would be refused again, so the run that worked is said as it was typed.
            shown = shown_command(relative(passed.text, pitfall, root), 120)
            return f"running `{shown}` without the `cd` worked"
        change = argument_change(pitfall.failed.tokens, passed.tokens) if passed else ""
        if passed and not change:
            # a runner's own option (`uv run --extra test pytest`): the words as typed
            change = argument_change(typed_words(pitfall.failed), typed_words(passed))
        if passed and made_environment(fix_command, passed.program):
            # `python3 -m venv .venv && .venv/bin/pip install x`: the environment made is the
            # difference, not the program's name.
            return f"re-running it as `{shown_command(fix_command, 120)}` worked"
        if passed and swapped_program(pitfall.failed, passed):
            shown = shown_command(relative(passed.text, pitfall, root), 90)
            return f"running it with `{passed.program}` instead worked (`{shown}`)"
        if passed and dropped_wrapper(pitfall.failed, passed):
            # `rtk bun run test`: "unrecognized subcommand 'bun'": the wrapper was the trouble
            shown = shown_command(relative(passed.text, pitfall, root), 90)
            return f"running it without `{pitfall.failed.program}` worked (`{shown}`)"
        wrapper = put_before(pitfall)
        if wrapper and not change:
            # The same command run through something: what was put before it is the fix.
            shown = shown_command(fix_command, 90)
            return f"putting `{wrapper}` before it worked (`{shown}`)"
        if change:
            shown = relative(passed.text, pitfall, root) if passed else ""
            example = f" (`{shown}`)" if len(shown) <= 90 else ""
            return f"re-running it {change} worked{example}"
        return f"re-running it as `{shown_command(fix_command, 120)}` worked"
    if pitfall.fix == "setup":
        before = "".join(
            f"`{shown_command(relative(b, pitfall, root), 60)}`, then "
            for b in pitfall.setup_before
        )
        return f"running {before}`{shown_command(fix_command, 90)}` first fixed it"
    if pitfall.fix == "formatter":
        return f"running the formatter (`{shown_command(fix_command, 90)}`) fixed it"
    if pitfall.fix == "rewrote":
        return "it rewrote the files itself, and running it again passed"
    if pitfall.fix == "folder":
        return (
            f"the shell was still in `{clip(pitfall.fix_command, 60)}/` after a `cd`, so the "
            "path did not resolve: run it from the repository root"
        )
    shown = ", ".join(pitfall.files[:MAX_FILES_SHOWN])
    more = " …" if len(pitfall.files) > MAX_FILES_SHOWN else ""
    if pitfall.named:
        return f"it passed after editing {shown}{more}, named in the error"
    return f"it passed after editing {shown}{more}"


def put_before(pitfall: Pitfall) -> str:
    """What the passing run put before the same command (`source .venv/bin/activate &&`,
    `uv run`, `bundle exec`), or ""."""
    if pitfall.fix != "variant" or pitfall.passed is None:
        return ""
    if environment_set(pitfall.failed, pitfall.passed):
        return ""  # a variable set before the same command: no wrapper
    return wrapper_words(pitfall.failed.run.command, pitfall.fix_command) or wrapper_words(
        pitfall.failed.text, pitfall.fix_command
    )


def because(pitfall: Pitfall, remedy: str = "") -> str:
    """ "; <why>" from the causes found for a failure, or "": without what they say of the
    change `remedy` already states (`_unrepeated`)."""
    causes = [c for c in (_unrepeated(c, remedy) for c in pitfall.causes) if c]
    if not causes:
        return ""
    first, *rest = causes
    if re.fullmatch(r"`[^`]*`", first):
        # The output's own line, quoted whole; a diagnosis may open with a code span too.
        said = f"; the assistant found: {_lowered(rest[0])}" if rest else ""
        return f"; the output explains {first}{said}"
    said = "; then ".join(_lowered(c) for c in (first, *rest))
    return f"; the assistant found: {said}"


def _unrepeated(cause: str, remedy: str) -> str:
    """`cause` without its clauses in which the assistant says it made the change `remedy`
    already states, every code span of it ("… in Package.swift; I added `x` to it" beside
    "the assistant reported adding `x` …"): the fix is said once. "" when nothing is left."""
    kept = [c for c in _clauses(cause) if not _restates(c, remedy)]
    return "; ".join(kept)


def _clauses(text: str) -> list[str]:
    """`text` split at each "; " outside its code spans (whole when a span is left open)."""
    parts = text.split("`")
    if len(parts) % 2 == 0:
        return [text]
    clauses = [""]
    for k, part in enumerate(parts):
        if k % 2:
            clauses[-1] += f"`{part}`"
            continue
        first, *more = part.split("; ")
        clauses[-1] += first
        clauses.extend(more)
    return clauses


#: What may come before "I added …" at a clause's start.
_THEN = re.compile(r"(?:so|and|then|which),?[ \t]+", re.IGNORECASE)


def _restates(clause: str, remedy: str) -> bool:
    """Whether `clause` is the assistant saying it made a change (`I added `x` to it`) whose
    code spans `remedy` all holds."""
    text = clause.strip()
    text = text[_then.end() :] if (_then := _THEN.match(text)) else text
    if not remedy or not CLAIMED_CHANGE.match(text):
        return False
    spans = re.findall(r"`[^`\n]+`", text)
    return bool(spans) and all(span in remedy for span in spans)


#: Words that open a sentence only because it starts there: lowered to run on after a colon.
#: Any other capitalised first word may be a name ("Python can't import …") and is kept.
_OPENERS = frozenset(
    str.split(
        "the a an this that these those it its there each every no some all both one any "
        "our their his her when if since because after before while only without with in on "
        "at for from by to as not none nothing neither either another other such"
    )
)


def _lowered(text: str) -> str:
    """A sentence's first letter lowered to run on after a colon, when its first word is a
    common opener ("The job is failing …"), not a name ("Python can't …") or an acronym."""
    words = text.split(maxsplit=1)
    if words and words[0].lower() in _OPENERS and text[0].isupper():
        return text[0].lower() + text[1:]
    return text
