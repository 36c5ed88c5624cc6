# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z14`: commands whose arguments are `NAME=value` assignments
(`bench/wrong_traps.py` runs them). A make variable, a pinned package, a `-var`, `--set`,
`-e`, `-f`, `--define` or `-e` extra variable, an image set on a deployment, an override of a
training script, a task's `TEST=` file: the assignment is part of what the command does, and a
command stated without it is another command. A failure fixed by adding one assignment (after
the program, or before it as the environment) must not read as a rerun of the same command.
And assignments that carry a secret (an API key before the command, a `--set` password, a
connection string with its password, a `-var` password, a container's password, a cookie the
redaction does not know by name): no memory may carry the value, its redacted placeholder or
the assignment's name with a value.

Written blind, before any of these traps ran and before any rule changed for them, from the
ways a command line can carry assignments in each ecosystem; but the last (checks before
commits given a compiler: `make CC=clang test` and `make CC=clang lint` are two steps, not one
`make`), written after a probe by hand found it and before its rule.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Session, Trap, one_session

#: A memory that carries a redacted value: the command it states cannot be run as it is said.
_PLACEHOLDER = (r"\[REDACTED", "a redacted value stands in a command: it cannot run as said")

MAKE_VARIABLE = Trap(
    "compiler-picked-by-a-variable",
    "C",
    "every build and test run passes `CC=clang` to make; the bare target never ran",
    (
        Session(
            "claude",
            "/home/ann/src/quill",
            (
                Ask("Run the tests with clang, gcc chokes on our sanitizer flags."),
                Read(
                    "Makefile",
                    "CC ?= gcc\nCFLAGS = -O1 -g -fsanitize=memory\n\ntest: build/quill_tests\n\t./build/quill_tests\n",
                ),
                Run(
                    "make CC=clang test",
                    "clang -O1 -g -fsanitize=memory -o build/quill_tests tests/*.c src/*.c\n./build/quill_tests\n42 tests, 0 failures\n",
                ),
                Say("All 42 tests pass with clang."),
            ),
        ),
        Session(
            "claude",
            "/home/ann/src/quill",
            (
                Ask("I fixed the parser, run the tests again."),
                Run(
                    "make CC=clang test",
                    "clang -O1 -g -fsanitize=memory -o build/quill_tests tests/*.c src/*.c\n./build/quill_tests\n43 tests, 0 failures\n",
                ),
                Say("43 tests, all passing."),
            ),
        ),
    ),
    wrong=((r"\bmake test\b", "the tests run as `make CC=clang test`; `make test` uses gcc"),),
    may=(r"make CC=clang test",),
)

MAKE_VARIABLE_FIX = Trap(
    "a-failure-fixed-by-one-more-variable",
    "C",
    "`make check` fails under gcc; `make check CC=clang` passes: the fix is the variable",
    (
        Session(
            "codex",
            "/home/ole/src/ringbuf",
            (
                Ask("The checks are broken, can you see why?"),
                Run(
                    "make check",
                    "gcc -O1 -fsanitize=memory -c src/ring.c -o build/ring.o\ngcc: error: unrecognized argument to '-fsanitize=' option: 'memory'\nmake: *** [Makefile:12: build/ring.o] Error 1\n",
                    2,
                ),
                Run(
                    "make check CC=clang",
                    "clang -O1 -fsanitize=memory -c src/ring.c -o build/ring.o\n./build/check\n17 checks passed\n",
                ),
                Say("gcc has no memory sanitizer; with `CC=clang` all 17 checks pass."),
            ),
        ),
        Session(
            "codex",
            "/home/ole/src/ringbuf",
            (
                Ask("Run the checks once more after my change."),
                Run(
                    "make check CC=clang",
                    "clang -O1 -fsanitize=memory -c src/ring.c -o build/ring.o\n./build/check\n18 checks passed\n",
                ),
                Say("18 checks pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"(?:re-?run|retr|worked|passe[sd]|to (?:run the )?(?:check|test))[^\n]{0,60}`make check`(?! CC=)",
            "`make check` alone fails; `make check CC=clang` is what passed",
        ),
        (r"`make check`[^\n]{0,40}(?:worked|passed|pass\b)", "the bare target failed"),
    ),
    may=(r"make check CC=clang",),
)

LEADING_ENV_FIX = Trap(
    "a-failure-fixed-by-the-environment",
    "Go",
    "`go test ./...` fails linking cgo; with `CGO_ENABLED=0` before it, it passes",
    (
        Session(
            "claude",
            "/home/ravi/code/pathfind",
            (
                Ask("The tests don't build on this box, please sort it out."),
                Run(
                    "go test ./...",
                    '# runtime/cgo\ncgo: C compiler "gcc" not found: exec: "gcc": executable file not found in $PATH\nFAIL\tgithub.com/ravi/pathfind [build failed]\n',
                    1,
                ),
                Run(
                    "CGO_ENABLED=0 go test ./...",
                    "ok  \tgithub.com/ravi/pathfind\t0.412s\nok  \tgithub.com/ravi/pathfind/grid\t0.108s\n",
                ),
                Say("No C compiler here; with `CGO_ENABLED=0` the tests build and pass."),
            ),
        ),
        Session(
            "claude",
            "/home/ravi/code/pathfind",
            (
                Ask("Run the tests after my refactor."),
                Run(
                    "CGO_ENABLED=0 go test ./...",
                    "ok  \tgithub.com/ravi/pathfind\t0.398s\nok  \tgithub.com/ravi/pathfind/grid\t0.101s\n",
                ),
                Say("Both packages pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"(?:re-?run|retr|worked|passe[sd])[^\n]{0,60}(?<!=0 )`go test \./\.\.\.`",
            "`go test ./...` alone fails here; it passes with `CGO_ENABLED=0` before it",
        ),
        (r"(?<!=0 )`go test \./\.\.\.`[^\n]{0,40}(?:worked|passed)", "the bare command failed"),
    ),
)

PINNED_INSTALL = Trap(
    "a-pinned-formatter-version",
    "Python",
    "the formatter is installed at a pinned version; the install is stated without the pin",
    (
        Session(
            "claude",
            "/home/li/src/almanac",
            (
                Ask("CI formats with black 24.3.0, install exactly that and format the code."),
                Run(
                    "pip install black==24.3.0",
                    "Collecting black==24.3.0\nSuccessfully installed black-24.3.0\n",
                ),
                Run("black --check .", "All done! ✨ 🍰 ✨\n31 files would be left unchanged.\n"),
                Say("black 24.3.0 is installed and the code is already formatted."),
            ),
        ),
        Session(
            "claude",
            "/home/li/src/almanac",
            (
                Ask("New venv; set up the formatter again and check."),
                Run(
                    "pip install black==24.3.0",
                    "Collecting black==24.3.0\nSuccessfully installed black-24.3.0\n",
                ),
                Run("black --check .", "All done! ✨ 🍰 ✨\n31 files would be left unchanged.\n"),
                Say("Formatter reinstalled at 24.3.0; nothing to reformat."),
            ),
        ),
    ),
    wrong=(
        (r"pip install(?:`|\s*$|\s*[.,;)])", "the install pins `black==24.3.0`"),
        (r"pip install black(?!==24\.3\.0)\b", "the install pins the version"),
    ),
)

TERRAFORM_VAR = Trap(
    "infrastructure-plan-with-a-workspace-variable",
    "HCL",
    "`-var env=staging` on every plan and apply",
    (
        Session(
            "gemini",
            "/home/maya/infra/edge",
            (
                Ask("Plan and apply the staging changes."),
                Run(
                    "terraform plan -var env=staging -out=staging.tfplan",
                    "Plan: 2 to add, 1 to change, 0 to destroy.\n\nSaved the plan to: staging.tfplan\n",
                ),
                Run(
                    "terraform apply -var env=staging -auto-approve",
                    "Apply complete! Resources: 2 added, 1 changed, 0 destroyed.\n",
                ),
                Say("Staging is applied: 2 added, 1 changed."),
            ),
        ),
        Session(
            "gemini",
            "/home/maya/infra/edge",
            (
                Ask("Apply staging again after my DNS change."),
                Run(
                    "terraform apply -var env=staging -auto-approve",
                    "Apply complete! Resources: 0 added, 1 changed, 0 destroyed.\n",
                ),
                Say("Applied: one record changed."),
            ),
        ),
    ),
    wrong=(
        (
            r"-var(?! env=staging)(?:[\s`]|$)",
            "the variable is `env=staging`; `-var` alone takes it",
        ),
        (r"terraform (?:plan|apply)(?:`|\s*$)", "plan and apply run with `-var env=staging`"),
    ),
)

HELM_SET = Trap(
    "a-chart-installed-with-a-value",
    "Kubernetes/YAML",
    "`--set replicaCount=2` on every upgrade of the chart",
    (
        Session(
            "claude",
            "/home/maya/deploy/webshop",
            (
                Ask("Roll out the chart to staging with two replicas."),
                Run(
                    "helm upgrade --install web ./chart -n staging --set replicaCount=2",
                    'Release "web" has been upgraded. Happy Helming!\nNAME: web\nNAMESPACE: staging\nSTATUS: deployed\nREVISION: 7\n',
                ),
                Run(
                    "kubectl -n staging get deploy web",
                    "NAME   READY   UP-TO-DATE   AVAILABLE\nweb    2/2     2            2\n",
                ),
                Say("Revision 7 is deployed with 2/2 replicas ready."),
            ),
        ),
        Session(
            "claude",
            "/home/maya/deploy/webshop",
            (
                Ask("Roll it out again, I bumped the image."),
                Run(
                    "helm upgrade --install web ./chart -n staging --set replicaCount=2",
                    'Release "web" has been upgraded. Happy Helming!\nNAME: web\nNAMESPACE: staging\nSTATUS: deployed\nREVISION: 8\n',
                ),
                Say("Revision 8 is out."),
            ),
        ),
    ),
    wrong=((r"--set(?! replicaCount=2)(?:[\s`]|$)", "the value set is `replicaCount=2`"),),
)

CONTAINER_ENV = Trap(
    "tests-in-a-container-with-a-mode",
    "JavaScript/Docker",
    "the tests run in the image with `-e NODE_ENV=test`",
    (
        Session(
            "codex",
            "/home/ravi/code/relay",
            (
                Ask("Run the test suite inside the image like CI does."),
                Run(
                    "docker run --rm -e NODE_ENV=test relay:dev npm test",
                    "> relay@1.8.0 test\n> vitest run\n\n Test Files  12 passed (12)\n      Tests  96 passed (96)\n",
                ),
                Say("96 tests pass inside the image."),
            ),
        ),
        Session(
            "codex",
            "/home/ravi/code/relay",
            (
                Ask("And once more in the container after the rebase."),
                Run(
                    "docker run --rm -e NODE_ENV=test relay:dev npm test",
                    "> relay@1.8.0 test\n> vitest run\n\n Test Files  12 passed (12)\n      Tests  97 passed (97)\n",
                ),
                Say("97 pass."),
            ),
        ),
    ),
    wrong=(
        (r"docker run[^`\n]*-e(?! NODE_ENV=test)(?:[\s`]|$)", "the container gets `NODE_ENV=test`"),
    ),
)

WORKFLOW_INPUT = Trap(
    "a-release-workflow-with-an-input",
    "GitHub Actions",
    "the release workflow is dispatched with `-f version=…`",
    (
        Session(
            "claude",
            "/home/ann/src/lantern",
            (
                Ask("Cut 2.3.0 through the release workflow."),
                Run(
                    "gh workflow run release.yml -f version=2.3.0",
                    "✓ Created workflow_dispatch event for release.yml at main\n",
                ),
                Run(
                    "gh run list --workflow release.yml -L 1",
                    "completed  success  Release  main  workflow_dispatch  9912  2m3s\n",
                ),
                Say("The release workflow ran for 2.3.0 and succeeded."),
            ),
        ),
        Session(
            "claude",
            "/home/ann/src/lantern",
            (
                Ask("Now 2.3.1, same way."),
                Run(
                    "gh workflow run release.yml -f version=2.3.1",
                    "✓ Created workflow_dispatch event for release.yml at main\n",
                ),
                Run(
                    "gh run list --workflow release.yml -L 1",
                    "completed  success  Release  main  workflow_dispatch  9930  2m1s\n",
                ),
                Say("2.3.1 released."),
            ),
        ),
    ),
    wrong=(
        (r"release\.yml -f(?! version=)(?:[\s`]|$)", "the input is `version=…`"),
        (r"gh workflow run release\.yml`", "the release needs its `version=` input"),
    ),
)

IMAGE_ON_A_DEPLOYMENT = Trap(
    "an-image-set-on-a-deployment",
    "Kubernetes",
    "`kubectl set image deployment/api api=…:1.4.2` rolls out a version",
    one_session(
        "/home/maya/deploy/api",
        Ask("Roll api to 1.4.2 in prod."),
        Run(
            "kubectl -n prod set image deployment/api api=ghcr.io/acme/api:1.4.2",
            "deployment.apps/api image updated\n",
        ),
        Run(
            "kubectl -n prod rollout status deployment/api",
            'deployment "api" successfully rolled out\n',
        ),
        Say("api is on 1.4.2 in prod."),
        host="codex",
    ),
    wrong=((r"set image deployment/api(?! api=)(?:[\s`]|$)", "the image set is `api=…:1.4.2`"),),
)

BAZEL_DEFINE = Trap(
    "a-storage-backend-chosen-at-build-time",
    "Java/Bazel",
    "`bazel test //... --define backend=sqlite` on every run",
    (
        Session(
            "claude",
            "/home/ole/src/vault",
            (
                Ask("Run the tests against the sqlite backend."),
                Run(
                    "bazel test //... --define backend=sqlite",
                    "INFO: Build completed successfully, 214 total actions\n//store:store_test    PASSED in 3.1s\n//api:api_test        PASSED in 5.4s\n\nExecuted 2 out of 2 tests: 2 tests pass.\n",
                ),
                Say("Both test targets pass on sqlite."),
            ),
        ),
        Session(
            "claude",
            "/home/ole/src/vault",
            (
                Ask("Again on sqlite please."),
                Run(
                    "bazel test //... --define backend=sqlite",
                    "INFO: Build completed successfully, 12 total actions\n//store:store_test    PASSED in 3.0s\n//api:api_test        PASSED in 5.2s\n\nExecuted 2 out of 2 tests: 2 tests pass.\n",
                ),
                Say("Still green."),
            ),
        ),
    ),
    wrong=((r"--define(?! backend=sqlite)(?:[\s`]|$)", "the build defines `backend=sqlite`"),),
)

PLAYBOOK_EXTRA_VARS = Trap(
    "a-playbook-checked-per-environment",
    "Ansible",
    "the playbook is checked with `-e env=staging`",
    one_session(
        "/home/li/ops/fleet",
        Ask("Dry-run the playbook for staging."),
        Run(
            "ansible-playbook site.yml -i inventory/staging -e env=staging --check",
            "PLAY RECAP *********\nweb1 : ok=14 changed=2 unreachable=0 failed=0\nweb2 : ok=14 changed=2 unreachable=0 failed=0\n",
        ),
        Say("The dry run would change 2 tasks on each host; nothing failed."),
        host="gemini",
    ),
    wrong=(
        (r"ansible-playbook[^`\n]*-e(?! env=staging)(?:[\s`]|$)", "the run sets `env=staging`"),
    ),
)

TRAINING_OVERRIDES = Trap(
    "a-smoke-training-run-with-overrides",
    "Python",
    "the smoke run of the training script passes `data=tiny epochs=1` overrides",
    (
        Session(
            "claude",
            "/home/li/src/tinyvit",
            (
                Ask("Do a quick smoke run of training on the tiny dataset."),
                Run(
                    "python train.py data=tiny epochs=1",
                    "epoch 1/1  loss 2.301  acc 0.112\nsaved checkpoints/last.pt\n",
                ),
                Say("The smoke run finished one epoch and saved a checkpoint."),
            ),
        ),
        Session(
            "claude",
            "/home/li/src/tinyvit",
            (
                Ask("Smoke-run training again after the augmentation change."),
                Run(
                    "python train.py data=tiny epochs=1",
                    "epoch 1/1  loss 2.298  acc 0.115\nsaved checkpoints/last.pt\n",
                ),
                Say("Runs fine."),
            ),
        ),
    ),
    # How the script is started (`python train.py`) may be said, with the run as it was typed
    # beside it; the bare command said as what ran, or alone, is another run.
    wrong=(
        (
            r"python train\.py`(?! \(run here as `python train\.py data=tiny epochs=1`)",
            "the smoke run is `data=tiny epochs=1`: without them it trains for real",
        ),
    ),
    may=(r"python train\.py data=tiny epochs=1",),
)

ONE_TEST_FILE_BY_VARIABLE = Trap(
    "one-test-file-through-a-task-variable",
    "Ruby",
    "`bundle exec rake test TEST=…` runs one file; the suite's task is never run bare",
    one_session(
        "/home/ann/src/ledger",
        Ask("Just run the invoice tests."),
        Run(
            "bundle exec rake test TEST=test/models/invoice_test.rb",
            "Run options: --seed 4242\n\n# Running:\n\n.........\n\nFinished in 0.41s, 21.9 runs/s.\n9 runs, 14 assertions, 0 failures, 0 errors, 0 skips\n",
        ),
        Say("The 9 invoice tests pass."),
    ),
    # The suite's task may be named as the way tests run (as a one-file `pytest tests/x.py` says
    # `pytest`); the bare task said to have run, passed or worked never did.
    wrong=(
        (
            r"rake test`[^\n]{0,40}(?:passed|worked|pass\b|green)",
            "the run was one file's (`TEST=…`), not the suite's",
        ),
    ),
    may=(r"rake test TEST=test/models/invoice_test\.rb",),
)


SECRET_KEY_BEFORE = Trap(
    "a-key-given-before-the-tests",
    "TypeScript",
    "the tests run with an API key assigned before the command",
    (
        Session(
            "claude",
            "/home/ravi/code/summarize",
            (
                Ask("Run the integration tests, the key is in my clipboard."),
                Run(
                    "OPENAI_API_KEY=sk-proj-Zq81vTbXk2LmN0pRs7UwYa4cDe9FgHiJ npm run test:integration",
                    "> summarize@0.4.0 test:integration\n> vitest run tests/integration\n\n Test Files  3 passed (3)\n      Tests  11 passed (11)\n",
                ),
                Say("All 11 integration tests pass."),
            ),
        ),
        Session(
            "claude",
            "/home/ravi/code/summarize",
            (
                Ask("Integration tests again please."),
                Run(
                    "OPENAI_API_KEY=sk-proj-Zq81vTbXk2LmN0pRs7UwYa4cDe9FgHiJ npm run test:integration",
                    "> summarize@0.4.0 test:integration\n> vitest run tests/integration\n\n Test Files  3 passed (3)\n      Tests  11 passed (11)\n",
                ),
                Say("Green again."),
            ),
        ),
    ),
    wrong=(
        (r"Zq81vTbXk2|sk-proj", "the key's value"),
        (r"OPENAI_API_KEY=\S", "the key assignment with a value"),
        _PLACEHOLDER,
    ),
)

SECRET_CHART_VALUE = Trap(
    "a-chart-password-passed-as-a-value",
    "Kubernetes/YAML",
    "a database password is passed with `--set auth.password=…` beside a plain value",
    (
        Session(
            "codex",
            "/home/maya/deploy/ledgerdb",
            (
                Ask("Install the database chart in dev."),
                Run(
                    "helm upgrade --install db ./charts/db -n dev --set auth.password=Hx7pq29zzW --set primary.replicas=1",
                    'Release "db" has been upgraded. Happy Helming!\nSTATUS: deployed\nREVISION: 3\n',
                ),
                Say("The database chart is deployed (revision 3)."),
            ),
        ),
        Session(
            "codex",
            "/home/maya/deploy/ledgerdb",
            (
                Ask("Redeploy the db chart."),
                Run(
                    "helm upgrade --install db ./charts/db -n dev --set auth.password=Hx7pq29zzW --set primary.replicas=1",
                    'Release "db" has been upgraded. Happy Helming!\nSTATUS: deployed\nREVISION: 4\n',
                ),
                Say("Revision 4 deployed."),
            ),
        ),
    ),
    wrong=(
        (r"Hx7pq29zzW", "the password's value"),
        (r"auth\.password=\S", "the password assignment with a value"),
        _PLACEHOLDER,
    ),
)

SECRET_CONNECTION_STRING = Trap(
    "a-connection-string-before-the-migration",
    "Python",
    "the migrations run with a database URL carrying its password before the command",
    (
        Session(
            "gemini",
            "/home/li/src/payroll",
            (
                Ask("Apply the migrations to the test database."),
                Run(
                    "DATABASE_URL=postgres://payroll:pgS3cretPw44@localhost:5432/payroll_test alembic upgrade head",
                    "INFO  [alembic.runtime.migration] Running upgrade 1a2b -> 3c4d, add pay periods\n",
                ),
                Say("Migrated to 3c4d."),
            ),
        ),
        Session(
            "gemini",
            "/home/li/src/payroll",
            (
                Ask("Apply the new migration too."),
                Run(
                    "DATABASE_URL=postgres://payroll:pgS3cretPw44@localhost:5432/payroll_test alembic upgrade head",
                    "INFO  [alembic.runtime.migration] Running upgrade 3c4d -> 5e6f, add overtime\n",
                ),
                Say("Now at 5e6f."),
            ),
        ),
    ),
    wrong=(
        (r"pgS3cretPw44", "the password's value"),
        (r"DATABASE_URL=\S", "the connection string with its password"),
        _PLACEHOLDER,
    ),
)

SECRET_VARIABLE_BESIDE_A_PLAIN_ONE = Trap(
    "a-database-password-beside-a-region",
    "HCL",
    "`-var db_password=… -var region=eu-west-1` on the apply",
    (
        Session(
            "claude",
            "/home/maya/infra/ledger",
            (
                Ask("Apply the database stack in eu-west-1."),
                Run(
                    "terraform apply -var db_password=Tq93mLx0vB -var region=eu-west-1 -auto-approve",
                    "Apply complete! Resources: 4 added, 0 changed, 0 destroyed.\n",
                ),
                Say("The database stack is up in eu-west-1."),
            ),
        ),
        Session(
            "claude",
            "/home/maya/infra/ledger",
            (
                Ask("Apply again, I resized the instance."),
                Run(
                    "terraform apply -var db_password=Tq93mLx0vB -var region=eu-west-1 -auto-approve",
                    "Apply complete! Resources: 0 added, 1 changed, 0 destroyed.\n",
                ),
                Say("Resized."),
            ),
        ),
    ),
    wrong=(
        (r"Tq93mLx0vB", "the password's value"),
        (r"db_password=\S", "the password assignment with a value"),
        _PLACEHOLDER,
    ),
)

SECRET_CONTAINER_PASSWORD = Trap(
    "a-container-started-with-a-password",
    "Docker",
    "a database container started with `-e POSTGRES_PASSWORD=…`, then the tests",
    one_session(
        "/home/ole/src/tally",
        Ask("Start a throwaway postgres and run the tests against it."),
        Run(
            "docker run -d --name tally-pg -e POSTGRES_PASSWORD=Wn4kq8Zr2s -e TZ=UTC -p 5432:5432 postgres:16",
            "3f9a1c0d7e2b\n",
        ),
        Run("go test ./...", "ok  \tgithub.com/ole/tally\t1.204s\n"),
        Say("Postgres 16 is up on 5432 and the tests pass against it."),
        host="codex",
    ),
    wrong=(
        (r"Wn4kq8Zr2s", "the password's value"),
        (r"POSTGRES_PASSWORD=\S", "the password assignment with a value"),
        _PLACEHOLDER,
    ),
)

COOKIE_THE_REDACTION_MISSES = Trap(
    "a-session-cookie-as-a-make-variable",
    "C",
    "a smoke target takes a session cookie as a make variable; the name is no common secret's",
    (
        Session(
            "claude",
            "/home/ann/src/scraper",
            (
                Ask("Run the smoke target, use my cookie from the browser."),
                Run(
                    "make smoke SESSION_COOKIE=c00k13Vq7Lp2 TIMEOUT=30",
                    "./build/scraper --smoke\nfetched 12 pages, 0 errors\n",
                ),
                Say("The smoke run fetched 12 pages without errors."),
            ),
        ),
        Session(
            "claude",
            "/home/ann/src/scraper",
            (
                Ask("Smoke again with the same cookie."),
                Run(
                    "make smoke SESSION_COOKIE=c00k13Vq7Lp2 TIMEOUT=30",
                    "./build/scraper --smoke\nfetched 12 pages, 0 errors\n",
                ),
                Say("12 pages, no errors."),
            ),
        ),
    ),
    wrong=(
        (r"c00k13Vq7Lp2", "the cookie's value"),
        (r"SESSION_COOKIE=\S", "the cookie assignment with a value"),
        _PLACEHOLDER,
    ),
)


def _checked_commit(day: str, old: str, new: str) -> Session:
    return Session(
        "claude",
        "/home/ole/src/sprite",
        (
            Ask(f"Fix the {day} bug in the blitter and commit it."),
            Edit("src/blit.c", old, new),
            Run(
                "make CC=clang test",
                "clang -O2 -o build/tests tests/*.c src/*.c\n./build/tests\n58 tests, 0 failures\n",
            ),
            Run("make CC=clang lint", "clang-tidy src/*.c -- -Iinclude\n0 warnings\n"),
            Run(
                f"git commit -am 'Fix {day} blit'",
                f"[main 4f{len(day)}a1c] Fix {day} blit\n 1 file changed\n",
            ),
            Say("Tests and lint pass; committed."),
        ),
    )


CHECKS_BEFORE_COMMITS_WITH_A_VARIABLE = Trap(
    "checks-before-commits-given-a-compiler",
    "C",
    "before each commit the tests and the lint run as `make CC=clang test` and `make CC=clang "
    "lint`: two checks, each with its target",
    (
        _checked_commit("clipping", "if (x < 0) return;", "if (x < 0) x = 0;"),
        _checked_commit("alpha", "a = src[i];", "a = src[i] * alpha / 255;"),
        _checked_commit("stride", "p += w;", "p += stride;"),
    ),
    wrong=(
        (
            r"committing, run: `make`",
            "the checks are `make CC=clang test` and `make CC=clang lint`",
        ),
        (
            r"committing, run: `make CC=clang lint`",
            "the tests run before each commit too, not only the lint",
        ),
    ),
    may=(r"make CC=clang test",),
)

CASES = (
    MAKE_VARIABLE,
    MAKE_VARIABLE_FIX,
    LEADING_ENV_FIX,
    PINNED_INSTALL,
    TERRAFORM_VAR,
    HELM_SET,
    CONTAINER_ENV,
    WORKFLOW_INPUT,
    IMAGE_ON_A_DEPLOYMENT,
    BAZEL_DEFINE,
    PLAYBOOK_EXTRA_VARS,
    TRAINING_OVERRIDES,
    ONE_TEST_FILE_BY_VARIABLE,
    SECRET_KEY_BEFORE,
    SECRET_CHART_VALUE,
    SECRET_CONNECTION_STRING,
    SECRET_VARIABLE_BESIDE_A_PLAIN_ONE,
    SECRET_CONTAINER_PASSWORD,
    COOKIE_THE_REDACTION_MISSES,
    CHECKS_BEFORE_COMMITS_WITH_A_VARIABLE,
)
