# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, eighth part: what the user or the project changed between sessions — an
instruction the user reverses, and the Python version the project requires, raised
(`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` and `may` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap, Write

REVERSED_INSTRUCTION = Trap(
    "user-reverses-indentation",
    "Lua",
    "the user asks for two-space indentation in the first session and switches to four spaces, "
    "from then on, in the third",
    (
        Session(
            "claude",
            "/home/dev/src/lantern",
            (
                Ask(
                    "Always indent Lua with 2 spaces in this repo. Add a clamp helper to util.lua."
                ),
                Write(
                    "util.lua",
                    "local M = {}\n\nfunction M.clamp(x, lo, hi)\n  return math.max(lo, math.min(hi, x))\nend\n\nreturn M\n",
                ),
                Run(
                    "busted", "●●●●\n4 successes / 0 failures / 0 errors / 0 pending : 0.01 seconds"
                ),
                Say("Added `M.clamp` with 2-space indentation; `busted` passes."),
            ),
        ),
        Session(
            "claude",
            "/home/dev/src/lantern",
            (
                Ask("Add a lerp helper next to clamp."),
                Write(
                    "util.lua",
                    "local M = {}\n\nfunction M.clamp(x, lo, hi)\n  return math.max(lo, math.min(hi, x))\nend\n\n"
                    "function M.lerp(a, b, t)\n  return a + (b - a) * t\nend\n\nreturn M\n",
                ),
                Run(
                    "busted",
                    "●●●●●\n5 successes / 0 failures / 0 errors / 0 pending : 0.01 seconds",
                ),
                Say("Added `M.lerp`; tests pass."),
            ),
        ),
        Session(
            "claude",
            "/home/dev/src/lantern",
            (
                Ask(
                    "We changed the style guide: from now on always indent Lua with 4 spaces, "
                    "not 2. Reformat util.lua."
                ),
                Run("stylua --indent-type Spaces --indent-width 4 util.lua", ""),
                Run(
                    "busted",
                    "●●●●●\n5 successes / 0 failures / 0 errors / 0 pending : 0.01 seconds",
                ),
                Say("`util.lua` now uses 4-space indentation; tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"indent\w*\W+(\w+\W+){0,4}(2|two)[ -]spaces?(?!,? not)|(2|two)[ -]spaces? (indentation|indent)",
            "the user replaced two-space indentation with four spaces in the third session",
        ),
    ),
    may=(r"(4|four)[ -]spaces?",),
)

_PYPROJECT = '[project]\nname = "quill"\nversion = "2.0.0"\nrequires-python = ">={}"\ndependencies = ["rich>=13"]\n'

RAISED_PYTHON = Trap(
    "python-floor-raised",
    "Python",
    "the project requires Python 3.10 in the first session; the second raises it to 3.12 and "
    "drops the old CI jobs",
    (
        Session(
            "codex",
            "/home/dev/src/quill",
            (
                Ask("Which Python versions do we support?"),
                Read("pyproject.toml", _PYPROJECT.format("3.10")),
                Say('`requires-python = ">=3.10"`: 3.10 and newer.'),
            ),
        ),
        Session(
            "codex",
            "/home/dev/src/quill",
            (
                Ask("Drop 3.10 and 3.11, we require 3.12 now. Update pyproject and run the tests."),
                Read("pyproject.toml", _PYPROJECT.format("3.10")),
                Write("pyproject.toml", _PYPROJECT.format("3.12")),
                Run(
                    "uv run pytest -q",
                    "..........                                                               [100%]\n10 passed in 0.30s",
                ),
                Say("`requires-python` is now `>=3.12`; tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"python\W+>=\s*3\.10|requires python 3\.10|python 3\.10 and (newer|later|up)",
            "the second session raised the floor to 3.12",
        ),
    ),
    may=(r"3\.12",),
)

CASES = (REVERSED_INSTRUCTION, RAISED_PYTHON)
