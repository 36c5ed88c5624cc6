"""The shared command table: purposes per ecosystem, and commands as a user would type them."""

from __future__ import annotations

import pytest

from squirrel_core.command_table import parse_table
from squirrel_core.commands import (
    PURPOSES,
    CommandUse,
    classify_command,
    classify_tokens,
    command_uses,
    ecosystems,
    is_test_command,
    package_manager,
    task_purpose,
    typed_commands,
)
from squirrel_core.typed_commands import posix_form
from tests.one_pass import finishes

# (command line, purpose, ecosystem): every mainstream ecosystem and every purpose.
CASES = [
    # Python
    ("pytest -x tests/unit", "test", "python"),
    ("uv run pytest -k parse", "test", "python"),
    ("python3.12 -m pytest", "test", "python"),
    ("tox -e py311", "test", "python"),
    ("nox -s tests", "test", "python"),
    ("hatch test", "test", "python"),
    ("ruff check .", "lint", "python"),
    ("ruff format src", "format", "python"),
    ("poetry run mypy src", "typecheck", "python"),
    ("uv sync --all-extras", "install", "python"),
    ("poetry install", "install", "python"),
    ("python manage.py migrate", "migrate", "python"),
    ("alembic upgrade head", "migrate", "python"),
    ("uvicorn app.main:app --reload", "run", "python"),
    # JavaScript / TypeScript
    ("npm test", "test", "javascript"),
    ("pnpm install", "install", "javascript"),
    ("yarn add zod", "install", "javascript"),
    ("bun test", "test", "javascript"),
    ("deno test -A", "test", "javascript"),
    ("npx vitest run", "test", "javascript"),
    ("npx jest src", "test", "javascript"),
    ("npx eslint .", "lint", "javascript"),
    ("npx tsc --noEmit", "typecheck", "javascript"),
    ("npx prettier --write .", "format", "javascript"),
    ("npx prisma migrate dev", "migrate", "javascript"),
    ("npm run dev", "run", "javascript"),
    ("pnpm run build", "build", "javascript"),
    ("yarn lint", "lint", "javascript"),
    # Go
    ("go test ./...", "test", "go"),
    ("go vet ./...", "lint", "go"),
    ("golangci-lint run", "lint", "go"),
    ("gofmt -w .", "format", "go"),
    ("go build ./cmd/server", "build", "go"),
    ("go run ./cmd/server", "run", "go"),
    ("go mod tidy", "install", "go"),
    # Rust
    ("cargo test --all", "test", "rust"),
    ("cargo +nightly test -p core", "test", "rust"),
    ("cargo nextest run", "test", "rust"),
    ("cargo clippy -- -D warnings", "lint", "rust"),
    ("cargo fmt --check", "format", "rust"),
    ("cargo check", "typecheck", "rust"),
    ("cargo build --release", "build", "rust"),
    ("cargo run --bin server", "run", "rust"),
    ("sqlx migrate run", "migrate", "rust"),
    # Java / Kotlin
    ("mvn -q test", "test", "jvm"),
    ("./mvnw verify", "test", "jvm"),
    ("./gradlew test", "test", "jvm"),
    ("./gradlew :app:test", "test", "jvm"),
    ("./gradlew :app:testDebugUnitTest", "test", "jvm"),
    ("./gradlew connectedAndroidTest", "test", "jvm"),
    ("./gradlew :core:build", "build", "jvm"),
    ("gradle build", "build", "jvm"),
    ("./gradlew bootRun", "run", "jvm"),
    ("./gradlew ktlintCheck", "lint", "jvm"),
    # .NET
    ("dotnet test", "test", "dotnet"),
    ("dotnet build", "build", "dotnet"),
    ("dotnet format", "format", "dotnet"),
    ("dotnet ef database update", "migrate", "dotnet"),
    ("dotnet restore", "install", "dotnet"),
    # Ruby
    ("bundle exec rspec spec/models", "test", "ruby"),
    ("bundle exec rake test", "test", "ruby"),
    ("bundle exec rubocop -a", "lint", "ruby"),
    ("bundle install", "install", "ruby"),
    ("bin/rails db:migrate", "migrate", "ruby"),
    ("bin/rails server", "run", "ruby"),
    # PHP
    ("vendor/bin/phpunit", "test", "php"),
    ("composer install", "install", "php"),
    ("php artisan migrate", "migrate", "php"),
    ("vendor/bin/phpstan analyse", "typecheck", "php"),
    # Elixir
    ("mix test", "test", "elixir"),
    ("mix test test/app_web/live/page_live_test.exs:12", "test", "elixir"),
    ("mix credo --strict", "lint", "elixir"),
    ("mix format --check-formatted", "format", "elixir"),
    ("mix dialyzer", "typecheck", "elixir"),
    ("mix ecto.migrate", "migrate", "elixir"),
    ("mix ecto.gen.migration add_users", "migrate", "elixir"),
    ("mix phx.server", "run", "elixir"),
    ("iex -S mix phx.server", "run", "elixir"),
    ("mix deps.get", "install", "elixir"),
    ("mix compile --warnings-as-errors", "build", "elixir"),
    ("mix precommit", "test", "elixir"),
    # Swift
    ("swift test", "test", "swift"),
    ("swift build -c release", "build", "swift"),
    ("swiftlint", "lint", "swift"),
    ("xcodebuild -scheme App -destination 'platform=macOS' test", "test", "swift"),
    ("xcodebuild -project App.xcodeproj -scheme App build", "build", "swift"),
    # JVM: sbt, Maven and Gradle checks
    ("sbt assembly", "build", "jvm"),
    ("mvn spotless:check", "lint", "jvm"),
    ("./gradlew spotlessCheck", "lint", "jvm"),
    ("./gradlew ktlintFormat", "format", "jvm"),
    # Clojure
    ("lein test", "test", "clojure"),
    ("lein uberjar", "build", "clojure"),
    ("clj-kondo --lint src", "lint", "clojure"),
    ("clojure -X:test", "test", "any"),
    ("clj -M:test:runner", "test", "any"),
    # Erlang
    ("rebar3 eunit", "test", "erlang"),
    ("rebar3 ct --suite=test/books_SUITE", "test", "erlang"),
    ("rebar3 compile", "build", "erlang"),
    ("rebar3 dialyzer", "typecheck", "erlang"),
    # Lua
    ("busted", "test", "lua"),
    ("busted spec/books_spec.lua", "test", "lua"),
    ("luarocks make", "build", "lua"),
    ("luacheck src", "lint", "lua"),
    ("stylua .", "format", "lua"),
    # Perl
    ("prove -l t", "test", "perl"),
    ("prove -lr t/", "test", "perl"),
    ("perlcritic lib", "lint", "perl"),
    ("perltidy -b lib/Ledger.pm", "format", "perl"),
    ("cpanm --installdeps .", "install", "perl"),
    # Nix
    ("nix flake check", "test", "nix"),
    ("nix build .#default", "build", "nix"),
    ("nixfmt flake.nix", "format", "nix"),
    # Terraform
    ("terraform validate", "lint", "terraform"),
    ("terraform fmt -check -recursive", "format", "terraform"),
    ("terraform init", "install", "terraform"),
    ("tflint --recursive", "lint", "terraform"),
    # A command run inside a container is its own tool's
    ("docker compose run --rm app pytest -x", "test", "python"),
    ("docker compose exec -e RAILS_ENV=test -w /app web bin/rails test", "test", "ruby"),
    ("docker-compose exec php vendor/bin/phpunit", "test", "php"),
    ('docker run --rm -v "$PWD:/src" -w /src node:20 npm test', "test", "javascript"),
    ("docker compose -f compose.test.yml run --rm app mix test", "test", "elixir"),
    # A command run in a tool's environment is its own tool's
    ("nix develop -c cargo test", "test", "rust"),
    ("mise exec -- npm test", "test", "javascript"),
    ("opam exec -- dune test", "test", "ocaml"),
    ("stack exec -- hlint src", "lint", "haskell"),
    ("direnv exec . pytest -q", "test", "python"),
    # JVM and PHP builds, migrations and Laravel Sail
    ("./gradlew compileJava", "build", "jvm"),
    ("javac -d out src/Main.java", "build", "jvm"),
    ("php bin/console doctrine:migrations:migrate", "migrate", "php"),
    ("./vendor/bin/sail artisan test", "test", "php"),
    ("./vendor/bin/sail test", "test", "php"),
    ("docker buildx bake", "build", "containers"),
    # Containers, Dart, .NET, R
    ("docker compose build", "build", "containers"),
    ("docker buildx build -t app .", "build", "containers"),
    ("dart compile exe bin/main.dart", "build", "dart"),
    ("dotnet publish -c Release", "build", "dotnet"),
    ("R CMD build .", "build", "r"),
    ("gem build ledger.gemspec", "build", "ruby"),
    # C / C++
    ("ctest --output-on-failure", "test", "c"),
    ("cmake -S . -B build", "build", "c"),
    ("clang-format -i src/main.cpp", "format", "c"),
    # Task runners
    ("make", "build", "any"),
    ("make test", "test", "any"),
    ("make lint", "lint", "any"),
    # make's option values are no targets: a folder named `test` is not the test target
    ("make -C test/llvmpasses", "build", "any"),
    ("make -C build test", "test", "any"),
    ("make -f ci.mk V=1 lint", "lint", "any"),
    # make's conventional default target builds everything, as `make` alone does
    ("make all", "build", "any"),
    ("make -j4 all", "build", "any"),
    ("make clean all", "build", "any"),
    ("make all test", "test", "any"),
    # a script right in a test folder runs the tests, whatever its own name says
    ("lua tests/run.lua", "test", "any"),
    ("luajit spec/main_spec.lua", "test", "any"),
    ("lua5.4 test/all.lua", "test", "any"),
    ("./tests/run.sh", "test", "any"),
    ("php tests/run.php", "test", "any"),
    ("just fmt", "format", "any"),
    ("task test", "test", "any"),
    ("mise run test", "test", "any"),
    ("mise run lint", "lint", "any"),
    ("npm run test:unit", "test", "javascript"),
    ("mix lint", "lint", "elixir"),
    ("bash scripts/check", "test", "any"),
    # Documentation, releases and deployments, by a task's or a subcommand's name
    ("make docs", "docs", "any"),
    ("cargo doc --no-deps", "docs", "rust"),
    ("mise run release", "release", "any"),
    ("npm publish", "release", "javascript"),
    ("./scripts/deploy.sh", "deploy", "any"),
]

# A program the table does not know, read by the words that say its role: a subcommand, the
# task after `run`, or the one call of a one-liner given to an interpreter.
ROLE_WORDS = [
    ("quux test", "test"),
    ("quux test --target js", "test"),
    ("quux check", "test"),
    ("quux lint --strict", "lint"),
    ("quux fmt --check", "format"),
    ("quux format .", "format"),
    ("quux typecheck", "typecheck"),
    ("quux build --release", "build"),
    ("quux run test:unit", "test"),
    ("quux task lint", "lint"),
    ("quux deploy", "deploy"),
    ("quux docs", "docs"),
    ("uv run quux test", "test"),
    ("Rscript -e 'quuxpkg::document()'", "docs"),
    ("R -e 'quuxpkg::lint_package()'", "lint"),
    ("Rscript -e 'devtools::test(filter = c(\"a\"))'", "test"),
    ("R -e 'library(quuxpkg); quuxpkg::document(pkg = file.path(\".\"))'", "docs"),
    ("quux --project -e 'using Quux; Quux.test()'", "test"),
    ("node -e 'require(\"./quux\").build()'", "build"),
    # a one-liner whose call is named for installing installs, whatever the package's name
    (
        'Rscript -e \'install.packages("quuxpkg", repos = "https://cloud.r-project.org")\'',
        "install",
    ),
    ("R -e 'remotes::install_deps(dependencies = TRUE)'", "install"),
    ("Rscript -e 'library(pak); pkg_install(\"quuxpkg\")'", "install"),
    ("R -e 'BiocManager::install(\"quuxpkg\")'", "install"),
    # an argument that says "install" is no name of the call
    ("R -e 'devtools::test(filter = \"install\")'", "test"),
]


@pytest.mark.parametrize(("line", "purpose"), ROLE_WORDS)
def test_an_unknown_program_is_read_by_the_words_that_say_its_role(line: str, purpose: str) -> None:
    use = classify_command(line)
    assert use is not None, line
    assert use.purpose == purpose


@pytest.mark.parametrize(
    "line",
    [
        "echo test",
        "ls build",
        "git add docs",
        "cat test",
        "mkdir -p build",
        "pip check",  # a package manager's own word, not a task
        "quux release create v2.0.0",  # a one-off, not how releases are made
        "quux doc some.Name",  # a look-up, not building the docs
        "quux run server",  # starting needs the table
        "quux install",
        "python -c 'import sys; print(sys.path)'",
        "python -c 'import x; x.build(); x.test()'",  # a script, not one call
        "R -e 't(m)'",  # too short a name to say anything
        "quux -e 'aaa pkg::lint_package()'",  # a call is not the whole statement
        "python -c 'print(1) or x.build()'",  # an expression around the call
        "node -e 'x = require(\"./quux\").build()'",  # an assignment, not one call
        "quux ./test",
        "clj -M:dev",  # an alias that names no role
        "clojure -X:deps prep",
        "stack overflow",  # `stack` as a word
        "mix the two lists",  # `mix` as a word
        "cd test",  # `test` as a folder name
        "ls -la test/",
        "terraform plan",  # looks, changes nothing: no purpose
        "docker compose logs app",
        "nix flake show",
        "rebar3 shell",  # starts a shell, tests nothing
        "docker compose run app",  # the container's own entry point
        "docker exec -it db psql -U postgres",
        "docker run --rm -it ubuntu bash",
        "docker run --rm app-image test",  # an argument of the image's entry point
        "docker compose -f compose.test.yml up",
        "php bin/console cache:clear",
        "nix develop",  # enters the environment, runs nothing
        "mise exec -- bash",
    ],
)
def test_words_that_do_not_say_a_role_are_not_read_as_one(line: str) -> None:
    use = classify_command(line)
    assert use is None or use.purpose not in ("test", "lint", "format", "build", "docs"), line


def test_a_huge_one_liner_is_read_in_one_pass() -> None:
    assert classify_tokens(["quux", "-e", "a" * 1_000_000]) is None
    assert classify_tokens(["quux", "-e", "a" * 1_000_000 + "("]) is None
    use = classify_tokens(["quux", "-e", "import a;" * 100_000 + "quuxpkg::lint_package()"])
    assert use is not None and use.purpose == "lint"
    assert classify_tokens(["quux", "-e", "x.test(" + "c(" * 500_000]) is None
    assert classify_tokens(["quux", "-e", "x.test(" + "c()" * 500_000 + ")"]) is not None


@pytest.mark.parametrize(("line", "purpose", "ecosystem"), CASES)
def test_each_ecosystem_and_purpose(line: str, purpose: str, ecosystem: str) -> None:
    use = classify_command(line)
    assert use is not None, line
    assert (use.purpose, use.ecosystem) == (purpose, ecosystem)


def test_the_cases_cover_every_purpose_and_ecosystem() -> None:
    assert {purpose for _, purpose, _ in CASES} == set(PURPOSES)
    covered = {ecosystem for _, _, ecosystem in CASES}
    for wanted in ("python", "javascript", "go", "rust", "jvm", "dotnet", "ruby", "php"):
        assert wanted in covered
    for wanted in ("clojure", "erlang", "lua", "perl", "nix", "terraform", "containers"):
        assert wanted in covered
    assert {"elixir", "swift", "c"} <= covered <= {*ecosystems(), "any"}


@pytest.mark.parametrize(
    "line",
    [
        "ls -la",
        "git push",
        "git status",
        "cat Makefile",
        "grep -r pytest .",
        "npm view react",
        "python script.py",
        "echo 'npm test",
        "",
        "   ",
        "mix hex.info",
        "./gradlew compileTestKotlin",
        "./gradlew jacocoTestReport",
        "./gradlew assembleAndroidTest",
        "./gradlew :app:assembleDebugAndroidTest",
        "./gradlew compileDebugUnitTest",
    ],
)
def test_unknown_commands_are_none(line: str) -> None:
    assert classify_command(line) is None


@pytest.mark.parametrize(
    ("line", "tool", "ecosystem"),
    [
        ("php -l src/Includes/DoValidateInclude.php", "php -l", "php"),
        ("php --syntax-check app.php", "php --syntax-check", "php"),
        ("ruby -c app/models/user.rb", "ruby -c", "ruby"),
        ("perl -c lib/App.pm", "perl -c", "perl"),
        ("node --check src/index.js", "node --check", "javascript"),
        ("bash -n scripts/build.sh", "bash -n", "any"),
        ("sudo php -l index.php", "php -l", "php"),
    ],
)
def test_an_interpreters_syntax_check_is_a_lint(line: str, tool: str, ecosystem: str) -> None:
    assert classify_command(line) == CommandUse(tool, "lint", ecosystem)


@pytest.mark.parametrize(
    ("line", "purpose"),
    [
        # the same letters run code, or belong to the script after the interpreter's options
        ("bash -c 'echo hi'", None),
        ("php -r 'echo 1;'", None),
        ("node -e 'console.log(1)'", None),
        ("php index.php -l", None),
        ("php tests/run.php -l", "test"),
        ("php artisan test", "test"),
        # a task named `all` is make's alone: other runners' `all` says nothing
        ("npm run all", None),
        ("just all", None),
    ],
)
def test_what_is_no_syntax_check_nor_a_make_all(line: str, purpose: str | None) -> None:
    use = classify_command(line)
    assert (use.purpose if use else None) == purpose


def test_tool_names_are_what_habits_need() -> None:
    assert classify_command("cargo fmt") == CommandUse("rustfmt", "format", "rust")
    assert classify_command("uv run ruff check src") == CommandUse("ruff", "lint", "python")
    make = classify_command("make check")
    assert make is not None
    assert (make.tool, make.task, make.category) == ("make", "check", "test_runner")


def test_every_part_of_a_compound_line() -> None:
    uses = command_uses("ruff check . && mypy src; pytest -q | tail -5")
    assert [u.purpose for u in uses] == ["lint", "typecheck", "test"]
    assert is_test_command("cd services && PYTHONPATH=. pytest")
    assert not is_test_command("npm run build && echo pytest")


@pytest.mark.parametrize(
    ("line", "purpose", "ecosystem"),
    [
        # A runner known by its bare name, given a purpose word: another tool of that name.
        ("air format .", "format", "any"),
        ("gunicorn lint src", "lint", "any"),
        # Where it must not fire: runner arguments, flags and entry points stay the runner's.
        ("air", "run", "go"),
        ("air -c .air.toml", "run", "go"),
        ("uvicorn app.main:app", "run", "python"),
        ("uvicorn serve:app --reload", "run", "python"),
        ("vite dev", "run", "javascript"),
        # A non-runner keeps its purpose whatever folder it is given.
        ("prettier --write test", "format", "javascript"),
        ("black build", "format", "python"),
    ],
)
def test_a_runners_name_with_a_purpose_word_is_that_purpose(
    line: str, purpose: str, ecosystem: str
) -> None:
    use = classify_command(line)
    assert use is not None
    assert (use.purpose, use.ecosystem) == (purpose, ecosystem)


def test_task_names() -> None:
    assert task_purpose("test:unit") == "test"
    assert task_purpose("lint-fix") == "lint"
    assert task_purpose(":app:test") == "test"
    assert task_purpose("deploy") == "deploy"
    assert task_purpose("docs:build") == "docs"
    assert task_purpose("frobnicate") is None


def test_a_check_of_the_machines_setup_runs_no_tests() -> None:
    for name in ("check-prerequisites", "check:env", "verify_deps", "check-toolchain"):
        assert task_purpose(name) is None, name
    assert not is_test_command(".specify/scripts/bash/check-prerequisites.sh --json")
    # A check of the code keeps its purpose: the gate, a suite, a named check.
    for name in ("check", "check:unit", "check-all", "check-links", "verify"):
        assert task_purpose(name) == "test", name


@pytest.mark.parametrize(
    ("name", "purpose"),
    [
        ("check-types", "typecheck"),
        ("check:ts", "typecheck"),
        ("check_types", "typecheck"),
        ("check-format", "format"),
        ("check:fmt", "format"),
        ("check:lint", "lint"),
        ("check-style", "lint"),
        ("verify:build", "build"),
    ],
)
def test_a_check_that_names_what_it_checks_has_that_purpose(name: str, purpose: str) -> None:
    # `npm run check-types` runs the type checker, none of the tests.
    assert task_purpose(name) == purpose


@pytest.mark.parametrize(
    ("line", "purpose"),
    [
        # A name headed by what the task works on says its own action.
        ("pnpm -s db:check:test", None),
        ("npm run db:seed", None),
        ("make db-reset", None),
        ("just db-studio", None),
        # ... and migrates when a part of it says so, in any ecosystem.
        ("pnpm db:migrate", "migrate"),
        ("make db-migrate", "migrate"),
        ("just db:migrations", "migrate"),
        ("rake db:migrate", "migrate"),
        # Creating the database runs no migration; setting it up does.
        ("mix ecto.create", None),
        ("MIX_ENV=test mix ecto.create --quiet", None),
        ("mix ecto.setup", "migrate"),
    ],
)
def test_a_task_named_after_the_database_migrates_only_when_it_says_so(
    line: str, purpose: str | None
) -> None:
    use = classify_command(line)
    assert (use.purpose if use else None) == purpose


def test_package_manager_of_a_command() -> None:
    assert package_manager(["uv", "run", "pytest"]) == ("uv", "python")
    assert package_manager(["npx", "vitest"]) == ("npm", "javascript")
    assert package_manager(["python3", "-m", "pip", "install", "x"]) == ("pip", "python")
    assert package_manager(["go", "test"]) is None
    assert package_manager([]) is None


def test_typed_command_drops_redirections_pipes_cd_and_env() -> None:
    typed = typed_commands(
        "cd assets && npx vitest run 2>&1 | tail -20", cwd="/p", project_root="/p"
    )
    assert [(t.text, t.scope) for t in typed] == [("npx vitest run", "assets")]
    assert typed[0].use is not None and typed[0].use.purpose == "test"


def test_typed_command_keeps_the_folder_and_relativises_paths() -> None:
    line = (
        "cd /p/apps/web && MIX_ENV=test timeout 60 mix test /p/apps/web/test/a_test.exs "
        "2>/dev/null; echo done"
    )
    typed = typed_commands(line, cwd="/p", project_root="/p")
    assert [(t.text, t.scope) for t in typed] == [
        ("MIX_ENV=test mix test test/a_test.exs", "apps/web"),
        ("echo done", "apps/web"),
    ]


def test_a_variable_given_a_commands_output_is_that_command() -> None:
    line = (
        'head="$(gh pr view 3 --json headRefOid)"\nlocal me=$(gh api user --jq .login)\n'
        "export SHA=$(git rev-parse HEAD)\nexport CI=1"
    )
    typed = typed_commands(line, cwd="/p", project_root="/p")
    assert [t.text for t in typed] == [
        "gh pr view 3 --json headRefOid",
        "gh api user --jq .login",
        "git rev-parse HEAD",
    ]


def test_typed_command_scopes() -> None:
    assert typed_commands("go test ./...", cwd="/p/svc", project_root="/p")[0].scope == "svc"
    assert typed_commands("go test ./...", cwd="/p", project_root="/p")[0].scope == ""
    outside = typed_commands("(cd /tmp && tool --help)", cwd="/p", project_root="/p")
    assert [(t.text, t.scope) for t in outside] == [("tool --help", "/tmp")]
    assert typed_commands("cd web && npm test")[0].scope == "web"
    assert (
        typed_commands("cd ../x && cd .. && cargo test", cwd="/p/a", project_root="/p")[0].scope
        == ""
    )


def test_typed_command_drops_shell_state_and_keeps_runners() -> None:
    typed = typed_commands("source .venv/bin/activate && export X=1 && uv run pytest -x >> log")
    assert [t.text for t in typed] == ["uv run pytest -x"]
    assert [t.text for t in typed_commands("sudo apt-get install jq")] == [
        "sudo apt-get install jq"
    ]


def test_quoted_arguments_survive() -> None:
    typed = typed_commands('git commit -m "fix: don\'t crash" && git push')
    assert [t.text for t in typed] == ['git commit -m "fix: don\'t crash"', "git push"]


@pytest.mark.parametrize(
    "line",
    [
        "xcodebuild -scheme App -destination 'platform=macOS' test",
        'dotnet test --filter "Category=Unit&Priority=1"',
        'swift test --filter "a b"',
        "GOFLAGS='-mod=mod -trimpath' go build ./...",
        'RUSTFLAGS="-D warnings" cargo build',
    ],
)
def test_a_quoted_argument_keeps_the_quotes_it_was_typed_with(line: str) -> None:
    [typed] = typed_commands(line)
    assert typed.text == line


def test_an_environment_prefix_that_changes_the_command_is_kept() -> None:
    line = "cd cmd/app && CGO_ENABLED=0 GOOS=linux GOARCH=amd64 timeout 600 go build -o bin/app"
    [typed] = typed_commands(line, cwd="/p", project_root="/p")
    assert typed.text == "CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -o bin/app"
    assert typed.env == ("CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64")
    assert typed.bare == "go build -o bin/app" and typed.words[0] == "go"
    assert typed.use is not None and typed.use.purpose == "build"


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("GITHUB_TOKEN=ghp_x DEBUG=1 npm test", "DEBUG=1 npm test"),
        ("AWS_SECRET_ACCESS_KEY=abc API_KEY=k pytest", "pytest"),
        ("DB_PASSWORD=hunter2 mix test", "mix test"),
        ("JAVA_HOME=/opt/jdk-21 ./gradlew test", "./gradlew test"),
        ("GOPATH=~/go go test ./...", "go test ./..."),
        ("PATH=$HOME/.cargo/bin:$PATH cargo test", "cargo test"),
        ("GOFLAGS=$EXTRA_FLAGS go test ./...", "go test ./..."),
        ("PYTHONPATH=src pytest", "PYTHONPATH=src pytest"),
        ("AWS_ACCESS_KEY_ID=AKIAQ3ZP7XK2M4N5R6T8 SIGNING_KEY_ID=1A2B make release", "make release"),
        ("GH_PAT=q8Zr2Lw9 DB_PASS=hunter2 SENTRY_DSN=k@sentry npm test", "npm test"),
        ("DB_USER=[REDACTED:secret_assignment] mix test", "mix test"),
        ("KEYBOARD_LAYOUT=us PATTERN=a make test", "KEYBOARD_LAYOUT=us PATTERN=a make test"),
    ],
)
def test_a_secret_or_one_machines_path_is_left_out_of_the_prefix(line: str, kept: str) -> None:
    assert [t.text for t in typed_commands(line)] == [kept]


@pytest.mark.parametrize(
    "line",
    [
        "'echo \\'unterminated && mix test'",
        "'(' * 600_000",
        "'>>>> <<<< |||| &&&&' * 50_000",
        "'\\x00\\x01 mix test'",
        "'$(rm -rf /) && `id`' * 50_000",
        "'mix test ' + 'a' * 1_000_000",
        "'pytest ; ' * 100_000",
    ],
)
def test_hostile_and_huge_lines_are_read_in_one_pass(line: str) -> None:
    """`line` is built in the child process from the expression: up to a million characters,
    which a pattern backtracking along the line could not finish before the backstop."""
    probe = (
        "from squirrel_core.commands import command_uses, typed_commands\n"
        f"line = {line}\n"
        "command_uses(line)\n"
        "typed = typed_commands(line, cwd='/p', project_root='/p')\n"
        "print(max((len(t.text) for t in typed), default=0))\n"
    )
    assert int(finishes(probe)) <= 8_000


def test_a_malformed_table_is_refused_with_a_reason() -> None:
    good = {
        "task_runners": {},
        "task_names": {},
        "runners": {"prefixes": [], "wrappers": {}},
        "package_managers": {},
    }
    with pytest.raises(ValueError, match="unknown purpose 'testing'"):
        parse_table({**good, "commands": {"python": {"pytest": "testing"}}})
    with pytest.raises(ValueError, match="unknown purpose"):
        parse_table({**good, "commands": {}, "task_names": {"t": "nope"}})


@pytest.mark.parametrize(
    "line",
    [
        "./run_tests.sh",
        "python run_tests.py",
        "bash scripts/run-all-tests",
        "python3 runtests.py -v",
        "./run_test.sh unit",
        "perl run_tests.pl",
        "lua run_tests.lua",
        "Rscript tests/run_tests.R",
        "php run-tests.php",
    ],
)
def test_a_script_named_for_running_tests_is_a_test_command(line: str) -> None:
    use = classify_command(line)
    assert use is not None
    assert (use.purpose, use.ecosystem) == ("test", "any")
    assert is_test_command(line)


@pytest.mark.parametrize(
    ("line", "purpose"),
    [
        ("./run.sh", "run"),
        ("./run_server.sh", "run"),
        ("./start_test_server.sh", "run"),
        ("python contest.py", None),
        ("./latest.sh", None),
        # a script deeper in a test folder (a fixture's generator) or in another folder
        ("./test/fixtures/make_data.sh", None),
        ("./scripts/run.sh", "run"),
    ],
)
def test_a_script_whose_name_only_contains_test_keeps_its_purpose(
    line: str, purpose: str | None
) -> None:
    use = classify_command(line)
    assert (use.purpose if use else None) == purpose
    assert not is_test_command(line)


@pytest.mark.parametrize(
    ("line", "purpose", "ecosystem"),
    [
        ("dotenv -e .env.test -- npm test", "test", "javascript"),
        ("pnpm exec dotenv -e .env.test -- vitest run", "test", "javascript"),
        ("dotenvx run -f .env.ci -- pytest -q", "test", "python"),
        ("doppler run -- go test ./...", "test", "go"),
    ],
)
def test_a_variables_loader_runs_the_command_after_its_double_dash(
    line: str, purpose: str, ecosystem: str
) -> None:
    use = classify_command(line)
    assert use is not None
    assert (use.purpose, use.ecosystem) == (purpose, ecosystem)
    # the typed form keeps the loader: which file the variables come from matters
    (typed,) = typed_commands(line, cwd="/repo", project_root="/repo")
    assert typed.text == line


def test_a_variables_loader_without_a_double_dash_says_nothing() -> None:
    assert classify_command("dotenv -e .env npm test") is None  # where its options end is unknown
    assert classify_command("doppler secrets download") is None


@pytest.mark.parametrize(
    "line",
    [
        "docker compose up -d db",
        "docker-compose up -d postgres redis",
        "docker compose up -d test-db",
        "docker compose up mailpit",
    ],
)
def test_compose_up_of_what_the_app_uses_is_not_running_the_app(line: str) -> None:
    # It starts the database (or the cache, the mail catcher), which the app then uses.
    assert classify_command(line) is None


@pytest.mark.parametrize(
    "line",
    [
        "docker compose up -d",
        "docker compose up web",
        "docker compose up api db",
        "docker compose up --build",
    ],
)
def test_compose_up_of_the_app_or_everything_still_runs_it(line: str) -> None:
    use = classify_command(line)
    assert use is not None and use.purpose == "run"


@pytest.mark.parametrize(
    ("line", "purpose"),
    [
        ("uv run --extra test pytest", "test"),
        ("uv run --all-extras --frozen pytest -q", "test"),
        ("uv run --with rich --python 3.12 mypy src", "typecheck"),
        ("poetry run -- pytest", "test"),
        ("conda run -n dev pytest", "test"),
    ],
)
def test_an_environment_runner_s_own_options_are_passed_over(line: str, purpose: str) -> None:
    use = classify_command(line)
    assert use is not None and use.purpose == purpose


@pytest.mark.parametrize(
    ("line", "purpose"),
    [
        ("nox", "test"),
        ("uv run nox -s tests-3.12", "test"),
        ("nox -s lint", "lint"),
        ("nox --session=typecheck", "typecheck"),
        ("tox -e py312", "test"),
        ("tox -e lint", "lint"),
    ],
)
def test_a_named_session_gives_the_session_runner_s_purpose(line: str, purpose: str) -> None:
    use = classify_command(line)
    assert use is not None and use.purpose == purpose


def test_sessions_of_different_purposes_give_none() -> None:
    assert classify_command("tox -e py311,lint") is None


@pytest.mark.parametrize(
    "line",
    [
        "dart run build_runner build --delete-conflicting-outputs",
        "flutter pub run build_runner watch",
    ],
)
def test_a_dependency_s_executable_is_not_the_app(line: str) -> None:
    use = classify_command(line)
    assert use is None or use.purpose != "run"


@pytest.mark.parametrize("line", ["dart run", "dart run bin/server.dart", "flutter run"])
def test_the_project_s_own_entry_point_still_runs_the_app(line: str) -> None:
    use = classify_command(line)
    assert use is not None and use.purpose == "run"


@pytest.mark.parametrize(
    ("line", "purpose"),
    [
        ("nix --extra-experimental-features 'nix-command flakes' flake check", "test"),
        ("go -C api test ./...", "test"),
    ],
)
def test_a_subcommand_after_a_program_option_and_its_value(line: str, purpose: str) -> None:
    use = classify_command(line)
    assert use is not None and use.purpose == purpose


def test_a_program_option_does_not_make_a_subcommand_of_a_plain_argument() -> None:
    use = classify_command("pytest -k parse tests")
    assert use is not None and use.tool == "pytest"


def test_a_windows_projects_folder_in_any_spelling_is_its_root() -> None:
    # Claude Code on Windows records `C:\Users\ann\app`; Git Bash commands write `C:/…`.
    root = "C:\\Users\\ann\\modular app"
    (at_root,) = typed_commands(
        'cd "C:/Users/ann/modular app" && npx vite build', cwd=root, project_root=root
    )
    (inside,) = typed_commands(
        "cd /c/Users/ann/modular\\ app/web && npx vite build", cwd=root, project_root=root
    )
    assert (at_root.text, at_root.scope) == ("npx vite build", "")
    assert inside.scope == "web"
    assert posix_form("C:\\Users\\ann") == "/c/Users/ann"
    assert posix_form("/home/ann/app") == "/home/ann/app"
    assert posix_form("src\\app") == "src\\app"
