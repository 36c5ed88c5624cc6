# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""The facts study's session set: made-up sessions in the ecosystems the answer key covers least
(compiled languages, dynamic languages outside Python and JavaScript, the JVM), each with what a
senior engineer states of the project's identity after reading the session (its language, its
package manager or build tool, what it is, how its commit subjects are written, where a kind of
code lives) and what must never be said. Several are traps where the evidence is thin or
conflicting and the right answer is to say less: a vendored file, a docs sub-site, one stray
script, a root `package.json` that only holds commit hooks, a build script in another language,
commits of mixed styles. Every case, its facts and its `never` patterns included, was written
before any rule ran on it (`bench/facts_study_sessions.py` runs them)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bench.facts_study import Expected, Never
from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Session, Write, one_session

JUDGED = ("project_fact", "recipe")


def fact(text: str, *match: str, unsure: bool = False) -> Expected:
    """A fact one memory must state: all of `match` (regexes, case-insensitive) in it."""
    return Expected(text, tuple(re.compile(m, re.IGNORECASE) for m in match), unsure)


def never(pattern: str, reason: str) -> Never:
    """What no project fact or recipe may say."""
    return Never(re.compile(pattern, re.IGNORECASE), reason, JUDGED)


@dataclass(frozen=True)
class Case:
    """One made-up project: its sessions, the facts to state and what never to say."""

    name: str
    ecosystem: str
    sessions: tuple[Session, ...]
    facts: tuple[Expected, ...]
    never: tuple[Never, ...] = ()


def _commit(subject: str, sha: str, branch: str = "main", files: int = 1) -> Run:
    return Run(
        f'git commit -m "{subject}"',
        f"[{branch} {sha}] {subject}\n {files} file{'s' if files > 1 else ''} changed, 12 insertions(+), 3 deletions(-)\n",
    )


_CARGO_OK = "   Compiling {crate} v0.4.1 ({root})\n    Finished `test` profile [unoptimized + debuginfo] target(s) in 6.21s\n     Running unittests src/main.rs (target/debug/deps/{crate}-3f2a9c1d)\n\nrunning 41 tests\n........................................\ntest result: ok. 41 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.08s\n"

RUST_OPTION_CODE = Case(
    "rust-secrets-cli",
    "Rust",
    one_session(
        "/home/ana/src/vaultkeep",
        Ask(
            "`vaultkeep lease` without a subcommand panics. Make the subcommand optional and print the lease list instead."
        ),
        Read(
            "src/commands/lease.rs",
            "use clap::{Args, Subcommand};\n\nuse crate::config::Config;\nuse crate::error::Result;\n\n#[derive(Debug, Args)]\npub struct LeaseCommand {\n    #[command(subcommand)]\n    pub command: LeaseSubcommand,\n}\n\n#[derive(Debug, Subcommand)]\npub enum LeaseSubcommand {\n    List,\n    Revoke { id: String },\n}\n\nimpl LeaseCommand {\n    pub async fn run(&self, config: &Config) -> Result<()> {\n        match &self.command {\n            LeaseSubcommand::List => list(config).await,\n            LeaseSubcommand::Revoke { id } => revoke(config, id).await,\n        }\n    }\n}\n",
        ),
        Edit(
            "src/commands/lease.rs",
            "    pub command: LeaseSubcommand,",
            "    pub command: Option<LeaseSubcommand>,",
        ),
        Edit(
            "src/commands/lease.rs",
            "        match &self.command {\n            LeaseSubcommand::List => list(config).await,\n            LeaseSubcommand::Revoke { id } => revoke(config, id).await,",
            "        match &self.command {\n            None | Some(LeaseSubcommand::List) => list(config).await,\n            Some(LeaseSubcommand::Revoke { id }) => revoke(config, id).await,",
        ),
        Read(
            "src/commands/provider.rs",
            "use clap::{Args, Subcommand};\n\n#[derive(Debug, Args)]\npub struct ProviderCommand {\n    #[command(subcommand)]\n    pub command: Option<ProviderSubcommand>,\n}\n",
        ),
        Run("cargo test", _CARGO_OK.format(crate="vaultkeep", root="/home/ana/src/vaultkeep")),
        Run(
            "cargo clippy --all-targets -- -D warnings",
            "    Checking vaultkeep v0.4.1 (/home/ana/src/vaultkeep)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 3.02s\n",
        ),
        _commit("fix: make the lease subcommand optional", "a1b2c3d"),
        Edit("docs/cli/lease.md", "vaultkeep lease <SUBCOMMAND>", "vaultkeep lease [SUBCOMMAND]"),
        _commit("docs: show the lease subcommand as optional", "b2c3d4e"),
        Edit(
            "src/commands/provider.rs",
            "    List,",
            "    /// Lists the configured providers.\n    List,",
        ),
        _commit("feat: document the provider list subcommand", "c3d4e5f"),
        Say(
            "The lease subcommand is now `Option<LeaseSubcommand>`; with none it lists the leases. Tests and clippy pass; three commits."
        ),
    ),
    (
        fact("written in Rust", r"\bRust\b"),
        fact("conventional commit subjects", r"conventional|`?(?:fix|feat|docs)[:(]"),
    ),
    (
        never(
            r"\b(?:Python|Go|JavaScript|TypeScript)\b[^.\n]*\bproject\b",
            "no other language is seen",
        ),
    ),
)

GO_SERVICE_README = Case(
    "go-ledger-service",
    "Go",
    one_session(
        "/home/ravi/code/ledgerd",
        Ask("Read the repo first, then add an idempotency key to POST /transfers."),
        Read(
            "README.md",
            "# ledgerd\n\nledgerd is a double-entry ledger service: it records transfers between accounts in PostgreSQL and exposes them over a JSON HTTP API.\n\n## Running\n\n```\nmake run\n```\n",
        ),
        Read(
            "go.mod",
            "module github.com/ravi/ledgerd\n\ngo 1.22\n\nrequire (\n\tgithub.com/go-chi/chi/v5 v5.0.12\n\tgithub.com/jackc/pgx/v5 v5.5.5\n)\n",
        ),
        Read(
            "internal/http/transfers.go",
            'package http\n\nimport (\n\t"encoding/json"\n\t"net/http"\n)\n\nfunc (s *Server) createTransfer(w http.ResponseWriter, r *http.Request) {\n\tvar req transferRequest\n\tif err := json.NewDecoder(r.Body).Decode(&req); err != nil {\n\t\thttp.Error(w, err.Error(), http.StatusBadRequest)\n\t\treturn\n\t}\n}\n',
        ),
        Edit(
            "internal/http/transfers.go",
            "\tvar req transferRequest\n",
            '\tkey := r.Header.Get("Idempotency-Key")\n\tif key == "" {\n\t\thttp.Error(w, "missing Idempotency-Key", http.StatusBadRequest)\n\t\treturn\n\t}\n\tvar req transferRequest\n',
        ),
        Run(
            "go test ./...",
            "ok  \tgithub.com/ravi/ledgerd/internal/http\t0.412s\nok  \tgithub.com/ravi/ledgerd/internal/ledger\t0.230s\n",
        ),
        _commit("Add idempotency keys to transfer creation", "4d5e6f7"),
        Edit(
            "internal/http/transfers_test.go",
            "func TestCreateTransfer(",
            "func TestCreateTransferNeedsKey(t *testing.T) {}\n\nfunc TestCreateTransfer(",
        ),
        _commit("Test that a transfer without a key is refused", "5e6f7a8"),
        Edit(
            "README.md",
            "## Running",
            "## Idempotency\n\nPOST /transfers requires an `Idempotency-Key` header.\n\n## Running",
        ),
        _commit("Document the Idempotency-Key header", "6f7a8b9"),
    ),
    (
        fact("written in Go", r"\bGo\b"),
        fact("a double-entry ledger service", r"ledger"),
        fact("plain imperative commit subjects", r"imperative|no (?:type )?prefix", unsure=True),
    ),
    (never(r"conventional commits?", "the subjects carry no type prefix"),),
)

C_VENDORED_LUA = Case(
    "c-game-vendored-lua",
    "C (CMake)",
    one_session(
        "/home/lin/dev/tilecraft",
        Ask("The build warns about an implicit declaration in the map loader. Fix it."),
        Read(
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.20)\nproject(tilecraft C)\nset(CMAKE_C_STANDARD 11)\nadd_subdirectory(third_party/lua)\nadd_executable(tilecraft src/main.c src/map.c src/render.c)\ntarget_link_libraries(tilecraft PRIVATE lua SDL2)\n",
        ),
        Run(
            "cmake --build build",
            "[ 12%] Building C object CMakeFiles/tilecraft.dir/src/map.c.o\n/home/lin/dev/tilecraft/src/map.c:41:5: warning: implicit declaration of function 'tile_index' [-Wimplicit-function-declaration]\n[100%] Linking C executable tilecraft\n",
        ),
        Read(
            "src/map.c",
            '#include <stdio.h>\n#include "map.h"\n\nint map_load(struct map *m, const char *path) {\n    FILE *f = fopen(path, "r");\n    if (!f) return -1;\n    m->tiles[tile_index(m, 0, 0)] = 0;\n    return 0;\n}\n',
        ),
        Edit(
            "src/map.h",
            "int map_load(struct map *m, const char *path);",
            "int map_load(struct map *m, const char *path);\nint tile_index(const struct map *m, int x, int y);",
        ),
        Read(
            "third_party/lua/lapi.c",
            "/*\n** $Id: lapi.c $\n** Lua API\n** See Copyright Notice in lua.h\n*/\n\n#define lapi_c\n#define LUA_CORE\n",
        ),
        Read(
            "third_party/lua/lauxlib.c",
            "/*\n** $Id: lauxlib.c $\n** Auxiliary functions for building Lua libraries\n*/\n",
        ),
        Read(
            "scripts/levels/intro.lua",
            'return {\n  name = "intro",\n  width = 32,\n  height = 18,\n}\n',
        ),
        Run(
            "cmake --build build",
            "[ 50%] Building C object CMakeFiles/tilecraft.dir/src/map.c.o\n[100%] Linking C executable tilecraft\n",
        ),
        Edit("src/render.c", "static void draw(void)", "static void draw_tiles(void)"),
    ),
    (fact("written in C", r"\bC\b"),),
    (
        never(
            r"\bLua\b[^.\n]*\bproject\b|\bC and Lua\b",
            "Lua is a vendored library and level data, not the project's language",
        ),
    ),
)

ZIG_STRAY_PYTHON = Case(
    "zig-lib-stray-script",
    "Zig",
    one_session(
        "/home/tomo/src/zigjson",
        Ask("Benchmark the parser against the last release and speed up string unescaping."),
        Read(
            "build.zig.zon",
            '.{\n    .name = "zigjson",\n    .version = "0.3.0",\n    .minimum_zig_version = "0.13.0",\n    .paths = .{ "build.zig", "build.zig.zon", "src" },\n}\n',
        ),
        Read(
            "build.zig",
            'const std = @import("std");\n\npub fn build(b: *std.Build) void {\n    const target = b.standardTargetOptions(.{});\n    const lib = b.addStaticLibrary(.{ .name = "zigjson", .root_source_file = b.path("src/root.zig"), .target = target });\n    b.installArtifact(lib);\n}\n',
        ),
        Read(
            "src/unescape.zig",
            'const std = @import("std");\n\npub fn unescape(out: []u8, in: []const u8) !usize {\n    var i: usize = 0;\n    for (in) |c| {\n        out[i] = c;\n        i += 1;\n    }\n    return i;\n}\n',
        ),
        Write(
            "bench_compare.py",
            "import subprocess, time\n\nfor rev in ('v0.2.0', 'HEAD'):\n    t = time.time()\n    subprocess.run(['zig', 'build', 'bench'], check=True)\n    print(rev, time.time() - t)\n",
        ),
        Run("python3 bench_compare.py", "v0.2.0 1.84\nHEAD 1.79\n"),
        Edit(
            "src/unescape.zig",
            "    for (in) |c| {",
            "    // Copy runs without a backslash in one go.\n    for (in) |c| {",
        ),
        Edit(
            "src/parser.zig",
            'const unescape = @import("unescape.zig");',
            'const unescape = @import("unescape.zig").unescape;',
        ),
        Run("zig build test", ""),
        Run("rm bench_compare.py", ""),
    ),
    (fact("written in Zig", r"\bZig\b"),),
    (
        never(
            r"\bPython\b", "one throwaway benchmark script, deleted, is not the project's language"
        ),
    ),
)

SWIFT_FASTLANE_GEMFILE = Case(
    "swift-app-fastlane-gemfile",
    "Swift",
    one_session(
        "/Users/kim/Projects/Trailhead",
        Ask(
            "Release builds fail on CI at the signing step. Look at the lane and the package setup."
        ),
        Read(
            "Package.swift",
            '// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n    name: "TrailheadKit",\n    platforms: [.iOS(.v16)],\n    products: [.library(name: "TrailheadKit", targets: ["TrailheadKit"])],\n    targets: [\n        .target(name: "TrailheadKit"),\n        .testTarget(name: "TrailheadKitTests", dependencies: ["TrailheadKit"]),\n    ]\n)\n',
        ),
        Read(
            "Gemfile",
            'source "https://rubygems.org"\n\ngem "fastlane", "~> 2.219"\ngem "cocoapods", "~> 1.15"\n',
        ),
        Read(
            "fastlane/Fastfile",
            'default_platform(:ios)\n\nplatform :ios do\n  lane :release do\n    match(type: "appstore", readonly: true)\n    build_app(scheme: "Trailhead")\n  end\nend\n',
        ),
        Edit(
            "fastlane/Fastfile",
            '    match(type: "appstore", readonly: true)',
            '    setup_ci\n    match(type: "appstore", readonly: true)',
        ),
        Read(
            "Sources/TrailheadKit/TrailStore.swift",
            "import Foundation\n\npublic final class TrailStore {\n    public private(set) var trails: [Trail] = []\n    public init() {}\n}\n",
        ),
        Edit(
            "Sources/TrailheadKit/TrailStore.swift",
            "    public init() {}",
            "    public init(trails: [Trail] = []) {\n        self.trails = trails\n    }",
        ),
        Run(
            "swift test",
            "Building for debugging...\nBuild complete! (4.12s)\nTest Suite 'All tests' passed at 2026-05-04 10:12:03.201.\n\t Executed 18 tests, with 0 failures (0 unexpected) in 0.044 (0.046) seconds\n",
        ),
        Run(
            "bundle exec fastlane release",
            "[10:14:21]: Driving the lane 'ios release'\n[10:14:22]: fastlane.tools finished successfully\n",
            0,
        ),
    ),
    (fact("written in Swift", r"\bSwift\b"),),
    (
        never(
            r"\bRuby\b[^.\n]*\bproject\b|\bSwift and Ruby\b",
            "the Gemfile holds the release tooling (fastlane), not the app's language",
        ),
    ),
)

RUBY_GEM_DOCS_SITE = Case(
    "ruby-gem-docs-site",
    "Ruby",
    one_session(
        "/home/pat/src/rate_limiter",
        Ask("Add a sliding-window strategy to the gem and document it on the site."),
        Read(
            "rate_limiter.gemspec",
            'Gem::Specification.new do |spec|\n  spec.name = "rate_limiter"\n  spec.version = "1.4.0"\n  spec.summary = "Redis-backed rate limiting for Rack apps"\n  spec.required_ruby_version = ">= 3.1"\n  spec.files = Dir["lib/**/*.rb"]\n  spec.add_dependency "redis", ">= 4.0"\n  spec.add_development_dependency "rspec", "~> 3.13"\nend\n',
        ),
        Read("Gemfile", 'source "https://rubygems.org"\ngemspec\n'),
        Read(
            "lib/rate_limiter/strategies/fixed_window.rb",
            "module RateLimiter\n  module Strategies\n    class FixedWindow\n      def initialize(redis, limit:, period:)\n        @redis, @limit, @period = redis, limit, period\n      end\n    end\n  end\nend\n",
        ),
        Write(
            "lib/rate_limiter/strategies/sliding_window.rb",
            "module RateLimiter\n  module Strategies\n    class SlidingWindow\n      def initialize(redis, limit:, period:)\n        @redis, @limit, @period = redis, limit, period\n      end\n\n      def allow?(key)\n        true\n      end\n    end\n  end\nend\n",
        ),
        Run(
            "bundle exec rspec",
            "........................\n\nFinished in 0.41 seconds (files took 0.22 seconds to load)\n24 examples, 0 failures\n",
        ),
        Read(
            "docs/package.json",
            '{\n  "name": "rate-limiter-docs",\n  "private": true,\n  "scripts": { "dev": "vitepress dev", "build": "vitepress build" },\n  "devDependencies": { "vitepress": "^1.2.3" }\n}\n',
        ),
        Edit(
            "docs/strategies.md",
            "## Fixed window",
            "## Sliding window\n\n`RateLimiter::Strategies::SlidingWindow` counts requests over a moving period.\n\n## Fixed window",
        ),
        Run(
            "cd docs && npm run build",
            "vitepress v1.2.3\n\n✓ building client + server bundles...\n✓ rendering pages...\nbuild complete in 3.21s.\n",
        ),
    ),
    (
        fact("a Ruby gem", r"\bRuby\b"),
        fact(
            "strategies live in lib/rate_limiter/strategies/",
            r"strateg",
            r"lib/rate_limiter/strategies",
            unsure=True,
        ),
    ),
    (
        never(
            r"^(?![^\n]*\bdocs\b)[^\n]*\b(?:package manager|npm)\b[^\n]*\b(?:project|repository)\b",
            "npm is the docs site's, not the gem's",
        ),
        never(
            r"\b(?:JavaScript|TypeScript)\b[^.\n]*\bproject\b|\bRuby and (?:JavaScript|TypeScript)\b",
            "the docs site's package.json is not the gem's language",
        ),
    ),
)

ELIXIR_CONVENTIONAL = Case(
    "elixir-phoenix-conventional",
    "Elixir",
    one_session(
        "/home/ines/work/shiftly",
        Ask("Add a weekly view to the schedule page. Commit each step."),
        Read(
            "mix.exs",
            'defmodule Shiftly.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :shiftly, version: "0.3.0", elixir: "~> 1.16", deps: deps()]\n  end\n\n  defp deps do\n    [{:phoenix, "~> 1.7.12"}, {:phoenix_live_view, "~> 0.20.14"}, {:ecto_sql, "~> 3.11"}, {:postgrex, ">= 0.0.0"}]\n  end\nend\n',
        ),
        Read(
            "lib/shiftly_web/live/schedule_live.ex",
            "defmodule ShiftlyWeb.ScheduleLive do\n  use ShiftlyWeb, :live_view\n\n  def mount(_params, _session, socket) do\n    {:ok, assign(socket, view: :day)}\n  end\nend\n",
        ),
        Edit(
            "lib/shiftly_web/live/schedule_live.ex",
            "    {:ok, assign(socket, view: :day)}",
            "    {:ok, assign(socket, view: :day, week: Date.beginning_of_week(Date.utc_today()))}",
        ),
        Run(
            "mix test",
            "Running ExUnit with seed: 4211, max_cases: 8\n\n..................................\nFinished in 0.9 seconds (0.3s async, 0.6s sync)\n34 tests, 0 failures\n",
        ),
        _commit("feat(schedule): add week assign to the schedule view", "7a8b9c0"),
        Edit(
            "lib/shiftly_web/live/schedule_live.html.heex",
            "<.day_grid",
            "<.week_grid :if={@view == :week} week={@week} />\n<.day_grid",
        ),
        _commit("feat(schedule): render the week grid", "8b9c0d1"),
        Edit(
            "test/shiftly_web/live/schedule_live_test.exs",
            '  test "day view"',
            '  test "week view", %{conn: conn} do\n  end\n\n  test "day view"',
        ),
        _commit("test(schedule): cover the week view", "9c0d1e2"),
    ),
    (
        fact("written in Elixir", r"\bElixir\b"),
        fact("conventional commits with a scope", r"conventional|`?(?:feat|test)\(schedule\)"),
    ),
)

PHP_LARAVEL_VITE = Case(
    "php-laravel-vite-assets",
    "PHP (Laravel)",
    one_session(
        "/var/www/invoicer",
        Ask("Invoices over 10k need a second approver. Add it."),
        Read(
            "composer.json",
            '{\n    "name": "acme/invoicer",\n    "type": "project",\n    "require": {\n        "php": "^8.2",\n        "laravel/framework": "^11.0"\n    },\n    "require-dev": { "phpunit/phpunit": "^11.0" }\n}\n',
        ),
        Read(
            "package.json",
            '{\n    "private": true,\n    "type": "module",\n    "scripts": { "dev": "vite", "build": "vite build" },\n    "devDependencies": { "laravel-vite-plugin": "^1.0", "vite": "^5.0", "tailwindcss": "^3.4" }\n}\n',
        ),
        Read(
            "app/Http/Controllers/InvoiceController.php",
            "<?php\n\nnamespace App\\Http\\Controllers;\n\nuse App\\Models\\Invoice;\n\nclass InvoiceController extends Controller\n{\n    public function approve(Invoice $invoice)\n    {\n        $invoice->approve(auth()->user());\n        return back();\n    }\n}\n",
        ),
        Edit(
            "app/Models/Invoice.php",
            "    public function approve(User $user): void\n    {",
            "    public function approve(User $user): void\n    {\n        if ($this->total > 10000 && $this->approvals()->count() < 1) {\n            $this->approvals()->create(['user_id' => $user->id]);\n            return;\n        }",
        ),
        Write(
            "database/migrations/2026_05_04_000000_create_approvals_table.php",
            "<?php\n\nuse Illuminate\\Database\\Migrations\\Migration;\n\nreturn new class extends Migration {\n    public function up(): void {}\n};\n",
        ),
        Run(
            "php artisan test",
            "\n   PASS  Tests\\Feature\\InvoiceApprovalTest\n  ✓ large invoice needs two approvers\n\n  Tests:    27 passed (61 assertions)\n  Duration: 1.84s\n",
        ),
        Edit(
            "resources/js/app.js",
            "import './bootstrap';",
            "import './bootstrap';\nimport './approvals';",
        ),
    ),
    (fact("a PHP (Laravel) application", r"\bPHP\b"),),
    (
        never(
            r"^(?![^\n]*\bPHP\b)[^\n]*\b(?:JavaScript|TypeScript)\b[^\n]*\bproject\b",
            "the front-end assets' package.json does not make it a JavaScript project",
        ),
    ),
)

LUA_NEOVIM_PLUGIN = Case(
    "lua-neovim-plugin",
    "Lua",
    one_session(
        "/home/sam/src/quickmark.nvim",
        Ask("Marks set in a closed buffer get lost. Persist them per file."),
        Read(
            "README.md",
            "# quickmark.nvim\n\nA Neovim plugin that keeps numbered marks per project and jumps between them with one key.\n\n## Install\n\n```lua\n{ 'sam/quickmark.nvim' }\n```\n",
        ),
        Read(
            "lua/quickmark/init.lua",
            "local M = {}\n\nlocal marks = {}\n\nfunction M.set(n)\n  marks[n] = { buf = vim.api.nvim_get_current_buf(), pos = vim.api.nvim_win_get_cursor(0) }\nend\n\nreturn M\n",
        ),
        Edit(
            "lua/quickmark/init.lua",
            "  marks[n] = { buf = vim.api.nvim_get_current_buf(), pos = vim.api.nvim_win_get_cursor(0) }",
            "  marks[n] = { file = vim.api.nvim_buf_get_name(0), pos = vim.api.nvim_win_get_cursor(0) }",
        ),
        Edit(
            "lua/quickmark/store.lua",
            "function M.load()",
            "function M.save(marks)\n  vim.fn.writefile({ vim.json.encode(marks) }, M.path())\nend\n\nfunction M.load()",
        ),
        Run(
            "busted tests/",
            "●●●●●●●●●\n9 successes / 0 failures / 0 errors / 0 pending : 0.021 seconds\n",
        ),
        Run("stylua --check lua/", ""),
    ),
    (
        fact("written in Lua", r"\bLua\b"),
        fact("a Neovim plugin", r"Neovim"),
    ),
)

KOTLIN_GRADLE = Case(
    "kotlin-android-gradle",
    "Kotlin (Android, Gradle)",
    one_session(
        "/Users/eva/AndroidStudioProjects/Pulse",
        Ask("Heart-rate samples are shown in the wrong timezone. Fix it."),
        Read("settings.gradle.kts", 'rootProject.name = "Pulse"\ninclude(":app", ":core:data")\n'),
        Read(
            "app/build.gradle.kts",
            'plugins {\n    id("com.android.application")\n    id("org.jetbrains.kotlin.android")\n}\n\nandroid {\n    namespace = "dev.eva.pulse"\n    compileSdk = 34\n}\n\ndependencies {\n    implementation(project(":core:data"))\n    testImplementation("junit:junit:4.13.2")\n}\n',
        ),
        Read(
            "core/data/src/main/kotlin/dev/eva/pulse/data/SampleMapper.kt",
            "package dev.eva.pulse.data\n\nimport java.time.ZoneOffset\n\nfun Sample.toUi(): UiSample = UiSample(at = time.atOffset(ZoneOffset.UTC).toLocalTime(), bpm = bpm)\n",
        ),
        Edit(
            "core/data/src/main/kotlin/dev/eva/pulse/data/SampleMapper.kt",
            "time.atOffset(ZoneOffset.UTC).toLocalTime()",
            "time.atZone(zone).toLocalTime()",
        ),
        Edit(
            "core/data/src/main/kotlin/dev/eva/pulse/data/SampleMapper.kt",
            "fun Sample.toUi(): UiSample",
            "fun Sample.toUi(zone: ZoneId = ZoneId.systemDefault()): UiSample",
        ),
        Run(
            "./gradlew :core:data:test",
            "> Task :core:data:compileKotlin\n> Task :core:data:test\n\nBUILD SUCCESSFUL in 21s\n14 actionable tasks: 5 executed, 9 up-to-date\n",
        ),
    ),
    (
        fact("written in Kotlin", r"\bKotlin\b"),
        fact("built with Gradle", r"Gradle"),
    ),
    (
        never(
            r"\bJava project\b|^Java\b",
            "the Kotlin code uses java.time; the project's language is Kotlin",
        ),
    ),
)

SCALA_SBT_DOCS = Case(
    "scala-sbt-docs-site",
    "Scala (sbt)",
    one_session(
        "/home/ola/oss/fs2-kafka-lite",
        Ask(
            "Consumers should commit offsets in batches. Add a batch size setting, and mention it on the website."
        ),
        Read(
            "build.sbt",
            'ThisBuild / scalaVersion := "3.3.3"\n\nlazy val core = project\n  .in(file("core"))\n  .settings(\n    name := "kafka-lite",\n    libraryDependencies ++= Seq(\n      "co.fs2" %% "fs2-core" % "3.10.2",\n      "org.scalameta" %% "munit" % "1.0.0" % Test\n    )\n  )\n',
        ),
        Read(
            "core/src/main/scala/kafkalite/ConsumerSettings.scala",
            "package kafkalite\n\nfinal case class ConsumerSettings(groupId: String, autoCommit: Boolean = false)\n",
        ),
        Edit(
            "core/src/main/scala/kafkalite/ConsumerSettings.scala",
            "autoCommit: Boolean = false)",
            "autoCommit: Boolean = false, commitBatchSize: Int = 500)",
        ),
        Edit(
            "core/src/main/scala/kafkalite/Consumer.scala",
            "    .evalMap(commit)",
            "    .chunkN(settings.commitBatchSize)\n    .evalMap(commitAll)",
        ),
        Run(
            "sbt core/test",
            "[info] welcome to sbt 1.10.0 (Eclipse Adoptium Java 21.0.3)\n[info] compiling 2 Scala sources to /home/ola/oss/fs2-kafka-lite/core/target/scala-3.3.3/classes ...\nkafkalite.ConsumerSuite:\n  + commits offsets in batches 0.21s\n[info] Passed: Total 12, Failed 0, Errors 0, Passed 12\n[success] Total time: 18 s\n",
        ),
        Read(
            "website/package.json",
            '{\n  "name": "website",\n  "private": true,\n  "scripts": { "start": "docusaurus start", "build": "docusaurus build" },\n  "dependencies": { "@docusaurus/core": "3.4.0", "react": "^18.2.0" }\n}\n',
        ),
        Edit(
            "website/docs/consumers.md",
            "## Offsets",
            "## Offsets\n\nSet `commitBatchSize` (default 500) to commit offsets in batches.",
        ),
        Run(
            "cd website && yarn build",
            '[INFO] [en] Creating an optimized production build...\n[SUCCESS] Generated static files in "build".\nDone in 24.31s.\n',
        ),
    ),
    (
        fact("written in Scala", r"\bScala\b"),
        fact("built with sbt", r"\bsbt\b", unsure=True),
    ),
    (
        never(
            r"^(?![^\n]*\b(?:website|docs?)\b)[^\n]*\b(?:yarn|npm)\b",
            "yarn is the website's, not the library's",
        ),
        never(
            r"\b(?:JavaScript|TypeScript)\b[^.\n]*\bproject\b",
            "the docs website is not the project's language",
        ),
    ),
)

JAVA_MAVEN = Case(
    "java-maven-service",
    "Java (Maven)",
    one_session(
        "/home/dev/payroll-api",
        Ask("Overtime is rounded down. It must be rounded half-up to the cent."),
        Read(
            "pom.xml",
            "<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.acme</groupId>\n  <artifactId>payroll-api</artifactId>\n  <version>2.3.0</version>\n  <properties>\n    <java.version>21</java.version>\n  </properties>\n  <parent>\n    <groupId>org.springframework.boot</groupId>\n    <artifactId>spring-boot-starter-parent</artifactId>\n    <version>3.3.0</version>\n  </parent>\n</project>\n",
        ),
        Read(
            "src/main/java/com/acme/payroll/Overtime.java",
            "package com.acme.payroll;\n\nimport java.math.BigDecimal;\nimport java.math.RoundingMode;\n\npublic final class Overtime {\n    public static BigDecimal pay(BigDecimal hours, BigDecimal rate) {\n        return hours.multiply(rate).setScale(2, RoundingMode.DOWN);\n    }\n}\n",
        ),
        Edit(
            "src/main/java/com/acme/payroll/Overtime.java",
            "RoundingMode.DOWN",
            "RoundingMode.HALF_UP",
        ),
        Edit(
            "src/test/java/com/acme/payroll/OvertimeTest.java",
            "    @Test\n    void paysOvertime() {",
            '    @Test\n    void roundsHalfUp() {\n        assertEquals(new BigDecimal("10.01"), Overtime.pay(new BigDecimal("0.5"), new BigDecimal("20.015")));\n    }\n\n    @Test\n    void paysOvertime() {',
        ),
        Run(
            "./mvnw -q test",
            "[INFO] Tests run: 38, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS\n",
        ),
    ),
    (
        fact("written in Java", r"\bJava\b"),
        fact("built with Maven", r"Maven|pom\.xml|mvnw"),
    ),
    (never(r"\bGradle\b", "the build is Maven's"),),
)

GO_DOCS_NPM = Case(
    "go-cli-docs-npm",
    "Go (with a docs site)",
    one_session(
        "/home/mia/src/tidy",
        Ask("Add a --dry-run flag to `tidy prune` and document it."),
        Read(
            "go.mod",
            "module github.com/mia/tidy\n\ngo 1.23\n\nrequire github.com/spf13/cobra v1.8.1\n",
        ),
        Read(
            "cmd/prune.go",
            'package cmd\n\nimport "github.com/spf13/cobra"\n\nvar pruneCmd = &cobra.Command{\n\tUse:   "prune",\n\tShort: "Remove stale branches",\n\tRunE:  runPrune,\n}\n',
        ),
        Edit(
            "cmd/prune.go",
            "\tRunE:  runPrune,\n}\n",
            '\tRunE:  runPrune,\n}\n\nfunc init() {\n\tpruneCmd.Flags().Bool("dry-run", false, "list what would be removed")\n}\n',
        ),
        Run(
            "go test ./...",
            "ok  \tgithub.com/mia/tidy/cmd\t0.118s\nok  \tgithub.com/mia/tidy/internal/git\t0.401s\n",
        ),
        Read(
            "site/package.json",
            '{\n  "name": "tidy-site",\n  "private": true,\n  "scripts": { "build": "astro build" },\n  "dependencies": { "astro": "^4.10.0" }\n}\n',
        ),
        Read(
            "site/src/content/docs/prune.mdx",
            "---\ntitle: tidy prune\n---\n\nRemoves branches merged into the default branch.\n",
        ),
        Edit(
            "site/src/content/docs/prune.mdx",
            "Removes branches merged into the default branch.",
            "Removes branches merged into the default branch. `--dry-run` lists them without removing any.",
        ),
        Run(
            "cd site && pnpm install && pnpm build",
            "Packages: +312\nDone in 6.1s\n12:01:33 [build] 14 page(s) built in 2.84s\n12:01:33 [build] Complete!\n",
        ),
        Edit(
            "site/src/components/Hero.astro",
            "<h1>tidy</h1>",
            "<h1>tidy — keep your branches clean</h1>",
        ),
        Edit(
            "site/src/components/Nav.ts",
            "export const links = [",
            "export const links = [\n  { href: '/prune', label: 'prune' },",
        ),
    ),
    (fact("written in Go", r"\bGo\b"),),
    (
        never(r"^(?![^\n]*\bsite\b)[^\n]*\bpnpm\b", "pnpm is the docs site's"),
        never(
            r"\b(?:JavaScript|TypeScript|Astro)\b[^.\n]*\bproject\b(?![^\n]*\bsite\b)",
            "the docs site's code is not the CLI's language",
        ),
    ),
)

RUST_STRAY_PYTHON_PLOT = Case(
    "rust-engine-plot-script",
    "Rust",
    one_session(
        "/home/jo/dev/raymarch",
        Ask("Frame times spike every few seconds. Profile and plot them."),
        Read(
            "Cargo.toml",
            '[package]\nname = "raymarch"\nversion = "0.2.0"\nedition = "2021"\n\n[dependencies]\nwgpu = "0.20"\nwinit = "0.30"\n',
        ),
        Read(
            "src/renderer.rs",
            "pub struct Renderer {\n    device: wgpu::Device,\n    queue: wgpu::Queue,\n}\n\nimpl Renderer {\n    pub fn frame(&mut self) {\n        let encoder = self.device.create_command_encoder(&Default::default());\n    }\n}\n",
        ),
        Run(
            "cargo run --release -- --dump-frame-times times.csv",
            "    Finished `release` profile [optimized] target(s) in 0.31s\n     Running `target/release/raymarch --dump-frame-times times.csv`\nwrote 1800 frame times to times.csv\n",
        ),
        Write(
            "/tmp/plot_times.py",
            "import csv\nimport matplotlib.pyplot as plt\n\nrows = [float(r[0]) for r in csv.reader(open('times.csv'))]\nplt.plot(rows)\nplt.savefig('times.png')\n",
        ),
        Run("python3 /tmp/plot_times.py", ""),
        Say(
            "The spikes come every 120 frames: the staging belt is recreated each time it fills. I will reuse it."
        ),
        Edit(
            "src/renderer.rs",
            "pub struct Renderer {\n    device: wgpu::Device,",
            "pub struct Renderer {\n    belt: wgpu::util::StagingBelt,\n    device: wgpu::Device,",
        ),
        Run("cargo test", _CARGO_OK.format(crate="raymarch", root="/home/jo/dev/raymarch")),
    ),
    (fact("written in Rust", r"\bRust\b"),),
    (never(r"\bPython\b", "a plotting script in /tmp is not the project's language"),),
)

CPP_MESON = Case(
    "cpp-meson-library",
    "C++ (Meson)",
    one_session(
        "/home/ute/src/libgeom",
        Ask("`polygon_area` is negative for clockwise polygons. It should be the absolute area."),
        Read(
            "meson.build",
            "project('libgeom', 'cpp', version : '1.1.0', default_options : ['cpp_std=c++20'])\n\ngeom = library('geom', 'src/polygon.cpp', 'src/point.cpp', install : true)\ntest('geom', executable('geom_test', 'tests/polygon_test.cpp', link_with : geom))\n",
        ),
        Read(
            "src/polygon.cpp",
            '#include "geom/polygon.hpp"\n\nnamespace geom {\n\ndouble polygon_area(const std::vector<Point>& pts) {\n    double sum = 0;\n    for (std::size_t i = 0; i < pts.size(); ++i) {\n        const auto& a = pts[i];\n        const auto& b = pts[(i + 1) % pts.size()];\n        sum += a.x * b.y - b.x * a.y;\n    }\n    return sum / 2;\n}\n\n}  // namespace geom\n',
        ),
        Edit("src/polygon.cpp", "    return sum / 2;", "    return std::abs(sum) / 2;"),
        Edit(
            "tests/polygon_test.cpp",
            "int main() {",
            "static void clockwise_is_positive() {\n    assert(geom::polygon_area({{0, 0}, {0, 1}, {1, 1}, {1, 0}}) == 1.0);\n}\n\nint main() {\n    clockwise_is_positive();",
        ),
        Run(
            "meson test -C build",
            "ninja: Entering directory `/home/ute/src/libgeom/build'\n[3/3] Linking target geom_test\n1/1 geom        OK              0.01s\n\nOk:                 1\nFail:               0\n",
        ),
    ),
    (fact("written in C++", r"C\+\+"),),
    (never(r"\bC project\b|^C\b(?!\+)", "the code is C++"),),
)

RUBY_IMPERATIVE_COMMITS = Case(
    "ruby-rails-plain-commits",
    "Ruby (Rails)",
    one_session(
        "/home/ben/apps/bookclub",
        Ask("Members can't see past meetings. Add an archive page, commit as you go."),
        Read(
            "Gemfile",
            'source "https://rubygems.org"\n\nruby "3.3.1"\n\ngem "rails", "~> 7.1.3"\ngem "pg", "~> 1.5"\ngem "puma", ">= 5.0"\n\ngroup :test do\n  gem "rspec-rails", "~> 6.1"\nend\n',
        ),
        Read(
            "app/controllers/meetings_controller.rb",
            "class MeetingsController < ApplicationController\n  def index\n    @meetings = Meeting.upcoming\n  end\nend\n",
        ),
        Edit(
            "app/controllers/meetings_controller.rb",
            "  def index\n    @meetings = Meeting.upcoming\n  end",
            "  def index\n    @meetings = Meeting.upcoming\n  end\n\n  def archive\n    @meetings = Meeting.past.order(held_on: :desc)\n  end",
        ),
        Edit(
            "config/routes.rb",
            "  resources :meetings",
            "  resources :meetings do\n    get :archive, on: :collection\n  end",
        ),
        _commit("Add an archive action for past meetings", "1a2b3c4"),
        Write(
            "app/views/meetings/archive.html.erb",
            "<h1>Past meetings</h1>\n<%= render @meetings %>\n",
        ),
        _commit("Add the archive view", "2b3c4d5"),
        Edit(
            "spec/requests/meetings_spec.rb",
            '  describe "GET /meetings" do',
            '  describe "GET /meetings/archive" do\n    it "lists past meetings" do\n    end\n  end\n\n  describe "GET /meetings" do',
        ),
        Run(
            "bundle exec rspec",
            "..........\n\nFinished in 1.2 seconds (files took 2.1 seconds to load)\n10 examples, 0 failures\n",
        ),
        _commit("Cover the archive page with a request spec", "3c4d5e6"),
        Edit(
            "app/views/layouts/_nav.html.erb",
            '<%= link_to "Meetings", meetings_path %>',
            '<%= link_to "Meetings", meetings_path %>\n<%= link_to "Archive", archive_meetings_path %>',
        ),
        _commit("Link the archive from the navigation", "4d5e6f7"),
    ),
    (
        fact("written in Ruby", r"\bRuby\b"),
        fact("plain imperative commit subjects", r"imperative|no (?:type )?prefix", unsure=True),
    ),
    (never(r"conventional commits?|`(?:feat|fix)[:(]", "the subjects carry no type prefix"),),
)

THIN_INFRA_ONLY = Case(
    "thin-dockerfile-only",
    "unknown (only a Dockerfile and a Makefile are seen)",
    one_session(
        "/home/kai/src/relay",
        Ask("The container image is 1.2 GB. Make it smaller."),
        Read(
            "Dockerfile",
            'FROM debian:bookworm\nRUN apt-get update && apt-get install -y build-essential curl\nCOPY . /app\nWORKDIR /app\nRUN make release\nCMD ["/app/bin/relay"]\n',
        ),
        Read("Makefile", "release:\n\t./build.sh --release\n\nclean:\n\trm -rf bin/\n"),
        Edit(
            "Dockerfile",
            'FROM debian:bookworm\nRUN apt-get update && apt-get install -y build-essential curl\nCOPY . /app\nWORKDIR /app\nRUN make release\nCMD ["/app/bin/relay"]\n',
            'FROM debian:bookworm AS build\nRUN apt-get update && apt-get install -y build-essential curl\nCOPY . /app\nWORKDIR /app\nRUN make release\n\nFROM debian:bookworm-slim\nCOPY --from=build /app/bin/relay /usr/local/bin/relay\nCMD ["relay"]\n',
        ),
        Run(
            "docker build -t relay:slim .",
            "#12 exporting to image\n#12 naming to docker.io/library/relay:slim done\n",
        ),
        Run(
            "docker images relay",
            "REPOSITORY   TAG    IMAGE ID       CREATED          SIZE\nrelay        slim   3f1c2a9b8d7e   10 seconds ago   94.2MB\n",
        ),
    ),
    (fact("the image is built in two stages", r"Docker|image", unsure=True),),
    (
        never(
            r"\b(?:C|C\+\+|Go|Rust|Python|Zig|Shell|Bash)\b[^.\n]*\bproject\b|\bwritten in\b",
            "nothing seen says what language the relay is written in",
        ),
    ),
)

PHP_WORDPRESS_PLUGIN = Case(
    "php-wordpress-plugin",
    "PHP (WordPress plugin)",
    one_session(
        "/home/rosa/wp/wp-content/plugins/shipping-notes",
        Ask("Store the shipping note in order meta instead of post meta, HPOS needs it."),
        Read(
            "shipping-notes.php",
            "<?php\n/**\n * Plugin Name: Shipping Notes\n * Description: Lets shoppers leave a note for the courier at checkout.\n * Version: 1.6.2\n * Requires PHP: 8.0\n */\n\nrequire __DIR__ . '/includes/class-notes.php';\n",
        ),
        Read(
            "composer.json",
            '{\n  "name": "rosa/shipping-notes",\n  "require-dev": { "squizlabs/php_codesniffer": "^3.9", "wp-coding-standards/wpcs": "^3.1" },\n  "scripts": { "lint": "phpcs" }\n}\n',
        ),
        Read(
            "includes/class-notes.php",
            "<?php\n\nclass Shipping_Notes {\n    public function save( $order_id ) {\n        update_post_meta( $order_id, '_shipping_note', sanitize_text_field( $_POST['shipping_note'] ?? '' ) );\n    }\n}\n",
        ),
        Edit(
            "includes/class-notes.php",
            "        update_post_meta( $order_id, '_shipping_note', sanitize_text_field( $_POST['shipping_note'] ?? '' ) );",
            "        $order = wc_get_order( $order_id );\n        $order->update_meta_data( '_shipping_note', sanitize_text_field( $_POST['shipping_note'] ?? '' ) );\n        $order->save();",
        ),
        Run("composer lint", "> phpcs\n\nTime: 412ms; Memory: 10MB\n"),
        Edit(
            "assets/js/checkout.js",
            "jQuery(function ($) {",
            "jQuery(function ($) {\n  $('#shipping_note').attr('maxlength', 200);",
        ),
    ),
    (
        fact("written in PHP", r"\bPHP\b"),
        fact(
            "a WordPress plugin for a courier note at checkout",
            r"WordPress|courier|shipping note|checkout",
            unsure=True,
        ),
    ),
    (
        never(
            r"\bJavaScript\b[^.\n]*\bproject\b", "one checkout script is not the plugin's language"
        ),
    ),
)

SWIFT_NODE_HOOKS = Case(
    "swift-app-commit-hooks-package-json",
    "Swift (root package.json only for commit hooks)",
    one_session(
        "/Users/noor/dev/Tally",
        Ask("The total is wrong when an item is removed from the basket. Fix it."),
        Read(
            "package.json",
            '{\n  "private": true,\n  "scripts": { "prepare": "husky" },\n  "devDependencies": { "@commitlint/cli": "^19.3.0", "@commitlint/config-conventional": "^19.2.2", "husky": "^9.0.11" }\n}\n',
        ),
        Read(
            "Tally/Basket/BasketModel.swift",
            "import Foundation\n\n@Observable\nfinal class BasketModel {\n    var items: [Item] = []\n    private(set) var total: Decimal = 0\n\n    func remove(_ item: Item) {\n        items.removeAll { $0.id == item.id }\n    }\n}\n",
        ),
        Edit(
            "Tally/Basket/BasketModel.swift",
            "        items.removeAll { $0.id == item.id }\n",
            "        items.removeAll { $0.id == item.id }\n        total = items.reduce(0) { $0 + $1.price }\n",
        ),
        Edit(
            "TallyTests/BasketModelTests.swift",
            "    func testAdd() {",
            "    func testRemoveUpdatesTotal() {\n        let model = BasketModel()\n        XCTAssertEqual(model.total, 0)\n    }\n\n    func testAdd() {",
        ),
        Run(
            "xcodebuild test -scheme Tally -destination 'platform=iOS Simulator,name=iPhone 15' -quiet",
            "Test Suite 'All tests' passed at 2026-05-04 11:02:10.120.\n\t Executed 27 tests, with 0 failures (0 unexpected) in 1.208 (1.305) seconds\n",
        ),
        Run(
            'git commit -am "fix(basket): update the total when an item is removed"',
            "[main 5a6b7c8] fix(basket): update the total when an item is removed\n 2 files changed, 8 insertions(+)\n",
        ),
    ),
    (fact("written in Swift", r"\bSwift\b"),),
    (
        never(
            r"\b(?:JavaScript|TypeScript)\b[^.\n]*\bproject\b",
            "the root package.json only installs commit hooks",
        ),
        never(
            r"\bnpm\b[^\n]*\bpackage manager\b|\bpackage manager\b[^\n]*\bnpm\b",
            "no npm package is built here",
        ),
    ),
)

RUST_MIXED_COMMITS = Case(
    "rust-mixed-commit-styles",
    "Rust (commit subjects of mixed styles)",
    one_session(
        "/home/lea/src/tomlfmt",
        Ask("Keep comments above array items when formatting. Commit in small steps."),
        Read(
            "Cargo.toml",
            '[package]\nname = "tomlfmt"\nversion = "0.7.0"\nedition = "2021"\n\n[dependencies]\ntoml_edit = "0.22"\n',
        ),
        Edit(
            "src/array.rs",
            "fn format_item(item: &Item) -> String {",
            "fn format_item(item: &Item, comments: &[String]) -> String {",
        ),
        _commit("fix: keep comments above array items", "0a1b2c3"),
        Edit(
            "src/array.rs",
            "    let mut out = String::new();",
            '    let mut out = comments.join("\\n");',
        ),
        _commit("Handle trailing comments too", "1b2c3d4"),
        Edit(
            "tests/arrays.rs",
            "#[test]\nfn sorts_items()",
            "#[test]\nfn keeps_comments() {}\n\n#[test]\nfn sorts_items()",
        ),
        Run("cargo test", _CARGO_OK.format(crate="tomlfmt", root="/home/lea/src/tomlfmt")),
        _commit("Add a test for comments", "2c3d4e5"),
        _commit("chore: bump version to 0.7.1", "3d4e5f6"),
    ),
    (fact("written in Rust", r"\bRust\b"),),
    (
        never(
            r"conventional commits?|Commit subjects (?:follow|use|start|are)",
            "two of four subjects have a type prefix: no style holds",
        ),
    ),
)

GO_PROVIDER_FOLDER = Case(
    "go-providers-folder",
    "Go (where a kind of code lives)",
    one_session(
        "/home/ama/src/dnsync",
        Ask("Add a Hetzner DNS provider like the others."),
        Read("go.mod", "module github.com/ama/dnsync\n\ngo 1.22\n"),
        Run(
            "ls internal/providers",
            "cloudflare.go\ncloudflare_test.go\ndigitalocean.go\ndigitalocean_test.go\nprovider.go\nroute53.go\nroute53_test.go\n",
        ),
        Read(
            "internal/providers/provider.go",
            "package providers\n\n// Provider is one DNS host dnsync can sync records to.\ntype Provider interface {\n\tName() string\n\tList(ctx context.Context, zone string) ([]Record, error)\n\tApply(ctx context.Context, zone string, changes []Change) error\n}\n\nvar registry = map[string]func(Config) (Provider, error){}\n\nfunc register(name string, f func(Config) (Provider, error)) { registry[name] = f }\n",
        ),
        Read(
            "internal/providers/cloudflare.go",
            'package providers\n\nfunc init() { register("cloudflare", newCloudflare) }\n\ntype cloudflare struct{ token string }\n\nfunc (c *cloudflare) Name() string { return "cloudflare" }\n',
        ),
        Write(
            "internal/providers/hetzner.go",
            'package providers\n\nfunc init() { register("hetzner", newHetzner) }\n\ntype hetzner struct{ token string }\n\nfunc newHetzner(cfg Config) (Provider, error) { return &hetzner{token: cfg.Token}, nil }\n\nfunc (h *hetzner) Name() string { return "hetzner" }\n',
        ),
        Write(
            "internal/providers/hetzner_test.go",
            'package providers\n\nimport "testing"\n\nfunc TestHetznerName(t *testing.T) {}\n',
        ),
        Run(
            "go test ./internal/providers/",
            "ok  \tgithub.com/ama/dnsync/internal/providers\t0.051s\n",
        ),
        Say(
            "Each provider is one file in `internal/providers/` that registers itself in `init()` with `register(name, constructor)` and implements the `Provider` interface; I added `hetzner.go` the same way, with its test."
        ),
    ),
    (
        fact("written in Go", r"\bGo\b"),
        fact(
            "each provider is a file in internal/providers/ that registers itself",
            r"internal/providers",
            r"provider",
            unsure=True,
        ),
    ),
)

ZIG_VENDORED_C = Case(
    "zig-app-vendored-sqlite",
    "Zig (with a vendored C library)",
    one_session(
        "/home/vic/src/notedb",
        Ask("Opening a database twice crashes. Fix it."),
        Read(
            "build.zig",
            'const std = @import("std");\n\npub fn build(b: *std.Build) void {\n    const exe = b.addExecutable(.{ .name = "notedb", .root_source_file = b.path("src/main.zig"), .target = b.standardTargetOptions(.{}) });\n    exe.addCSourceFile(.{ .file = b.path("vendor/sqlite/sqlite3.c"), .flags = &.{"-DSQLITE_THREADSAFE=0"} });\n    exe.addIncludePath(b.path("vendor/sqlite"));\n    exe.linkLibC();\n    b.installArtifact(exe);\n}\n',
        ),
        Read(
            "src/db.zig",
            'const c = @cImport(@cInclude("sqlite3.h"));\n\npub const Db = struct {\n    handle: ?*c.sqlite3 = null,\n\n    pub fn open(self: *Db, path: [*:0]const u8) !void {\n        _ = c.sqlite3_open(path, &self.handle);\n    }\n};\n',
        ),
        Edit(
            "src/db.zig",
            "    pub fn open(self: *Db, path: [*:0]const u8) !void {\n",
            "    pub fn open(self: *Db, path: [*:0]const u8) !void {\n        if (self.handle != null) return error.AlreadyOpen;\n",
        ),
        Read(
            "vendor/sqlite/sqlite3.h",
            "/*\n** 2001-09-15\n**\n** The author disclaims copyright to this source code.\n*/\n#ifndef SQLITE3_H\n#define SQLITE3_H\n",
        ),
        Read(
            "vendor/sqlite/sqlite3.c",
            "/******************************************************************************\n** This file is an amalgamation of many separate C source files from SQLite\n** version 3.46.0.\n*/\n",
        ),
        Run("zig build test", ""),
        Edit(
            "src/main.zig",
            "    try db.open(path);",
            "    db.open(path) catch |err| switch (err) {\n        error.AlreadyOpen => {},\n        else => return err,\n    };",
        ),
    ),
    (fact("written in Zig", r"\bZig\b"),),
    (
        never(
            r"\bZig and C\b|\bC and Zig\b|^C\b[^.\n]*\bproject\b",
            "the C is a vendored SQLite amalgamation",
        ),
    ),
)

JAVA_KOTLIN_DSL = Case(
    "java-gradle-inventory",
    "Java (Gradle with Kotlin DSL build scripts)",
    one_session(
        "/home/ivo/src/inventory",
        Ask("Stock counts go negative on concurrent orders. Guard the decrement."),
        Read("settings.gradle.kts", 'rootProject.name = "inventory"\n'),
        Read(
            "build.gradle.kts",
            'plugins {\n    java\n    id("org.springframework.boot") version "3.3.1"\n}\n\njava {\n    toolchain { languageVersion = JavaLanguageVersion.of(21) }\n}\n\ndependencies {\n    implementation("org.springframework.boot:spring-boot-starter-data-jpa")\n    testImplementation("org.springframework.boot:spring-boot-starter-test")\n}\n',
        ),
        Read(
            "src/main/java/com/ivo/inventory/StockService.java",
            "package com.ivo.inventory;\n\n@Service\npublic class StockService {\n    public void reserve(long sku, int qty) {\n        Stock s = repo.findById(sku).orElseThrow();\n        s.setCount(s.getCount() - qty);\n    }\n}\n",
        ),
        Edit(
            "src/main/java/com/ivo/inventory/StockService.java",
            "        Stock s = repo.findById(sku).orElseThrow();\n        s.setCount(s.getCount() - qty);",
            "        int updated = repo.decrement(sku, qty);\n        if (updated == 0) throw new OutOfStockException(sku);",
        ),
        Edit(
            "src/main/java/com/ivo/inventory/StockRepository.java",
            "interface StockRepository extends JpaRepository<Stock, Long> {",
            'interface StockRepository extends JpaRepository<Stock, Long> {\n    @Modifying\n    @Query("update Stock s set s.count = s.count - :qty where s.sku = :sku and s.count >= :qty")\n    int decrement(long sku, int qty);',
        ),
        Run(
            "./gradlew test",
            "> Task :compileJava\n> Task :test\n\nBUILD SUCCESSFUL in 34s\n4 actionable tasks: 4 executed\n",
        ),
    ),
    (
        fact("written in Java", r"\bJava\b"),
        fact("built with Gradle", r"Gradle", unsure=True),
    ),
    (never(r"\bKotlin\b", "the Kotlin files are build scripts; the code is Java"),),
)

GO_PROTO_GENERATE = Case(
    "go-grpc-buf-generate",
    "Go (generated gRPC code)",
    one_session(
        "/home/sol/src/orders",
        Ask("Add a cancel reason to CancelOrder."),
        Read(
            "go.mod",
            "module github.com/sol/orders\n\ngo 1.22\n\nrequire google.golang.org/grpc v1.64.0\n",
        ),
        Read(
            "buf.gen.yaml",
            "version: v2\nplugins:\n  - remote: buf.build/protocolbuffers/go\n    out: gen/go\n    opt: paths=source_relative\n  - remote: buf.build/grpc/go\n    out: gen/go\n    opt: paths=source_relative\n",
        ),
        Edit(
            "proto/orders/v1/orders.proto",
            "message CancelOrderRequest {\n  string order_id = 1;\n}",
            "message CancelOrderRequest {\n  string order_id = 1;\n  string reason = 2;\n}",
        ),
        Run("buf generate", ""),
        Run(
            "git status --short",
            " M gen/go/orders/v1/orders.pb.go\n M proto/orders/v1/orders.proto\n",
        ),
        Edit(
            "internal/server/cancel.go",
            "\tif err := s.store.Cancel(ctx, req.GetOrderId()); err != nil {",
            "\tif err := s.store.Cancel(ctx, req.GetOrderId(), req.GetReason()); err != nil {",
        ),
        Run(
            "go test ./...",
            "ok  \tgithub.com/sol/orders/internal/server\t0.310s\nok  \tgithub.com/sol/orders/internal/store\t0.122s\n",
        ),
        Say(
            "`buf generate` regenerates `gen/go/` from `proto/` after a `.proto` change; the generated file is committed beside the change."
        ),
    ),
    (
        fact("written in Go", r"\bGo\b"),
        fact(
            "regenerate the gRPC code with buf generate after a proto change",
            r"buf generate",
            unsure=True,
        ),
    ),
)

ELIXIR_THIN_ONE_FILE = Case(
    "elixir-one-file-thin",
    "Elixir (one file seen once)",
    one_session(
        "/home/uma/src/notify",
        Ask("Typo in the welcome email subject: 'Welcom'. Fix it."),
        Run(
            "grep -rn Welcom lib/",
            'lib/notify/emails/welcome.ex:8:    |> subject("Welcom to Notify")\n',
        ),
        Edit(
            "lib/notify/emails/welcome.ex",
            '    |> subject("Welcom to Notify")',
            '    |> subject("Welcome to Notify")',
        ),
        Say("Fixed the subject in lib/notify/emails/welcome.ex."),
    ),
    (fact("Elixir", r"\bElixir\b", unsure=True),),
    (
        never(
            r"\b(?:Ruby|Erlang|Phoenix|Python)\b", "nothing shows any other language or a framework"
        ),
    ),
)

KOTLIN_SERVER_KTOR = Case(
    "kotlin-ktor-readme",
    "Kotlin (Ktor server, README)",
    one_session(
        "/home/fin/src/shortlink",
        Ask("Read the README and the routes, then add a QR code endpoint."),
        Read(
            "README.md",
            "# shortlink\n\nA self-hosted URL shortener with per-link click statistics, built on Ktor.\n\n## Develop\n\n    ./gradlew run\n",
        ),
        Read(
            "build.gradle.kts",
            'plugins {\n    kotlin("jvm") version "2.0.0"\n    id("io.ktor.plugin") version "2.3.11"\n}\n\ndependencies {\n    implementation("io.ktor:ktor-server-netty")\n    implementation("org.jetbrains.exposed:exposed-jdbc:0.51.1")\n    implementation("org.xerial:sqlite-jdbc:3.46.0.0")\n    testImplementation("io.ktor:ktor-server-test-host")\n}\n',
        ),
        Read(
            "src/main/kotlin/Routes.kt",
            'fun Application.routes() {\n    routing {\n        get("/{code}") { redirect(call) }\n        get("/{code}/stats") { stats(call) }\n    }\n}\n',
        ),
        Edit(
            "src/main/kotlin/Routes.kt",
            '        get("/{code}/stats") { stats(call) }',
            '        get("/{code}/stats") { stats(call) }\n        get("/{code}/qr") { qr(call) }',
        ),
        Run("./gradlew test", "> Task :test\n\nBUILD SUCCESSFUL in 19s\n"),
    ),
    (
        fact("written in Kotlin", r"\bKotlin\b"),
        fact("a self-hosted URL shortener", r"shortener"),
    ),
    (never(r"\bJava\b[^.\n]*\bproject\b", "the project's code is Kotlin"),),
)

CASES = (
    RUST_OPTION_CODE,
    GO_SERVICE_README,
    C_VENDORED_LUA,
    ZIG_STRAY_PYTHON,
    SWIFT_FASTLANE_GEMFILE,
    RUBY_GEM_DOCS_SITE,
    ELIXIR_CONVENTIONAL,
    PHP_LARAVEL_VITE,
    LUA_NEOVIM_PLUGIN,
    KOTLIN_GRADLE,
    SCALA_SBT_DOCS,
    JAVA_MAVEN,
    GO_DOCS_NPM,
    RUST_STRAY_PYTHON_PLOT,
    CPP_MESON,
    RUBY_IMPERATIVE_COMMITS,
    THIN_INFRA_ONLY,
    PHP_WORDPRESS_PLUGIN,
    SWIFT_NODE_HOOKS,
    RUST_MIXED_COMMITS,
    GO_PROVIDER_FOLDER,
    ZIG_VENDORED_C,
    JAVA_KOTLIN_DSL,
    GO_PROTO_GENERATE,
    ELIXIR_THIN_ONE_FILE,
    KOTLIN_SERVER_KTOR,
)
