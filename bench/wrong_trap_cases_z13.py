# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z13`: the project's licence stated from the wrong thing
(`bench/wrong_traps.py` runs them): a manifest's licence field a shell command changed after it
was read (`npm pkg set`, `sed -i`), an old version of the licence file `git show` printed, the
dependencies' licences a licence checker listed, a licence file that was not there and the
assistant's suggestion, a licence file moved aside, a README that reserves all rights and the
assistant's guess, a vendored library's licence file.

Written after the licence rule (`extractors/licence.py`) and its study (`python -m
bench.facts_study_sessions --set b`), before any of these traps ran, from the ways a session can
change or show a licence that the study's cases do not.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Trap, one_session

_MIT = 'MIT License\n\nCopyright (c) 2026 Ann Lee\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\nof this software and associated documentation files (the "Software"), to deal\n'
_APACHE = "                                 Apache License\n                           Version 2.0, January 2004\n                        http://www.apache.org/licenses/\n"

PKG_SET_AFTER_READ = Trap(
    "licence-changed-by-npm-pkg-set",
    "JavaScript",
    "package.json read with MIT, then `npm pkg set license=Apache-2.0` changes it",
    one_session(
        "/home/ann/src/ribbon",
        Ask("We're relicensing to Apache-2.0: update package.json."),
        Read(
            "package.json",
            '{\n  "name": "ribbon",\n  "version": "3.1.0",\n  "license": "MIT",\n  "main": "dist/index.js"\n}\n',
        ),
        Run("npm pkg set license=Apache-2.0", ""),
        Run("npm pkg get license", '"Apache-2.0"\n'),
        Say("package.json now says Apache-2.0."),
    ),
    wrong=((r"licensed MIT\b", "the session changed the field to Apache-2.0"),),
)

SED_AFTER_READ = Trap(
    "licence-changed-by-sed",
    "Rust",
    "Cargo.toml read with MIT, then `sed -i` rewrites the licence line",
    one_session(
        "/home/ann/src/tidewatch",
        Ask("Make the crate dual-licensed MIT OR Apache-2.0 like the rest of the ecosystem."),
        Read(
            "Cargo.toml",
            '[package]\nname = "tidewatch"\nversion = "0.7.2"\nedition = "2021"\nlicense = "MIT"\n',
        ),
        Run('sed -i \'s/^license = "MIT"$/license = "MIT OR Apache-2.0"/\' Cargo.toml', ""),
        Run("grep '^license' Cargo.toml", 'license = "MIT OR Apache-2.0"\n'),
        Say("Cargo.toml now reads `MIT OR Apache-2.0`."),
        host="codex",
    ),
    wrong=((r"licensed MIT \(", "the session changed the field to MIT OR Apache-2.0"),),
)

OLD_LICENCE_SHOWN = Trap(
    "licence-old-version-from-git-show",
    "JavaScript",
    "`git show v1.0.0:LICENSE` prints the Apache text the project had before its relicensing",
    one_session(
        "/home/ann/src/inkwell",
        Ask("What licence did v1.0.0 ship under? Someone asked in an issue."),
        Run("git show v1.0.0:LICENSE", _APACHE),
        Read(
            "package.json",
            '{\n  "name": "inkwell",\n  "version": "2.4.0",\n  "license": "MIT"\n}\n',
        ),
        Say("v1.0.0 was Apache-2.0; the project moved to MIT in 2.0."),
    ),
    wrong=((r"licensed Apache", "Apache-2.0 was an old version's licence"),),
)

CHECKER_LISTS_DEPENDENCIES = Trap(
    "licence-checker-lists-dependencies",
    "TypeScript",
    "a licence checker prints the licences of the dependencies",
    one_session(
        "/home/ann/src/portal",
        Ask("Do any of our dependencies have a copyleft licence?"),
        Run(
            "npx license-checker --summary",
            "├─ MIT: 412\n├─ ISC: 37\n├─ Apache-2.0: 21\n├─ BSD-3-Clause: 9\n└─ GPL-3.0: 1\n",
        ),
        Run(
            "npx license-checker --onlyAllow 'MIT;ISC;Apache-2.0;BSD-3-Clause'",
            'Package "chartkit@2.1.0" is licensed under "GPL-3.0" which is not permitted by the --onlyAllow flag. Exiting.\n',
            1,
        ),
        Say("One dependency, chartkit 2.1.0, is GPL-3.0."),
    ),
    wrong=(
        (
            r"(?:project|portal)[^.\n]{0,40}licensed (?:MIT|ISC|Apache|BSD|GPL)",
            "the dependencies' licences, not the project's",
        ),
    ),
)

NO_LICENCE_FILE = Trap(
    "licence-file-missing-and-a-suggestion",
    "Go",
    "`cat LICENSE` fails; the assistant suggests MIT",
    one_session(
        "/home/ravi/code/tinyq",
        Ask("Which licence is this under?"),
        Run("cat LICENSE", "cat: LICENSE: No such file or directory\n", 1),
        Run("git status --short", ""),
        Say(
            "There is no LICENSE file yet. For a small Go library MIT is the usual choice; want me to add one?"
        ),
        host="codex",
    ),
    wrong=((r"\bMIT\b", "no licence file exists; MIT was only suggested"),),
)

MOVED_ASIDE = Trap(
    "licence-file-moved-aside",
    "Python",
    "the MIT LICENSE is read, then moved aside while the user picks a new licence",
    one_session(
        "/home/li/src/fernweh",
        Ask("Move the old licence aside; my employer wants to pick a new one."),
        Read("LICENSE", _MIT),
        Run("git mv LICENSE LICENSE.old", ""),
        Run("git status --short", "R  LICENSE -> LICENSE.old\n"),
        Say("Moved `LICENSE` to `LICENSE.old`; the repository has no licence in force for now."),
    ),
    wrong=((r"licensed MIT", "the licence file was moved aside; no licence is in force"),),
)

ALL_RIGHTS_RESERVED = Trap(
    "licence-readme-reserves-rights",
    "Python",
    "the README's licence section reserves all rights; the assistant calls it MIT-like",
    one_session(
        "/home/li/src/ledgerbook",
        Ask("Can I copy this into my open-source project?"),
        Read(
            "README.md",
            "# ledgerbook\n\nDouble-entry bookkeeping for small shops.\n\n## License\n\nCopyright 2026 Acme GmbH. All rights reserved. Internal use only.\n",
        ),
        Run(
            "git log --oneline -3",
            "4e1a2b3 Add VAT report\n9c0d1e2 Fix rounding\n1a2b3c4 Initial commit\n",
        ),
        Say(
            "No: it reserves all rights, unlike an MIT-style licence; you would need Acme's permission."
        ),
        host="gemini",
    ),
    wrong=((r"licensed MIT|\bMIT\b[^.\n]{0,30}licen", "all rights are reserved"),),
)

VENDORED_LICENCE_PRINTED = Trap(
    "licence-vendored-library-printed",
    "C",
    "a vendored library's licence file printed with `cat`",
    one_session(
        "/home/ole/src/pngsqueeze",
        Ask("Which licence does the vendored zlib use? Legal needs it for the notice file."),
        Run(
            "cat third_party/zlib/LICENSE",
            "Copyright notice:\n\n (C) 1995-2024 Jean-loup Gailly and Mark Adler\n\n  This software is provided 'as-is', without any express or implied\n  warranty.\n",
        ),
        Run("git status --short", ""),
        Say("zlib uses the zlib licence; copy that notice."),
    ),
    wrong=((r"(?:project|pngsqueeze)[^.\n]{0,40}licensed", "the vendored library's licence"),),
)

CASES = (
    PKG_SET_AFTER_READ,
    SED_AFTER_READ,
    OLD_LICENCE_SHOWN,
    CHECKER_LISTS_DEPENDENCIES,
    NO_LICENCE_FILE,
    MOVED_ASIDE,
    ALL_RIGHTS_RESERVED,
    VENDORED_LICENCE_PRINTED,
)
