"""Patterns that start with blanks, at a line's start or in a run read a long run once.

A pattern such as `\\s+(?:it|them)$` or `^\\s*warning:` tried at each position of a run of
blanks reads the rest of the run again from each: a message, a reply or an output with a
run of 300,000 blanks, tabs or blank lines held extraction for minutes. Each one now starts
only where the run starts (or at a line's start, past spaces and tabs only), which finds the
same matches. The calls run in one child process that must finish before a generous
backstop; nothing is timed.
"""

from __future__ import annotations

from typing import Any

from tests.one_pass import answers

_E = "squirrel_memory.extractors."
#: (module, pattern's method, arguments, what it answers) for each hostile text.
CALLS: list[tuple[str, str, str, Any]] = [
    # A failure's explanation cut before "…, so it …", and a summary's dangling tail.
    (_E + "explained_failures", "_SO.sub", "'', 'a' + ' ' * 300_000 + 'b'", "a" + " " * 8),
    (_E + "named_summary", "_CLAUSE.search", "'a' + '\\t' * 300_000 + 'b'", None),
    (_E + "named_summary", "_DANGLING.sub", "'', 'a' + '\\n' * 300_000 + 'b'", "a" + "\n" * 8),
    # A described path's head, a reason after a practice, a proposal's question tag.
    (_E + "path_described", "_HEAD_END.split", "'a' + '\\n' * 300_000 + 'b'", ["a" + "\n" * 8]),
    (_E + "practices", "_REASON_AFTER.search", "'a' + '\\n' * 300_000 + 'b'", None),
    (_E + "proposals", "_TAG.search", "'a' + ' \\n' * 150_000 + 'b'", None),
    # A caveats heading and a numbered gutter, each a line of blanks.
    (_E + "listed_caveats", "_HEADING.match", "'caveats' + ' ' * 300_000 + 'x'", None),
    (_E + "pointed_edits", "_GUTTER.match", "' ' * 300_000 + 'x'", None),
    # Line starts over blank lines: Go imports, `sudo`, functions, compiler warnings.
    (_E + "manifests", "_GO_IMPORT.findall", "'\\n' * 300_000", []),
    (_E + "denied_access", "_RUNS_SUDO.search", "'\\n' * 300_000", None),
    (_E + "sibling_patterns", "_METHOD.findall", "'\\n' * 300_000", []),
    (_E + "evidence.cleared_warnings", "_WARNING.findall", "' \\n' * 150_000", []),
    # "as always", a sentence's next step, a trailing pronoun, a shell redirect.
    (_E + "instruction_keys", "_AS_EVER.sub", "'', 'a' + '\\n' * 300_000 + 'b'", "a" + "\n" * 8),
    # A thing at hand pointed at, over a run of blanks after each pointing word.
    (_E + "said_requests", "_POINTED.search", "'this' + ' ' * 300_000 + '1'", None),
    (_E + "said_requests", "_POINTED.search", "'diese' + '\\t' * 300_000", None),
    (_E + "session_routines", "_MOVES_ON.split", "'a' + ' ' * 300_000 + 'b'", ["a" + " " * 8]),
    (_E + "own_part", "_PRONOUN.sub", "'', 'a' + '\\t' * 300_000 + 'b'", "a" + "\t" * 8),
    (_E + "log_failures", "_REDIRECT.sub", "'', 'a' + '\\t' * 300_000 + 'b'", "a" + "\t" * 8),
    # A head cut before its clause, a stack's purpose, a module's docstring after blank lines.
    (_E + "summaries", "_HEAD_END.split", "'a' + ' \\n' * 150_000 + 'b'", ["a" + " \n" * 4]),
    (_E + "user_about", "_HEAD_END.split", "'a' + ' \\n' * 150_000 + 'b'", ["a" + " \n" * 4]),
    (_E + "stack_choices", "_PURPOSE.sub", "'', 'a' + ' \\n' * 150_000 + 'b'", "a" + " \n" * 4),
    (_E + "modules", "_PY_DOCSTRING.match", "'\\n' * 300_000", None),
    # Runs of a token's characters: a listing's addresses, a deps.edn, a README's HTML.
    (_E + "notes_repository", "_URLISH.sub", "' ', 'a-' * 150_000", "a-" * 4 + "a"),
    ("squirrel_memory.repository.code_manifests", "_EDN_DEP.findall", "'1.' * 150_000", []),
    (
        "squirrel_memory.repository.readme_description",
        "_HTML_TAG.sub",
        "'', '<' * 300_000",
        "<" * 9,
    ),
    # A site config's value with blanks and no comment after it.
    ("squirrel_memory.repository.site_configs", "_scalar", "'a' + ' ' * 300_000 + 'b'", ""),
]


def test_runs_of_blanks_are_read_in_one_pass() -> None:
    found, expected = answers(CALLS)
    assert found == expected
