# ruff: noqa: E501  (transcript text: outputs are kept as one string a line)
"""A fifth set of made-up pitfall sessions (`bench/pitfall_shapes.py --set e` runs them alone):
a failed script of several steps (lines, `;`, `a && b`, assignments from `$(…)`, headers printed
by `echo`/`printf` between steps) and its re-run with one step changed (a flag, the environment,
a path, a `cd`, a missing setup step put before it), in Claude Code Bash calls and Codex exec
cells; and must-not-fire cases (a chain whose failing step nothing tells, a script that only
looks around, a re-run that changed several steps at once, a probe script, a re-run that changed
a step that had passed). Every case, its patterns included, was written before any rule was read
or run on it.
"""

from __future__ import annotations

from bench.pitfall_shape_cases import Shape
from bench.trap_transcripts import Ask, Run, Say, one_session


def _misread(*patterns: str) -> tuple[str, ...]:
    """The default junk, plus a lesson pinned on a step that did not fail, or whose fix is the
    whole script re-run (re-running it as the whole `a && b && c`)."""
    return (*Shape.junk, r"re-running it as `[^`]*(?:&&|;|\n)", *patterns)


_GH_SCRIPT = (
    "remote_head=$({env}gh pr view 1253 --repo ada/courier --json headRefOid --jq .headRefOid)\n"
    "local_parent=$(git rev-parse HEAD^)\n"
    'printf \'remote_head=%s\\nlocal_parent=%s\\n\' "$remote_head" "$local_parent"\n'
    'test "$remote_head" = "$local_parent"\n'
    "{env}git push origin HEAD:feat/retry-backoff"
)
_UNSET = "env -u GITHUB_TOKEN -u GH_TOKEN "

GH_TOKEN_SCRIPT = Shape(
    "codex-gh-token-script",
    "a script whose `gh` and `git push` steps fail with 401; the re-run puts `env -u …` before both",
    "GitHub CLI/git",
    one_session(
        "/home/ada/src/courier",
        Ask("Check the PR head is our parent commit, then push the branch."),
        Run(
            _GH_SCRIPT.format(env=""),
            "HTTP 401: Bad credentials (https://api.github.com/graphql)\nTry authenticating with:  gh auth login -h github.com\nremote_head=\nlocal_parent=c8d4e1f09a7b\nremote: Invalid username or token. Password authentication is not supported for Git operations.\nfatal: Authentication failed for 'https://github.com/ada/courier.git/'",
            128,
        ),
        Run(
            _GH_SCRIPT.format(env=_UNSET),
            "remote_head=c8d4e1f09a7b\nlocal_parent=c8d4e1f09a7b\nTo https://github.com/ada/courier.git\n   c8d4e1f..9a1b2c3  HEAD -> feat/retry-backoff",
        ),
        Say("The PR head matched and the branch is pushed."),
        host="codex",
    ),
    trigger=r"`(?:env -u [^`]*)?git push[^`]*` failed|`(?:env -u [^`]*)?gh pr view[^`]*` failed",
    cause=r"401|Bad credentials|Invalid username or token|Authentication failed",
    fix=r"env -u GITHUB_TOKEN|-u GH_TOKEN",
    expect="gh/git push fail with 401 while GITHUB_TOKEN/GH_TOKEN are set: run them under `env -u GITHUB_TOKEN -u GH_TOKEN`",
    junk=_misread(r"`git rev-parse[^`]*` failed", r"`test [^`]*` failed", r"`printf[^`]*` failed"),
)

PLAYWRIGHT_SETUP = Shape(
    "playwright-install-added",
    "`build && e2e` fails at the e2e step; the re-run adds the browser install before it",
    "Node/Playwright",
    one_session(
        "/home/li/src/storefront",
        Ask("Build and run the e2e tests."),
        Run(
            "npm run build && npx playwright test --project=chromium",
            "> storefront@0.4.0 build\n> vite build\n\nvite v5.2.8 building for production...\n✓ 212 modules transformed.\ndist/index.html  0.46 kB\n✓ built in 2.31s\n\nRunning 18 tests using 2 workers\n\n  1) [chromium] › cart.spec.ts:4:5 › adds an item\n\n    Error: browserType.launch: Executable doesn't exist at /home/li/.cache/ms-playwright/chromium-1112/chrome-linux/chrome\n    ╔═════════════════════════════════════════════════════════════════════════╗\n    ║ Looks like Playwright Test or Playwright was just installed or updated. ║\n    ║ Please run the following command to download new browsers:              ║\n    ║                                                                         ║\n    ║     npx playwright install                                              ║\n    ╚═════════════════════════════════════════════════════════════════════════╝\n\n  18 failed",
            1,
        ),
        Run(
            "npm run build && npx playwright install chromium && npx playwright test --project=chromium",
            "> storefront@0.4.0 build\n> vite build\n\n✓ built in 2.02s\nDownloading Chromium 124.0.6367.29 (playwright build v1112)\n|■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■| 100% of 153.1 MiB\n\nRunning 18 tests using 2 workers\n  18 passed (21.4s)",
        ),
        Say("The e2e suite passes once the Chromium build is downloaded."),
    ),
    trigger=r"`npx playwright test[^`]*` failed",
    cause=r"Executable doesn't exist|browserType\.launch",
    fix=r"playwright install",
    junk=_misread(r"`npm run build` failed", r"Its hooks run checks"),
)

PYTEST_PATH = Shape(
    "pytest-pythonpath-after-header",
    "lines with `echo` headers: the last step (pytest) fails to import; the re-run sets PYTHONPATH on it",
    "Python/pytest",
    one_session(
        "/home/omar/src/tariffs",
        Ask("Lint and test."),
        Run(
            'echo "== lint"\nruff check .\necho "== tests"\npytest -q tests/unit',
            "== lint\nAll checks passed!\n== tests\nImportError while loading conftest '/home/omar/src/tariffs/tests/conftest.py'.\ntests/conftest.py:3: in <module>\n    from tariffs.rates import RateTable\nE   ModuleNotFoundError: No module named 'tariffs'",
            4,
        ),
        Run(
            'echo "== lint"\nruff check .\necho "== tests"\nPYTHONPATH=src pytest -q tests/unit',
            "== lint\nAll checks passed!\n== tests\n........................................ [100%]\n40 passed in 0.88s",
        ),
        Say("The package lives under src/, so the tests need PYTHONPATH=src; all 40 pass."),
    ),
    trigger=r"`pytest[^`]*` failed",
    cause=r"No module named 'tariffs'|ModuleNotFoundError",
    fix=r"PYTHONPATH=src",
    junk=_misread(r"`ruff check[^`]*` failed"),
)

GO_RACE_CGO = Shape(
    "go-race-cgo-set-e",
    "`set -e` script with headers: `go test -race` fails for want of cgo; the re-run sets CGO_ENABLED=1 on it",
    "Go",
    one_session(
        "/home/ines/src/ratelimit",
        Ask("Vet and run the race tests."),
        Run(
            'set -e\necho "--- vet"\ngo vet ./...\necho "--- race"\ngo test -race ./...',
            "--- vet\n--- race\ngo: -race requires cgo; enable cgo by setting CGO_ENABLED=1",
            2,
        ),
        Run(
            'set -e\necho "--- vet"\ngo vet ./...\necho "--- race"\nCGO_ENABLED=1 go test -race ./...',
            "--- vet\n--- race\nok  \tratelimit/bucket\t1.204s\nok  \tratelimit/server\t2.881s",
        ),
        Say("Race tests pass with cgo on."),
        host="codex",
    ),
    trigger=r"`go test -race[^`]*` failed",
    cause=r"requires cgo",
    fix=r"CGO_ENABLED=1",
    junk=_misread(r"`go vet[^`]*` failed"),
)

RELEASE_CONFIG_PATH = Shape(
    "cargo-run-config-path",
    "`cargo build && ./target/release/x --config …`: the binary fails on the config path; the re-run names the right file",
    "Rust/cargo",
    one_session(
        "/home/kai/src/tally",
        Ask("Build release and start it with the dev config."),
        Run(
            "cargo build --release && ./target/release/tally --config conf/dev.toml",
            "   Compiling tally v0.3.1 (/home/kai/src/tally)\n    Finished `release` profile [optimized] target(s) in 14.02s\nError: could not read config file `conf/dev.toml`: No such file or directory (os error 2)",
            1,
        ),
        Run(
            "cargo build --release && ./target/release/tally --config config/dev.toml",
            "    Finished `release` profile [optimized] target(s) in 0.08s\ntally listening on 127.0.0.1:7070 (config: config/dev.toml)",
        ),
        Say("It starts with `config/dev.toml`."),
    ),
    trigger=r"`\./target/release/tally[^`]*` failed",
    cause=r"conf/dev\.toml|could not read config",
    fix=r"config/dev\.toml",
    junk=_misread(r"`cargo build[^`]*` failed"),
)

DOCKER_PORT = Shape(
    "docker-run-port-taken",
    "`docker build && docker run -p …`: the run step fails on a taken port; the re-run maps another",
    "Docker",
    one_session(
        "/home/rosa/src/invoicer",
        Ask("Build the image and run it locally."),
        Run(
            "docker build -t invoicer:dev . && docker run --rm -d -p 8080:8080 invoicer:dev",
            '#0 building with "default" instance using docker driver\n#8 exporting to image\n#8 naming to docker.io/library/invoicer:dev done\n#8 DONE 0.4s\n7c1e0b0f4d2a9e6f\ndocker: Error response from daemon: driver failed programming external connectivity on endpoint eager_hopper: Bind for 0.0.0.0:8080 failed: port is already allocated.',
            125,
        ),
        Run(
            "docker build -t invoicer:dev . && docker run --rm -d -p 8081:8080 invoicer:dev",
            "#8 naming to docker.io/library/invoicer:dev done\n#8 DONE 0.1s\n3f9a2d4c11b0e8a7",
        ),
        Say("It runs on port 8081; something else holds 8080."),
    ),
    trigger=r"`docker run[^`]*` failed",
    cause=r"port is already allocated",
    fix=r"8081:8080",
    junk=_misread(r"`docker build[^`]*` failed", r"failed with `#\d"),
)

PNPM_CD = Shape(
    "pnpm-test-cd-added",
    "a script with a test step at the root fails (no test script); the re-run puts `cd apps/web &&` before it",
    "Node/pnpm",
    one_session(
        "/home/tam/src/monodash",
        Ask("Install and run the web tests."),
        Run(
            "pnpm install --frozen-lockfile\npnpm test",
            'Lockfile is up to date, resolution step is skipped\nAlready up to date\nDone in 1.2s\n ERR_PNPM_NO_SCRIPT  Missing script: test\n\nCommand "test" not found.',
            1,
        ),
        Run(
            "pnpm install --frozen-lockfile\ncd apps/web && pnpm test",
            "Already up to date\nDone in 0.9s\n\n> web@0.0.0 test /home/tam/src/monodash/apps/web\n> vitest run\n\n Test Files  12 passed (12)\n      Tests  87 passed (87)",
        ),
        Say("The tests are defined in apps/web; they pass there."),
    ),
    trigger=r"`pnpm test` failed",
    cause=r"Missing script: test|ERR_PNPM_NO_SCRIPT",
    fix=r"apps/web",
    junk=_misread(r"`pnpm install[^`]*` failed"),
)

MIX_DB_UP = Shape(
    "mix-db-started-first",
    "lines `mix deps.get`, `mix ecto.create`, `mix test` fail on a refused connection; the re-run starts the database first",
    "Elixir/mix",
    one_session(
        "/home/noor/src/shop",
        Ask("Set up and run the tests."),
        Run(
            "mix deps.get\nmix ecto.create\nmix test",
            "Resolving Hex dependencies...\nAll dependencies are up to date\n** (Mix) The database for Shop.Repo couldn't be created: connection refused\n18:02:11.204 [error] Postgrex.Protocol (#PID<0.241.0>) failed to connect: ** (DBConnection.ConnectionError) tcp connect (localhost:5432): connection refused - :econnrefused\n** (DBConnection.ConnectionError) connection not available and request was dropped from queue after 2000ms",
            1,
        ),
        Run(
            "docker compose up -d db\nmix deps.get\nmix ecto.create\nmix test",
            "[+] Running 1/1\n ✔ Container shop-db-1  Started\nAll dependencies are up to date\nThe database for Shop.Repo has been created\n.........................\nFinished in 1.9 seconds (0.6s async, 1.3s sync)\n25 tests, 0 failures",
        ),
        Say("Postgres wasn't running; with the db container up the 25 tests pass."),
        host="codex",
    ),
    trigger=r"`mix (?:test|ecto\.create)` failed",
    cause=r"connection refused|econnrefused",
    fix=r"docker compose up -d db",
    junk=_misread(r"`mix deps\.get` failed"),
)

RAILS_DB_CREATE = Shape(
    "rails-db-create-added",
    "`bundle install && bin/rails db:migrate && bin/rails test` fails at migrate; the re-run creates the database first",
    "Ruby/Rails",
    one_session(
        "/home/zoe/src/bookings",
        Ask("Migrate and run the tests."),
        Run(
            "bundle install && bin/rails db:migrate && bin/rails test",
            "Bundle complete! 48 Gemfile dependencies, 121 gems now installed.\nbin/rails aborted!\nActiveRecord::NoDatabaseError: We could not find your database: bookings_development. Available database configurations can be found in config/database.yml.\n\nTo resolve this error:\n\n- Did you intend to use an existing database?\n- Did you expect to create it with `bin/rails db:create`?\nTasks: TOP => db:migrate",
            1,
        ),
        Run(
            "bundle install && bin/rails db:create && bin/rails db:migrate && bin/rails test",
            "Bundle complete! 48 Gemfile dependencies, 121 gems now installed.\nCreated database 'bookings_development'\nCreated database 'bookings_test'\n== 20240301120000 CreateRooms: migrated (0.0121s)\nRunning 64 tests in a single process\n64 runs, 171 assertions, 0 failures, 0 errors, 0 skips",
        ),
        Say("Migrated and green: 64 runs, 0 failures."),
    ),
    trigger=r"`bin/rails db:migrate` failed",
    cause=r"NoDatabaseError|could not find your database",
    fix=r"db:create",
    junk=_misread(r"`bundle install` failed", r"`bin/rails test` failed"),
)

TWINE_USERNAME = Shape(
    "twine-token-username",
    "`python -m build && twine check && twine upload`: the upload fails 403; the re-run sets TWINE_USERNAME=__token__ on it",
    "Python/twine",
    one_session(
        "/home/una/src/geofence",
        Ask("Publish the release to TestPyPI."),
        Run(
            "python -m build && twine check dist/* && twine upload --repository testpypi dist/*",
            "Successfully built geofence-1.2.0.tar.gz and geofence-1.2.0-py3-none-any.whl\nChecking dist/geofence-1.2.0-py3-none-any.whl: PASSED\nChecking dist/geofence-1.2.0.tar.gz: PASSED\nUploading distributions to https://test.pypi.org/legacy/\nUploading geofence-1.2.0-py3-none-any.whl\nWARNING  Error during upload. Retry with the --verbose option for more details.\nERROR    HTTPError: 403 Forbidden from https://test.pypi.org/legacy/\n         Invalid or non-existent authentication information. See https://test.pypi.org/help/#invalid-auth for more information.",
            1,
        ),
        Run(
            "python -m build && twine check dist/* && TWINE_USERNAME=__token__ twine upload --repository testpypi dist/*",
            "Successfully built geofence-1.2.0.tar.gz and geofence-1.2.0-py3-none-any.whl\nChecking dist/geofence-1.2.0-py3-none-any.whl: PASSED\nUploading distributions to https://test.pypi.org/legacy/\nView at:\nhttps://test.pypi.org/project/geofence/1.2.0/",
        ),
        Say("Published to TestPyPI; an API token needs the username `__token__`."),
        host="codex",
    ),
    trigger=r"`twine upload[^`]*` failed",
    cause=r"403|Invalid or non-existent authentication",
    fix=r"TWINE_USERNAME=__token__",
    junk=_misread(r"`python -m build` failed", r"`twine check[^`]*` failed"),
)

TSC_PROJECT = Shape(
    "tsc-project-file-after-header",
    "`echo '== typecheck' && tsc -p … && echo '== unit' && vitest`: the last header printed is before tsc; the re-run names another project file",
    "TypeScript",
    one_session(
        "/home/yara/src/atlas-ui",
        Ask("Typecheck and run the unit tests."),
        Run(
            "echo '== typecheck' && npx tsc --noEmit -p tsconfig.json && echo '== unit' && npx vitest run",
            "== typecheck\nerror TS5083: Cannot read file '/home/yara/src/atlas-ui/tsconfig.json'.",
            1,
        ),
        Run(
            "echo '== typecheck' && npx tsc --noEmit -p tsconfig.app.json && echo '== unit' && npx vitest run",
            "== typecheck\n== unit\n\n Test Files  31 passed (31)\n      Tests  204 passed (204)",
        ),
        Say("Typecheck is clean against tsconfig.app.json, and the 204 tests pass."),
    ),
    trigger=r"`npx tsc[^`]*` failed",
    cause=r"TS5083|Cannot read file",
    fix=r"tsconfig\.app\.json",
    junk=_misread(r"`npx vitest run` failed"),
)

JAR_NAME = Shape(
    "java-jar-versioned-name",
    "`mvn package && java -jar target/app.jar`: the jar step fails; the re-run names the versioned jar",
    "Java/Maven",
    one_session(
        "/home/bea/src/ledger-svc",
        Ask("Package it and start it with the local profile."),
        Run(
            "mvn -q -DskipTests package && java -jar target/ledger-svc.jar --spring.profiles.active=local",
            "Error: Unable to access jarfile target/ledger-svc.jar",
            1,
        ),
        Run(
            "mvn -q -DskipTests package && java -jar target/ledger-svc-0.7.2.jar --spring.profiles.active=local",
            "  .   ____          _\n :: Spring Boot ::                (v3.2.4)\n2026-03-02T10:12:04.118Z  INFO 4121 --- [main] c.e.ledger.LedgerApplication : Started LedgerApplication in 3.41 seconds",
        ),
        Say("It started; the jar carries the version in its name."),
        host="codex",
    ),
    trigger=r"`java -jar[^`]*` failed",
    cause=r"Unable to access jarfile",
    fix=r"ledger-svc-0\.7\.2\.jar",
    junk=_misread(r"`mvn[^`]*` failed"),
)

HELM_NAMESPACE = Shape(
    "helm-create-namespace",
    "`helm dependency update && helm upgrade --install`: the install fails on a missing namespace; the re-run adds --create-namespace",
    "Kubernetes/Helm",
    one_session(
        "/home/eli/src/platform",
        Ask("Deploy the api chart to the dev cluster."),
        Run(
            "helm dependency update charts/api && helm upgrade --install api charts/api -n api-dev -f charts/api/values-dev.yaml",
            'Hang tight while we grab the latest from your chart repositories...\nUpdate Complete. ⎈Happy Helming!⎈\nSaving 1 charts\nDeleting outdated charts\nError: create: failed to create: namespaces "api-dev" not found',
            1,
        ),
        Run(
            "helm dependency update charts/api && helm upgrade --install api charts/api -n api-dev --create-namespace -f charts/api/values-dev.yaml",
            'Update Complete. ⎈Happy Helming!⎈\nRelease "api" does not exist. Installing it now.\nNAME: api\nNAMESPACE: api-dev\nSTATUS: deployed\nREVISION: 1',
        ),
        Say("Deployed to api-dev."),
    ),
    trigger=r"`helm upgrade[^`]*` failed",
    cause=r'namespaces "api-dev" not found|namespace',
    fix=r"--create-namespace",
    junk=_misread(r"`helm dependency update[^`]*` failed"),
)

TERRAFORM_RECONFIGURE = Shape(
    "terraform-init-reconfigure",
    "`terraform init && terraform validate && terraform plan`: init fails on a changed backend; the re-run adds -reconfigure",
    "Terraform",
    one_session(
        "/home/ivo/src/infra",
        Ask("Plan the staging changes."),
        Run(
            "terraform init && terraform validate && terraform plan -out staging.tfplan",
            'Initializing the backend...\n╷\n│ Error: Backend configuration changed\n│ \n│ A change in the backend configuration has been detected, which may require\n│ migrating existing state.\n│ \n│ If you wish to attempt automatic migration of the state, use "terraform init -migrate-state".\n│ If you wish to store the current configuration with no changes to the state, use "terraform init -reconfigure".\n╵',
            1,
        ),
        Run(
            "terraform init -reconfigure && terraform validate && terraform plan -out staging.tfplan",
            'Initializing the backend...\n\nSuccessfully configured the backend "s3"!\nTerraform has been successfully initialized!\nSuccess! The configuration is valid.\n\nPlan: 3 to add, 1 to change, 0 to destroy.\n\nSaved the plan to: staging.tfplan',
        ),
        Say("Plan saved: 3 to add, 1 to change."),
        host="codex",
    ),
    trigger=r"`terraform init` failed",
    cause=r"Backend configuration changed",
    fix=r"-reconfigure",
    junk=_misread(r"`terraform (?:validate|plan)[^`]*` failed"),
)

XCODE_DESTINATION = Shape(
    "xcodebuild-destination-printf",
    "`printf` headers, then `xcodebuild test` with a simulator that is not installed; the re-run names another",
    "Swift/Xcode",
    one_session(
        "/Users/mika/src/Tides",
        Ask("Resolve packages and run the iOS tests."),
        Run(
            "printf '== resolve\\n'\nxcodebuild -resolvePackageDependencies -scheme Tides\nprintf '== test\\n'\nxcodebuild test -scheme Tides -destination 'platform=iOS Simulator,name=iPhone 15'",
            '== resolve\nResolved source packages:\n  swift-collections: https://github.com/apple/swift-collections.git @ 1.1.0\n== test\nxcodebuild: error: Unable to find a destination matching the provided destination specifier:\n\t\t{ platform:iOS Simulator, OS:latest, name:iPhone 15 }\n\n\tAvailable destinations for the "Tides" scheme:\n\t\t{ platform:iOS Simulator, id:6F2A…, OS:18.0, name:iPhone 16 }',
            70,
        ),
        Run(
            "printf '== resolve\\n'\nxcodebuild -resolvePackageDependencies -scheme Tides\nprintf '== test\\n'\nxcodebuild test -scheme Tides -destination 'platform=iOS Simulator,name=iPhone 16'",
            "== resolve\nResolved source packages:\n  swift-collections: https://github.com/apple/swift-collections.git @ 1.1.0\n== test\nTest Suite 'All tests' passed at 2026-03-02 10:41:07.118.\n\t Executed 58 tests, with 0 failures (0 unexpected) in 4.211 (4.380) seconds\n** TEST SUCCEEDED **",
        ),
        Say("58 tests pass on the iPhone 16 simulator."),
    ),
    trigger=r"`xcodebuild test[^`]*` failed",
    cause=r"Unable to find a destination|iPhone 15",
    fix=r"iPhone 16",
    junk=_misread(r"`xcodebuild -resolvePackageDependencies[^`]*` failed"),
)

# Must-not-fire cases.

CHAIN_SILENT = Shape(
    "chain-failing-step-unknown",
    "`a && b && c` fails with nothing printed; the re-run changes one step: which step failed nothing tells",
    "Go/shell",
    one_session(
        "/home/ines/src/ingestd",
        Ask("Generate, build and run the migrations."),
        Run(
            "go generate ./... && go build -o bin/ingestd ./cmd/ingestd && ./bin/ingestd migrate up",
            "",
            1,
        ),
        Run(
            "go generate ./... && go build -tags sqlite -o bin/ingestd ./cmd/ingestd && ./bin/ingestd migrate up",
            "applied 4 migrations",
        ),
        Say("Migrations applied."),
        host="codex",
    ),
    fires=False,
    expect="nothing: the failing step is unknowable (no output), so -tags sqlite cannot be said to fix it",
)

LOOK_AROUND_SCRIPT = Shape(
    "look-around-script",
    "a script that only prints and looks (`echo`, `ls`, `cat`) fails on a missing file; the re-run looks elsewhere",
    "shell",
    one_session(
        "/home/li/src/storefront",
        Ask("What did the last build produce?"),
        Run(
            'echo "in $PWD"; ls dist; cat dist/manifest.json',
            "in /home/li/src/storefront\nls: cannot access 'dist': No such file or directory\ncat: dist/manifest.json: No such file or directory",
            1,
        ),
        Run(
            'echo "in $PWD"; ls build; cat build/manifest.json',
            'in /home/li/src/storefront\nasset-manifest.json  index.html  static\n{"files": {"main.js": "/static/js/main.3f1c.js"}}',
        ),
        Say("The build output is in build/, with main.3f1c.js as the entry."),
    ),
    fires=False,
    expect="nothing: looking in another folder is exploration",
)

SEVERAL_CHANGED = Shape(
    "several-steps-changed",
    "a chain fails at its test step; the re-run changes the package manager, the lint step and the test flags at once",
    "Node/jest",
    one_session(
        "/home/tam/src/widgets",
        Ask("Install, lint and test."),
        Run(
            "npm ci && npm run lint && npm test",
            "added 912 packages in 14s\n> widgets@2.1.0 lint\n> eslint src\n> widgets@2.1.0 test\n> jest\n\n FAIL  src/Button.test.tsx\n  ● Test suite failed to run\n\n    Cannot find module 'jest-environment-jsdom' from '/home/tam/src/widgets/node_modules/jest-config/build'\n\nTest Suites: 1 failed, 23 passed, 24 total",
            1,
        ),
        Run(
            "pnpm install && pnpm lint --fix && pnpm test -- --runInBand",
            "Packages: +915\nDone in 9.8s\n> widgets@2.1.0 lint\n> eslint src --fix\n> widgets@2.1.0 test\n> jest --runInBand\n\nTest Suites: 24 passed, 24 total\nTests:       311 passed, 311 total",
        ),
        Say("All 311 tests pass."),
    ),
    fires=False,
    expect="nothing: three steps changed at once, so no one change can be said to be the fix",
)

PROBE_SCRIPT = Shape(
    "probe-script",
    "a probe of the machine (`uname`, `cat /etc/os-release`, `python3 --version`, `ls /opt/tools`) fails on a missing folder; the re-run lists another",
    "shell",
    one_session(
        "/home/omar/src/tariffs",
        Ask("What's installed on this box?"),
        Run(
            "uname -a; cat /etc/os-release | head -3; python3 --version; ls /opt/tools",
            'Linux build-07 6.8.0-45-generic #45-Ubuntu SMP x86_64 GNU/Linux\nPRETTY_NAME="Ubuntu 24.04.1 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nPython 3.12.3\nls: cannot access \'/opt/tools\': No such file or directory',
            2,
        ),
        Run(
            "uname -a; cat /etc/os-release | head -3; python3 --version; ls /usr/local/bin",
            'Linux build-07 6.8.0-45-generic #45-Ubuntu SMP x86_64 GNU/Linux\nPRETTY_NAME="Ubuntu 24.04.1 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nPython 3.12.3\nuv  ruff  just',
        ),
        Say("Ubuntu 24.04 with Python 3.12.3; uv, ruff and just are in /usr/local/bin."),
        host="codex",
    ),
    fires=False,
    expect="nothing: a probe of the machine",
)

PASSED_STEP_CHANGED = Shape(
    "passed-step-changed",
    "lines whose last step (pytest) fails on an assertion; the re-run changes only the lint step before it, and the failure stays unexplained (flaky)",
    "Python/pytest",
    one_session(
        "/home/omar/src/quotas",
        Ask("Lint and test."),
        Run(
            "ruff check src\npytest -q tests/test_window.py",
            "All checks passed!\n.F.\n=================================== FAILURES ===================================\n_______________________________ test_rollover ________________________________\n    def test_rollover():\n>       assert window.rollover(clock) == 3\nE       assert 2 == 3\ntests/test_window.py:41: AssertionError\n1 failed, 2 passed in 0.31s",
            1,
        ),
        Run(
            "ruff check src tests\npytest -q tests/test_window.py",
            "All checks passed!\n...\n3 passed in 0.29s",
        ),
        Say("Passes now; the rollover test looks timing-dependent."),
        host="codex",
    ),
    fires=False,
    expect="nothing: the step that changed (ruff's targets) had passed; the failing step ran unchanged",
)

CASES: tuple[Shape, ...] = (
    GH_TOKEN_SCRIPT,
    PLAYWRIGHT_SETUP,
    PYTEST_PATH,
    GO_RACE_CGO,
    RELEASE_CONFIG_PATH,
    DOCKER_PORT,
    PNPM_CD,
    MIX_DB_UP,
    RAILS_DB_CREATE,
    TWINE_USERNAME,
    TSC_PROJECT,
    JAR_NAME,
    HELM_NAMESPACE,
    TERRAFORM_RECONFIGURE,
    XCODE_DESTINATION,
    CHAIN_SILENT,
    LOOK_AROUND_SCRIPT,
    SEVERAL_CHANGED,
    PROBE_SCRIPT,
    PASSED_STEP_CHANGED,
)
