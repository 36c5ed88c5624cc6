"""The fifth habits phrasebook: habits and one-offs in many languages and registers, terse
rules, complaints, rules of thumb and lists, written before the rules were read. Read by
`bench.habits_phrasebook`.
"""

from __future__ import annotations

#: A fifth phrasebook, written apart from the rules and from the first four: standing habits
#: as developers type them to a coding assistant, in English of every register and in the
#: other languages a developer writes in.
HABITS_FIFTH: tuple[str, ...] = (
    # English, every register.
    "from now on, don't add comments that just restate the code",
    "stop adding emojis to commit messages. ever.",
    "FYI going forward: we use pnpm in this repo, not npm",
    "remember: every new endpoint needs an integration test",
    "pls keep PRs small, like under 300 lines, that's how we work here",
    "I hate it when you rename variables I didn't ask you to touch. don't do that.",
    "Rule of thumb for this codebase: no default exports.",
    "for future reference, migrations are generated with the tool, never hand-written",
    "When you write SQL, always use parameterized queries. No string formatting. Ever.",
    "you keep forgetting to update the changelog - do it every time you change behaviour",
    "Don't touch the generated files under gen/, regenerate them instead",
    "make sure you always run the linter before telling me you're done",
    "Prefer early returns over nested ifs.",
    "All user-facing strings go through the i18n helper, no hardcoded text.",
    "NEVER use `git add -A`. Stage files explicitly.",
    "No mocks for the database in tests - use a real sqlite file.",
    "Whenever you add a CLI flag, document it in the README too.",
    # Verbless lists.
    "Conventions:\n- 4 spaces\n- snake_case for file names\n- no wildcard imports",
    "Ground rules: tests before commits, lint before push, no force pushes.",
    # German.
    "Bitte schreib ab jetzt die Commit-Messages immer auf Englisch.",
    "Verwende niemals `any` in TypeScript, auch nicht in Tests.",
    # French.
    "À partir de maintenant, lance toujours les tests avant de committer.",
    "Ne mets jamais de secrets dans le code, utilise les variables d'environnement.",
    # Spanish.
    "Acuérdate: en este proyecto siempre usamos comillas simples.",
    "no me gusta que uses abreviaturas en los nombres de variables, escríbelos completos siempre",
    # Portuguese.
    "Daqui pra frente, use sempre async/await em vez de then.",
    "Nunca commite direto na develop.",
    # Italian.
    "Usa sempre le f-string invece di format().",
    "D'ora in poi non aggiungere dipendenze senza chiedermelo.",
    # Dutch, Polish.
    "Gebruik altijd type hints, ook in de tests.",
    "Zawsze uruchamiaj testy przed commitem.",
    # Russian.
    "Всегда пиши тесты для новых функций.",
    "Никогда не пушь напрямую в master.",
    # Turkish.
    "Bundan sonra commit mesajlarını her zaman İngilizce yaz.",
    "Asla main branch'e direkt push yapma.",
    # Japanese, Chinese, Korean.
    "今後はコミットする前に必ずテストを実行してください。",
    "以后提交前一定要先跑一遍 lint。",
    "不要在代码里用 print 调试，统一用 logger。",
    "앞으로는 항상 커밋 전에 테스트를 돌려주세요.",
    # Vietnamese, Indonesian, Hindi in Latin letters.
    "Từ giờ trở đi luôn viết test trước khi commit nhé.",
    "Mulai sekarang selalu pakai bahasa Inggris untuk nama variabel.",
    "bhai har baar commit se pehle tests chala lena, always",
)

#: One-off requests, questions and product behaviour in the same words and languages: none is
#: a standing habit of the user.
ONE_OFFS_FIFTH: tuple[str, ...] = (
    "run the tests now please",
    "this function never returns when the list is empty, can you look?",
    "use tabs in this file, it's a Makefile",
    "for this PR only, skip the changelog entry",
    "don't commit yet, I want to review the diff first",
    "never mind, revert that last change",
    "why does the linter always complain about line 42?",
    "Does the team always squash merges? check the git log",
    "the README says 'always use yarn' but is that still right?",
    "add a rule to the eslint config that forbids default exports",
    "write a pre-commit hook that always runs the tests",
    "Can you make this endpoint always return JSON, even on errors?",
    "the job should never retry more than 3 times - implement that in the worker",
    "delete the never-used helpers in utils",
    "I always forget how to run the migrations, what's the command?",
    "we never got the staging deploy working last week, try again",
    "For now, hardcode the timeout to 30s; we'll make it configurable later.",
    "just this once, push straight to main, the release is blocked",
    "Add a test that the parser never crashes on empty input.",
    "don't touch the auth module in this change, just the UI",
    "ok looks good, commit it",
    "Führe jetzt bitte die Tests aus.",
    "Lance les tests de ce module, s'il te plaît.",
    "¿Por qué siempre falla este test en CI?",
    "Roda o build de novo, por favor.",
    "Puoi sistemare questo errore di tipo?",
    "Почему этот тест всегда падает?",
    "Bu dosyadaki hatayı düzelt.",
    "このテストが失敗する理由を調べてください。",
    "帮我把这个函数改成异步的。",
    "이 함수 이름 좀 바꿔줘.",
    "Uruchom teraz testy jednostkowe.",
)
