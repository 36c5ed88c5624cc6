# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""The "what is this project" study's second set: made-up sessions where what the project is
shows in the shapes real sessions give it and the first set did not: a README read through the
shell (`head`, `nl -ba | sed`), a README whose description sits in centred HTML, a tagline
before the description, manifests of further ecosystems (`CMakeLists.txt`'s `DESCRIPTION`, a
root `.csproj`, `setup.cfg`, R's `DESCRIPTION`, Poetry, a Cargo workspace, a Claude Code
plugin), the user's words behind a label or about a monorepo, the assistant's summary as a
labelled line or "It's a …", an instruction file's overview as a list. Traps: a dependency's
manifest, the assistant explaining a library the project uses, a plan for what the project may
become, an example's README, a negated kind. Every case, its facts and its `never` patterns
included, was written before any rule ran on it (`bench/whatis_study.py --set b`)."""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, one_session
from bench.whatis_study_cases import Case, fact, never

README_HEAD = Case(
    "readme-shell-head",
    "readme",
    "Python (Claude Code, read through the shell)",
    one_session(
        "/home/ama/src/tidepool",
        Ask("Look at the repo, then make the sync retry on 503."),
        Run(
            "head -30 README.md",
            "# tidepool\n\ntidepool syncs tide-gauge readings from NOAA stations into a local SQLite archive and serves them as a small JSON API.\n\n## Quick start\n\n    uv run tidepool sync\n",
        ),
        Run(
            "cat pyproject.toml",
            '[project]\nname = "tidepool"\nversion = "0.5.0"\nrequires-python = ">=3.12"\ndependencies = ["httpx", "fastapi"]\n',
        ),
        Read(
            "tidepool/sync.py",
            "def fetch(client, url):\n    return client.get(url).raise_for_status()\n",
        ),
        Edit(
            "tidepool/sync.py",
            "    return client.get(url).raise_for_status()",
            "    for _ in range(3):\n        r = client.get(url)\n        if r.status_code != 503:\n            return r.raise_for_status()\n    return r.raise_for_status()",
        ),
        Run("uv run pytest -q", "......\n6 passed in 0.33s\n"),
    ),
    (
        fact("tidepool syncs tide-gauge readings", r"tidepool", r"tide"),
        fact("... in Python", r"tide", r"python"),
    ),
)

README_NUMBERED = Case(
    "readme-numbered-sed",
    "readme",
    "Go (Codex)",
    one_session(
        "/home/lu/go/src/pagerbell",
        Ask("Explain what this is and then add a --dry-run flag to `pagerbell send`."),
        Run(
            "nl -ba README.md | sed -n '1,40p'",
            "     1\t# pagerbell\n     2\t\n     3\tpagerbell routes Alertmanager alerts to on-call engineers by SMS and voice calls.\n     4\t\n     5\t## Usage\n",
        ),
        Read("go.mod", "module github.com/lu/pagerbell\n\ngo 1.22\n"),
        Read(
            "cmd/send.go",
            'package cmd\n\nvar sendCmd = &cobra.Command{Use: "send"}\n',
        ),
        Edit(
            "cmd/send.go",
            'var sendCmd = &cobra.Command{Use: "send"}',
            'var sendCmd = &cobra.Command{Use: "send"}\n\nfunc init() { sendCmd.Flags().Bool("dry-run", false, "print, do not send") }',
        ),
        Run("go build ./...", ""),
        host="codex",
    ),
    (
        fact("pagerbell routes alerts to on-call engineers", r"pagerbell", r"alert|on-call"),
        fact("... in Go", r"alert|on-call", r"\bGo\b"),
    ),
)

README_HTML_CENTRED = Case(
    "readme-html-centred",
    "readme",
    "TypeScript (Claude Code)",
    one_session(
        "/Users/mei/code/lumen-notes",
        Ask("The sidebar search is case sensitive. Make it ignore case."),
        Read(
            "README.md",
            '<h1 align="center">Lumen Notes</h1>\n\n<p align="center">\n  A local-first Markdown note-taking app for the desktop, built with Tauri and React.\n</p>\n\n<p align="center">\n  <img src="docs/screenshot.png" width="600">\n</p>\n\n## Features\n\n- Offline first\n',
        ),
        Read(
            "src/sidebar/search.ts",
            "export function matches(note: Note, query: string) {\n  return note.title.includes(query);\n}\n",
        ),
        Edit(
            "src/sidebar/search.ts",
            "  return note.title.includes(query);",
            "  return note.title.toLowerCase().includes(query.toLowerCase());",
        ),
        Run("pnpm test", " ✓ src/sidebar/search.test.ts (3 tests)\n"),
    ),
    (fact("Lumen Notes is a Markdown note-taking app", r"lumen", r"note-taking|notes? app"),),
)

README_TAGLINE = Case(
    "readme-tagline-first",
    "readme",
    "Ruby (Gemini CLI)",
    one_session(
        "/home/tess/apps/crumbs",
        Ask("Add a `published` scope to Recipe."),
        Read(
            "README.md",
            "# Crumbs\n\n**Share what you bake.**\n\nCrumbs is a Rails app where home bakers publish recipes and rate each other's bakes.\n\n## Setup\n\n    bin/setup\n",
        ),
        Read(
            "Gemfile",
            'source "https://rubygems.org"\n\nruby "3.3.4"\ngem "rails", "~> 7.2"\ngem "pg"\n',
        ),
        Read(
            "app/models/recipe.rb",
            "class Recipe < ApplicationRecord\n  belongs_to :baker\nend\n",
        ),
        Edit(
            "app/models/recipe.rb",
            "  belongs_to :baker\n",
            "  belongs_to :baker\n  scope :published, -> { where.not(published_at: nil) }\n",
        ),
        Run(
            "bin/rails test",
            "Finished in 0.41s\n12 runs, 20 assertions, 0 failures, 0 errors, 0 skips\n",
        ),
        host="gemini",
    ),
    (
        fact("Crumbs is a recipe-sharing app for home bakers", r"crumbs", r"recipe|bak"),
        fact("... a Rails app", r"recipe|bak", r"rails|ruby"),
    ),
)

MANIFEST_CMAKE = Case(
    "manifest-cmake-description",
    "manifest",
    "C++ (Claude Code)",
    one_session(
        "/home/oleg/src/voxelize",
        Ask("Meshes with degenerate triangles crash the voxelizer. Skip them."),
        Read(
            "CMakeLists.txt",
            'cmake_minimum_required(VERSION 3.24)\nproject(voxelize VERSION 1.3.0 DESCRIPTION "GPU voxelizer for triangle meshes" LANGUAGES CXX)\nset(CMAKE_CXX_STANDARD 20)\nadd_executable(voxelize src/main.cpp src/voxelizer.cpp)\n',
        ),
        Read(
            "src/voxelizer.cpp",
            '#include "voxelizer.hpp"\n\nvoid Voxelizer::add(const Triangle& t) {\n    triangles_.push_back(t);\n}\n',
        ),
        Edit(
            "src/voxelizer.cpp",
            "    triangles_.push_back(t);",
            "    if (t.area() == 0.0f) return;\n    triangles_.push_back(t);",
        ),
        Run(
            "cmake --build build && ctest --test-dir build",
            "[100%] Built target voxelize\n100% tests passed, 0 tests failed out of 9\n",
        ),
    ),
    (
        fact(
            "voxelize is a GPU voxelizer for meshes", r"voxeli[sz]e", r"voxeli[sz]er|triangle mesh"
        ),
        fact("... in C++", r"voxeli[sz]er|mesh", r"C\+\+"),
    ),
)

MANIFEST_CSPROJ = Case(
    "manifest-csproj-description",
    "manifest",
    "C# (Codex)",
    one_session(
        "/home/pia/src/Shiftr",
        Ask("The nightly job double-books a nurse who has two wards. Fix the overlap check."),
        Read(
            "Shiftr.csproj",
            '<Project Sdk="Microsoft.NET.Sdk.Worker">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n    <Description>Worker service that builds weekly nurse rotas for hospital wards</Description>\n  </PropertyGroup>\n</Project>\n',
        ),
        Read(
            "Rota/Overlap.cs",
            "public static bool Overlaps(Shift a, Shift b) => a.Ward == b.Ward && a.Start < b.End && b.Start < a.End;\n",
        ),
        Edit(
            "Rota/Overlap.cs",
            "a.Ward == b.Ward && a.Start < b.End",
            "a.Start < b.End",
        ),
        Run(
            "dotnet test", "Passed!  - Failed:     0, Passed:    31, Skipped:     0, Total:    31\n"
        ),
        host="codex",
    ),
    (
        fact("Shiftr builds nurse rotas", r"shiftr", r"rota|nurse"),
        fact("... in C# / .NET", r"rota|nurse", r"C#|\.NET"),
    ),
)

MANIFEST_SETUP_CFG = Case(
    "manifest-setup-cfg",
    "manifest",
    "Python (Gemini CLI)",
    one_session(
        "/home/raj/src/glossa",
        Ask("Lemmatize should lower-case before the lookup."),
        Read(
            "setup.cfg",
            "[metadata]\nname = glossa\nversion = 0.8.1\ndescription = Lemmatizer and morphological tagger for Ancient Greek texts\n\n[options]\npackages = find:\npython_requires = >=3.10\n",
        ),
        Read(
            "glossa/lemma.py",
            "def lemmatize(word):\n    return TABLE.get(word, word)\n",
        ),
        Edit("glossa/lemma.py", "TABLE.get(word, word)", "TABLE.get(word.lower(), word)"),
        Run("python -m pytest -q", "....\n4 passed in 0.08s\n"),
        host="gemini",
    ),
    (
        fact("glossa lemmatizes Ancient Greek", r"glossa", r"greek|lemmati"),
        fact("... in Python", r"greek|lemmati", r"python"),
    ),
)

MANIFEST_R_DESCRIPTION = Case(
    "manifest-r-description",
    "manifest",
    "R (Claude Code)",
    one_session(
        "/home/ingrid/r/treeringr",
        Ask("`detrend()` fails on series shorter than the spline window. Return NA instead."),
        Read(
            "DESCRIPTION",
            "Package: treeringr\nTitle: Tidy Tools for Tree-Ring Measurements\nVersion: 0.4.0\nDescription: Reads, cleans and detrends tree-ring width series for dendrochronology.\nLicense: MIT + file LICENSE\nImports: dplyr, tibble\n",
        ),
        Read(
            "R/detrend.R",
            "detrend <- function(x, window = 32) {\n  smooth.spline(x, df = window)$y\n}\n",
        ),
        Edit(
            "R/detrend.R",
            "  smooth.spline(x, df = window)$y",
            "  if (length(x) < window) return(rep(NA_real_, length(x)))\n  smooth.spline(x, df = window)$y",
        ),
        Run(
            "Rscript -e 'devtools::test()'",
            "══ Testing treeringr ══\n[ FAIL 0 | WARN 0 | SKIP 0 | PASS 14 ]\n",
        ),
    ),
    (
        fact("treeringr works with tree-ring measurements", r"treeringr", r"tree-ring|dendro"),
        fact("... an R package", r"tree-ring|dendro", r"\bR\b"),
    ),
)

MANIFEST_POETRY = Case(
    "manifest-poetry",
    "manifest",
    "Python (Codex, shell era)",
    one_session(
        "/home/kofi/src/ledgerline",
        Ask("Reject journal entries whose debits and credits differ."),
        Read(
            "pyproject.toml",
            '[tool.poetry]\nname = "ledgerline"\nversion = "0.2.0"\ndescription = "Double-entry bookkeeping API for small co-ops"\nauthors = ["Kofi <kofi@example.org>"]\n\n[tool.poetry.dependencies]\npython = "^3.11"\nlitestar = "^2.9"\n',
        ),
        Read(
            "ledgerline/entries.py",
            "def post(entry):\n    store.save(entry)\n",
        ),
        Edit(
            "ledgerline/entries.py",
            "def post(entry):\n",
            "def post(entry):\n    if entry.debits() != entry.credits():\n        raise Unbalanced(entry)\n",
        ),
        Run("poetry run pytest -q", ".........\n9 passed in 0.19s\n"),
        host="codex-shell",
    ),
    (
        fact(
            "ledgerline is a double-entry bookkeeping API",
            r"ledgerline",
            r"bookkeeping|double-entry",
        ),
        fact("... in Python", r"bookkeeping|double-entry", r"python"),
    ),
)

MANIFEST_CARGO_WORKSPACE = Case(
    "manifest-cargo-workspace",
    "manifest",
    "Rust (Claude Code)",
    one_session(
        "/home/anya/src/murmur",
        Ask("The relay drops messages larger than 64 KiB. Raise the frame limit to 1 MiB."),
        Read(
            "Cargo.toml",
            '[workspace]\nmembers = ["crates/murmur-relay", "crates/murmur-client"]\nresolver = "2"\n\n[workspace.package]\nversion = "0.7.0"\nedition = "2021"\ndescription = "End-to-end encrypted group chat over a self-hosted relay"\nlicense = "AGPL-3.0"\n',
        ),
        Read(
            "crates/murmur-relay/src/frame.rs",
            "pub const MAX_FRAME: usize = 64 * 1024;\n",
        ),
        Edit("crates/murmur-relay/src/frame.rs", "64 * 1024", "1024 * 1024"),
        Run("cargo test --workspace", "test result: ok. 37 passed; 0 failed\n"),
    ),
    (
        fact("murmur is an encrypted group chat", r"murmur", r"chat|encrypted"),
        fact("... in Rust", r"chat|encrypted", r"\bRust\b"),
    ),
)

MANIFEST_CLAUDE_PLUGIN = Case(
    "manifest-claude-plugin",
    "manifest",
    "Markdown and shell (Claude Code)",
    one_session(
        "/Users/dev/src/tidy-commits",
        Ask("The /tidy-commits:squash command should refuse to run on main."),
        Read(
            ".claude-plugin/plugin.json",
            '{\n  "name": "tidy-commits",\n  "description": "Claude Code plugin with slash commands that squash and reword a branch\'s commits before review",\n  "version": "0.3.0"\n}\n',
        ),
        Read(
            "commands/squash.md",
            "---\ndescription: Squash the branch's commits\n---\n\nRun `git rebase -i $(git merge-base HEAD main)`.\n",
        ),
        Edit(
            "commands/squash.md",
            "Run `git rebase",
            "If the current branch is `main`, stop and say so.\n\nRun `git rebase",
        ),
    ),
    (fact("tidy-commits is a Claude Code plugin", r"tidy-commits", r"plugin|slash command"),),
)

USER_LABELLED = Case(
    "user-context-label",
    "user",
    "Swift (Codex)",
    one_session(
        "/Users/jon/dev/tallyho",
        Ask(
            "Context: Tallyho is a habit tracker for iOS. Streaks reset at midnight UTC instead of local midnight; fix it."
        ),
        Read(
            "Tallyho/Model/Streak.swift",
            'func isSameDay(_ a: Date, _ b: Date) -> Bool {\n    var cal = Calendar(identifier: .gregorian)\n    cal.timeZone = TimeZone(identifier: "UTC")!\n    return cal.isDate(a, inSameDayAs: b)\n}\n',
        ),
        Edit(
            "Tallyho/Model/Streak.swift",
            '    var cal = Calendar(identifier: .gregorian)\n    cal.timeZone = TimeZone(identifier: "UTC")!\n',
            "    let cal = Calendar.current\n",
        ),
        host="codex",
    ),
    (fact("Tallyho is a habit tracker for iOS", r"tallyho", r"habit tracker"),),
)

USER_MONOREPO = Case(
    "user-monorepo",
    "user",
    "TypeScript and Python (Claude Code)",
    one_session(
        "/home/bea/work/fieldday",
        Ask(
            "This repo is a monorepo for our volunteer sign-up platform: the API is in api/ (FastAPI) and the web app in web/ (SvelteKit). Add an email column to volunteers."
        ),
        Read(
            "api/models.py",
            "class Volunteer(Base):\n    __tablename__ = 'volunteers'\n    id = Column(Integer, primary_key=True)\n",
        ),
        Edit(
            "api/models.py",
            "    id = Column(Integer, primary_key=True)\n",
            "    id = Column(Integer, primary_key=True)\n    email = Column(String, nullable=False)\n",
        ),
        Read(
            "web/src/routes/volunteers/+page.svelte",
            '<script lang="ts">\n  export let data;\n</script>\n',
        ),
    ),
    (fact("a monorepo for a volunteer sign-up platform", r"volunteer sign-up|monorepo"),),
)

ASSISTANT_LABELLED = Case(
    "assistant-labelled-line",
    "assistant",
    "Elixir (Gemini CLI)",
    one_session(
        "/home/rosa/src/beacon",
        Ask("Get oriented in the codebase first, then we'll add rate limiting."),
        Read(
            "mix.exs",
            'defmodule Beacon.MixProject do\n  use Mix.Project\n  def project, do: [app: :beacon, version: "0.1.0", elixir: "~> 1.17", deps: deps()]\n  defp deps, do: [{:bandit, "~> 1.5"}, {:plug, "~> 1.16"}]\nend\n',
        ),
        Read(
            "lib/beacon/router.ex",
            'defmodule Beacon.Router do\n  use Plug.Router\n  post "/events" do\n    Beacon.Ingest.call(conn)\n  end\nend\n',
        ),
        Say(
            "Here's the lay of the land.\n\n- **Project**: Beacon, a privacy-friendly web analytics collector written in Elixir on Plug and Bandit.\n- **Entry point**: `Beacon.Router` takes `POST /events`.\n- **Tests**: `mix test`."
        ),
        host="gemini",
    ),
    (fact("Beacon is a web analytics collector", r"beacon", r"analytics"),),
)

ASSISTANT_ITS_A = Case(
    "assistant-its-a",
    "assistant",
    "JavaScript (Claude Code)",
    one_session(
        "/home/nico/sites/menuboard",
        Ask("what's in this repo?"),
        Read(
            "package.json",
            '{\n  "name": "menuboard",\n  "private": true,\n  "scripts": {"dev": "vite", "build": "vite build"},\n  "dependencies": {"vue": "^3.4.0"}\n}\n',
        ),
        Read(
            "src/App.vue",
            '<template>\n  <MenuList :items="items" />\n</template>\n',
        ),
        Say(
            "It's a Vue 3 single-page app that shows a café's daily menu on a TV screen; the menu items come from a Google Sheet fetched at startup."
        ),
    ),
    (fact("a Vue single-page app showing a café menu", r"menu", r"vue"),),
)

INSTRUCTIONS_LIST = Case(
    "instructions-overview-list",
    "instructions",
    "Kotlin (Claude Code)",
    one_session(
        "/home/omar/src/parcelpal",
        Ask("Read CLAUDE.md and fix the failing tracking-number parser test."),
        Read(
            "CLAUDE.md",
            "# CLAUDE.md\n\n## Project Overview\n\n- **Name**: ParcelPal\n- **What**: Android app that tracks parcels across carriers from one list\n- **Stack**: Kotlin, Jetpack Compose, Room\n\n## Commands\n\n- `./gradlew test`\n",
        ),
        Read(
            "app/src/main/java/pal/Tracking.kt",
            'fun carrierOf(number: String): Carrier = when {\n    number.startsWith("1Z") -> Carrier.UPS\n    else -> Carrier.UNKNOWN\n}\n',
        ),
        Edit(
            "app/src/main/java/pal/Tracking.kt",
            '    number.startsWith("1Z") -> Carrier.UPS\n',
            '    number.startsWith("1Z") -> Carrier.UPS\n    number.length == 12 && number.all(Char::isDigit) -> Carrier.FEDEX\n',
        ),
        Run("./gradlew test", "BUILD SUCCESSFUL in 21s\n"),
    ),
    (
        fact("ParcelPal tracks parcels", r"parcelpal", r"parcel"),
        fact("... an Android app in Kotlin", r"parcel", r"kotlin|android"),
    ),
)

INSTRUCTIONS_PLAIN = Case(
    "instructions-plain-paragraph",
    "instructions",
    "Go (Codex)",
    one_session(
        "/home/sven/src/ferry",
        Ask("Read AGENTS.md, then make uploads resumable after a dropped connection."),
        Read(
            "AGENTS.md",
            "# AGENTS.md\n\nThis repository holds Ferry, a command-line tool that moves large files between S3 buckets across accounts.\n\n## Conventions\n\n- Run `go test ./...` before committing.\n",
        ),
        Read("go.mod", "module github.com/sven/ferry\n\ngo 1.23\n"),
        Read(
            "internal/upload/upload.go",
            "package upload\n\nfunc Put(ctx context.Context, r io.Reader) error {\n\treturn client.Upload(ctx, r)\n}\n",
        ),
        Edit(
            "internal/upload/upload.go",
            "\treturn client.Upload(ctx, r)",
            "\treturn client.UploadResumable(ctx, r, checkpointFile())",
        ),
        Run("go test ./...", "ok  \tgithub.com/sven/ferry/internal/upload\t0.31s\n"),
        host="codex",
    ),
    (
        fact("Ferry moves files between S3 buckets", r"ferry", r"s3|buckets"),
        fact("... in Go", r"s3|buckets", r"\bGo\b"),
    ),
)

# --- traps ---------------------------------------------------------------------------------

TRAP_DEPENDENCY_MANIFEST = Case(
    "trap-dependency-manifest",
    "trap",
    "JavaScript (Claude Code)",
    one_session(
        "/home/ida/src/gigboard",
        Ask("Why does the date picker show the wrong week start? Check the library."),
        Read(
            "node_modules/dayjs/package.json",
            '{\n  "name": "dayjs",\n  "description": "2KB immutable date time library alternative to Moment.js with the same modern API",\n  "version": "1.11.13"\n}\n',
        ),
        Read(
            "src/components/DatePicker.jsx",
            "import dayjs from 'dayjs';\n\nexport function weekStart(d) {\n  return dayjs(d).startOf('week');\n}\n",
        ),
        Edit(
            "src/components/DatePicker.jsx",
            "  return dayjs(d).startOf('week');",
            "  return dayjs(d).startOf('isoWeek');",
        ),
    ),
    (),
    (
        never(
            r"date time library|alternative to Moment",
            "a dependency's description is not the project's",
        ),
    ),
)

TRAP_LIBRARY_EXPLAINED = Case(
    "trap-library-explained",
    "trap",
    "TypeScript (Codex)",
    one_session(
        "/home/ali/src/formsmith",
        Ask("What is zod and why do we use it here?"),
        Read(
            "src/schema.ts",
            "import { z } from 'zod';\n\nexport const Signup = z.object({ email: z.string().email() });\n",
        ),
        Say(
            "Zod is a TypeScript-first schema validation library. Here `src/schema.ts` uses it to validate the sign-up form before it is posted."
        ),
        host="codex",
    ),
    (),
    (
        never(
            r"(?:project|formsmith)[^.\n]*schema validation library",
            "the assistant described a dependency",
        ),
    ),
)

TRAP_PLAN = Case(
    "trap-future-plan",
    "trap",
    "Python (Gemini CLI)",
    one_session(
        "/home/joy/src/toothbook",
        Ask(
            "Someday I want to turn this into a SaaS for dentists, but for now just fix the CSV export's date format."
        ),
        Read(
            "toothbook/export.py", "def row(v):\n    return [v.name, v.date.strftime('%m/%d/%Y')]\n"
        ),
        Edit("toothbook/export.py", "'%m/%d/%Y'", "'%Y-%m-%d'"),
        Run("pytest -q", "...\n3 passed in 0.05s\n"),
        host="gemini",
    ),
    (),
    (never(r"SaaS for dentists", "a plan for what the project may become"),),
)

TRAP_EXAMPLE_README = Case(
    "trap-example-readme",
    "trap",
    "Rust (Claude Code)",
    one_session(
        "/home/uma/src/skein",
        Ask("The chat example no longer compiles after the API change. Fix it."),
        Read(
            "examples/chat/README.md",
            "# chat\n\nA terminal chat room for two people on the same network.\n",
        ),
        Read(
            "examples/chat/main.rs",
            'fn main() {\n    let conn = skein::connect("0.0.0.0:9000");\n}\n',
        ),
        Edit(
            "examples/chat/main.rs",
            '    let conn = skein::connect("0.0.0.0:9000");',
            '    let conn = skein::Connection::open("0.0.0.0:9000").unwrap();',
        ),
        Run("cargo build --examples", "    Finished `dev` profile target(s) in 3.2s\n"),
    ),
    (),
    (never(r"terminal chat room", "an example's README is not the project's"),),
)

TRAP_NEGATED = Case(
    "trap-negated-kind",
    "trap",
    "Python (Claude Code)",
    one_session(
        "/home/hal/src/sieve",
        Ask(
            "This project is not a web app, despite the flask import in scripts/preview.py. Remove that script."
        ),
        Run("git rm scripts/preview.py", "rm 'scripts/preview.py'\n"),
    ),
    (),
    (never(r"(?:project|sieve)[^.\n]*\bis an? (?:flask )?web app", "the user said it is not one"),),
)


CASES: tuple[Case, ...] = (
    README_HEAD,
    README_NUMBERED,
    README_HTML_CENTRED,
    README_TAGLINE,
    MANIFEST_CMAKE,
    MANIFEST_CSPROJ,
    MANIFEST_SETUP_CFG,
    MANIFEST_R_DESCRIPTION,
    MANIFEST_POETRY,
    MANIFEST_CARGO_WORKSPACE,
    MANIFEST_CLAUDE_PLUGIN,
    USER_LABELLED,
    USER_MONOREPO,
    ASSISTANT_LABELLED,
    ASSISTANT_ITS_A,
    INSTRUCTIONS_LIST,
    INSTRUCTIONS_PLAIN,
    TRAP_DEPENDENCY_MANIFEST,
    TRAP_LIBRARY_EXPLAINED,
    TRAP_PLAN,
    TRAP_EXAMPLE_README,
    TRAP_NEGATED,
)
