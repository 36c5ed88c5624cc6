"""The eleventh habits phrasebook: a rule the user sets for good, told from a limit of the task at
hand by the shape of the sentence alone. A standing rule says so: "ever", "never", "always",
"from now on", "any more", or it is bounded to a kind of thing ("in the integration tests", "in
library code", "under `gen/`"); a one-off limits the work asked for now ("Don't modify any
files.", "dont touch anything yet"), most often banning every change at once, which no one asks
of an assistant for good. Both in several voices (lower case, a trailing "ever", a message of its
own, one sentence after a request). Written from general knowledge of how people talk to a
coding assistant, before any rule was read or run on them. Read by `bench.habits_phrasebook`,
which for this book counts a one-off kept even tentatively: a limit of one task told to the
next session as "Noted once so far" misleads it as much.
"""

from __future__ import annotations

#: Rules the user sets for every later task, by the sentence's shape.
HABITS_ELEVENTH: tuple[str, ...] = (
    "no mocks in the integration tests, ever",
    "No mocks, ever.",
    "no force pushes ever",
    "no print statements in library code, ever",
    "No new dependencies without asking me, ever.",
    "Don't ever touch the vendored code under third_party/.",
    "never edit the generated files under gen/",
    "From now on, don't modify the migrations once they're merged.",
    "Add the export endpoint. And no raw SQL in the handlers, ever.",
    "no emojis in commit messages. ever.",
)

#: Limits of the task at hand, in the same voices.
ONE_OFFS_ELEVENTH: tuple[str, ...] = (
    "Don't modify any files.",
    "Do not change any code.",
    "dont touch anything yet",
    "Don't edit anything, just tell me what you'd do.",
    "Don't change any files for now.",
    "no changes please, only look",
    "Don't write anything to disk.",
    "Do not modify anything.",
    "don't make any edits",
    "Why is the cache test slow? Don't change any code.",
)
