"""What a stated instruction is about: its topic (`testing`, `git`, …) and its key
(`pref:<topic>` for a choice of tools, else `pref:<what it is about>`), polarity and firmness
left out so that every wording of one instruction shares one key."""

from __future__ import annotations

import re

from squirrel_memory.extractors.wording import key_slug, word_set

_MAKE_SURE = re.compile(r"\bmake sure (?:to|that|you)\b\s*", re.IGNORECASE)
#: A suggestion's opening ("let's", "lets"): how it is put, not what (not `let` in code).
_LETS = re.compile(r"^\W*let['’]?s\b[\s,]*", re.IGNORECASE)
#: "as always", "like before", "as usual": how often it was said, not what.
_AS_EVER = re.compile(
    r"(?<![\s,])[\s,]*\b(?:as|like)\s+(?:always|usual|ever|before|last time|agreed|discussed)\b",
    re.IGNORECASE,
)
#: Tool names decide a topic before generic words do ("run tests with uv" is about uv).
_TOOL_TOPICS = {
    **dict.fromkeys(
        ("pytest", "unittest", "jest", "vitest", "mocha", "hypothesis", "rspec", "exunit"),
        "testing",
    ),
    **dict.fromkeys(
        ("uv", "pip", "poetry", "pipenv", "conda", "npm", "pnpm", "yarn", "bun", "bundler"),
        "package_manager",
    ),
    **dict.fromkeys(("black", "prettier", "isort", "gofmt", "rustfmt"), "formatting"),
    **dict.fromkeys(
        ("ruff", "eslint", "flake8", "pylint", "credo", "rubocop", "clippy"), "linting"
    ),
    **dict.fromkeys(("mypy", "pyright", "tsc", "dialyzer"), "typing"),
    "asyncio": "async",
}
_WORD_TOPICS = {
    **dict.fromkeys(
        ("test", "tests", "testing", "fixture", "fixtures", "mock", "mocks"), "testing"
    ),
    **dict.fromkeys(("format", "formatting", "formatter", "indentation", "quotes"), "formatting"),
    **dict.fromkeys(("lint", "linter", "linting", "hook", "hooks"), "linting"),
    **dict.fromkeys(("type", "types", "typing", "typed", "annotations", "hints"), "typing"),
    **dict.fromkeys(("async", "await"), "async"),
    **dict.fromkeys(
        ("commit", "commits", "git", "branch", "push", "rebase", "merge", "master", "main"), "git"
    ),
    **dict.fromkeys(("comment", "comments", "docstring", "docstrings"), "comments"),
    **dict.fromkeys(("print", "prints", "logging", "logger"), "logging"),
    **dict.fromkeys(("exception", "exceptions", "except"), "error_handling"),
    **dict.fromkeys(("dependency", "dependencies"), "dependencies"),
    "naming": "naming",
    **dict.fromkeys(("emoji", "emojis"), "emoji"),
}
#: Words left out of a key: they say how strongly, not what.
_KEY_DROP = word_set(
    "a an the to of for in on at with and or be is are it its this that my our your we i you ",
    "me use using any all every each time always never don't dont do not no avoid stop prefer ",
    "please when done finish before call calling task sure instead rather than over here repo ",
    "repository project codebase from now forward future default rule general ",
    "should must need have will whenever if once after",
)


def topic(text: str) -> str | None:
    """The topic a statement is about (`testing`, `git`, …), from tool names first."""
    words = [w.strip(".") for w in re.findall(r"[a-z0-9_+#.-]+", text.lower())]
    for word in words:
        if word in _TOOL_TOPICS:
            return _TOOL_TOPICS[word]
    return next((_WORD_TOPICS[w] for w in words if w in _WORD_TOPICS), None)


def instruction_key(subject: str, *, choice: bool = False) -> str:
    """`pref:<topic>` for a choice between tools, else `pref:<what the instruction is about>`.

    The key leaves out polarity and firmness, so "never push to main", "don't push to main"
    and "did you push to main?" share one key: a later occurrence finds the earlier one.
    """
    if choice and (found := next((_TOOL_TOPICS[w] for w in tool_words(subject)), None)):
        return f"pref:{found}"
    subject = _AS_EVER.sub("", _LETS.sub("", _MAKE_SURE.sub("", subject)))
    return f"pref:{key_slug(subject, _KEY_DROP) or 'general'}"


def tool_words(text: str) -> list[str]:
    """The words of `text` that name a tool with a topic (`uv`, `pytest`)."""
    return [w for w in re.findall(r"[a-z0-9_+#.-]+", text.lower()) if w in _TOOL_TOPICS]
