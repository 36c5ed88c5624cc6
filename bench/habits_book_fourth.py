"""The fourth habits phrasebook: habits in non-native English, other languages, polite
questions, verbless lists, review, the team's voice, complaints, task-bound rules and lists of
instructions, and the one-offs in the same words. Read by `bench.habits_phrasebook`.
"""

from __future__ import annotations

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
