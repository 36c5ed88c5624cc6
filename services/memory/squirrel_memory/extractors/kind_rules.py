"""Rules over every thing of a kind the work makes, said in everyday words.

- a requirement on every thing of a kind: "every public function needs a doc comment", "all
  handlers must have a timeout" (not "every test needs fixing", a task);
- what a kind of thing should be: "commit messages should be in the imperative mood" (a bare
  plural kind, never "the tests", "it", "this file"; nor "tests should be green now"); or the
  kind named by what the assistant does with it: "the examples you use in the README should be
  generic", "any code you write should be fully typed", "any public functions you add need a
  docstring", "whatever tests you write, they must not …" (never "the tests you added should
  pass", things made; nor "… in this PR …", nor "… should be reverted after the demo");
- what every thing of a kind takes: "schema changes always need a rollback script";
- what no thing of a kind may do: "tests must not hit the network" (not "users must not …");
- a kind of thing kept out: "avoid abbreviations in variable names", "I'm not a fan of long
  functions" (not "avoid that function", "I'm not a fan of this approach");
- a prohibition over a kind of work product: "do not mock the database in integration tests"
  (not "… in the tests");
- a step at a place in every thing of a kind: "put set -euo pipefail at the top of every
  script"; a convention in all things of a kind: "use British spelling in all user-facing
  strings" (never "the new logger": a change of the moment).

`KIND_RULES` holds them in the order they are tried (`habit_wordings`).
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.habit_forms import HabitForm
from squirrel_memory.extractors.habit_kinds import (
    COMPARED,
    KIND,
    PICKED,
    WORK_KINDS,
    Wording,
    a_kind,
    as_sentence,
    work_kind,
)
from squirrel_memory.extractors.instruction_parts import TOLD_OF
from squirrel_memory.extractors.wording import word_set

#: "every public function needs a doc comment", "all handlers must have a timeout", "every
#: file starts with a license header", "every public method gets a doc comment".
_EVERY_NEEDS = re.compile(
    rf"^(?P<q>every|each|any|all)\s+(?P<new>new\s+)?{KIND}\s+(?:needs?|requires?|deserves?|"
    r"gets?|(?:starts?|begins?|ends?|opens?)\s+with|"
    r"(?:must|should|has to|have to)\s+(?:always\s+)?(?:have|get|include|carry|be))\s+"
    r"(?P<x>(?!to\b)[^;]{2,100})$",
    re.IGNORECASE,
)
#: "commit messages should be in the imperative mood", "errors must be wrapped with context".
_KIND_SHOULD = re.compile(
    r"^(?:(?:all|our)\s+)?(?P<k>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?[a-z][^s\W]s)\s+"
    r"(?:should|must)\s+(?P<adv>(?:always|never|not)\s+)?(?P<v>be|use|follow|have|start|end|"
    r"include|contain|stay|return|take|carry|live)\b(?P<x>[^;]{2,100})$",
    re.IGNORECASE,
)
#: "the examples you use in the README should be generic", "any code you write should be fully
#: typed", "any public functions you add need a docstring", "whatever tests you write, they must
#: not …": what every later thing of a kind the assistant makes should be, the kind named by what
#: the assistant does with it, in the present ("the tests you added" are things made).
_YOURS_SHOULD = re.compile(
    r"^(?P<q>the|any|all(?:\s+of)?\s+the|all|whatever)\s+"
    r"(?P<k>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+(?:that\s+)?you\s+"
    r"(?:write|use|add|create|make|open|generate|leave|pick|choose|put|give|post|draft|build)"
    r"(?:\s*,\s*(?P<they>they|those)\s+|\s+(?:(?:in|into|for|on|under|inside)\s+"
    r"(?P<at>[^,;]{1,40}?)\s+)?)"
    r"(?:(?:should|must)\s+(?:(?P<no>not|never)\s+(?P<any>[a-z]+)|(?:always\s+)?"
    r"(?P<v>be|use|follow|have|start|end|include|contain|stay|take|carry|live|explain|say|"
    r"mention|describe|name))|(?P<need>needs?|requires?)\s+(?!to\b)(?P<obj>[a-z]+))"
    r"\b(?P<x>[^;]{2,100})$",
    re.IGNORECASE,
)
#: Things of no plural that the assistant writes ("any code you write …").
_MASS_KINDS = word_set("code sql css html markup documentation")
_TOLD_OF = re.compile(TOLD_OF, re.IGNORECASE)
#: A step that undoes the things made or is done to them once made ("… should be reverted
#: after the demo", "… should be committed", "… listed in your summary"): the task at hand.
_UNDONE = re.compile(
    r"^\s*(?:reverted|undone|rolled back|thrown away|discarded|dropped|squashed|stashed|"
    r"committed|pushed|merged|listed|sent|shown|moved|staged|uploaded|deployed|reported)\b"
    r"|\bwhen you(?:'re| are) (?:done|finished)\b|\bin your (?:summary|reply|answer|report)\b",
    re.IGNORECASE,
)
#: A place that picks things of the moment ("in this PR", "for the new page").
_PICKED_PLACE = re.compile(r"^(?:this|these|that|those|it|the new|the last)\b", re.IGNORECASE)
#: What a kind "should be" that judges the work at hand rather than sets a rule.
_JUDGED = re.compile(
    r"^\s*(?:\w+er|more|less|better|worse|fixed|updated|removed|changed|done|ready|fine|ok|"
    r"okay|working|green|passing|gone|deleted|there|here|visible|shown)\b",
    re.IGNORECASE,
)
#: "schema changes always need a rollback script": what every thing of a kind takes.
_KIND_ALWAYS_NEEDS = re.compile(
    r"^(?:(?:all|our)\s+)?(?P<k>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?[a-z][^s\W]s)\s+always\s+"
    r"(?:need|require|get|have|take|carry)\s+(?P<x>(?!to\b)[^;]{2,100})$",
    re.IGNORECASE,
)
#: "tests must not hit the network", "handlers should never block": what no thing of a kind
#: may do, whatever the verb.
_KIND_MUST_NOT = re.compile(
    r"^(?:(?:all|our)\s+)?(?P<k>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?[a-z][^s\W]s)\s+"
    r"(?:must|should)\s+(?:not|never)\s+(?P<x>[a-z]+\b[^;]{2,100})$",
    re.IGNORECASE,
)
#: "avoid abbreviations in variable names", "avoid global state": a kind of thing kept out
#: (not "avoid that function", "avoid the cache for now", nor a step: "avoid changing …").
_AVOID_KIND = re.compile(r"^avoid\s+(?P<x>[a-z][\w-]*(?:\s+[\w-]+){0,8})$", re.IGNORECASE)
#: "do not mock the database in integration tests": a prohibition over a kind of work product.
_DONT_IN_KIND = re.compile(
    r"^(?:don'?t|do not|never)\s+(?P<x>[a-z]+\s+[^;]{2,80}?)\s+(?:in|inside|within|from)\s+"
    r"(?:any\s+|our\s+)?(?P<k>(?:[a-z][\w-]*\s+){0,2}(?:[a-z][\w-]*[^s\W]s|code))$",
    re.IGNORECASE,
)
#: "I'm not a fan of long functions", "I hate magic numbers": a kind of thing the user dislikes.
_DISLIKE = re.compile(
    r"^(?:(?:i'?m|i am|we'?re|we are)\s+not\s+(?:a\s+|the\s+)?(?:big(?:gest)?\s+|huge\s+)?"
    r"fans?\s+of|i\s+(?:really\s+)?(?:hate|dislike|can'?t stand|detest))\s+"
    # "I hate when the build is slow": a complaint about what happens, no kind of thing
    r"(?!(?:it\s+)?(?:when|if|how|that)\b)(?P<x>[^,;]{3,60})$",
    re.IGNORECASE,
)
#: "put set -euo pipefail at the top of every shell script", "use British spelling in all
#: user-facing strings" ("all" only with a verb of a convention: "add a header to all files"
#: is a sweep of the moment).
_AT_EVERY = re.compile(
    r"^(?P<v>put|add|include|declare|enable|use|import|set|start|begin|end|keep|write|follow)\s+"
    r"(?P<o>[^,;]{1,60}?)\s+(?:at\s+the\s+(?:top|start|beginning|end|bottom|head)\s+of|in|to|"
    r"on|into|for|at|across)\s+(?P<q>every|all)\s+(?P<new>new\s+)?"
    r"(?P<k>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})$",
    re.IGNORECASE,
)
_CONVENTION_VERBS = word_set("use write follow keep")


def _every(match: re.Match[str]) -> HabitForm | None:
    x, kind = match.group("x").strip(), match.group("k")
    if _JUDGED.match(x) or COMPARED.search(x):
        return None  # "every file should be smaller"
    if not work_kind(kind) or re.match(r"\w+(?:ing|ed)\b", x, re.IGNORECASE):
        return None  # "every test needs fixing": a task; "every user needs …": the product
    return HabitForm(as_sentence(match.group(0).strip()), f"every {kind} {x}")


def _kind_should(match: re.Match[str]) -> HabitForm | None:
    kind, x = match.group("k"), match.group("x")
    judged = match.group("v").lower() == "be" and _JUDGED.match(x)
    if not work_kind(kind) or judged or COMPARED.search(x):
        return None
    return HabitForm(as_sentence(match.group(0).strip()), f"{kind} {match.group('v')}{x}")


def _yours_should(match: re.Match[str]) -> HabitForm | None:
    kind, x, at = match.group("k"), match.group("x"), match.group("at") or ""
    if (match.group("q").lower() == "whatever") != bool(match.group("they")):
        return None  # "whatever tests you write, they …" only
    last = kind.lower().split()[-1]
    ies = last.endswith("ies") and f"{last[:-3]}y" in WORK_KINDS  # "dependencies"
    kept = last in _MASS_KINDS or ies or (work_kind(kind) and last.endswith("s"))
    if not kept or kind.lower().split()[0] in PICKED:
        return None  # "the users you create …": the product
    if _PICKED_PLACE.match(at) or COMPARED.search(x) or _TOLD_OF.search(f"{at} {x}"):
        return None  # "… in this PR …", "… the edge cases we discussed": the moment
    said = as_sentence(match.group(0).strip())
    if match.group("no"):
        return HabitForm(said, f"{kind} not {match.group('any')}{x}")
    if match.group("need"):
        return HabitForm(said, f"{kind} need {match.group('obj')}{x}")
    verb = match.group("v").lower()
    if verb == "be" and (_JUDGED.match(x.strip()) or _UNDONE.search(x)):
        return None  # "the tests you add should be green": a state to reach
    return HabitForm(said, f"{kind} {verb}{x}")


def _always_needs(match: re.Match[str]) -> HabitForm | None:
    kind = match.group("k")
    if not work_kind(kind):
        return None  # "users always need a password": the product
    return HabitForm(as_sentence(match.group(0).strip()), f"{kind} {match.group('x')}")


def _must_not(match: re.Match[str]) -> HabitForm | None:
    kind = match.group("k")
    if not work_kind(kind):
        return None  # "users must not see the admin page": the product
    return HabitForm(as_sentence(match.group(0).strip()), f"{kind} not {match.group('x')}")


def _avoided(match: re.Match[str]) -> HabitForm | None:
    x = match.group("x")
    if not a_kind(x) or x.split()[0].lower().endswith("ing"):
        return None
    return HabitForm(f"Avoid {x}", x)


def _dont_in_kind(match: re.Match[str]) -> HabitForm | None:
    kind = match.group("k")
    last = kind.lower().split()[-1]
    if not a_kind(kind) or not (last == "code" or work_kind(kind)):
        return None  # "don't change anything in the tests": the tests at hand
    return HabitForm(as_sentence(match.group(0).strip()), f"{match.group('x')} {kind}")


def _disliked(match: re.Match[str]) -> HabitForm | None:
    x = match.group("x").strip()
    if not a_kind(x):
        return None  # "I'm not a fan of this approach": the work at hand
    return HabitForm(f"Avoid {x}", x)


def _at_every(match: re.Match[str]) -> HabitForm | None:
    verb, kind, obj = match.group("v").lower(), match.group("k"), match.group("o")
    if match.group("q").lower() == "all" and verb not in _CONVENTION_VERBS:
        return None  # "add a header to all files": a sweep of the moment
    if not (a_kind(obj) and work_kind(kind)):
        return None
    return HabitForm(as_sentence(match.group(0).strip()), f"every {kind} {verb} {obj}")


KIND_RULES: tuple[Wording, ...] = (
    (_EVERY_NEEDS, _every),
    (_KIND_SHOULD, _kind_should),
    (_KIND_MUST_NOT, _must_not),
    (_YOURS_SHOULD, _yours_should),
    (_KIND_ALWAYS_NEEDS, _always_needs),
    (_AVOID_KIND, _avoided),
    (_DONT_IN_KIND, _dont_in_kind),
    (_DISLIKE, _disliked),
    (_AT_EVERY, _at_every),
)
