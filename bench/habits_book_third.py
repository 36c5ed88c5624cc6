"""The third habits phrasebook: habits in many registers and the one-offs that look like them.
Read by `bench.habits_phrasebook`.
"""

from __future__ import annotations

#: A third phrasebook, written apart from the rules and from the first two: habits in many
#: registers (terse, polite, annoyed, non-native, lowercase, with typos), said as corrections
#: after the assistant's work, with a reason, as a team convention, as a definition of done,
#: about how to talk, and about git, tests and review.
HABITS_THIRD: tuple[str, ...] = (
    # Terse.
    "tests before commits. always.",
    "no force push. ever.",
    "black + isort on every file you touch",
    "short answers pls",
    # Polite.
    "Would you mind always running the type checker before you say a change is finished?",
    "If possible, please keep each commit to a single logical change from here on.",
    "I'd appreciate it if you always wrote a short test plan in your PR descriptions.",
    "Kindly avoid adding new dependencies unless we discuss them first.",
    # Annoyed.
    "for the love of god stop adding emojis to the log messages",
    "how many times do I have to say it, we use pnpm, not npm",
    "ugh, again with the inline styles. use the css modules",
    "seriously, quit renaming variables I didn't ask you to touch",
    "you did it again. no print statements in library code!",
    # Non-native English.
    "please you always make the variable names in english, not in spanish",
    "for every function you are writing, it must have the docstring",
    "I want that you don't change the formatting of lines you not modify",
    "is better you use the f-strings always, not the format()",
    # Lowercase, no punctuation, typos.
    "dont ever touch the prod database from here",
    "alway use the virtualenv in .venv dont install globaly",
    "pls use pathlib insted of os.path everywere",
    "no need to explain every change just do it and tell me what u changed in one line",
    "keep the functions small i hate 200 line functions",
    # Corrections after the assistant did something.
    "no, we use pytest here, not unittest",
    "nope, that's not our style. we use early returns instead of else blocks",
    "you added a requirements.txt again - we manage deps with poetry only",
    "why did you use moment.js? we use date-fns in this project",
    "no no, never amend a commit that's already pushed",
    "that's wrong, we never catch bare Exception in this codebase",
    # As a reason.
    "because I review diffs on my phone, keep lines under 80 characters",
    "since CI is slow, run the affected tests locally before every push",
    "our reviewers read the commit log, so write a body explaining why for each commit",
    "I'm colorblind, so don't rely on red and green alone in any UI you build",
    # As a team convention.
    "our convention is kebab-case for branch names, like feat/add-login",
    "the team prefers named exports over default exports",
    "team rule: every feature flag gets a removal ticket",
    "around here we write ADRs for any architectural decision",
    "By convention, all timestamps in the API are ISO 8601 in UTC.",
    "house style is single quotes in JS and double quotes in Python",
    # Definition of done.
    "a task is only done when lint, types and tests all pass",
    "Done means: tests green, changelog updated, docs touched if behaviour changed.",
    "don't tell me something is fixed until you've actually run it",
    "before you say you're finished, run the full build",
    # About communication.
    "be brief",
    "don't summarise at the end of every answer",
    "skip the pleasantries and get to the point",
    "please don't apologize all the time, just fix it",
    "when you're unsure, ask me instead of guessing",
    "Answer first, then explain, and keep the explanation to three sentences max.",
    "always show me the command before you run anything destructive",
    # Git habits.
    "always create a new branch for each task, never work on main",
    "commit messages: lowercase, no trailing period, under 72 chars",
    "sign off every commit with -s",
    "rebase on main before opening a PR, don't merge it in",
    "never commit directly without me seeing the diff first",
    # Testing habits.
    "every bug fix needs a regression test",
    "use factories for test data, never fixtures from json files",
    "run tests with -x so it stops on the first failure",
    "we don't use snapshot tests, assert the actual values",
    # Review habits.
    "when you review my code, point out security issues first",
    "in code reviews, be blunt, I don't need the compliments",
    "leave review comments as suggestions I can apply, not rewrites",
)
#: One-offs that look like habits: a one-time request, a question, a hypothetical, a quote of
#: someone else, a rule about one file right now.
ONE_OFFS_THIRD: tuple[str, ...] = (
    # One-time requests in habit words.
    "run the tests before you commit this one",
    "no force push this time, I'll do it",
    "use pnpm to install this package",
    "keep this answer short",
    "be brief here, I'm in a meeting",
    "for this commit, sign it off with -s",
    "rebase this branch on main",
    "make this function smaller",
    "write a regression test for the bug we just fixed",
    "skip the summary this time",
    # Questions.
    "should we always run the linter before committing?",
    "do you always add type hints?",
    "why do we never use default exports?",
    "is it a good idea to never force push?",
    "what's our convention for branch names?",
    "does the team prefer named exports?",
    "can you explain why tests should come first?",
    # Hypotheticals.
    "if we ever switch to pnpm, we'd have to update the lockfile",
    "suppose we always squashed, would that break bisect?",
    "what if we never used mocks at all?",
    "in theory we should always write ADRs, but not for this",
    "would it be better to always use early returns?",
    # Quotes of someone else.
    'my lead says "always rebase, never merge" - is that right?',
    "the docs say never call this from the main thread",
    "the linter complains: 'always use const'",
    "the README says we should run make setup first",
    "my coworker wrote 'no print statements' in the review, what does he mean?",
    "error: 'Never use eval' at line 40",
    # A rule about a single file right now.
    "don't touch config.py for now",
    "leave the formatting in utils.js alone in this change",
    "use single quotes in this file",
    "no comments in this snippet please",
    "keep the old function in legacy.py until the migration is done",
    "don't run the migration on this branch yet",
    # Remarks and reports with habit words.
    "the tests always time out on CI",
    "it never works on the first try",
    "every time I click save the page reloads",
    "we used to squash commits but stopped",
    "our team tried snapshot tests last year",
    "thanks, that's brief enough",
    "ugh, the build broke again",
    "no, the other branch",
    "nope, wrong file",
    "that's not what I meant, I wanted the header centered",
    "because the API changed, update the client",
    "since the tests pass, go ahead and merge",
    "done, the tests are green",
    "please apologize to the user in the error message",
    "ask the user for their email on the signup form",
    "show the command output in the log panel",
)
