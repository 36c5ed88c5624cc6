"""How the offline rules read a phrasebook of ways a developer states a standing habit, and of
one-off requests that must not become one.

Each line of the phrasebook is one user message, written from general knowledge of how people
talk to a coding assistant (no session's wording). A habit is **kept** when
`stated_preferences` reads a standing instruction from it, **tentative** when it reads only a
tentative one (kept later only if said again), **missed** when it reads nothing. A one-off is
**wrong** when it is read as a standing instruction.

The second phrasebook (`HABITS_SECOND`, `ONE_OFFS_SECOND`) was written apart from the first and
from the rules, across ecosystems, and is read the way a session is: the offline rules
extractor over a session of that one message, once as the message that opens the session and
once as the answer to the assistant's work (a reply and an edit before it). A habit is kept
only when both readings keep it as a standing user_style memory; a one-off is wrong when either
does. The third and fourth phrasebooks are read the same way.

Usage: python -m bench.habits_phrasebook [--details]
"""

from __future__ import annotations

import argparse
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from squirrel_core.logs import configure_logging
from squirrel_memory.extractors.preferences import STANDING_TAG, stated_preferences
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import Episode, MemoryType, StoredEvent

#: Ways a developer states a habit for every later session.
HABITS: tuple[str, ...] = (
    "I told you to use pnpm",
    "make sure every commit message follows conventional commits",
    "keep using tabs for indentation",
    "write tests for every module",
    "respond in English, keep explanations brief",
    "please always run the linter before committing",
    "from now on, put type hints on every function",
    "going forward, squash commits before merging",
    "stop using print for logging",
    "we don't use ORMs here",
    "in this repo we use snake_case for file names",
    "remember that all dates are stored in UTC",
    "don't forget to update the changelog",
    "for every PR, add a short summary of the changes",
    "each time you change the schema, write a migration",
    "whenever you add a dependency, pin its version",
    "no emojis",
    "prefer composition over inheritance",
    "use tabs",
    "- always use early returns\n- never commit secrets",
    "always use double quotes",
    "never push directly to main",
    "hi! please always answer in short sentences",
    "alwasy run the formatter before commiting",
    "ALWAYS run the tests before you commit!!",
    "again, never use var in javascript",
    "i said use yarn not npm",
)
#: Requests about the task at hand, questions and quoted text: never a standing habit.
ONE_OFFS: tuple[str, ...] = (
    "fix the login bug",
    "use the second option",
    "keep going",
    "make sure it compiles now",
    "can you always run the tests?",
    "what does this function do?",
    "use the config from the previous file",
    "rename foo to bar",
    "> always use tabs",
    "delete the temp folder",
    "make sure the build passes now",
    "make sure every test passes",
    "write a test for this function",
    "don't forget the semicolon on line 3",
    "don't forget to update the readme",
    "use tabs here",
    "for this PR, add a summary",
    "keep using it",
    "keep using the old branch",
    "stop using the old config for testing",
    "remember that the server is down",
    "fix the imports in every file",
    "no comments",
    "we don't use that here",
    "again, run the tests",
    "fix the bug, run the tests",
)

#: A second phrasebook, written apart from the first: habits as developers put them to an
#: assistant in many ecosystems (Go, Rust, Elixir, the JVM, Ruby, PHP, .NET, Swift, shell,
#: infrastructure), said once in a short session.
HABITS_SECOND: tuple[str, ...] = (
    "always run go vet before you commit",
    "From now on, run cargo clippy with -D warnings before every commit.",
    "we use RSpec here, not minitest",
    "I prefer guard clauses over nested ifs",
    "please don't add comments that just restate the code",
    "no, I said use coroutines, not RxJava",
    "stop wrapping every error in a custom exception class",
    "NEVER run terraform apply without showing me the plan first!!",
    "can you always run mix format before committing?",
    "Please put set -euo pipefail at the top of every shell script.",
    "make it a habit to run dotnet format after each change",
    "declare strict_types in every PHP file",
    "Don't use force unwraps. Ever.",
    "In library code we return Result instead of panicking.",
    "Prefer records over classes for DTOs.",
    "I'd like every new endpoint to have an integration test.",
    "keep pull requests small, one concern per PR",
    "Don't ever commit .env files.",
    "Whenever you touch the Helm chart, bump the chart version.",
    "i want conventional commit messages from now on",
    "It would be great if you could always include a test plan in the PR description.",
    "Do not use Lombok in this project.",
    "quit using `any` in the TypeScript code, use proper types",
    "we don't write raw SQL, everything goes through Ecto queries",
    "Use British spelling in all user-facing strings.",
    "Every public function needs a doc comment.",
    "Never log secrets or access tokens.",
    "dont use sudo in the scripts, ever",
    "Commit messages should be in the imperative mood.",
    "Again: no Lombok!",
    "just so you know, I always want --no-ff merges",
    "Please stop generating getters and setters by hand, use data classes.",
    "Default to async/await, never raw callbacks.",
    "Stop creating new files for every tiny helper",
    "Could you please not reformat files you aren't changing? Keep diffs minimal.",
    "Looks good. Going forward, ask me before adding any new dependency.",
    "Add the /health endpoint. Also, as a rule, I want table-driven tests in Go.",
    # Written after the first round of rules for the lines above, read once before any rule
    # was fitted to them.
    "Remember, we deploy with Capistrano, never by hand.",
    "Whenever you add a route, add a request spec for it.",
    "Please, no more force pushes to shared branches.",
    "I'm not a fan of long functions. Keep them under 40 lines.",
    "Our convention: one class per file.",
    "don't use git add -A, stage files explicitly",
    "You should always check `cargo fmt --check` before pushing.",
    "Rule of thumb: prefer slices to arrays in function signatures.",
    "Use `mix test --stale` when iterating, the full suite only before commit.",
    "STOP adding console.log everywhere",
    "Never, ever hardcode credentials.",
    "Tests must not hit the network.",
    "I'd prefer if you didn't run migrations without asking.",
    "Make sure all new code has type annotations.",
    "please write commit messages in English",
    "Use the repository pattern for all database access.",
    "Avoid abbreviations in variable names.",
    "we always rebase, we never merge main into feature branches",
    "Don't touch the generated code under gen/ — regenerate it instead.",
    "Every migration must be reversible.",
    "Always ask before deleting files.",
    "Can you make sure to always run shellcheck on scripts you write?",
    "No more TODO comments, either fix it or open an issue.",
    "Do not mock the database in integration tests.",
    "Prefer explicit error handling; no bare rescue.",
    # Habits said inside a request or an answer, written after the second round of rules and
    # read once before any rule was fitted to them.
    (
        "Fix the flaky retry test. And please, always run the whole suite before telling me "
        "you're done."
    ),
    "ok that works. btw in this codebase we never use unwrap outside of tests",
    (
        "Can you add pagination to the users endpoint? Also from now on put new SQL in the "
        "migrations folder, not inline."
    ),
    "thanks. one thing: I like small commits, one logical change each",
    (
        "Nice. For future reference, the staging deploy always goes through the Makefile, "
        "never kubectl directly."
    ),
    "Looks fine, but please stop using var, we're on Java 17",
    "good. moving forward, document every new env var in .env.example",
    (
        "Refactor the parser. Keep in mind that we only support Python 3.10+, so use match "
        "statements freely."
    ),
    "I don't want you to push to main directly. Open a PR every time.",
    "Your standing job is to keep the TODO list in NOTES.md up to date.",
    "you keep forgetting to run rubocop. run it before every commit please",
    "Please write all user-facing text in German.",
    "Don't write tests with sleeps in them, use the fake clock.",
    "When you write Bash, quote all variables.",
    (
        "Heads up: this team squashes merges, so keep branch history tidy but don't worry "
        "about it too much."
    ),
    "Add the migration. Note that schema changes always need a rollback script.",
    "And generally speaking, don't introduce new dependencies without asking.",
    "We prefer Tailwind utility classes over custom CSS.",
    "No emojis in commit messages or code comments, please.",
    "Just a reminder - never edit the lockfile by hand.",
    # Habits said in passing, in corrections and asides, written after the third round of
    # rules and read once before any rule was fitted to them.
    "no, don't use mocks for the repo layer, we test against a real sqlite db",
    "perfect. also, i'd rather you not add docstrings to private helpers",
    "hmm, you used println again. please use the logger for anything that isn't CLI output",
    "that's not how we do it here, we put all config in config/ not in env vars",
    "wait, before you commit anything run `make check`, always",
    "ugh, please stop reformatting unrelated files, it makes my diffs unreadable",
    "great work. please keep responses short from now on, I read them on my phone",
    "You don't need to ask me before running tests, just run them.",
    "don't create new markdown files to summarize your work, just tell me in chat",
    "I never want force pushes on main, under no circumstances",
    "Make sure you use `uv run` for every python command, not bare python",
    "next time you touch the API, update the OpenAPI spec too",
    "pls dont leave commented out code behind",
    "Important: migrations are append-only, never edit an existing one.",
    "we're a Kotlin shop, so prefer Kotlin over Java for new code",
    "Every time you finish a task, give me a one-line summary",
    "I really dislike deeply nested callbacks",
    "please don't bump the version, CI does that on release",
    "the rule here is tests first, then implementation",
    "also can you always use absolute imports going forward?",
)
#: Requests about the work at hand, answers and remarks that merely contain a rule word.
ONE_OFFS_SECOND: tuple[str, ...] = (
    "add a logout button to the navbar",
    "fix this failing test",
    "run cargo test again",
    "use the staging cluster for this deploy",
    "please don't push yet",
    "can you rename UserSvc to UserService?",
    "bump the version to 2.3.1",
    "stop the dev server",
    "never mind, revert that",
    "make sure the migration runs on the prod copy",
    "delete the old Dockerfile",
    "add a unit test for the parser",
    "don't change the public API in this PR",
    "I prefer the second approach",
    "let's go with option B",
    "no, the other file",
    "it always fails at step 3",
    "every time I run it, it crashes with a segfault",
    "we use Redis for caching, right?",
    "Please update the README with the new flags.",
    "always the same error: connection refused",
    "keep the retry logic as it is",
    "don't forget to restart the pod",
    "why is this test always flaky?",
    "use the v2 client in the new handler",
    "never seen this error before, can you look into it?",
    "I prefer not to decide that now",
    # Written after the first round of rules, as above.
    "Remember to push the branch when you're done.",
    "Whenever you're ready, run the deploy.",
    "no more changes to the schema for now",
    "one class per file is fine here",
    "don't use git add -A this time",
    "Can you make sure the tests pass?",
    "Every migration ran fine.",
    "Tests must pass before I merge this PR",
    "Make sure all the new files are added.",
    "Use the repository pattern here.",
    "avoid that function, it's deprecated",
    "We always had problems with this library.",
    "Don't touch the generated code yet.",
    "Always? Really?",
    "never mind the linter for now",
    "prefer whichever is faster",
    "I'd prefer the shorter name",
    "Stop. Revert the last commit.",
    "Use Kotlin for the new module",
    "All tests should pass now.",
    # The requests those habits were said inside, without the habit (same round).
    "Fix the flaky retry test and run the whole suite.",
    "ok that works. can you use unwrap here for now?",
    "Add pagination to the users endpoint, put the SQL in the migrations folder.",
    "thanks. make this one a small commit",
    "Nice. Deploy it to staging with kubectl.",
    "Looks fine, but rename var to count",
    "good. document the new env var in .env.example",
    "Refactor the parser, using match statements.",
    "Don't push to main yet, I'll review first.",
    "Keep the TODO list in NOTES.md for this task.",
    "run rubocop on the changed files",
    "Translate this paragraph to German.",
    "Don't write more tests for now, just fix the bug.",
    "Quote the variable on line 12.",
    "Squash these two commits.",
    # Requests in the same words as those habits (same round).
    "no, use the real sqlite db for this test",
    "perfect. add a docstring to that helper",
    "hmm, you used println again in main.rs, remove it",
    "that's not right, the config goes in config/app.yaml",
    "wait, don't commit yet",
    "ugh, revert the formatting changes in utils.py",
    "great work. can you shorten that response?",
    "You can run the tests now.",
    "create a markdown file summarizing the API",
    "force push the branch, I rebased it",
    "use uv run to start the server",
    "next, touch the API handler and add validation",
    "delete the commented out code in parser.go",
    "Important: the migration failed on staging.",
    "convert this file to Kotlin",
    "when you finish this task, tell me",
    "I dislike this color, try blue",
    "bump the version to 1.4.0",
    "the tests go first in this PR",
    "can you use absolute imports in this file?",
)

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

#: A fourth phrasebook, written apart from the rules and from the first three: habits in
#: non-native English, in the other languages a developer writes in, as polite questions that set
#: a standing rule, as verbless lists, about review, in the team's voice, as a complaint or a
#: reason, bound to a kind of task, and inside a list of instructions.
HABITS_FOURTH: tuple[str, ...] = (
    # Non-native English.
    "please to not commit the .env file never, it has the secrets inside",
    "you must to write the tests first and after the code, every time",
    "i prefer that you are using the logging module and not print, in all the project",
    "each time when you finish a task, make a commit with small message in english",
    "no put magic numbers in the code, always make a constant for it",
    "is very important that all functions have type hints, please respect this always",
    # Spanish.
    "siempre ejecuta los tests antes de hacer commit",
    "por favor, de ahora en adelante no uses print para depurar, usa el logger",
    # Portuguese.
    "sempre rode o linter antes de fazer commit",
    "nunca faça push direto na main",
    # Italian.
    "usa sempre le f-string, mai il metodo format",
    "d'ora in poi scrivi i messaggi di commit in inglese",
    # French.
    "n'utilise jamais de variables globales dans ce projet",
    "à partir de maintenant, ajoute toujours un test pour chaque correction de bug",
    # German.
    "bitte immer die Tests laufen lassen, bevor du committest",
    "Verwende niemals print zum Debuggen, nimm das Logging-Modul",
    # Japanese.
    "コミットする前に必ずテストを実行してください",
    "今後は関数に必ず型ヒントを付けてください",
    # Chinese.
    "以后每次提交前都要先运行测试",
    "永远不要在代码里硬编码密码",
    # Korean.
    "커밋하기 전에 항상 린터를 실행해 주세요",
    "앞으로는 주석을 영어로 작성해 주세요",
    # Russian.
    "всегда запускай тесты перед коммитом",
    "никогда не пушь напрямую в main",
    # Turkish.
    "commit atmadan önce her zaman testleri çalıştır",
    "bundan sonra değişken isimlerini İngilizce yaz",
    # Polish.
    "zawsze uruchamiaj testy przed commitem",
    "nigdy nie commituj pliku .env",
    # Polite questions that set a standing rule.
    "Would you mind always running the linter first, before you show me a diff?",
    "Could you make it a habit to run the migration check before each push?",
    "Would it be possible to always put the ticket number in the commit message?",
    "Can I ask you to write every docstring in Google style from now on?",
    "May I ask that you never rename a public function without checking with me?",
    "Could you please remember to update the CHANGELOG every time you change behaviour?",
    # Verbless lists.
    "ruff + mypy before every commit",
    "type hints on all public functions, no exceptions",
    "one assert per test, descriptive test names",
    "f-strings only, no % formatting",
    "dataclasses over plain dicts for anything with more than two fields",
    "2 spaces for YAML, 4 for Python",
    # Review habits.
    "when reviewing a PR, list the blocking issues before the nitpicks",
    "in reviews, always point out missing tests",
    "flag any N+1 query you see when you review my code",
    "during code review, mark each comment as nit, suggestion or blocker",
    "for reviews: error handling first, style last",
    # The team's voice.
    "we don't swallow exceptions in this team, log them or re-raise",
    "in this repo we squash-merge everything, no merge commits",
    "here we keep all secrets in Vault, never in the repo",
    "our team writes commit messages in the present tense",
    "at our company every service exposes a /metrics endpoint",
    "we always pin docker base images by digest",
    # A complaint or a reason.
    "I hate when you leave TODOs in the code, finish it or tell me",
    "it drives me crazy when you change the indentation of whole files",
    "I can't stand wildcard imports",
    "it annoys me when answers are full of headings, just write plain paragraphs",
    "I get nervous when you run git reset --hard, so never do it without asking",
    "nothing bugs me more than unused imports left behind",
    # Bound to a kind of task.
    "whenever you add a new CLI flag, document it in the README",
    "any time you change a public function's signature, update its callers and the docs",
    "when you add a new setting, give it a default and a line in the docs",
    "if you add a column, always give it a default value",
    "after every refactor, run the full test suite",
    "before you delete any file, check that nothing imports it",
    # Inside a list of instructions.
    (
        "Ground rules:\n1. never commit to main\n2. run the tests before every commit\n"
        "3. keep PRs under 400 lines"
    ),
    (
        "Three things: 1) fix the import error in cli.py 2) rename the test file "
        "3) from now on, always run ruff before you hand back code"
    ),
    (
        "ok, next steps:\n- add the retry to the client\n- update the docs\n"
        "- and in general, never use mutable default arguments"
    ),
)
#: One-offs in the same words as those habits: this task only, a question, a hypothetical, a
#: quote of someone else, a habit taken back, a report of the past.
ONE_OFFS_FOURTH: tuple[str, ...] = (
    # Non-native English, this task only or a report.
    "please to not commit the .env this time, I will do it myself",
    "you must to write the test for this function now",
    "is better you use f-string in this line",
    "i prefer that you are using logging in this file",
    "each time when i run the script, it crashes",
    # Other languages, this task only or a question.
    "ejecuta los tests ahora, por favor",
    "¿siempre ejecutas los tests antes de hacer commit?",
    "roda o linter neste arquivo",
    "usa una f-string in questa riga",
    "est-ce qu'on ajoute toujours un test pour chaque bug?",
    "lass bitte jetzt die Tests laufen",
    "früher haben wir immer Squash-Merges gemacht",
    "このファイルのテストを実行してください",
    "这次先不要运行测试",
    "이 함수에 주석을 추가해 주세요",
    "запусти тесты ещё раз",
    "bu dosyadaki testleri çalıştır",
    "czy zawsze uruchamiasz testy przed commitem?",
    # Polite questions about this task, or asking.
    "Would you mind running the linter on this file?",
    "Could you run the migration check once before I push?",
    "Would it be possible to put the ticket number in this commit message?",
    "Do you think we should always write docstrings in Google style?",
    "Can I ask why you always rename things?",
    # Verbless, about one thing now.
    "ruff + mypy on this file",
    "type hints on this function, please",
    "f-string here, not % formatting",
    "2 spaces in this YAML file",
    # Review, this one only or a report.
    "review this PR and list the blocking issues first",
    "point out the security issues in this diff",
    "in your last review you flagged an N+1 query, where was it?",
    "my reviewer always marks comments as nits, is that normal?",
    # The team's voice, in the past, as a question or elsewhere.
    "we squashed the last release branch",
    "in this repo we used to squash, but not anymore",
    "our team might switch to present-tense commit messages, what do you think?",
    "at my old company every service exposed a /metrics endpoint",
    "we don't swallow exceptions here, right?",
    # A complaint about one thing, or someone else's.
    "I hate this TODO, finish it",
    "it drives me crazy that this test is flaky",
    "I can't stand this wildcard import, remove it",
    "my boss hates when people leave TODOs",
    # One task of that kind.
    "when you add the new CLI flag, document it in the README",
    "if you add that column, give it a default value",
    "after this refactor, run the full test suite",
    "before you delete utils.py, check that nothing imports it",
    # A habit taken back.
    "never mind what I said about always using f-strings",
    "forget the rule about squashing, merge commits are fine now",
    # Past reports, quotes and hypotheticals.
    "I always ran the tests before committing at my last job",
    "last week you added a test for every endpoint, thanks",
    "the style guide says 'never catch bare exceptions', where is that?",
    'someone wrote "always pin base images" in the wiki, is that still true?',
    "if you always ran the linter first, would CI be faster?",
    "what would happen if we never pinned base images?",
)

#: Where a second-phrasebook message sits: opening the session, or answering the assistant.
OPENING = "opening"
REPLYING = "replying"
_START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
_ROOT = "/home/dev/project"


def verdict(message: str) -> str:
    """`kept`, `tentative` or `missed`: what the rules read from one message."""
    found = stated_preferences(message, after_assistant_action=False)
    if any(p.standing for p in found):
        return "kept"
    return "tentative" if found else "missed"


def _event(n: int, kind: str, content: dict[str, Any]) -> StoredEvent:
    return StoredEvent(
        id=f"s1_{n:04d}",
        project_id=_ROOT,
        user_id="dev",
        source_tool="claude_code",
        session_id="s1",
        timestamp=_START + timedelta(seconds=20 * n),
        event_type=kind,
        content=content,
        file_paths=(),
        hash=f"phrasebook{n}",
    )


def session_verdict(message: str, where: str) -> str:
    """`kept`, `tentative` or `missed`: the user_style memories the rules extractor keeps of a
    session where `message` opens the session or answers the assistant's work (`where`)."""
    events = []
    if where == REPLYING:
        events = [
            _event(1, "user_message", {"text": "Please tidy up the request handler."}),
            _event(2, "assistant_response", {"text": "I tidied the handler up."}),
            _event(3, "tool_call", {"tool": "Edit", "tool_use_id": "t3", "input": {}}),
            _event(4, "code_change", {"tool": "Edit", "tool_use_id": "t3", "path": "app.txt"}),
        ]
    events.append(_event(len(events) + 1, "user_message", {"text": message}))
    said = events[-1].id
    episode = Episode(
        "ep1", _ROOT, "dev", "s1", _START, events[-1].timestamp, len(events), "", 0.5, _START
    )
    found = [
        c
        for c in RulesExtractor().extract_sync(episode, events)
        if c.type is MemoryType.USER_STYLE and said in c.source_event_ids
    ]
    if any(STANDING_TAG in c.tags for c in found):
        return "kept"
    return "tentative" if found else "missed"


def second_verdict(message: str, *, habit: bool) -> str:
    """A second-phrasebook message's verdict over both places it may sit: a habit's weakest
    reading, a one-off's strongest."""
    readings = [session_verdict(message, where) for where in (OPENING, REPLYING)]
    order = ("kept", "tentative", "missed")
    return (max if habit else min)(readings, key=order.index)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--details", action="store_true", help="print every message's verdict")
    details = parser.parse_args().details
    configure_logging("bench", "error", json=True)
    habits = Counter(verdict(m) for m in HABITS)
    wrong = [m for m in ONE_OFFS if verdict(m) == "kept"]
    print(
        f"habits {len(HABITS)}: kept {habits['kept']}, tentative {habits['tentative']}, "
        f"missed {habits['missed']}; one-offs {len(ONE_OFFS)}: wrong {len(wrong)}"
    )
    if details:
        for message in HABITS:
            print(f"  habit   {verdict(message):9} {message!r}")
        for message in ONE_OFFS:
            print(f"  one-off {verdict(message):9} {message!r}")
    for name, habits_book, one_offs_book in (
        ("second", HABITS_SECOND, ONE_OFFS_SECOND),
        ("third", HABITS_THIRD, ONE_OFFS_THIRD),
        ("fourth", HABITS_FOURTH, ONE_OFFS_FOURTH),
    ):
        _report_as_sessions(name, habits_book, one_offs_book, details=details)


def _report_as_sessions(
    name: str, habits: tuple[str, ...], one_offs: tuple[str, ...], *, details: bool
) -> None:
    said = {m: second_verdict(m, habit=True) for m in habits}
    one_off_said = {m: second_verdict(m, habit=False) for m in one_offs}
    counts = Counter(said.values())
    wrong = sum(v == "kept" for v in one_off_said.values())
    print(
        f"{name}, as sessions: habits {len(habits)}: kept {counts['kept']}, "
        f"tentative {counts['tentative']}, missed {counts['missed']}; "
        f"one-offs {len(one_offs)}: wrong {wrong}"
    )
    if details:
        for message, verdict_ in said.items():
            print(f"  habit   {verdict_:9} {message!r}")
        for message, verdict_ in one_off_said.items():
            print(f"  one-off {verdict_:9} {message!r}")


if __name__ == "__main__":
    main()
