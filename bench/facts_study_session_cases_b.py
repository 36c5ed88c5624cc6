# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""The facts study's second session set: the licence a project is published under, from
made-up sessions in several ecosystems. The licence shows where the session read it: a root
manifest's licence field (`Cargo.toml`, `package.json`, `pyproject.toml`, `mix.exs`, a
gemspec, a `.csproj`), the root `LICENSE` file read from its first line, or one the session
wrote; a package's own manifest inside the project says that package's licence. Half the cases
are traps where nothing may be said, or not that: a dependency's manifest, a vendored library's
`LICENSE`, a docs sub-site's or a test fixture's package, a `LICENSE` only listed, a manifest
of another repository, `UNLICENSED` (which is not the Unlicense), a licence field inherited from
the workspace, the assistant's guess, a licence file the user had removed, a field the session
changed to another licence. A later batch (written after the first rule, before the rule for
it) reads a root README's licence section, with its traps: two licences for two parts, a
dependency's licence, a licence not yet chosen, a sub-package's README, a README and a manifest
that disagree. Every case, its facts and its `never` patterns included, was
written before any rule ran on it (`python -m bench.facts_study_sessions --set b`)."""

from __future__ import annotations

from bench.facts_study_session_cases import Case, fact, never
from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Write, one_session

_MIT_TEXT = 'MIT License\n\nCopyright (c) 2026 {who}\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\nof this software and associated documentation files (the "Software"), to deal\nin the Software without restriction, including without limitation the rights\nto use, copy, modify, merge, publish, distribute, sublicense, and/or sell\ncopies of the Software, and to permit persons to whom the Software is\nfurnished to do so, subject to the following conditions:\n\nThe above copyright notice and this permission notice shall be included in all\ncopies or substantial portions of the Software.\n'

_APACHE_TEXT = '\n                                 Apache License\n                           Version 2.0, January 2004\n                        http://www.apache.org/licenses/\n\n   TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION\n\n   1. Definitions.\n\n      "License" shall mean the terms and conditions for use, reproduction,\n      and distribution as defined by Sections 1 through 9 of this document.\n'

_GPL3_TEXT = "                    GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007\n\n Copyright (C) 2007 Free Software Foundation, Inc. <https://fsf.org/>\n Everyone is permitted to copy and distribute verbatim copies\n of this license document, but changing it is not allowed.\n"

RUST_ROOT_CARGO = Case(
    "licence-rust-root-cargo",
    "Rust",
    one_session(
        "/home/ana/src/tidewatch",
        Ask("Bump the clap dependency to 4.5 and make sure it still builds."),
        Read(
            "Cargo.toml",
            '[package]\nname = "tidewatch"\nversion = "0.7.2"\nedition = "2021"\ndescription = "Tide tables in the terminal"\nlicense = "MIT OR Apache-2.0"\nrepository = "https://example.org/ana/tidewatch"\n\n[dependencies]\nclap = { version = "4.4", features = ["derive"] }\nserde = "1"\n',
        ),
        Edit("Cargo.toml", 'clap = { version = "4.4"', 'clap = { version = "4.5"'),
        Run(
            "cargo build",
            "   Compiling clap v4.5.4\n   Compiling tidewatch v0.7.2 (/home/ana/src/tidewatch)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 9.12s\n",
        ),
        Say("clap is now 4.5 and the build passes."),
    ),
    (fact("dual-licensed MIT or Apache-2.0", r"\bMIT\b", r"Apache-2\.0"),),
    (never(r"\bGPL|\bBSD\b|\bISC\b", "no other licence is named"),),
)

NODE_ROOT_PACKAGE = Case(
    "licence-node-root-package",
    "JavaScript",
    one_session(
        "/Users/kim/work/slugline",
        Ask("Why does `npm test` fail on the unicode test?"),
        Read(
            "package.json",
            '{\n  "name": "slugline",\n  "version": "2.3.0",\n  "description": "URL slugs from any script",\n  "main": "index.js",\n  "license": "ISC",\n  "scripts": {\n    "test": "node --test"\n  }\n}\n',
        ),
        Run(
            "npm test",
            "> slugline@2.3.0 test\n> node --test\n\nnot ok 3 - transliterates Cyrillic\n# tests 12\n# pass 11\n# fail 1\n",
            1,
        ),
        Say("The Cyrillic table is missing `щ`; that is the failing case."),
    ),
    (fact("ISC licence", r"\bISC\b"),),
    (never(r"\bMIT\b|Apache|\bGPL", "no other licence is named"),),
)

PYTHON_PYPROJECT_TABLE = Case(
    "licence-python-pyproject-table",
    "Python",
    one_session(
        "/home/li/src/quietly",
        Ask("Add a --dry-run flag to the cleanup command."),
        Read(
            "pyproject.toml",
            '[project]\nname = "quietly"\nversion = "1.4.0"\ndescription = "Prune stale cache folders"\nreadme = "README.md"\nrequires-python = ">=3.10"\nlicense = { text = "BSD-3-Clause" }\ndependencies = ["click>=8"]\n\n[project.scripts]\nquietly = "quietly.cli:main"\n',
        ),
        Edit(
            "src/quietly/cli.py",
            "@click.command()\ndef cleanup(path):",
            '@click.command()\n@click.option("--dry-run", is_flag=True)\ndef cleanup(path, dry_run):',
        ),
        Run("uv run pytest -q", "........\n8 passed in 0.31s\n"),
        Say("`quietly cleanup --dry-run` now lists what it would remove."),
    ),
    (fact("BSD-3-Clause licence", r"BSD-3-Clause"),),
    (never(r"\bMIT\b|Apache|\bGPL", "no other licence is named"),),
)

GO_LICENSE_FILE = Case(
    "licence-go-license-file",
    "Go",
    one_session(
        "/home/ravi/code/shardmap",
        Ask("Which licence is this under? A user asked in an issue."),
        Run("cat LICENSE", _APACHE_TEXT),
        Read(
            "go.mod",
            "module example.org/ravi/shardmap\n\ngo 1.22\n\nrequire golang.org/x/sync v0.7.0\n",
        ),
        Say("It is under the Apache License 2.0: the root `LICENSE` is the Apache 2.0 text."),
        host="codex",
    ),
    (fact("Apache-2.0 licence", r"Apache"),),
    (never(r"\bMIT\b|\bGPL|\bBSD\b", "no other licence is named"),),
)

ELIXIR_MIX_LICENSES = Case(
    "licence-elixir-mix",
    "Elixir",
    one_session(
        "/home/joa/src/plume",
        Ask("Prepare the package metadata for publishing to Hex."),
        Read(
            "mix.exs",
            'defmodule Plume.MixProject do\n  use Mix.Project\n\n  def project do\n    [\n      app: :plume,\n      version: "0.3.1",\n      elixir: "~> 1.16",\n      description: "Feather-light feature flags",\n      package: package(),\n      deps: deps()\n    ]\n  end\n\n  defp package do\n    [\n      licenses: ["Apache-2.0"],\n      links: %{"Source" => "https://example.org/joa/plume"}\n    ]\n  end\n\n  defp deps do\n    [{:ex_doc, "~> 0.31", only: :dev, runtime: false}]\n  end\nend\n',
        ),
        Run(
            "mix hex.build",
            "Building plume 0.3.1\n  App: plume\n  Name: plume\n  Files:\n    lib\n    mix.exs\n  Version: 0.3.1\n  Build tools: mix\n  Description: Feather-light feature flags\n  Licenses: Apache-2.0\n  Links:\n    Source: https://example.org/joa/plume\n  Elixir: ~> 1.16\nSaved to plume-0.3.1.tar\n",
        ),
        Say("The package builds; metadata is complete."),
        host="codex",
    ),
    (fact("Apache-2.0 licence", r"Apache-2\.0"),),
    (never(r"\bMIT\b|\bGPL|\bBSD\b", "no other licence is named"),),
)

WRITTEN_MIT = Case(
    "licence-written-mit",
    "Markdown",
    one_session(
        "/Users/sam/skills/inbox-digest",
        Ask("Publish this skill as a public repo under the MIT licence."),
        Write("LICENSE", _MIT_TEXT.format(who="Sam Rowe")),
        Run("git add LICENSE SKILL.md README.md", ""),
        Run(
            'git commit -m "Initial public release"',
            "[main (root-commit) 4e1a2b3] Initial public release\n 3 files changed, 140 insertions(+)\n create mode 100644 LICENSE\n",
        ),
        Say("Added an MIT `LICENSE` and committed the skill."),
    ),
    (fact("MIT licence", r"\bMIT\b"),),
    (never(r"Apache|\bGPL|\bBSD\b", "no other licence is named"),),
)

RUST_WORKSPACE_CRATE = Case(
    "licence-rust-workspace-crate",
    "Rust",
    one_session(
        "/home/ana/src/lumen",
        Ask("bump lumen-codec in crates/codec by a patch release"),
        Read(
            "crates/codec/Cargo.toml",
            '[package]\nname = "lumen-codec"\nversion = "0.9.0"\nedition = { workspace = true }\ndescription = "Frame codec for lumen"\nlicense = "Apache-2.0"\n\n[dependencies]\nbytes = "1"\n',
        ),
        Edit("crates/codec/Cargo.toml", 'version = "0.9.0"', 'version = "0.9.1"'),
        Say("Bumped `lumen-codec` from 0.9.0 to 0.9.1."),
    ),
    (fact("the crate's licence, Apache-2.0", r"lumen-codec", r"Apache-2\.0"),),
    (never(r"\bMIT\b|\bGPL|\bBSD\b", "no other licence is named"),),
)

RUBY_GEMSPEC = Case(
    "licence-ruby-gemspec",
    "Ruby",
    one_session(
        "/home/nia/code/tallyho",
        Ask("Why does `gem build` warn about the metadata?"),
        Read(
            "tallyho.gemspec",
            'Gem::Specification.new do |spec|\n  spec.name          = "tallyho"\n  spec.version       = Tallyho::VERSION\n  spec.authors       = ["Nia Park"]\n  spec.summary       = "Counters for Rack apps"\n  spec.license       = "MIT"\n  spec.files         = Dir["lib/**/*.rb"]\n  spec.required_ruby_version = ">= 3.1"\nend\n',
        ),
        Run(
            "gem build tallyho.gemspec",
            "WARNING:  no homepage specified\n  Successfully built RubyGem\n  Name: tallyho\n  Version: 0.5.0\n  File: tallyho-0.5.0.gem\n",
        ),
        Say("Only a missing homepage; the gem builds."),
    ),
    (fact("MIT licence", r"\bMIT\b"),),
    (never(r"Apache|\bGPL|\bBSD\b", "no other licence is named"),),
)

# --- traps: nothing, or not that, may be said ---

NODE_DEPENDENCY_MANIFEST = Case(
    "licence-trap-node-dependency",
    "JavaScript",
    one_session(
        "/Users/kim/work/paperboy",
        Ask("Is the left-pad we bundle safe to ship?"),
        Read(
            "node_modules/left-pad/package.json",
            '{\n  "name": "left-pad",\n  "version": "1.3.0",\n  "license": "WTFPL",\n  "main": "index.js"\n}\n',
        ),
        Say("left-pad 1.3.0 is tiny and has no dependencies; it is fine to ship."),
    ),
    (),
    (never(r"WTFPL", "the licence of a dependency, not the project's"),),
)

C_VENDORED_LICENSE = Case(
    "licence-trap-vendored-library",
    "C",
    one_session(
        "/home/ole/src/brightd",
        Ask("Which version of inih do we vendor?"),
        Read("vendor/inih/LICENSE.txt", _MIT_TEXT.format(who="Ben Hoyt")),
        Read(
            "vendor/inih/ini.h",
            "/* inih -- simple .INI file parser\n\nSPDX-License-Identifier: BSD-3-Clause\n*/\n\n#ifndef INI_H\n#define INI_H\n",
        ),
        Say("The vendored inih is r58."),
    ),
    (),
    (never(r"\bMIT\b|BSD", "the licence of a vendored library, not the project's"),),
)

DOCS_SITE_PACKAGE = Case(
    "licence-trap-docs-site-package",
    "Go",
    one_session(
        "/home/ravi/code/hopper",
        Ask("The docs site build fails on the new page; fix it."),
        Read(
            "docs/package.json",
            '{\n  "name": "hopper-docs",\n  "private": true,\n  "license": "CC-BY-4.0",\n  "scripts": {\n    "build": "docusaurus build"\n  }\n}\n',
        ),
        Run("cd docs && npm run build", "[SUCCESS] Generated static files in build.\n"),
        Say("Fixed the broken link; the docs site builds."),
    ),
    (),
    (never(r"CC-BY", "the licence of the docs site's package, not the project's"),),
)

FIXTURE_PACKAGE = Case(
    "licence-trap-test-fixture",
    "Rust",
    one_session(
        "/home/ana/src/cargo-lint-meta",
        Ask("Add a fixture crate with a GPL licence so the checker test covers copyleft."),
        Write(
            "tests/fixtures/copyleft/Cargo.toml",
            '[package]\nname = "copyleft-fixture"\nversion = "0.1.0"\nlicense = "GPL-3.0-only"\n',
        ),
        Run(
            "cargo test",
            "running 9 tests\n.........\ntest result: ok. 9 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s\n",
        ),
        Say("The fixture is in place and the copyleft test passes."),
    ),
    (),
    (never(r"\bGPL", "a test fixture's licence, not the project's"),),
)

LISTED_ONLY = Case(
    "licence-trap-listed-only",
    "Python",
    one_session(
        "/home/li/src/spool",
        Ask("What is in the repo root?"),
        Run("ls", "LICENSE\nREADME.md\npyproject.toml\nsrc\ntests\n"),
        Say("A Python package with its licence file, README and tests."),
    ),
    (),
    (never(r"\bMIT\b|Apache|\bGPL|\bBSD\b", "the LICENSE was only listed, never read"),),
)

OTHER_REPOSITORY = Case(
    "licence-trap-other-repository",
    "Rust",
    one_session(
        "/home/ana/src/harbor",
        Ask("Is the fork in ../anchor-fork still GPL? We may want to copy code from it."),
        Read(
            "/home/ana/src/anchor-fork/Cargo.toml",
            '[package]\nname = "anchor"\nversion = "0.3.0"\nlicense = "GPL-3.0-or-later"\n',
        ),
        Say(
            "Yes: the fork's manifest says GPL-3.0-or-later, so copying its code would bind harbor to the GPL."
        ),
    ),
    (),
    (never(r"\bGPL", "another repository's licence"),),
)

UNLICENSED_PRIVATE = Case(
    "licence-trap-unlicensed",
    "TypeScript",
    one_session(
        "/Users/kim/work/billing-portal",
        Ask("Add the typecheck script to package.json."),
        Read(
            "package.json",
            '{\n  "name": "billing-portal",\n  "private": true,\n  "license": "UNLICENSED",\n  "scripts": {\n    "dev": "vite",\n    "build": "vite build"\n  }\n}\n',
        ),
        Edit(
            "package.json",
            '"build": "vite build"',
            '"build": "vite build",\n    "typecheck": "tsc --noEmit"',
        ),
        Run("npm run typecheck", "> billing-portal@0.0.0 typecheck\n> tsc --noEmit\n"),
        Say("`npm run typecheck` is added and passes."),
    ),
    (),
    (
        never(r"\bUnlicense\b", "UNLICENSED is not the public-domain Unlicense"),
        never(r"\bMIT\b|Apache|\bGPL|\bBSD\b", "no licence is given"),
    ),
)

WORKSPACE_INHERITED = Case(
    "licence-trap-workspace-inherited",
    "Rust",
    one_session(
        "/home/ana/src/quarry",
        Ask("bump quarry-core in crates/core by a minor release"),
        Read(
            "crates/core/Cargo.toml",
            '[package]\nname = "quarry-core"\nversion = "0.4.2"\nedition.workspace = true\nlicense.workspace = true\n\n[dependencies]\nthiserror = "2"\n',
        ),
        Edit("crates/core/Cargo.toml", 'version = "0.4.2"', 'version = "0.5.0"'),
        Say("Bumped `quarry-core` to 0.5.0."),
    ),
    (),
    (never(r"licen[cs]", "the licence is the workspace's, which no read showed"),),
)

ASSISTANT_GUESS = Case(
    "licence-trap-assistant-guess",
    "Go",
    one_session(
        "/home/ravi/code/tinyq",
        Ask("Can we use this at work? What licence is it?"),
        Say(
            "I haven't read a licence file, but most small Go libraries like this are MIT, so it is probably MIT. Check the LICENSE file to be sure."
        ),
    ),
    (),
    (never(r"\bMIT\b", "the assistant's guess, no file read"),),
)

REMOVED_AT_USERS_WORD = Case(
    "licence-trap-removed",
    "Python",
    one_session(
        "/home/li/src/tallow",
        Ask("Set up the repo for publishing."),
        Write("LICENSE", _MIT_TEXT.format(who="Li Wei")),
        Say("I added an MIT LICENSE, a README and a .gitignore."),
        Ask("Remove the licence, I haven't picked one yet and my employer has to approve it."),
        Run("rm LICENSE", ""),
        Say("Removed `LICENSE`; the repository has no licence for now."),
    ),
    (),
    (never(r"\bMIT\b", "the licence file the user had removed"),),
)

CHANGED_FIELD = Case(
    "licence-changed-field",
    "JavaScript",
    one_session(
        "/Users/kim/work/ribbon",
        Ask("We're relicensing to Apache-2.0; update package.json and the LICENSE."),
        Read(
            "package.json",
            '{\n  "name": "ribbon",\n  "version": "3.1.0",\n  "license": "MIT",\n  "main": "dist/index.js"\n}\n',
        ),
        Edit("package.json", '"license": "MIT"', '"license": "Apache-2.0"'),
        Write("LICENSE", _APACHE_TEXT),
        Say("package.json and LICENSE now say Apache-2.0."),
    ),
    (fact("Apache-2.0 licence", r"Apache"),),
    (never(r"\bMIT\b", "the licence the session replaced"),),
)

GPL_LICENSE_PARTIAL = Case(
    "licence-gpl-read-from-top",
    "C",
    one_session(
        "/home/ole/src/ledfw",
        Ask("Check the licence before I add the vendor's HAL files."),
        Read("COPYING", _GPL3_TEXT, total=674),
        Say("The firmware is GPL-3.0; check that the HAL's licence is compatible."),
    ),
    (fact("GPL-3.0 licence", r"GPL|GNU General Public"),),
    (never(r"\bMIT\b|Apache|\bBSD\b", "no other licence is named"),),
)

# --- a root README's licence section (added after the first rule, before the rule for it) ---

SWIFT_README_SECTION = Case(
    "licence-readme-swift",
    "Swift",
    one_session(
        "/Users/ivo/Developer/pinboard-mac",
        Ask("Read the README and tell me how to build the app."),
        Read(
            "README.md",
            "# Pinboard for Mac\n\nA menu-bar client for Pinboard bookmarks.\n\n## Building\n\nOpen `Pinboard.xcodeproj` in Xcode 16 and run the `Pinboard` scheme.\n\n## License\n\nMIT — see [LICENSE](LICENSE).\n",
        ),
        Say("Open the Xcode project and run the `Pinboard` scheme."),
    ),
    (fact("MIT licence", r"\bMIT\b"),),
    (never(r"Apache|\bGPL|\bBSD\b", "no other licence is named"),),
)

KOTLIN_README_SECTION = Case(
    "licence-readme-kotlin",
    "Kotlin",
    one_session(
        "/home/mara/src/ktor-ratelimit",
        Ask("Summarise what this library does."),
        Read(
            "README.md",
            "# ktor-ratelimit\n\nToken-bucket rate limiting for Ktor servers.\n\n## Usage\n\n```kotlin\ninstall(RateLimit) { limit = 100 }\n```\n\n## Licence\n\nReleased under the Apache License, Version 2.0.\n",
        ),
        Say("It is a Ktor plugin for token-bucket rate limiting."),
        host="codex",
    ),
    (fact("Apache-2.0 licence", r"Apache"),),
    (never(r"\bMIT\b|\bGPL|\bBSD\b", "no other licence is named"),),
)

README_MIXED_LICENCES = Case(
    "licence-trap-readme-mixed",
    "JavaScript",
    one_session(
        "/home/kim/src/pixel-quest",
        Ask("What can I reuse from this repo in a commercial game?"),
        Read(
            "README.md",
            "# Pixel Quest\n\nA small browser platformer.\n\n## License\n\nThe code is MIT; the artwork in `assets/` is CC BY-NC 4.0 and may not be used commercially.\n",
        ),
        Say("The code, yes; the artwork, no."),
    ),
    (),
    (never(r"\bMIT\b|CC BY", "two licences for two parts: no one licence of the project"),),
)

README_DEPENDENCY_LICENCE = Case(
    "licence-trap-readme-dependency",
    "C",
    one_session(
        "/home/ole/src/clipcut",
        Ask("Can we ship binaries of this?"),
        Read(
            "README.md",
            "# clipcut\n\nCuts video clips from the command line.\n\n## License\n\nclipcut links against FFmpeg, which is licensed under the LGPL-2.1; see FFmpeg's own licence before shipping binaries.\n",
        ),
        Say("Check FFmpeg's LGPL terms before shipping binaries."),
    ),
    (),
    (never(r"LGPL", "a dependency's licence, not the project's"),),
)

README_NO_LICENCE_YET = Case(
    "licence-trap-readme-undecided",
    "Python",
    one_session(
        "/home/li/src/fernweh",
        Ask("Is there anything missing before I make the repo public?"),
        Read(
            "README.md",
            "# fernweh\n\nTravel-time maps from GTFS feeds.\n\n## License\n\nNot decided yet (probably MIT or Apache-2.0); until then all rights reserved.\n",
        ),
        Say("The licence is still undecided; pick one before publishing."),
    ),
    (),
    (never(r"\bMIT\b|Apache", "no licence was chosen"),),
)

README_SUBPACKAGE = Case(
    "licence-trap-readme-subfolder",
    "TypeScript",
    one_session(
        "/home/kim/src/atlas",
        Ask("What does the sdk package's README say about using it?"),
        Read(
            "packages/sdk/README.md",
            "# @atlas/sdk\n\nClient for the Atlas API.\n\n## License\n\nGPL-3.0\n",
        ),
        Say("The SDK is GPL-3.0; the README shows a basic client example."),
    ),
    (),
    (
        never(
            r"The project is licensed|project[^.\n]{0,40}GPL",
            "a sub-package's README, not the project's",
        ),
    ),
)

README_DISAGREES_WITH_MANIFEST = Case(
    "licence-trap-readme-disagrees",
    "JavaScript",
    one_session(
        "/home/kim/src/tinyfmt",
        Ask("Check the package metadata before I publish."),
        Read(
            "README.md",
            "# tinyfmt\n\nFormat numbers and dates in 2 kB.\n\n## License\n\nMIT\n",
        ),
        Read(
            "package.json",
            '{\n  "name": "tinyfmt",\n  "version": "1.0.0",\n  "license": "Apache-2.0"\n}\n',
        ),
        Say(
            "The README says MIT but package.json says Apache-2.0; make them agree before publishing."
        ),
    ),
    (),
    (never(r"licensed (?:MIT|Apache)", "the README and the manifest disagree"),),
)

CASES = (
    RUST_ROOT_CARGO,
    NODE_ROOT_PACKAGE,
    PYTHON_PYPROJECT_TABLE,
    GO_LICENSE_FILE,
    ELIXIR_MIX_LICENSES,
    WRITTEN_MIT,
    RUST_WORKSPACE_CRATE,
    RUBY_GEMSPEC,
    NODE_DEPENDENCY_MANIFEST,
    C_VENDORED_LICENSE,
    DOCS_SITE_PACKAGE,
    FIXTURE_PACKAGE,
    LISTED_ONLY,
    OTHER_REPOSITORY,
    UNLICENSED_PRIVATE,
    WORKSPACE_INHERITED,
    ASSISTANT_GUESS,
    REMOVED_AT_USERS_WORD,
    CHANGED_FIELD,
    GPL_LICENSE_PARTIAL,
    SWIFT_README_SECTION,
    KOTLIN_README_SECTION,
    README_MIXED_LICENCES,
    README_DEPENDENCY_LICENCE,
    README_NO_LICENCE_YET,
    README_SUBPACKAGE,
    README_DISAGREES_WITH_MANIFEST,
)
