"""Whether a recipe's code span is a command a reader could run (a judge rule: docs/answer-key.md).

A recipe says how something is run here, so its code spans should hold commands. A span is
not a plausible command when it is a sentence (prose shown as a command: capitalised words with
sentence punctuation outside quotes, such as `No spec added: the change is docs only.`), a
placeholder where the program should be (`<command>`, `{test_cmd}`, `...`), or a file path
alone (`src/app/models.py`, a document or a source file rather than a program or a script).
Everything else that starts with a word a shell could run (a program, a script path, a runner
such as `./gradlew` or `bin/rails`, environment assignments before it) is plausible: the rule
knows no tool's name, so it serves every ecosystem alike.

A recipe memory is junk when it has code spans where its steps are (after its lead, "To run
the tests:") and none of them is a plausible command: a recipe whose only "command" is a path,
a sentence or a placeholder tells a reader nothing to run. A span in the lead names what the
recipe is about ("To put a change to `app/x.rb` into effect: …") and is not judged. A recipe
whose lead does not present its spans as the way to do something (a file to write and its
front matter) is junk only when its spans are prose or a placeholder.
"""

from __future__ import annotations

import re

_CODE_SPAN = re.compile(r"`([^`]+)`")
#: Quoted arguments: anything may be inside them (a commit message, a pattern).
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
#: `NAME=value` before the program.
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=\S*$")
#: A word a shell could run: a name, or a path to one (`./x`, `../x`, `/usr/bin/x`, `bin/x`),
#: optionally with a version or an extension (`python3.12`, `gradlew.bat`, `Invoke-Build`).
_PROGRAM = re.compile(r"^(?:\.{1,2}/|/|~/)?(?:[\w@+.-]+/)*[\w+][\w+.:@-]*$")
#: A placeholder where a command or its program should be.
_PLACEHOLDER = re.compile(r"^(?:<[^>]*>|\{[^}]*\}|\[[^\]]*\]|…|\.{2,}|x{3,}|todo|tbd)$", re.I)
#: Extensions of files that are read, not run (a program or a script has none, or a script's).
_NOT_RUN = re.compile(
    r"\.(?:md|markdown|rst|txt|json|ya?ml|toml|ini|cfg|lock|xml|html?|css|scss|csv|log|"
    r"c|h|cc|cpp|hpp|cs|java|kt|go|rs|ts|tsx|jsx|vue|svelte|swift|ex|exs|erl|hs|ml|jl|lua|"
    r"php|rb|py|pyi|js|mjs|cjs|sql|proto|png|jpe?g|svg|gif)$",
    re.I,
)
#: Sentence punctuation outside quotes: a comma, colon or semicolon-free clause break followed
#: by a space (`added: the`, `first, then`), or a full stop, question or exclamation mark that
#: ends a word before a space or the end (`docs only.`); `;` and `&&` are shell, not prose.
_CLAUSE_BREAK = re.compile(r"[A-Za-z)][,:] +\S|[A-Za-z][.!?](?: +[A-Z]|$)")
#: A purpose lead: "To build", "to run the tests" (after a place: "In `web/`, to format").
_PURPOSE_LEAD = re.compile(r"(?:^|,\s)to [a-z]+", re.IGNORECASE)
#: A capitalised word of prose (`No`, `The`, `Fixed`): letters only, then lower case.
_PROSE_WORD = re.compile(r"^[A-Z][a-z]+$")


def command_problem(span: str, *, as_command: bool = True) -> str:
    """Why `span` is not a plausible command ("" when it is one). Without `as_command` (the
    recipe does not present it as the way to do something: a file's contents, a pattern) only
    prose and a placeholder where the program would be count."""
    text = span.strip()
    if not text:
        return "an empty code span"
    bare = _QUOTED.sub("''", text)
    words = bare.split()
    while words and _ASSIGNMENT.match(words[0]):
        words = words[1:]
    if not words:
        return ""  # only assignments (`export`-style settings): a step of their own
    first = words[0]
    if _PLACEHOLDER.match(first) or _PLACEHOLDER.match(text):
        return "a placeholder, not a command"
    if len(words) >= 3 and _PROSE_WORD.match(first) and _CLAUSE_BREAK.search(bare):
        return "a sentence, not a command"
    if "…" in bare and len(words) >= 3 and _PROSE_WORD.match(first):
        return "a cut sentence, not a command"
    if not as_command:
        return ""
    if not _PROGRAM.match(first):
        return "does not start with a program"
    if len(words) == 1 and _NOT_RUN.search(first) and not first.startswith(("./", "../", "/")):
        return "a file path, not a command"
    return ""


def step_spans(text: str) -> list[str]:
    """The code spans of a recipe that stand for its steps: those after the first colon outside
    a code span (`To put a change to `x.rb` into effect: `make``: the first span names what the
    recipe is about), or every span when there is no such colon."""
    outside = _CODE_SPAN.sub(lambda m: "`" + "_" * (len(m.group(0)) - 2) + "`", text)
    colon = re.search(r":\s", outside)
    return _CODE_SPAN.findall(text[colon.end() :] if colon else text)


def presents_commands(text: str) -> bool:
    """Whether a recipe's lead says its steps are the way to do something: "To run the tests:",
    "In `web/`, to build:" (the way every extractor words a command recipe)."""
    outside = _CODE_SPAN.sub("code", text)
    lead, colon, _ = outside.partition(": ")
    return bool(colon) and bool(_PURPOSE_LEAD.search(lead))


def recipe_problem(content: str) -> str:
    """Why a recipe memory shows no runnable command ("" when one of its step spans is a
    plausible command, or it has no step span)."""
    found = step_spans(content)
    if not found:
        return ""
    as_command = presents_commands(content)
    problems = [command_problem(s, as_command=as_command) for s in found]
    if all(problems):
        return f"its command is not a command ({problems[0]}: `{found[0]}`)"
    return ""
