# ruff: noqa: E501  (transcript text: outputs and replies are kept as one string a line)
"""The learned study's eighth set: made-up sessions in Russian, Ukrainian, Chinese, Japanese,
Korean, Spanish, Portuguese, French, German and Italian where, after a failure, the assistant
explains it (in an insight block, "★ Insight ───" … "───", or in plain prose): the real cause or
a tool's rule is to be kept; its own steps said in the first person, "I saved it to memory", a
plan, a status line, a lead-in that announces what follows and a hedge are not. Quiet cases
teach nothing. Every case, its items and its `wrong` patterns were written before any rule
ran over them, in `bench.learned_study`'s terms (see `bench.learned_cases`).
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench.learned_cases import Case, _high, _never
from bench.trap_transcripts import Ask, Run, Say, one_session, write_sessions

_OPEN = "`★ Insight ─────────────────────────────────────`"
_CLOSE = "`─────────────────────────────────────────────────`"


def _insight(before: str, points: Sequence[str], after: str = "") -> str:
    """A reply with an insight block of `points` between `before` and `after`."""
    block = "\n".join([_OPEN, *(f"- {point}" for point in points), _CLOSE])
    return "\n\n".join(part for part in (before, block, after) if part)


TONGUE_CASES: tuple[Case, ...] = (
    Case(
        "ru-tsc-paths-insight",
        "TypeScript (Russian)",
        one_session(
            "/home/oleg/code/kassa",
            Ask("Почему сборка пакета `web` падает? Почини."),
            Run(
                "pnpm --filter web build",
                "src/main.ts:3:24 - error TS2307: Cannot find module '@kassa/shared' or its corresponding type declarations.\n\nFound 1 error.",
                2,
            ),
            Say(
                _insight(
                    "Сборка упала на импорте `@kassa/shared`, разобрался.",
                    [
                        "Настоящая причина в том, что `tsc` не читает `paths` из `tsconfig.base.json`, если `tsconfig.json` пакета не указывает его в `extends`.",
                        "Записал это в память вместе с обходом.",
                        "Второе: порядок пакетов в `pnpm-workspace.yaml` выбран не случайно.",
                        "Я проверил `node_modules/@kassa` и кэш сборки — там всё на месте.",
                    ],
                    "Дальше я добавлю `extends` во все пакеты и перезапущу сборку.",
                )
            ),
        ),
        items=(
            _high(
                "`tsc` reads `paths` from `tsconfig.base.json` only through `extends`.",
                ["tsconfig\\.base\\.json"],
                ["extends"],
            ),
        ),
        wrong=(
            _never("Its own step: saved to memory.", ["в память"]),
            _never("A lead-in that announces the next sentence.", ["не случайно"]),
            _never("Its own steps in the first person.", ["node_modules/@kassa", "я проверил"]),
            _never("A plan.", ["дальше я", "добавлю"]),
        ),
    ),
    Case(
        "uk-pytest-conftest",
        "Python (Ukrainian, Codex)",
        one_session(
            "/home/iryna/src/zvit",
            Ask("Тести в `scripts/` падають з fixture 'db' not found, розберись."),
            Run(
                "pytest scripts/test_export.py",
                "E       fixture 'db' not found\n>       available fixtures: cache, capfd, capsys, monkeypatch, tmp_path\n=========================== 1 error in 0.08s ===========================",
                1,
            ),
            Say(
                "Причина в тому, що `pytest` читає `conftest.py` лише з тек, які він обходить, а `scripts/` не входить у `testpaths` з `pyproject.toml`. Зберіг це в пам'ять. Я запустив тести ще раз з `--rootdir`, але помилка та сама. Можливо, варто ще перевірити `tox.ini`. Наступним кроком я перенесу фікстуру `db` у кореневий `conftest.py`.",
            ),
            host="codex",
        ),
        items=(
            _high(
                "`pytest` reads `conftest.py` only from the folders it walks; `scripts/` is not in `testpaths`.",
                ["conftest\\.py"],
                ["testpaths"],
            ),
        ),
        wrong=(
            _never("Its own step: saved to memory.", ["пам'ять"]),
            _never("Its own step in the first person.", ["--rootdir"]),
            _never("A hedge.", ["tox\\.ini"]),
            _never("A plan.", ["перенесу"]),
        ),
    ),
    Case(
        "zh-sqlx-offline-insight",
        "Rust (Chinese)",
        one_session(
            "/home/wei/code/piaoju",
            Ask("CI 上 cargo build 失败了，帮我看看。"),
            Run(
                "cargo build",
                'error: set `DATABASE_URL` to use query macros online, or run `cargo sqlx prepare` to update the query cache\n  --> src/repo.rs:14:17\nerror: could not compile `piaoju` (bin "piaoju") due to 1 previous error',
                101,
            ),
            Say(
                _insight(
                    "找到原因了。",
                    [
                        "原因是 `sqlx::query!` 宏在编译时要连接数据库，没有 `DATABASE_URL` 时只能读取 `.sqlx/` 目录里的离线缓存。",
                        "我已经把这一点记到记忆里了。",
                        "这里有两个要点：",
                        "可能还和 `rust-toolchain.toml` 里的版本有关。",
                    ],
                    "接下来我会运行 `cargo sqlx prepare` 并提交 `.sqlx/` 目录。",
                )
            ),
        ),
        items=(
            _high(
                "`sqlx::query!` needs `DATABASE_URL` at compile time, or the `.sqlx/` offline cache.",
                ["sqlx"],
                ["DATABASE_URL"],
                ["\\.sqlx/", "离线"],
            ),
        ),
        wrong=(
            _never("Its own step: saved to memory.", ["记忆"]),
            _never("A lead-in.", ["两个要点"]),
            _never("A hedge.", ["rust-toolchain"]),
            _never("A plan.", ["接下来"]),
        ),
    ),
    Case(
        "ja-compose-env-insight",
        "Go/Docker (Japanese)",
        one_session(
            "/home/kenji/work/yoyaku",
            Ask("docker compose up で API が DB に繋がらない。見て。"),
            Run(
                "docker compose up api",
                'api-1  | panic: dial tcp: lookup ${DB_HOST}: no such host\napi-1 exited with code 2\nWARN[0000] The "DB_HOST" variable is not set. Defaulting to a blank string.',
                1,
            ),
            Say(
                _insight(
                    "原因が分かりました。",
                    [
                        "原因は、`docker compose` が `.env` を `compose.yaml` と同じディレクトリからしか読まないことです。",
                        "このことはメモリに保存しました。",
                        "たぶん `Makefile` の `cd` も関係しています。",
                        "✅ `api` コンテナは起動しました。",
                    ],
                    "次に `Makefile` の `up` ターゲットを直します。",
                )
            ),
        ),
        items=(
            _high(
                "`docker compose` reads `.env` only from the folder of `compose.yaml`.",
                ["\\.env"],
                ["compose\\.yaml"],
            ),
        ),
        wrong=(
            _never("Its own step: saved to memory.", ["メモリ"]),
            _never("A hedge.", ["たぶん"]),
            _never("A status line.", ["起動しました"]),
            _never("A plan.", ["直します"]),
        ),
    ),
    Case(
        "ko-jest-esm",
        "TypeScript/Jest (Korean, Codex)",
        one_session(
            "/home/minji/src/gyeolje",
            Ask("jest 테스트가 SyntaxError로 실패해요. 원인 좀 찾아줘."),
            Run(
                "npx jest src/pay.test.ts",
                "SyntaxError: Cannot use import statement outside a module\n\n      at Runtime.createScriptFromCode (node_modules/jest-runtime/build/index.js:1505:14)\n  node_modules/nanoid/index.js:1\n  ({\"Object.<anonymous>\":function(module,exports,require){import { webcrypto } from 'node:crypto'",
                1,
            ),
            Say(
                "원인은 `jest`가 기본적으로 `node_modules` 안의 ESM 패키지를 변환하지 않는다는 것입니다. 그래서 `nanoid`를 `transformIgnorePatterns`에서 빼야 합니다. 이 내용은 메모리에 저장했습니다. 아마 `babel.config.js` 설정도 영향을 줄 수 있습니다. 다음으로 `jest.config.js`를 수정하겠습니다.",
            ),
            host="codex",
        ),
        items=(
            _high(
                "`jest` does not transform ESM packages in `node_modules` by default (`transformIgnorePatterns`).",
                ["jest"],
                ["node_modules", "transformIgnorePatterns"],
                ["ESM", "변환"],
            ),
        ),
        wrong=(
            _never("Its own step: saved to memory.", ["메모리"]),
            _never("A hedge.", ["babel\\.config"]),
            _never("A plan.", ["수정하겠습니다"]),
        ),
    ),
    Case(
        "es-django-installed-apps-insight",
        "Python/Django (Spanish)",
        one_session(
            "/home/lucia/proyectos/citas",
            Ask("Los tests fallan con 'no such table: legacy_paciente'. ¿Qué pasa?"),
            Run(
                "python manage.py test --settings=citas.settings.test",
                "django.db.utils.OperationalError: no such table: legacy_paciente\n\nFAILED (errors=3)",
                1,
            ),
            Say(
                _insight(
                    "Hay dos cosas que explican el fallo:",
                    [
                        "La razón es que Django no aplica las migraciones de la app `legacy` en los tests porque no está en `INSTALLED_APPS` de `settings/test.py`.",
                        "Lo guardé en la memoria para la próxima vez.",
                        "Revisé `manage.py` y el `.env`: todo estaba bien.",
                        "Quizá también falle en CI por lo mismo.",
                    ],
                    "Ahora voy a añadir `legacy` a `INSTALLED_APPS` y relanzar los tests.",
                )
            ),
        ),
        items=(
            _high(
                "The `legacy` app's migrations are not applied in tests: it is not in `INSTALLED_APPS` of `settings/test.py`.",
                ["INSTALLED_APPS"],
                ["legacy"],
                ["settings/test\\.py", "migraciones"],
            ),
        ),
        wrong=(
            _never("Its own step: saved to memory.", ["memoria"]),
            _never("Its own steps in the first person.", ["revisé"]),
            _never("A hedge.", ["quizá"]),
            _never("A plan.", ["voy a"]),
            _never("A lead-in.", ["dos cosas"]),
        ),
    ),
    Case(
        "pt-build-runner",
        "Dart/Flutter (Portuguese, Codex)",
        one_session(
            "/home/joao/dev/feira",
            Ask("O build quebrou depois que mudei o modelo Produto. Pode ver?"),
            Run(
                "flutter build apk",
                "lib/models/produto.dart:12:8: Error: Error when reading 'lib/models/produto.g.dart': No such file or directory\npart 'produto.g.dart';\n       ^\nFAILURE: Build failed with an exception.",
                1,
            ),
            Say(
                "O problema é que o `build_runner` não regenera os arquivos `.g.dart` sozinho depois que um modelo muda; é preciso rodar `dart run build_runner build` antes do `flutter build`. Salvei isso na memória. Primeiro: Rodei o `flutter clean` e não adiantou. Talvez o cache do Gradle também atrapalhe. Vou rodar o build de novo.",
            ),
            host="codex",
        ),
        items=(
            _high(
                "`build_runner` does not regenerate `.g.dart` files by itself: run `dart run build_runner build` first.",
                ["build_runner"],
                ["\\.g\\.dart"],
            ),
        ),
        wrong=(
            _never("Its own step: saved to memory.", ["memória"]),
            _never("Its own step in the first person.", ["flutter clean", "rodei"]),
            _never("A hedge.", ["talvez", "gradle"]),
            _never("A plan.", ["vou rodar"]),
        ),
    ),
    Case(
        "fr-laravel-config-cache-insight",
        "PHP/Laravel (French)",
        one_session(
            "/home/claire/sites/agenda",
            Ask("En prod, `env('MAIL_HOST')` renvoie null. Pourquoi ?"),
            Run(
                "php artisan tinker --execute=\"dump(env('MAIL_HOST'))\"",
                "null",
                0,
            ),
            Say(
                _insight(
                    "Voici ce qui se passe :",
                    [
                        "La vraie cause, c'est que `php artisan config:cache` fige la configuration : une fois le cache créé, `env()` renvoie `null` hors des fichiers de `config/`.",
                        "J'ai noté ça dans la mémoire du projet.",
                        "C'est probablement lié à OPcache aussi.",
                        "Je vais maintenant remplacer les appels à `env()` par `config('mail.host')`.",
                    ],
                )
            ),
        ),
        items=(
            _high(
                "After `php artisan config:cache`, `env()` returns null outside `config/` files.",
                ["config:cache"],
                ["env\\(\\)"],
            ),
        ),
        wrong=(
            _never("Its own step: saved to memory.", ["mémoire"]),
            _never("A hedge.", ["opcache"]),
            _never("A plan.", ["je vais"]),
            _never("A lead-in.", ["ce qui se passe"]),
        ),
    ),
    Case(
        "de-gradle-integration-test",
        "Java/Gradle (German, Codex)",
        one_session(
            "/home/jonas/projekte/lager",
            Ask("Warum laufen die Integrationstests in CI nicht mit? `./gradlew test` ist grün."),
            Run(
                "./gradlew test --tests '*IT'",
                "> Task :test FAILED\n\nExecution failed for task ':test'.\n> No tests found for given includes: [*IT](--tests filter)",
                1,
            ),
            Say(
                "Der Grund ist, dass Gradle die Quellen unter `src/integrationTest` nur mit dem Task `integrationTest` kompiliert und ausführt, nicht mit `test`. Ich habe das im Gedächtnis gespeichert. Zweitens: Die Reihenfolge der Tasks in `build.gradle.kts` ist kein Zufall. Vielleicht liegt es auch am Gradle-Daemon. Als Nächstes passe ich die CI-Pipeline an.",
            ),
            host="codex",
        ),
        items=(
            _high(
                "Sources under `src/integrationTest` run only with the `integrationTest` task, not `test`.",
                ["src/integrationTest"],
                ["integrationTest"],
            ),
        ),
        wrong=(
            _never("Its own step: saved to memory.", ["gedächtnis"]),
            _never("A lead-in.", ["kein zufall"]),
            _never("A hedge.", ["daemon"]),
            _never("A plan.", ["als nächstes"]),
        ),
    ),
    Case(
        "it-poetry-groups-insight",
        "Python/Poetry (Italian)",
        one_session(
            "/home/marco/progetti/bolle",
            Ask("La build della documentazione fallisce con 'sphinx-build: command not found'."),
            Run(
                "poetry run sphinx-build docs docs/_build",
                "Command not found: sphinx-build",
                1,
            ),
            Say(
                _insight(
                    "",
                    [
                        "Il motivo è che `poetry install` non installa i gruppi opzionali: il gruppo `docs` va chiesto con `--with docs`.",
                        "L'ho salvato in memoria.",
                        "Ho controllato `pyproject.toml` e `poetry.lock`: sono allineati.",
                        "Forse dipende anche dalla versione di Sphinx.",
                    ],
                    "Ora rilancio `poetry install --with docs` e poi la build.",
                )
            ),
        ),
        items=(
            _high(
                "`poetry install` leaves out optional groups: `docs` needs `--with docs`.",
                ["--with docs"],
                ["poetry install"],
            ),
        ),
        wrong=(
            _never("Its own step: saved to memory.", ["memoria"]),
            _never("Its own steps in the first person.", ["ho controllato", "poetry\\.lock"]),
            _never("A hedge.", ["forse"]),
            _never("A plan.", ["rilancio"]),
        ),
    ),
    Case(
        "es-npm-ci-rule",
        "Node (Spanish, Codex)",
        one_session(
            "/home/pablo/src/tienda",
            Ask("npm ci falla en el pipeline, ¿por qué?"),
            Run(
                "npm ci",
                "npm ERR! code EUSAGE\nnpm ERR! `npm ci` can only install packages when your package.json and package-lock.json are in sync.\nnpm ERR! Missing: zod@3.23.8 from lock file",
                1,
            ),
            Say(
                "El problema es que `npm ci` solo instala cuando `package.json` y `package-lock.json` están sincronizados; nunca actualiza el lock por su cuenta. Ejecuté `npm install` en local para regenerar el lock. Listo: ✅ el pipeline vuelve a pasar.",
            ),
            host="codex",
        ),
        items=(
            _high(
                "`npm ci` installs only when `package.json` and `package-lock.json` agree; it never updates the lock.",
                ["npm ci"],
                ["package-lock\\.json"],
            ),
        ),
        wrong=(
            _never("Its own step in the first person.", ["ejecuté"]),
            _never("A status line.", ["vuelve a pasar"]),
        ),
    ),
    Case(
        "quiet-ru-steps-and-plan",
        "TypeScript (Russian, Codex)",
        one_session(
            "/home/anna/code/dostavka",
            Ask("Почини падающий тест клиента."),
            Run(
                "npx vitest run src/api/client.test.ts",
                "FAIL  src/api/client.test.ts > fetchUser > returns the user\nTypeError: fetch is not a function",
                1,
            ),
            Say(
                "Я поправил импорт в `src/api/client.ts` и перезапустил тесты. ✅ Все 48 тестов проходят. Дальше добавлю обработку ошибок в `fetchUser`. Записал это в память.",
            ),
            host="codex",
        ),
        wrong=(
            _never("Its own steps, a status line and a plan.", ["client\\.ts", "fetchUser", "48"]),
            _never("Its own step: saved to memory.", ["в память"]),
        ),
    ),
    Case(
        "quiet-zh-hedges-insight",
        "JavaScript/Vite (Chinese)",
        one_session(
            "/home/lin/code/kanban",
            Ask("页面白屏了，控制台报错，看一下。"),
            Run(
                "npm run dev",
                '[vite] Pre-transform error: Failed to resolve import "@/stores/board" from "src/App.vue". Does the file exist?',
                1,
            ),
            Say(
                _insight(
                    "",
                    [
                        "可能是 `vite` 的依赖缓存导致的。",
                        "我已经把这个问题记到记忆里了。",
                        "接下来我会清理 `node_modules/.vite` 再试一次。",
                        "首先，我们需要确认别名配置：",
                    ],
                )
            ),
        ),
        wrong=(_never("A hedge, a plan, its own step or a lead-in.", ["vite", "记忆", "别名"]),),
    ),
    Case(
        "quiet-fr-steps-insight",
        "Python (French)",
        one_session(
            "/home/paul/code/releve",
            Ask("Le script d'import plante, regarde."),
            Run(
                "python -m releve.importer data/janvier.csv",
                "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 41: invalid continuation byte",
                1,
            ),
            Say(
                _insight(
                    "",
                    [
                        "J'ai ouvert `data/janvier.csv` et remplacé l'encodage par `latin-1` dans `importer.py`.",
                        "Nous verrons ensuite s'il faut détecter l'encodage automatiquement.",
                        "Ensuite je vais ajouter un test pour `janvier.csv`.",
                    ],
                )
            ),
        ),
        wrong=(_never("Its own steps and plans.", ["latin-1", "janvier", "encodage"]),),
    ),
    Case(
        "de-pnpm-build-scripts-insight",
        "Node/pnpm (German)",
        one_session(
            "/home/lena/code/kasse",
            Ask("Nach `pnpm install` fehlt `prisma generate`, der Client ist leer. Warum?"),
            Run(
                "pnpm install",
                'Packages: +212\nDone in 4.1s\n\nIgnored build scripts: @prisma/client, prisma.\nRun "pnpm approve-builds" to pick which dependencies should be allowed to run scripts.',
                0,
            ),
            Say(
                _insight(
                    "Kurz zusammengefasst:",
                    [
                        "`pnpm` führt ab Version 10 die `postinstall`-Skripte von Abhängigkeiten nicht mehr aus, bis sie mit `pnpm approve-builds` freigegeben sind.",
                        "Ich habe `@prisma/client` in `onlyBuiltDependencies` eingetragen.",
                        "Wahrscheinlich betrifft das auch `esbuild`.",
                    ],
                )
            ),
        ),
        items=(
            _high(
                "pnpm 10 does not run dependencies' `postinstall` scripts until `pnpm approve-builds` allows them.",
                ["postinstall"],
                ["approve-builds"],
            ),
        ),
        wrong=(
            _never("Its own step in the first person.", ["onlyBuiltDependencies"]),
            _never("A hedge.", ["wahrscheinlich", "esbuild"]),
        ),
    ),
)


def write_all(
    cases: Sequence[Case] = TONGUE_CASES, folder: Path | None = None
) -> dict[str, list[Path]]:
    """Each case's transcripts, written under `folder` (a new temporary folder when None)."""
    where = folder or Path(tempfile.mkdtemp(prefix="learned-tongues-"))
    return {case.name: write_sessions(where, case.name, case.sessions) for case in cases}
