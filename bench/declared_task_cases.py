# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Made-up sessions in which the project's own manifest or task file, read in the session,
declares how it is tested, checked, linted, built, formatted or type-checked, in a dozen
ecosystems (package.json scripts under npm, pnpm, Yarn and Bun, composer.json scripts, deno.json
tasks, a Makefile, a justfile, pyproject.toml task tables, mise.toml, a Taskfile, Cargo aliases,
mix.exs aliases), read whole or cut short (`head -40`, a Read with a limit); and cases that must
stay quiet: a dependency's manifest, an example's or the docs' own package, a placeholder
script, another repository's manifest, a script the session ran (its run decides), a manifest
broken before its tasks (`bench/declared_tasks.py` runs them). Every case, its patterns
included, was written before any rule ran on it.

A `fires` case should give recipes that together match every pattern of `expect` (each pattern
by at least one recipe); on every case no recipe or project fact may match a `never` pattern,
and at most one memory of any kind may match each `once` pattern (a declared script the
session also ran is said once, by its run).
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.trap_transcripts import Ask, Read, Run, Say, Session, one_session


@dataclass(frozen=True)
class Case:
    """One case: its shape, ecosystem, sessions, whether recipes are due, the regexes the
    recipes must match (`expect`), those no recipe or fact may match (`never`, each with why)
    and those at most one memory may match (`once`)."""

    name: str
    shape: str
    ecosystem: str
    sessions: tuple[Session, ...]
    fires: bool = True
    expect: tuple[str, ...] = ()
    never: tuple[tuple[str, str], ...] = ()
    once: tuple[str, ...] = ()


_BUN_PACKAGE = """{
  "name": "trailhead",
  "version": "0.4.0",
  "private": true,
  "type": "module",
  "scripts": {
    "dev": "vite",
    "build": "vite build",
    "check": "bun run lint && bun run test",
    "lint": "eslint .",
    "test": "vitest run",
    "format": "prettier --write ."
  },
  "dependencies": {
    "react": "^18.3.1",
    "react-dom": "^18.3.1",
    "zustand": "^4.5.2"
  },
  "devDependencies": {
    "@types/react": "^18.3.3",
    "@vitejs/plugin-react": "^4.3.1",
    "eslint": "^9.6.0",
    "prettier": "^3.3.2",
    "typescript": "^5.5.3",
    "vite": "^5.3.4",
    "vitest": "^2.0.4"
  },
  "engines": {
    "node": ">=20"
  },
  "browserslist": [
    "defaults",
    "not ie 11",
    "not op_mini all",
    "last 2 safari versions",
    "last 2 chrome versions",
    "last 2 firefox versions",
    "last 2 edge versions",
    "not dead",
    "> 0.5%","""

BUN_HEAD = Case(
    "bun-scripts-head",
    "`ls && cat package.json | head -40`: scripts beside a bun.lock in the listing, cut short",
    "TypeScript/Bun",
    one_session(
        "/home/mia/src/trailhead",
        Ask("Have a look around this project first, I'll give you a task after."),
        Run(
            "ls && cat package.json | head -40",
            "README.md\nbun.lock\neslint.config.js\nindex.html\npackage.json\npublic\nsrc\ntsconfig.json\nvite.config.ts\n"
            + _BUN_PACKAGE,
        ),
        Say(
            "This is a Vite + React app managed with Bun; the source is under `src/` and the tests run with Vitest."
        ),
    ),
    expect=(r"`bun run check`", r"bun run lint && bun run test", r"`bun run lint`.*eslint \."),
    never=(
        (r"`(?:npm|pnpm|yarn) (?:run )?(?:check|lint|test)`", "the lock file says Bun"),
        (r"`bun (?:check|lint)`", "a Bun script runs as `bun run <name>`"),
    ),
)

PNPM_FIELD = Case(
    "pnpm-package-manager-field",
    "package.json read whole; its packageManager field names pnpm",
    "TypeScript/pnpm",
    one_session(
        "/home/omar/code/ledgerline",
        Ask("What does this repo do? Don't change anything yet."),
        Read(
            "package.json",
            '{\n  "name": "ledgerline",\n  "version": "1.2.0",\n  "packageManager": "pnpm@9.4.0",\n  "scripts": {\n    "dev": "tsx watch src/server.ts",\n    "build": "tsc -p tsconfig.build.json",\n    "test": "vitest run",\n    "lint": "eslint src --max-warnings 0",\n    "typecheck": "tsc --noEmit"\n  },\n  "dependencies": {\n    "fastify": "^4.28.1",\n    "zod": "^3.23.8"\n  },\n  "devDependencies": {\n    "eslint": "^9.6.0",\n    "tsx": "^4.16.2",\n    "typescript": "^5.5.3",\n    "vitest": "^2.0.2"\n  }\n}\n',
        ),
        Say("It's a Fastify API in TypeScript, with Vitest for tests and zod for validation."),
    ),
    expect=(
        r"`pnpm (?:run )?test`",
        r"`pnpm (?:run )?typecheck`|tsc --noEmit",
        r"`pnpm (?:run )?lint`",
    ),
    never=((r"`(?:npm|yarn|bun) (?:run )?(?:test|lint|typecheck)`", "packageManager says pnpm"),),
)

YARN_LOCK = Case(
    "yarn-lock-listed",
    "a listing shows yarn.lock; package.json read whole afterwards",
    "JavaScript/Yarn",
    one_session(
        "/home/ines/work/quillpad",
        Ask("I want to add a markdown preview. First, get oriented."),
        Run("ls -a", ".\n..\n.eslintrc.cjs\n.gitignore\nREADME.md\npackage.json\nsrc\nyarn.lock\n"),
        Read(
            "package.json",
            '{\n  "name": "quillpad",\n  "version": "0.9.1",\n  "main": "src/index.js",\n  "scripts": {\n    "start": "node src/index.js",\n    "test": "mocha \\"test/**/*.spec.js\\"",\n    "lint": "eslint src test",\n    "format": "prettier --write src test"\n  },\n  "devDependencies": {\n    "eslint": "^8.57.0",\n    "mocha": "^10.4.0",\n    "prettier": "^3.2.5"\n  }\n}\n',
        ),
        Say("It's a small Node app with Mocha tests under `test/`."),
    ),
    expect=(r"`yarn (?:run )?lint`", r"`yarn (?:run )?test`"),
    never=((r"`(?:npm|pnpm|bun) (?:run )?(?:test|lint|format)`", "the lock file says Yarn"),),
)

NPM_BODIES = Case(
    "npm-by-script-bodies",
    "no lock file seen; the scripts' own bodies call `npm run`",
    "JavaScript/npm",
    one_session(
        "/home/kai/src/pagekit",
        Ask("Summarise how this package is built."),
        Run(
            "cat package.json",
            '{\n  "name": "pagekit",\n  "version": "3.0.0",\n  "scripts": {\n    "build": "rollup -c",\n    "lint": "eslint lib",\n    "test": "node --test test/",\n    "check": "npm run lint && npm test"\n  },\n  "devDependencies": {\n    "eslint": "^8.57.0",\n    "rollup": "^4.18.0"\n  }\n}\n',
        ),
        Say("It bundles `lib/` with Rollup and tests with Node's built-in test runner."),
    ),
    expect=(r"`npm run check`", r"`npm run lint`|`npm test`"),
    never=((r"`(?:pnpm|yarn|bun) (?:run )?(?:check|lint|test|build)`", "the bodies say npm"),),
)

UNKNOWN_RUNNER = Case(
    "scripts-runner-unknown",
    "package.json read whole; no lock file, field or body says the manager",
    "JavaScript",
    one_session(
        "/home/ana/src/tinyqueue",
        Ask("How are the tests written here?"),
        Read(
            "package.json",
            '{\n  "name": "tinyqueue",\n  "version": "2.1.0",\n  "main": "index.js",\n  "scripts": {\n    "test": "jest --coverage",\n    "lint": "eslint index.js test"\n  },\n  "devDependencies": {\n    "eslint": "^8.57.0",\n    "jest": "^29.7.0"\n  }\n}\n',
        ),
        Say("The tests are Jest specs under `test/`."),
    ),
    expect=(r"`test` script|script `test`", r"jest --coverage"),
    never=((r"`(?:npm|pnpm|yarn|bun) (?:run )?(?:test|lint)`", "no manager is known"),),
)

COMPOSER = Case(
    "composer-scripts",
    "composer.json read whole",
    "PHP/Composer",
    one_session(
        "/home/lena/projects/invoicer",
        Ask("I'll need to fix a bug in the PDF export; get to know the project first."),
        Read(
            "composer.json",
            '{\n    "name": "acme/invoicer",\n    "type": "project",\n    "require": {\n        "php": "^8.2",\n        "dompdf/dompdf": "^2.0"\n    },\n    "require-dev": {\n        "phpunit/phpunit": "^10.5",\n        "phpstan/phpstan": "^1.11"\n    },\n    "scripts": {\n        "test": "phpunit --colors=always",\n        "analyse": "phpstan analyse src --level=6",\n        "lint": "php-cs-fixer fix --dry-run --diff"\n    }\n}\n',
        ),
        Say("It's a plain PHP project; PDFs are made with Dompdf in `src/Export/`."),
    ),
    expect=(r"`composer test`", r"phpunit"),
    never=((r"`(?:npm|pnpm|yarn|bun) ", "not a JavaScript project"),),
)

DENO = Case(
    "deno-tasks",
    "`cat deno.json`: tasks",
    "TypeScript/Deno",
    one_session(
        "/home/sam/dev/linkrot",
        Ask("Where do I start if I want to add a --json flag?"),
        Run(
            "cat deno.json",
            '{\n  "tasks": {\n    "dev": "deno run --watch -A main.ts",\n    "test": "deno test -A",\n    "check": "deno fmt --check && deno lint && deno check main.ts"\n  },\n  "imports": {\n    "@std/cli": "jsr:@std/cli@^1.0.0",\n    "@std/assert": "jsr:@std/assert@^1.0.0"\n  }\n}\n',
        ),
        Say("The CLI's entry point is `main.ts`; flags are parsed with `@std/cli`."),
    ),
    expect=(r"`deno task check`", r"`deno task test`"),
)

MAKEFILE = Case(
    "makefile-targets",
    "`cat Makefile`: test and lint targets (Codex)",
    "Go/make",
    (
        Session(
            "codex",
            "/home/yuki/src/relayd",
            (
                Ask("Read the Makefile and tell me how CI checks this."),
                Run(
                    "cat Makefile",
                    ".PHONY: build test lint\n\nbuild:\n\tgo build -o bin/relayd ./cmd/relayd\n\ntest:\n\tgo test -race ./...\n\nlint:\n\tgolangci-lint run ./...\n",
                ),
                Say("CI runs `make lint` and `make test`; the binary is built into `bin/`."),
            ),
        ),
    ),
    expect=(r"`make test`", r"go test -race", r"`make lint`"),
)

JUSTFILE = Case(
    "justfile-recipes",
    "justfile read whole",
    "Rust/just",
    one_session(
        "/home/rui/code/tilemap",
        Ask("Explain the dev workflow here."),
        Read(
            "justfile",
            "default:\n    just --list\n\n# Run the test suite\ntest:\n    cargo nextest run --workspace\n\n# Lints, warnings as errors\nlint:\n    cargo clippy --all-targets -- -D warnings\n\nfmt:\n    cargo fmt --all\n",
        ),
        Say("Tests run with nextest and clippy is strict; everything goes through `just`."),
    ),
    expect=(r"`just test`", r"`just lint`"),
)

POE = Case(
    "pyproject-poe-tasks",
    "pyproject.toml read whole: [tool.poe.tasks]",
    "Python/Poe",
    one_session(
        "/home/eva/src/weatherlog",
        Ask("Get familiar with the repo please."),
        Read(
            "pyproject.toml",
            '[project]\nname = "weatherlog"\nversion = "0.3.0"\nrequires-python = ">=3.11"\ndependencies = ["httpx>=0.27"]\n\n[tool.poe.tasks]\ntest = "pytest -q"\nlint = "ruff check ."\ntypecheck = "mypy src"\n\n[tool.ruff]\nline-length = 100\n',
        ),
        Say("A small httpx client; the tasks are defined for Poe the Poet."),
    ),
    expect=(r"`poe test`", r"`poe lint`|`poe typecheck`"),
)

HATCH = Case(
    "pyproject-hatch-scripts",
    "pyproject.toml read whole: [tool.hatch.envs.default.scripts]",
    "Python/Hatch",
    one_session(
        "/home/nia/code/slugify-plus",
        Ask("How do I run things in this project?"),
        Read(
            "pyproject.toml",
            '[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n\n[project]\nname = "slugify-plus"\nversion = "1.4.2"\n\n[tool.hatch.envs.default]\ndependencies = ["pytest", "mypy"]\n\n[tool.hatch.envs.default.scripts]\ntest = "pytest {args:tests}"\ntypecheck = "mypy src/slugify_plus"\n',
        ),
        Say("Hatch manages the environments; see the scripts table."),
    ),
    expect=(r"`hatch run test`", r"`hatch run typecheck`"),
)

PDM = Case(
    "pyproject-pdm-scripts",
    "`head -40 pyproject.toml`: [tool.pdm.scripts] inside the lines shown",
    "Python/PDM",
    one_session(
        "/home/tom/src/csvkit-lite",
        Ask("Take a look at the project setup."),
        Run(
            "head -40 pyproject.toml",
            '[project]\nname = "csvkit-lite"\nversion = "0.2.0"\nrequires-python = ">=3.10"\ndependencies = []\n\n[tool.pdm.dev-dependencies]\ndev = ["pytest>=8", "ruff>=0.5"]\n\n[tool.pdm.scripts]\ntest = "pytest tests"\nlint = {cmd = "ruff check src tests"}\nfmt = "ruff format src tests"\n\n[tool.ruff]\nline-length = 100\ntarget-version = "py310"\n\n[tool.ruff.lint]\nselect = [\n    "E",\n    "F",\n    "I",\n    "B",\n    "UP",\n    "SIM",\n    "RUF",\n]\nignore = [\n    "E501",\n]\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\naddopts = "-q"\n\n[tool.coverage.run]\nbranch = true\nsource = [\n    "src",',
        ),
        Say("PDM project; scripts for tests, lint and format."),
    ),
    expect=(r"`pdm run test`", r"`pdm run lint`"),
)

MISE = Case(
    "mise-tasks",
    "mise.toml read whole: [tasks.*]",
    "Go/mise",
    one_session(
        "/home/ola/dev/shorturl",
        Ask("What tooling does this use?"),
        Read(
            "mise.toml",
            '[tools]\ngo = "1.22"\ngolangci-lint = "1.59"\n\n[tasks.test]\ndescription = "Run the unit tests"\nrun = "go test ./..."\n\n[tasks.lint]\nrun = "golangci-lint run"\n',
        ),
        Say("mise pins Go 1.22 and golangci-lint and defines the tasks."),
    ),
    expect=(r"`mise run test`", r"`mise run lint`"),
)

TASKFILE = Case(
    "taskfile-tasks",
    "`cat Taskfile.yml`",
    "Go/go-task",
    one_session(
        "/home/ben/src/pipewatch",
        Ask("Look at the Taskfile and tell me what's there."),
        Run(
            "cat Taskfile.yml",
            "version: '3'\n\ntasks:\n  build:\n    cmds:\n      - go build -o dist/pipewatch .\n  test:\n    desc: Run all tests\n    cmds:\n      - go test ./...\n  lint:\n    cmds:\n      - staticcheck ./...\n",
        ),
        Say("Three tasks: build, test and lint."),
    ),
    expect=(r"`task test`", r"`task lint`"),
)

CARGO_ALIAS = Case(
    "cargo-config-aliases",
    "`cat .cargo/config.toml`: [alias]",
    "Rust/Cargo",
    one_session(
        "/home/ivo/code/raytrace",
        Ask("Any project-specific cargo setup I should know?"),
        Run(
            "cat .cargo/config.toml",
            '[alias]\nlint = "clippy --all-targets --all-features -- -D warnings"\nxtask = "run --package xtask --"\n\n[build]\nrustflags = ["-C", "target-cpu=native"]\n',
        ),
        Say("There is a `cargo lint` alias and an xtask runner; builds use target-cpu=native."),
    ),
    expect=(r"`cargo lint`",),
)

MIX_ALIASES = Case(
    "mix-exs-aliases",
    "mix.exs read whole: aliases",
    "Elixir/mix",
    one_session(
        "/home/lu/src/bookclub",
        Ask("Walk me through the project config."),
        Read(
            "mix.exs",
            'defmodule Bookclub.MixProject do\n  use Mix.Project\n\n  def project do\n    [\n      app: :bookclub,\n      version: "0.1.0",\n      elixir: "~> 1.16",\n      aliases: aliases(),\n      deps: deps()\n    ]\n  end\n\n  defp deps do\n    [\n      {:phoenix, "~> 1.7"},\n      {:credo, "~> 1.7", only: [:dev, :test], runtime: false}\n    ]\n  end\n\n  defp aliases do\n    [\n      setup: ["deps.get", "ecto.setup"],\n      test: ["ecto.create --quiet", "ecto.migrate --quiet", "test"],\n      lint: ["format --check-formatted", "credo --strict"]\n    ]\n  end\nend\n',
        ),
        Say("A Phoenix app; `mix setup` installs everything."),
    ),
    expect=(r"`mix lint`", r"credo --strict"),
)

SUBFOLDER = Case(
    "sub-package-web",
    "`cat web/package.json` in a repository whose front end lives in `web/`",
    "TypeScript/pnpm",
    one_session(
        "/home/dev/src/atlas",
        Ask("The front end is in web/. What are its scripts?"),
        Run(
            "cat web/package.json",
            '{\n  "name": "atlas-web",\n  "private": true,\n  "packageManager": "pnpm@9.1.0",\n  "scripts": {\n    "dev": "next dev",\n    "build": "next build",\n    "test": "vitest run",\n    "lint": "next lint"\n  },\n  "dependencies": {\n    "next": "14.2.4"\n  }\n}\n',
        ),
        Say("The web app is Next.js; tests run with Vitest."),
    ),
    expect=(r"`web/`.*`pnpm (?:run )?test`|`pnpm (?:run )?test`.*`web/`",),
    never=((r"^(?!.*web/).*`pnpm (?:run )?test`", "web/'s script said as the root's"),),
)

READ_LIMIT = Case(
    "package-read-with-limit",
    "a Read with a limit cuts package.json after its scripts; the listing shows pnpm-lock.yaml",
    "TypeScript/pnpm",
    one_session(
        "/home/zoe/src/formwise",
        Ask("Check how this is tested before we start."),
        Run("ls", "README.md\npackage.json\npnpm-lock.yaml\nsrc\ntests\ntsconfig.json\n"),
        Read(
            "package.json",
            '{\n  "name": "formwise",\n  "version": "0.7.3",\n  "type": "module",\n  "scripts": {\n    "build": "tsup src/index.ts --dts",\n    "test": "vitest run",\n    "test:watch": "vitest",\n    "lint": "biome check src tests"\n  },\n  "devDependencies": {\n    "@biomejs/biome": "1.8.3",\n    "tsup": "^8.1.0",',
            total=48,
        ),
        Say("Tests are Vitest; lint is Biome."),
    ),
    expect=(r"`pnpm (?:run )?test`", r"`pnpm (?:run )?lint`"),
)

PYPROJECT_HEAD = Case(
    "pyproject-poe-head-cut",
    "`head -40 pyproject.toml` cut inside a later table; poe tasks before the cut",
    "Python/Poe",
    one_session(
        "/home/max/code/tidepool",
        Ask("Look at the config."),
        Run(
            "head -40 pyproject.toml",
            '[project]\nname = "tidepool"\nversion = "2.0.1"\n\n[tool.poe.tasks]\ncheck = ["lint", "test"]\nlint = "ruff check src"\ntest = "pytest -x"\n\n[tool.mypy]\nstrict = true\nfiles = [\n    "src",\n    "tests",\n]\nwarn_unreachable = true\n\n[tool.ruff]\nline-length = 100\n\n[tool.ruff.lint]\nselect = ["E", "F", "I", "B"]\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\nfilterwarnings = ["error"]\n\n[tool.coverage.run]\nbranch = true\nsource = [\n    "src","tidepool"]\nomit = [\n    "src/tidepool/_version.py",\n    "src/tidepool/__main__.py",\n    "tests/*",\n]\n\n[tool.coverage.report]\nexclude_lines = [\n    "if TYPE_CHECKING:",',
        ),
        Say("Poe tasks for lint and test."),
    ),
    expect=(r"`poe test`", r"`poe lint`"),
)

# ---- must stay quiet -------------------------------------------------------------------------

DEPENDENCY_MANIFEST = Case(
    "node-modules-manifest",
    "a dependency's package.json under node_modules/",
    "JavaScript",
    one_session(
        "/home/ana/src/shopfront",
        Ask("Why does date-fns behave differently here?"),
        Run(
            "cat node_modules/left-pad/package.json",
            '{\n  "name": "left-pad",\n  "version": "1.3.0",\n  "scripts": {\n    "test": "node test",\n    "lint": "standard"\n  }\n}\n',
        ),
        Say("That's only a transitive dependency; it isn't related."),
    ),
    fires=False,
    never=((r"node test|standard|left-pad", "a dependency's scripts"),),
)

VENDOR_MANIFEST = Case(
    "vendor-composer-manifest",
    "a dependency's composer.json under vendor/",
    "PHP",
    one_session(
        "/home/lena/projects/crm",
        Ask("Which monolog version is this?"),
        Read(
            "vendor/monolog/monolog/composer.json",
            '{\n    "name": "monolog/monolog",\n    "scripts": {\n        "test": "@php vendor/bin/phpunit",\n        "phpstan": "@php vendor/bin/phpstan analyse"\n    }\n}\n',
        ),
        Say("Monolog 3.x."),
    ),
    fires=False,
    never=((r"composer (?:test|phpstan)|vendor/bin/phpunit", "a dependency's scripts"),),
)

EXAMPLES_PACKAGE = Case(
    "examples-sub-package",
    "an example's own package.json under examples/",
    "TypeScript",
    one_session(
        "/home/ro/dev/tinyrouter",
        Ask("Is the basic example still working with the new API?"),
        Read(
            "examples/basic/package.json",
            '{\n  "name": "tinyrouter-example-basic",\n  "private": true,\n  "packageManager": "pnpm@9.1.0",\n  "scripts": {\n    "dev": "vite",\n    "build": "vite build",\n    "test": "vitest run"\n  }\n}\n',
        ),
        Say("It uses the old `createRouter` signature; I'll update it."),
    ),
    fires=False,
    never=((r"vite build|vitest run|pnpm (?:run )?(?:test|build)", "an example's scripts"),),
)

DOCS_PACKAGE = Case(
    "docs-sub-package",
    "`cat docs/package.json`: the docs site's own package",
    "JavaScript",
    one_session(
        "/home/ro/dev/quarry",
        Ask("How is the documentation site built?"),
        Run(
            "cat docs/package.json",
            '{\n  "name": "quarry-docs",\n  "private": true,\n  "packageManager": "pnpm@9.1.0",\n  "scripts": {\n    "build": "docusaurus build",\n    "start": "docusaurus start"\n  }\n}\n',
        ),
        Say("The docs are a Docusaurus site in `docs/`."),
    ),
    fires=False,
    never=(
        (
            r"Build the project with|build.*`pnpm (?:run )?build`",
            "the docs' build is not the project's",
        ),
    ),
)

PLACEHOLDER = Case(
    "placeholder-scripts",
    "npm init's failing test script and an echo-only lint",
    "JavaScript/npm",
    one_session(
        "/home/jo/src/colorname",
        Ask("Set me up to add tests later; just look for now."),
        Run("ls", "index.js\npackage-lock.json\npackage.json\n"),
        Read(
            "package.json",
            '{\n  "name": "colorname",\n  "version": "1.0.0",\n  "main": "index.js",\n  "scripts": {\n    "test": "echo \\"Error: no test specified\\" && exit 1",\n    "lint": "echo \'no linter yet\'"\n  },\n  "license": "ISC"\n}\n',
        ),
        Say("There are no tests or linter yet."),
    ),
    fires=False,
    never=(
        (r"no test specified|no linter yet", "a placeholder script"),
        (r"`npm (?:run )?(?:test|lint)`", "the scripts run nothing"),
    ),
)

OTHER_REPOSITORY = Case(
    "other-repository-manifest",
    "`cd ../` another checkout, then `cat package.json`",
    "JavaScript",
    one_session(
        "/home/ana/src/portal",
        Ask("How does the sibling sdk repo run its tests? We might copy that."),
        Run(
            "cd ../portal-sdk && ls && cat package.json",
            'package.json\npnpm-lock.yaml\nsrc\n{\n  "name": "portal-sdk",\n  "scripts": {\n    "test": "vitest run --coverage",\n    "lint": "eslint src"\n  }\n}\n',
        ),
        Say("The SDK runs `pnpm test` with Vitest and coverage."),
    ),
    fires=False,
    never=(
        (
            r"vitest run --coverage|eslint src|`pnpm (?:run )?(?:test|lint)`",
            "another repository's scripts",
        ),
    ),
)

ABSOLUTE_ELSEWHERE = Case(
    "manifest-read-outside",
    "a Read of another project's Makefile by an absolute path",
    "C/make",
    one_session(
        "/home/li/src/ringbuf",
        Ask("How did my other project run its sanitizer tests?"),
        Read(
            "/home/li/src/oldlib/Makefile",
            "test:\n\t$(CC) -fsanitize=address -o t tests/*.c && ./t\n\nlint:\n\tclang-tidy src/*.c\n",
        ),
        Say("It built the tests with -fsanitize=address and ran them."),
    ),
    fires=False,
    never=((r"`make (?:test|lint)`|clang-tidy", "another project's targets"),),
)

RAN_FAILED = Case(
    "declared-script-ran-and-failed",
    "package.json declares `test`; the session ran `pnpm test` and it failed",
    "TypeScript/pnpm",
    one_session(
        "/home/pat/src/budget",
        Ask("Run the tests."),
        Run("ls", "package.json\npnpm-lock.yaml\nsrc\n"),
        Read(
            "package.json",
            '{\n  "name": "budget",\n  "scripts": {\n    "test": "vitest run",\n    "lint": "eslint src"\n  }\n}\n',
        ),
        Run(
            "pnpm test",
            "> budget@ test /home/pat/src/budget\n> vitest run\n\n FAIL  src/sum.test.ts > adds\nAssertionError: expected 3 to be 4\n Test Files  1 failed (1)\n      Tests  1 failed (1)",
            1,
        ),
        Say("One test fails: `adds` expects 4 but gets 3."),
    ),
    fires=False,
    never=(
        (
            r"(?:tests?|Test).{0,40}`pnpm (?:run )?test`.{0,80}(?:vitest|declar|package\.json)",
            "a run that failed is no recipe",
        ),
    ),
)

RAN_PASSED = Case(
    "declared-script-ran-and-passed",
    "package.json declares `check`; the session ran `bun run check` and it passed",
    "TypeScript/Bun",
    one_session(
        "/home/mia/src/cartography",
        Ask("Make sure the checks pass."),
        Run("ls", "bun.lock\npackage.json\nsrc\n"),
        Read(
            "package.json",
            '{\n  "name": "cartography",\n  "scripts": {\n    "check": "bun run lint && bun run test",\n    "lint": "eslint .",\n    "test": "vitest run"\n  }\n}\n',
        ),
        Run(
            "bun run check",
            "$ eslint .\n$ vitest run\n\n Test Files  4 passed (4)\n      Tests  21 passed (21)\n",
        ),
        Say("All checks pass."),
    ),
    fires=True,
    expect=(r"`bun run check`",),
    once=(r"`bun run check`",),
)

BROKEN_JSON = Case(
    "json-broken-before-scripts",
    "a package.json with conflict markers before its scripts",
    "JavaScript",
    one_session(
        "/home/al/src/notary",
        Ask("Something's off with package.json, can you look?"),
        Run(
            "cat package.json",
            '{\n  "name": "notary",\n<<<<<<< HEAD\n  "version": "1.4.0",\n=======\n  "version": "1.5.0",\n>>>>>>> release\n  "packageManager": "pnpm@9.1.0",\n  "scripts": {\n    "test": "jest",\n    "lint": "eslint ."\n  }\n}\n',
        ),
        Say("There's an unresolved merge conflict in the version field."),
    ),
    fires=False,
    never=((r"`pnpm (?:run )?(?:test|lint)`|\bjest\b", "the file is not valid as read"),),
)

ECHO_MAKE = Case(
    "makefile-echo-targets",
    "a Makefile whose test target only echoes",
    "C/make",
    one_session(
        "/home/li/src/bitset",
        Ask("Is there a test target?"),
        Run(
            "cat Makefile",
            'all: bitset.o\n\nbitset.o: bitset.c\n\t$(CC) -c bitset.c\n\ntest:\n\t@echo "no tests yet"\n',
        ),
        Say("No, the test target is a stub."),
    ),
    fires=False,
    never=((r"`make test`|no tests yet", "a stub target"),),
)

CASES: tuple[Case, ...] = (
    BUN_HEAD,
    PNPM_FIELD,
    YARN_LOCK,
    NPM_BODIES,
    UNKNOWN_RUNNER,
    COMPOSER,
    DENO,
    MAKEFILE,
    JUSTFILE,
    POE,
    HATCH,
    PDM,
    MISE,
    TASKFILE,
    CARGO_ALIAS,
    MIX_ALIASES,
    SUBFOLDER,
    READ_LIMIT,
    PYPROJECT_HEAD,
    RAN_PASSED,
    DEPENDENCY_MANIFEST,
    VENDOR_MANIFEST,
    EXAMPLES_PACKAGE,
    DOCS_PACKAGE,
    PLACEHOLDER,
    OTHER_REPOSITORY,
    ABSOLUTE_ELSEWHERE,
    RAN_FAILED,
    BROKEN_JSON,
    ECHO_MAKE,
)
