"""A requirement the user grounds in what the project is: "since X is an open source project
that people deploy themselves, we need to make sure no one is forced onto one service".

Such a sentence carries no rule word ("always", "never"), yet it can only be meant as a rule:
its reason is what the project is (a library, an open source project, a public API, a
plugin), which holds for as long as the project does, so the requirement holds for every
later change too. It is read the same in every ecosystem, by its shape alone:

- the sentence opens with the reason, "since / because / as <subject> is <a kind of
  software>": a name, "it", "this" or "this/our/the <kind>" for the subject, and after
  "a/an" a phrase whose head is a kind of software (project, library, package, app, tool,
  service, platform, framework, crate, gem, plugin, extension, SDK, API, CLI, site);
- then an obligation: "we/you need to, must, have to, should …", or "it/everything/every …
  needs to, must, has to, should be …".

"since the build is a mess we need to fix it" (no kind of software), "since it's a quick fix
we should skip the tests" (a task, not the project), a question and a reason with no
obligation after it say nothing. The memory keeps the user's words, reason first, since the
reason is what tells the rule's reach; it is a standing rule of this project.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.wording import sentence

MAX_RULE_CHARS = 260
_KINDS = (
    r"(?:project|library|lib|package|app|application|tool|service|platform|framework|crate|"
    r"gem|plugin|extension|sdk|api|cli|site|website|product|codebase|repo|repository)s?"
)
_SUBJECT = r"(?:it|this|(?:this|our|the)\s+" + _KINDS + r"|[A-Za-z][\w.-]{1,40})"
_REASON = re.compile(
    r"^(?P<lead>since|because|as)\s+(?P<subject>" + _SUBJECT + r")(?:\s+is|'s)\s+"
    r"(?P<what>(?:an?|the)\s+(?:[\w-]+\s+){0,4}?" + _KINDS + r"\b[^,;.!?]{0,80}?)"
    r"\s*(?:,|-|—|–)?\s+(?P<rule>(?:(?:we|you)\s+(?:need to|must|have to|should|ought to|"
    r"have got to|'ve got to)|(?:it|everything|every \w+|each \w+|all \w+)\s+"
    r"(?:needs to|must|has to|should|need to)\s+(?:be|stay|remain|work|support|run)))\b"
    r"(?P<rest>[^?]*)$",
    re.IGNORECASE | re.DOTALL,
)
_SENTENCE_END = re.compile(r"(?<=[.!])\s+(?=[A-Z])")


@dataclass(frozen=True, slots=True)
class ReasonedRule:
    """A requirement grounded in what the project is: the user's words and what it is about."""

    content: str
    subject: str
    #: The sentence that said it, as flattened (the clauses inside it are this rule's).
    said: str


def reasoned_rule(message: str) -> ReasonedRule | None:
    """The requirement a message's first sentence grounds in what the project is, or None."""
    flat = " ".join(message.split())
    first = _SENTENCE_END.split(flat, maxsplit=1)[0]
    match = _REASON.match(first)
    if match is None:
        return None
    rule = (match.group("rule") + match.group("rest")).strip(" .")
    if len(rule.split()) < 4:
        return None
    reason = f"{match.group('lead')} {match.group('subject')} is {match.group('what').strip()}"
    said = f"{reason[0].upper()}{reason[1:]}, {rule}"
    if len(said) > MAX_RULE_CHARS:
        # cut where a clause ends (never mid-clause, and with no "…": the rule stays whole)
        cut = said[:MAX_RULE_CHARS]
        ends = [cut.rfind(mark) for mark in (", ", "; ", " - ")]
        if max(ends) <= len(reason) + 2:
            return None
        said = cut[: max(ends)]
    content = sentence(said)
    return ReasonedRule(content, match.group("rest").strip(" ."), first) if content else None
