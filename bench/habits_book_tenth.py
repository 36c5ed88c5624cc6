"""The tenth habits phrasebook: the ways of working a user sets for every later task rather than
a way code is written: how far to carry a batch of tasks ("do all of them, don't stop to ask
after each"), what finishing means ("done means the tests pass and it is committed", "run the
linter before you say you're finished"), how to talk to the user ("be brief", "don't explain,
just do it", the language of the replies), what to ask about first ("ask before deleting
anything"), which tool to reach for ("use rg, not grep"), how to review and how to write commit
messages; in several voices (imperative, "I prefer", "please always", lower-case, typos,
emphasis after a slip, one sentence inside a longer message). And the one-offs that look like
them: an answer to one question ("yes, do all of them"), a step of the task at hand, a
question, a statement, quoted words, a limit to this once. Written from general knowledge of how
people talk to a coding assistant, before any rule was read or run on them. Read by
`bench.habits_phrasebook`.
"""

from __future__ import annotations

#: Ways of working the user sets for every later task.
HABITS_TENTH: tuple[str, ...] = (
    # how far to carry a batch
    "When I give you a list of tasks, do all of them. Don't stop to ask after each one.",
    "don't check in with me between steps, just work through the whole list",
    "If several tests fail, fix them all in one go instead of asking me after every fix.",
    "keep going until everything is done, no need to confirm with me after each file",
    # what finishing means
    "Done means the tests pass and it's committed.",
    "always run the linter before you say you're finished",
    "Before you tell me something is fixed, run the full test suite and make sure it's green.",
    "dont say its done until the typecheck passes",
    "A task isn't finished until the CHANGELOG has an entry for it.",
    # how to talk to the user
    "be brief",
    "Don't explain, just do it.",
    "I prefer short answers, without the summary at the end.",
    "no need to explain what you changed, I can read the diff",
    "Please always reply in German.",
    "Stop apologizing in every reply, just fix things.",
    # what to ask about first
    "ask before deleting any files",
    "Always check with me before you run a migration against a database.",
    "never force push without asking me first",
    # which tool to reach for
    "use pnpm not npm",
    "use rg instead of grep",
    "I prefer uv over pip for installing packages.",
    "pls allways use fd rather than find",
    # review habits
    "When you review code for me, list the problems first and skip the praise.",
    "Show me the diff before every commit.",
    # commit messages
    "Commit messages in the imperative mood, under 72 characters, no emojis.",
    "please don't add Co-Authored-By lines to the commits",
    "i prefer small commits, one per logical change",
    # inside a longer message
    "Can you add pagination to the users endpoint? Also, in general, don't stop to ask me "
    "questions mid-task: make a reasonable call and tell me at the end.",
    "Thanks, that works. By the way, please always run `make check` before telling me you're done.",
    # emphasis after a slip
    "I've said this before: DON'T commit without running the tests.",
    "again, stop writing long summaries. one line on what changed is enough",
    "dont ask me for permision to run the tests, just run them",
)

#: One-offs in the same shapes: answers to one question, steps of the task at hand, questions,
#: statements, quoted words, limits to this once.
ONE_OFFS_TENTH: tuple[str, ...] = (
    "yes, do all of them",
    "Fix the remaining three tests too, then stop.",
    "run the linter now",
    "Is it done? Did the tests pass?",
    "just do it",
    "don't explain this one, I already know how it works",
    "delete the old migrations folder",
    "Did you ask before deleting that file?",
    "use pnpm to install the deps for now",
    "use rg to find where parse_header is called",
    "review this PR and tell me what you think",
    "commit this with the message 'fix typo'",
    "Write the commit message in German this time.",
    "Translate the error message into Spanish.",
    "The build is done and the tests pass.",
    "Why did you use npm instead of pnpm?",
    "my coworker always uses yarn, but that's her thing",
    "> always run the linter before you say you're finished",
    "don't stop now, finish the last two files",
    "Don't ask me, just pick whichever library you think is best for this.",
    "short answer: yes, the cache is per process",
    "Should we always run the linter before committing?",
    "For this task only, don't run the tests, they take an hour.",
    "Squash these three commits into one.",
    "When the deploy finishes, let me know.",
    "If the tests pass, commit and push.",
    "I don't need the explanation anymore, I figured it out.",
    "done. what's next?",
    "Ask the API team before deleting the /v1/export endpoint.",
    "the linter is happy and the tests are green, so I think we're finished here",
    "be brief in the release notes for this version, people skim them",
    "keep going",
)
