"""Habits said once in everyday wordings that can only be meant as a rule for later work.

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
- a duty for every session: "your standing job is to keep the TODO list up to date";
- a rule named as the rule: "the rule here is tests first, then implementation";
- a step the assistant may take unasked: "you don't need to ask me before running tests";
- what the user never wants: "I never want force pushes on main";
- a wish over every thing of a kind: "I'd like every new endpoint to have an integration test";
- a want said with a rule word: "I want conventional commits from now on", "I always want
  --no-ff merges" (never "I want a logout button");
- a default: "default to async/await, never raw callbacks";
- a prohibition said to last: "don't ever commit .env files", "don't use sudo in scripts, ever";
- a means replaced: "quit using `any`, use proper types", "stop generating getters by hand, use
  data classes" (not "stop using the old config, use this one");
- a habit stopped over every thing: "stop wrapping every error in a custom exception";
- a kind of thing ruled out by what it is: "don't add comments that just restate the code";
- the team's choice of one means over another: "we use RSpec here, not minitest", "in library
  code we return Result instead of panicking" (not "we fixed X instead of Y");
- what the team does without, with what it does instead: "we don't write raw SQL, everything
  goes through the query builder" (not "we don't use that here"; "we don't use ORMs" alone may
  tell how the code at hand is written);
- a step at a place in every thing of a kind: "put set -euo pipefail at the top of every
  script"; a convention in all things of a kind: "use British spelling in all user-facing
  strings" (never "the new logger": a change of the moment).
Code names are allowed in these forms: the rule is about every thing of the kind, not one.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.habit_forms import HabitForm
from squirrel_memory.extractors.instruction_parts import TOLD_OF
from squirrel_memory.extractors.wording import word_set

#: Words that pick one thing of the moment (or say nothing) at the start of a kind.
PICKED = word_set(
    "the this that these those it its them my your our their his her a an one another same ",
    "other old previous next first second last things stuff everything something we you they ",
    "i he she there here",
)
#: Kinds of things the work makes, whose conventions a habit sets (a rule over "every user" or
#: "all orders" is a requirement of the product being built, a task).
_WORK_KINDS = word_set(
    "commit message name function method class variable file test spec comment docstring ",
    "error exception log import module package constant type interface struct enum doc ",
    "migration branch pr script hook component fixture mock assertion changelog entry title ",
    "description string identifier field column table query endpoint handler route secret ",
    "dependency version tag release crate gem library service controller model view template ",
    "header readme document config setting argument parameter option flag feature helper ",
    "file-name filename path directory folder script job workflow pipeline step check lint ",
    "snapshot benchmark example annotation hint signature macro trait protocol extension ",
    "record dto schema resource manifest chart image container dockerfile makefile target ",
    "change patch diff fix bugfix refactor",
)
#: A judgement of the work at hand rather than a rule ("errors should be handled better").
COMPARED = re.compile(
    r"\b(?:better|worse|faster|slower|cleaner|simpler|shorter|longer|smaller|bigger|clearer|"
    r"nicer|more|less|fewer)\b",
    re.IGNORECASE,
)
#: A state the work at hand should reach ("I want every test to pass"), not a habit.
_STATE = re.compile(
    r"(?:pass|work|compile|run|build|succeed|load|start|fail|be\s+(?:green|fixed|done))\b", re.I
)
#: Words that tie a wording to the moment.
MOMENT = re.compile(r"\b(?:now(?! on\b)|yet|again|today|this time|at the moment)\b", re.I)
KIND = r"(?P<k>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)"

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
#: "your standing job is to keep the TODO list up to date": a duty for every session.
_STANDING_JOB = re.compile(
    r"^your\s+(?:standing|ongoing|permanent)\s+(?:job|task|role|duty)\s+(?:is|will be)\s+"
    r"to\s+(?P<x>[a-z][^;]{3,140})$",
    re.IGNORECASE,
)
#: "the rule here is tests first, then implementation", "our rule is to never use X": a rule
#: named as the rule.
_THE_RULE_IS = re.compile(
    r"^(?:the|our|my)\s+(?:rule|convention|policy|standard|practice)(?:\s+here)?\s+is"
    r"(?:\s+that|\s*:|\s+to(?=\s))?\s+(?P<x>[a-z`][^;]{5,140})$",
    re.IGNORECASE,
)
#: "you don't need to ask me before running tests": a step the assistant may take unasked.
_NO_NEED_TO_ASK = re.compile(
    r"^you\s+(?:don'?t|do not)\s+(?:need|have)\s+to\s+ask(?:\s+me)?\s+(?:before|to|for "
    r"permission to|whether to)\s+(?P<x>[a-z][^,;]{3,80}?)(?:\s*,\s*(?:just\s+)?[^,;]{2,60})?$",
    re.IGNORECASE,
)
#: "I never want force pushes on main, under no circumstances".
_NEVER_WANT = re.compile(
    r"^(?:i|we)\s+never\s+want\s+(?P<x>(?!to\b|you\b)[^,;]{3,80}?)"
    r"(?:\s*,\s*(?:under no circumstances|ever|at all|please))?$",
    re.IGNORECASE,
)
#: "I'd like every new endpoint to have an integration test".
_LIKE_EVERY = re.compile(
    r"^(?:i|we)\s*(?:'d|’d|\s+would)?\s+(?:really\s+)?(?:like|want|need|expect|prefer)\s+"
    rf"(?:every|all)\s+(?P<new>new\s+)?{KIND}\s+to\s+(?P<x>[a-z]+\b[^;]{{2,100}})$",
    re.IGNORECASE,
)
#: "I want the commit messages to follow Conventional Commits": what every later one of a
#: thing the work makes again and again (a commit, a pull request, a branch) should follow,
#: said without "every".
_WANT_RECURRING = re.compile(
    r"^(?:i|we)\s*(?:'d|’d|\s+would)?\s+(?:really\s+)?(?:like|want|need|expect|prefer)\s+"
    r"(?:(?:the|our|my|its)\s+)?(?P<k>(?:git\s+)?(?:commit(?:\s+message|\s+subject)?|"
    r"pull\s+request(?:\s+title)?|pr(?:\s+title)?|branch(?:\s+name)?|tag(?:\s+name)?)s)\s+"
    r"to\s+(?P<x>(?:follow|use|match|adhere\s+to|conform\s+to|stick\s+to|start\s+with|"
    r"be\s+written\s+in)\s+[^;]{2,100})$",
    re.IGNORECASE,
)
_RULE_LEAD = (
    r"(?:(?:also|and|so|but)\s*,?\s*)?(?:as a (?:general )?rule|from now on|going forward|"
    r"in general|by default|in (?:the )?future)\s*,?\s*"
)
#: "I want conventional commit messages from now on", "I always want --no-ff merges".
_WANT_RULED = re.compile(
    rf"^(?P<lead>{_RULE_LEAD})?(?:i|we)\s+(?P<always>always\s+)?(?:(?:really|generally)\s+)?"
    r"(?:want|need|expect)\s+(?P<x>[^,;]{3,100}?)"
    r"(?P<ruled>,?\s*(?:from now on|going forward|from here on|by default|in (?:the )?future|"
    r"every ?time|always))?$",
    re.IGNORECASE,
)
#: "default to async/await, never raw callbacks".
_DEFAULT_TO = re.compile(
    r"^(?:always\s+)?default\s+to\s+(?P<x>[^,;]{2,60}?)"
    r"(?:\s*[,;]\s*(?:and\s+)?(?:never|not|no)\s+(?P<y>[^,;]{2,60}))?$",
    re.IGNORECASE,
)
#: "don't ever commit .env files", "never ever force-push", "don't use sudo, ever".
_DONT_EVER = re.compile(
    r"^(?:(?:don'?t|do not|never)\s*,?\s+ever|never\s*,?\s+ever)\s+(?P<x>[a-z][^;]{2,120})$"
    r"|^(?:don'?t|do not)\s+(?P<x2>[a-z][^;]{2,120}?)\s*,?\s+(?:ever|never ever)$",
    re.IGNORECASE,
)
VAGUE_END = re.compile(r"\b(?:that|this|it|so)(?:\s+again)?$", re.IGNORECASE)
#: "quit using `any`, use proper types", "stop generating getters by hand, use data classes".
_STOP_REPLACED = re.compile(
    r"^(?:stop|quit)\s+(?P<g>[a-z]+ing)\s+(?P<y>[^,;]{2,80}?)\s*,\s*(?:(?:and|just|instead)\s+)*"
    r"use\s+(?P<x>[^,;]{2,60}?)(?:\s+instead)?$",
    re.IGNORECASE,
)
#: "stop wrapping every error in a custom exception class".
_STOP_EVERY = re.compile(
    r"^(?:stop|quit)\s+(?P<x>[a-z]+ing\b[^;]*\b(?:every|all the time|each time|everywhere)\b"
    r"[^;]*)$",
    re.IGNORECASE,
)
#: "don't add comments that just restate the code".
_DONT_KIND_THAT = re.compile(
    r"^(?:don'?t|do not|never|avoid)\s+(?P<v>[a-z]+)\s+"
    r"(?P<k>(?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*[^s\W]s)\s+(?:that|which|who)\s+(?P<x>[^;]{3,80})$",
    re.IGNORECASE,
)
_TEAM_VERBS = (
    r"use|write|return|raise|throw|prefer|log|mock|handle|wrap|store|put|keep|deploy|manage|"
    r"format|lint|"
    r"name|go\s+with|stick\s+(?:to|with)"
)
#: "we use RSpec here, not minitest", "in library code we return Result instead of panicking".
_WE_CHOOSE = re.compile(
    r"^(?:(?:in|for)\s+(?P<where>[a-z][\w-]*(?:\s+[\w-]+){0,3}?)\s*,?\s+)?we\s+"
    rf"(?:(?:always|only|generally|usually)\s+)?(?P<v>{_TEAM_VERBS})\s+(?P<x>[^,;]{{1,60}}?)"
    r"(?:\s+(?:here|in this (?:repo|repository|project|codebase)))?\s*,?\s+"
    r"(?:not|instead of|rather than|over|never)\s+(?P<y>[^,;]{1,60})$",
    re.IGNORECASE,
)
#: "we don't write raw SQL, everything goes through the query builder": what the team does
#: without, in the present tense (not "we don't use that here", "we don't have tests yet").
_WE_DONT = re.compile(
    r"^we\s+(?:don'?t|do not)\s+(?P<v>use|write|add|commit|push|vendor|pin|mock|merge|"
    r"squash|rebase|amend|deploy|ship|log|store|hardcode|hard-code|expose|catch|swallow)\s+"
    r"(?P<x>[^,;]{2,60}?)(?P<place>\s+(?:here|in (?:this|our) (?:repo|repository|project|codebase|"
    r"team|company)))?"
    r"(?:\s*[,;:]\s*(?P<rest>[^;]{3,100}))?$",
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


def a_kind(kind: str) -> bool:
    """ "public functions", "new endpoint": a kind named without picking one of the moment."""
    words = kind.lower().split()
    return bool(words) and words[0] not in PICKED


def work_kind(kind: str) -> bool:
    """ "public functions", "commit messages": a kind of thing the work makes (not "users")."""
    last = kind.lower().split()[-1] if kind.split() else ""
    return a_kind(kind) and (
        last in _WORK_KINDS or last.removesuffix("s") in _WORK_KINDS or last[:-2] in _WORK_KINDS
    )


def as_sentence(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


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
    ies = last.endswith("ies") and f"{last[:-3]}y" in _WORK_KINDS  # "dependencies"
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


def _rule_named(match: re.Match[str]) -> HabitForm | None:
    x = match.group("x").strip()
    return HabitForm(as_sentence(x), x) if len(x.split()) >= 3 else None


def _unasked(match: re.Match[str]) -> HabitForm | None:
    x = match.group("x").strip()
    if VAGUE_END.search(x) or not a_kind(x.split(maxsplit=1)[-1]):
        return None  # "you don't need to ask before doing that"
    return HabitForm(f"No need to ask before {x}", f"ask before {x}")


def _never_wanted(match: re.Match[str]) -> HabitForm | None:
    x = match.group("x").strip()
    return HabitForm(f"No {x}", x) if a_kind(x) else None


def _like_every(match: re.Match[str]) -> HabitForm | None:
    kind = match.group("k")
    if not work_kind(kind) or _STATE.match(match.group("x")):
        return None  # "I'd like every user to have an avatar": the product; "… to pass": a check
    new = "new " if match.group("new") else ""
    said = f"Every {new}{kind} should {match.group('x').strip()}"
    return HabitForm(said, f"every {kind} {match.group('x')}")


def _want_recurring(match: re.Match[str]) -> HabitForm | None:
    kind = " ".join(match.group("k").split())
    x = match.group("x").strip().rstrip(".!")
    return HabitForm(f"{as_sentence(kind)} should {x}", f"{kind} {x}")


def _want(match: re.Match[str]) -> HabitForm | None:
    x = match.group("x").strip()
    if not (match.group("lead") or match.group("always") or match.group("ruled")):
        return None  # "I want a logout button": the task at hand
    if not a_kind(x) or x.lower().split()[0] in ("to", "you", "some", "more", "help"):
        return None
    return HabitForm(f"Prefers {x}", x)


def _default(match: re.Match[str]) -> HabitForm | None:
    x, y = match.group("x").strip(), (match.group("y") or "").strip()
    if not a_kind(x):
        return None
    return HabitForm(f"Default to {x}" + (f", never {y}" if y else ""), f"{x} {y}".strip())


def _dont_ever(match: re.Match[str]) -> HabitForm | None:
    x = (match.group("x") or match.group("x2")).strip()
    if VAGUE_END.search(x):
        return None  # "don't ever do that again": no thing named
    return HabitForm(f"Never {x}", x)


def _replaced(match: re.Match[str]) -> HabitForm | None:
    gerund, y, x = match.group("g").lower(), match.group("y").strip(), match.group("x").strip()
    if not (a_kind(y) and a_kind(x)):
        return None  # "stop using the old config, use this one"
    said = y if gerund == "using" else f"{gerund} {y}"
    return HabitForm(f"Use {x} instead of {said}", f"{x} {y}")


def _kind_ruled_out(match: re.Match[str]) -> HabitForm | None:
    if not a_kind(match.group("k")):
        return None  # "don't delete the files that …": things of the moment
    return HabitForm(as_sentence(match.group(0)), f"{match.group('v')} {match.group('k')}")


def _team_without(match: re.Match[str]) -> HabitForm | None:
    verb, x, rest = match.group("v").lower(), match.group("x").strip(), match.group("rest")
    if not a_kind(x) or not (rest or match.group("place")):
        return None  # "we don't use ORMs" alone may tell how the code at hand is written
    said = f"Don't {verb} {x}" + (f", {rest.strip()}" if rest else "")
    return HabitForm(said, f"{verb} {x}")


def _team_choice(match: re.Match[str]) -> HabitForm | None:
    verb, x, y = match.group("v").lower(), match.group("x").strip(), match.group("y").strip()
    if not (a_kind(x) and a_kind(y)):
        return None
    said = f"Use {x}, not {y}" if verb == "use" else f"{as_sentence(verb)} {x} instead of {y}"
    where = match.group("where")
    return HabitForm(said + (f" in {where}" if where else ""), f"{x} {y}")


def _at_every(match: re.Match[str]) -> HabitForm | None:
    verb, kind, obj = match.group("v").lower(), match.group("k"), match.group("o")
    if match.group("q").lower() == "all" and verb not in _CONVENTION_VERBS:
        return None  # "add a header to all files": a sweep of the moment
    if not (a_kind(obj) and work_kind(kind)):
        return None
    return HabitForm(as_sentence(match.group(0).strip()), f"every {kind} {verb} {obj}")


_FORMS = (
    (_EVERY_NEEDS, _every),
    (_KIND_SHOULD, _kind_should),
    (_KIND_MUST_NOT, _must_not),
    (_YOURS_SHOULD, _yours_should),
    (_KIND_ALWAYS_NEEDS, _always_needs),
    (_AVOID_KIND, _avoided),
    (_DONT_IN_KIND, _dont_in_kind),
    (_DISLIKE, _disliked),
    (_STANDING_JOB, lambda m: HabitForm(as_sentence(m.group("x")), m.group("x"))),
    (_THE_RULE_IS, _rule_named),
    (_NO_NEED_TO_ASK, _unasked),
    (_NEVER_WANT, _never_wanted),
    (_LIKE_EVERY, _like_every),
    (_WANT_RECURRING, _want_recurring),
    (_WANT_RULED, _want),
    (_DEFAULT_TO, _default),
    (_DONT_EVER, _dont_ever),
    (_STOP_REPLACED, _replaced),
    (_DONT_KIND_THAT, _kind_ruled_out),
    (_WE_CHOOSE, _team_choice),
    (_WE_DONT, _team_without),
    (_AT_EVERY, _at_every),
)


def habit_wording(clause: str) -> HabitForm | None:
    """The habit `clause` states in one of the everyday wordings above, or None."""
    text = clause.strip().rstrip(" .!")
    if not text or text.endswith("?") or MOMENT.search(text):
        return None
    for pattern, form in _FORMS:
        if (match := pattern.match(text)) and (found := form(match)):
            return found
    if (match := _STOP_EVERY.match(text)) and not re.match(r"the\b", match.group("x")):
        return HabitForm(f"Avoid {match.group('x')}", match.group("x"))
    return None
