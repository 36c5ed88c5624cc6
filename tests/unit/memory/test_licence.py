"""The project's licence from a root manifest's licence field or the root licence file a session
read or wrote; a package's own manifest says that package's. A dependency's, a vendored
library's, a docs site's or a fixture's licence, a listed-only file, another repository's, a
value that names no licence, a removed file and a field the session changed say nothing, or
not that."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.licence import licence_facts
from squirrel_memory.extractors.licence_texts import heading_licence, manifest_licence
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 2, 14, 0, tzinfo=UTC)
ROOT = "/home/dev/tidewatch"

MIT = "MIT License\n\nCopyright (c) 2026 Ann\n\nPermission is hereby granted, free of charge\n"
APACHE = (
    "\n                                 Apache License\n"
    "                           Version 2.0, January 2004\n"
    "                        http://www.apache.org/licenses/\n"
)
CARGO = '[package]\nname = "tidewatch"\nversion = "0.7.2"\nlicense = "MIT OR Apache-2.0"\n'


def _said(session: Session) -> list[str]:
    return [f.content for f in licence_facts(session.events, commands(session.events))]


def test_a_root_manifests_licence_field_is_the_projects_licence() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("Cargo.toml", CARGO)
    assert _said(session) == [
        "The project is licensed MIT OR Apache-2.0 (the licence field of `Cargo.toml`)."
    ]


def test_it_becomes_a_project_fact_of_the_episode() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("package.json", '{"name": "slugline", "license": "ISC"}')
    facts = [c for c in session.extracted() if c.key == "licence"]
    assert [c.content for c in facts] == [
        "The project is licensed ISC (the licence field of `package.json`)."
    ]


def test_the_root_licence_file_read_or_printed_or_written_names_it() -> None:
    read = Session(ROOT, "s1", T0)
    read.read("COPYING", "GNU GENERAL PUBLIC LICENSE\n Version 3, 29 June 2007\n")
    assert _said(read) == [
        "The project is licensed GPL-3.0 (the root `COPYING` is the GNU General Public"
        " License v3 text)."
    ]
    printed = Session(ROOT, "s1", T0)
    printed.run("cat LICENSE", 0, APACHE)
    assert _said(printed) == [
        "The project is licensed Apache-2.0 (the root `LICENSE` is the Apache License 2.0 text)."
    ]
    written = Session(ROOT, "s1", T0)
    written.write("LICENSE", MIT)
    assert _said(written) == [
        "The project is licensed MIT (the root `LICENSE` is the MIT License text)."
    ]


def test_a_manifest_and_a_licence_file_that_agree_are_one_statement() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("Cargo.toml", CARGO)
    session.read("LICENSE-MIT", MIT)
    assert _said(session) == [
        "The project is licensed MIT OR Apache-2.0 (the licence field of `Cargo.toml`; the root"
        " `LICENSE-MIT` is the MIT License text)."
    ]


def test_a_manifest_and_a_licence_file_that_disagree_say_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("package.json", '{"name": "ribbon", "license": "MIT"}')
    session.read("LICENSE", APACHE)
    assert _said(session) == []


def test_a_packages_own_manifest_names_that_package_never_the_project() -> None:
    session = Session(ROOT, "s1", T0)
    session.read(
        "crates/codec/Cargo.toml", '[package]\nname = "lumen-codec"\nlicense = "Apache-2.0"\n'
    )
    assert _said(session) == [
        "The `lumen-codec` package (`crates/codec/Cargo.toml`) is licensed Apache-2.0."
    ]


def test_dependency_vendored_docs_fixture_and_other_repository_files_say_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("node_modules/left-pad/package.json", '{"name": "left-pad", "license": "WTFPL"}')
    session.read("vendor/inih/LICENSE.txt", MIT)
    session.read("docs/package.json", '{"name": "site", "license": "CC-BY-4.0"}')
    session.read("tests/fixtures/gpl/Cargo.toml", '[package]\nname = "f"\nlicense = "GPL-3.0"\n')
    session.read_elsewhere(
        "/home/dev/anchor-fork/Cargo.toml", '[package]\nname = "a"\nlicense = "GPL-3.0"\n'
    )
    assert _said(session) == []


def test_a_licence_file_only_listed_says_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("ls", 0, "Cargo.toml\nLICENSE\nsrc\n")
    session.say("It is probably MIT, like most small crates.")
    assert _said(session) == []


def test_values_that_name_no_licence_say_nothing() -> None:
    for manifest, text in (
        ("package.json", '{"name": "portal", "private": true, "license": "UNLICENSED"}'),
        ("package.json", '{"name": "portal", "license": "SEE LICENSE IN LICENSE.txt"}'),
        ("Cargo.toml", '[package]\nname = "core"\nlicense.workspace = true\n'),
        ("pyproject.toml", '[project]\nname = "q"\nlicense = {file = "LICENSE"}\n'),
    ):
        session = Session(ROOT, "s1", T0)
        session.read(manifest, text)
        assert _said(session) == [], text


def test_a_licence_file_removed_by_a_passing_run_is_gone() -> None:
    session = Session(ROOT, "s1", T0)
    session.write("LICENSE", MIT)
    session.user("Remove the licence, I haven't picked one yet.")
    session.run("rm LICENSE", 0)
    assert _said(session) == []
    failed = Session(ROOT, "s1", T0)
    failed.write("LICENSE", MIT)
    failed.run("rm LICENSE", 1, "rm: LICENSE: Permission denied")
    assert len(_said(failed)) == 1


def test_the_field_as_the_session_left_it_counts() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("package.json", '{\n  "name": "ribbon",\n  "license": "MIT"\n}\n')
    session.edit_lines("package.json", '"license": "MIT"', '"license": "Apache-2.0"')
    assert _said(session) == [
        "The project is licensed Apache-2.0 (the licence field of `package.json`)."
    ]


def test_a_write_the_host_did_not_apply_changes_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.add(
        "tool_call",
        {
            "tool": "Write",
            "tool_use_id": "w1",
            "input": {"file_path": f"{ROOT}/LICENSE", "content": MIT},
        },
        (f"{ROOT}/LICENSE",),
    )
    assert _said(session) == []


def test_manifest_fields_of_several_ecosystems() -> None:
    assert manifest_licence(
        "pyproject.toml", '[project]\nname = "q"\nlicense = {text = "BSD-3-Clause"}\n'
    ) == ("BSD-3-Clause", "q")
    assert manifest_licence("tallyho.gemspec", '  spec.license = "MIT"\n') == ("MIT", "")
    assert manifest_licence("mix.exs", '      licenses: ["Apache-2.0"],\n') == ("Apache-2.0", "")
    assert manifest_licence(
        "Lib.csproj", "<PackageLicenseExpression>MIT</PackageLicenseExpression>"
    ) == ("MIT", "")
    assert manifest_licence("DESCRIPTION", "Package: x\nLicense: GPL-3\n") == ("GPL-3", "")
    assert manifest_licence("go.mod", "module x\n") is None


def test_a_licence_is_known_by_its_own_heading_only() -> None:
    assert heading_licence(MIT) == ("MIT", "MIT License")
    assert heading_licence(APACHE) == ("Apache-2.0", "Apache License 2.0")
    assert heading_licence("Copyright 2026 Ann. All rights reserved.\n") is None
    assert heading_licence("Some text\nthat mentions the MIT License later\n") is None


def test_a_licence_file_printed_in_another_folder_says_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("cat LICENSE", 0, MIT, cwd="/home/dev/other")
    session.run("cd ../other && cat LICENSE", 0, MIT)
    assert _said(session) == []


README = "# tinyfmt\n\nFormat numbers in 2 kB.\n\n## Usage\n\n`fmt(3)`\n\n## License\n\n{}\n"


def test_a_root_readmes_licence_section_names_it() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("README.md", README.format("MIT — see [LICENSE](LICENSE)."))
    assert _said(session) == [
        "The project is licensed MIT (the licence section of the root `README.md`)."
    ]
    rst = Session(ROOT, "s1", T0)
    rst.read(
        "README.rst",
        "tinyfmt\n=======\n\nLicence\n-------\n\nReleased under the Apache License, Version 2.0.\n",
    )
    assert _said(rst) == [
        "The project is licensed Apache-2.0 (the licence section of the root `README.rst`)."
    ]


def test_a_readme_section_that_settles_no_one_licence_says_nothing() -> None:
    for section in (
        "The code is MIT; the artwork in `assets/` is CC BY-NC 4.0.",
        "clipcut links against FFmpeg, which is licensed under the LGPL-2.1.",
        "Not decided yet (probably MIT or Apache-2.0).",
        "Licensed under either of Apache License, Version 2.0 or MIT license at your option.",
        "[![License: MIT](https://img.shields.io/badge/License-MIT-yellow.svg)](LICENSE)",
    ):
        session = Session(ROOT, "s1", T0)
        session.read("README.md", README.format(section))
        assert _said(session) == [], section
    nested = Session(ROOT, "s1", T0)
    nested.read("packages/sdk/README.md", README.format("GPL-3.0"))
    assert _said(nested) == []


def test_a_readme_that_disagrees_with_the_manifest_says_nothing() -> None:
    session = Session(ROOT, "s1", T0)
    session.read("README.md", README.format("MIT"))
    session.read("package.json", '{"name": "tinyfmt", "license": "Apache-2.0"}')
    assert _said(session) == []
    agreeing = Session(ROOT, "s1", T0)
    agreeing.read("README.md", README.format("MIT"))
    agreeing.read("package.json", '{"name": "tinyfmt", "license": "MIT"}')
    assert _said(agreeing) == [
        "The project is licensed MIT (the licence field of `package.json`; the licence section"
        " of the root `README.md`)."
    ]


def test_a_command_that_edits_the_file_leaves_it_unknown_until_read_again() -> None:
    for command in (
        "sed -i 's/MIT/Apache-2.0/' package.json",
        "npm pkg set license=Apache-2.0",
        "jq '.license = \"Apache-2.0\"' package.json > tmp.json && mv tmp.json package.json",
    ):
        session = Session(ROOT, "s1", T0)
        session.read("package.json", '{"name": "ribbon", "license": "MIT"}')
        session.run(command, 0)
        assert _said(session) == [], command
    moved = Session(ROOT, "s1", T0)
    moved.read("LICENSE", MIT)
    moved.run("git mv LICENSE LICENSE.old", 0)
    assert _said(moved) == []
    reread = Session(ROOT, "s1", T0)
    reread.read("package.json", '{"name": "ribbon", "license": "MIT"}')
    reread.run("npm pkg set license=Apache-2.0", 0)
    reread.read("package.json", '{"name": "ribbon", "license": "Apache-2.0"}')
    assert _said(reread) == [
        "The project is licensed Apache-2.0 (the licence field of `package.json`)."
    ]


def test_commands_that_only_use_or_show_the_file_change_nothing() -> None:
    for command in (
        "gem build tallyho.gemspec",
        "sed -n '1,5p' tallyho.gemspec",
        "git add tallyho.gemspec",
    ):
        session = Session(ROOT, "s1", T0)
        session.read("tallyho.gemspec", '  spec.license = "MIT"\n')
        session.run(command, 0)
        assert _said(session) == [
            "The project is licensed MIT (the licence field of `tallyho.gemspec`)."
        ], command


def test_a_manifest_that_does_not_parse_or_names_no_usable_licence_says_nothing() -> None:
    assert manifest_licence("Cargo.toml", '[package\nname = "x"\nlicense = "MIT"\n') is None
    assert manifest_licence("package.json", '{"name": "x", "license": "MIT"') is None
    assert manifest_licence("package.json", '["not", "an", "object"]') is None
    assert manifest_licence("package.json", '{"name": "x", "license": "UNLICENSED"}') == ("", "x")
    assert manifest_licence("package.json", '{"name": "x", "license": "SEE LICENSE IN x"}') == (
        "",
        "x",
    )
    assert manifest_licence("notes.txt", "license = MIT") is None
    assert heading_licence("") is None
