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
`bench.habits_phrasebook`. After the rules that read them were written, ten habits and ten
one-offs of the same kinds were written and run once (`HELD_BACK_TENTH`), then, after the rules
were mended for what that run missed, ten more of each (`HELD_BACK_SECOND_TENTH`).
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

#: Held back: habits of the same kinds written after the rules that read the book were, and run
#: once, to see whether those rules read the shapes or only the book's words.
HELD_BACK_TENTH: tuple[str, ...] = (
    "whenever I hand you a batch of bugs, fix every one before you come back to me",
    "For me, done = CI green + PR opened.",
    "No task is complete until the docs are updated.",
    "I've told you this before, never amend a pushed commit.",
    "Show me the plan before every refactor.",
    "PR descriptions in past tense, with a short testing section.",
    "function names in camelCase",
    "if I paste an error, explain the cause before you change anything",
    "I have said it a few times: keep the diffs small.",
    "please always ask before installing a new dependency",
)

#: Held back with them: one-offs in the same shapes.
HELD_BACK_ONE_OFFS_TENTH: tuple[str, ...] = (
    "When I give you the signal, push the branch.",
    "If I send you the config, check the port.",
    "I said this before, the staging server is slow.",
    "Show me the diff.",
    "the commit messages in this branch are a mess",
    "Done! Thanks, that's all for today.",
    "this task is done when the import finishes",
    "function names in this file are a mess, rename them",
    "I've mentioned it already: the deadline is Friday",
    "show me every error you find in the log",
)

#: Held back a second time: written after the first held-back set had been run and the rules
#: fixed for its misses, run once.
HELD_BACK_SECOND_TENTH: tuple[str, ...] = (
    "when I send you a few failing specs, fix them all and only then report back",
    "Finished means merged to main and the deploy is green.",
    "no feature is done before it has a test",
    "like I've said before: no force pushes to shared branches",
    "Show me the migration before each deploy.",
    "Branch names: kebab-case.",
    "commit subjects in the present tense, please",
    "If I share a screenshot, describe what you see before fixing anything.",
    "i've said it twice already, run prettier before committing",
    "Every time I give you a bug report, write a failing test first.",
)

#: One-offs held back with them.
HELD_BACK_SECOND_ONE_OFFS_TENTH: tuple[str, ...] = (
    "When I give you the ok, run the migration.",
    "if I send you the stack trace, can you tell me what's wrong?",
    "I've said this before, I'm not a fan of the new design.",
    "Show me the diff for the last commit.",
    "Commit messages in this repo are a mess, can you squash the last three?",
    "finished! that's it for today",
    "the feature is done when the designer signs off",
    "Variable names in the parser are confusing.",
    "I told you this already: the API key is in the vault",
    "send me every warning you find in the build output",
)
