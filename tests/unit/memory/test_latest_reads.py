"""A file's lines a later edit removed no longer count as read (`extractors/latest_reads.py`):
a port to another framework, in any ecosystem, states the framework the session moved to."""

from __future__ import annotations

from datetime import UTC, datetime

from session_builder import Session

from squirrel_memory.extractors.latest_reads import latest_reads

START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
FLASK_APP = 'from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.get("/")\ndef index():\n    return "ok"\n'
FASTAPI_APP = 'from fastapi import FastAPI\n\napp = FastAPI()\n\n\n@app.get("/")\ndef index() -> str:\n    return "ok"\n'
ACTIX_MAIN = "use actix_web::{App, HttpServer};\n\nfn main() {\n    let _ = HttpServer::new(|| App::new());\n}\n"
AXUM_USE = "use axum::Router;\n"


def _facts(session: Session) -> list[str]:
    return [c.content for c in session.extracted() if c.content.startswith("Built with")]


def _python(root: str, rewrite: bool) -> Session:
    s = Session(root, "s1", START)
    s.user("Port the API.")
    s.read("app.py", FLASK_APP)
    if rewrite:
        s.write("app.py", FASTAPI_APP)
    s.run("pytest -q", 0, "3 passed")
    return s


def test_a_whole_rewrite_drops_the_framework_the_read_showed() -> None:
    assert _facts(_python("/home/u/weather", rewrite=True)) == ["Built with FastAPI."]


def test_without_the_rewrite_the_read_still_states_its_framework() -> None:
    assert any("Flask" in f for f in _facts(_python("/home/u/weather", rewrite=False)))


def _rust(root: str, edit: tuple[str, str]) -> Session:
    s = Session(root, "s2", START)
    s.user("Move the admin server to axum.")
    s.read("Cargo.toml", '[package]\nname = "admin"\n\n[dependencies]\ntokio = "1"\n')
    s.read("src/main.rs", ACTIX_MAIN)
    s.edit_lines("src/main.rs", *edit)
    s.run("cargo test", 0, "test result: ok. 2 passed")
    return s


def test_an_edit_that_replaces_the_import_drops_it_in_another_ecosystem() -> None:
    facts = _facts(_rust("/home/u/admin", ("use actix_web::{App, HttpServer};", AXUM_USE)))
    assert facts and not any("Actix" in f for f in facts)
    assert any("Axum" in f for f in facts)


def test_an_edit_of_other_lines_keeps_what_the_read_showed() -> None:
    facts = _facts(_rust("/home/u/admin", ("fn main() {", "fn main() {\n    // started")))
    assert any("Actix" in f for f in facts)


def test_a_patch_removes_its_minus_lines_and_a_failed_edit_nothing() -> None:
    s = Session("/home/u/kit", "s3", START)
    s.read("package.json", '{\n  "scripts": {"test": "jest"},\n  "name": "kit"\n}\n')
    patch = (
        "*** Begin Patch\n*** Update File: package.json\n@@\n"
        '-  "scripts": {"test": "jest"},\n+  "scripts": {"test": "vitest run"},\n*** End Patch'
    )
    s.add(
        "tool_call",
        {"tool": "apply_patch", "tool_use_id": "p1", "input": {"input": patch}},
        ("package.json",),
    )
    s.read("README.md", "# kit\n\nRun `npm test`.\n")
    failed = {
        "file_path": "/home/u/kit/README.md",
        "old_string": "Run `npm test`.",
        "new_string": "x",
    }
    s.add(
        "tool_call",
        {"tool": "Edit", "tool_use_id": "e1", "input": failed},
        ("/home/u/kit/README.md",),
    )
    s.add(
        "tool_result", {"tool": "Edit", "tool_use_id": "e1", "output": "no match", "is_error": True}
    )
    after = latest_reads(s.events)
    outputs = [e.content.get("output", "") for e in after if e.event_type == "tool_result"]
    assert '"jest"' not in outputs[0] and '"name": "kit"' in outputs[0]
    assert "Run `npm test`." in outputs[1]
    assert after[2] is s.events[2]


def test_a_patch_given_as_a_shell_calls_argument_removes_its_minus_lines_too() -> None:
    # Older Codex: `shell` with `["apply_patch", body]`, recorded as an `apply_patch` call.
    s = Session("/home/u/kit", "s5", START)
    s.read("package.json", '{\n  "scripts": {"test": "jest"},\n  "name": "kit"\n}\n')
    patch = (
        "*** Begin Patch\n*** Update File: package.json\n@@\n"
        '-  "scripts": {"test": "jest"},\n+  "scripts": {"test": "vitest run"},\n*** End Patch'
    )
    given = {"command": ["apply_patch", patch], "workdir": "/home/u/kit"}
    s.add("tool_call", {"tool": "apply_patch", "tool_use_id": "p1", "input": given})
    # Another tool whose input holds a patch's text (a file written with it) changes nothing.
    s.read("notes.md", "# notes\n")
    note = {"file_path": "/home/u/kit/docs/example.patch", "content": patch}
    s.add("tool_call", {"tool": "Write", "tool_use_id": "w1", "input": note})
    after = latest_reads(s.events)
    outputs = [e.content.get("output", "") for e in after if e.event_type == "tool_result"]
    assert '"jest"' not in outputs[0] and '"name": "kit"' in outputs[0]
    assert outputs[1].endswith("# notes\n")


def _tasks(root: str, path: str, text: str, edit: tuple[str, str] | None) -> list[str]:
    s = Session(root, "s4", START)
    s.user("Move the tests to the new runner.")
    s.read(path, text)
    if edit:
        s.edit_lines(path, *edit)
    return [c.content for c in s.extracted() if c.content.startswith(("Tasks", "Scripts"))]


def test_a_task_file_is_read_as_the_session_left_it_in_two_ecosystems() -> None:
    package = '{\n  "name": "kit",\n  "scripts": {\n    "test": "jest"\n  }\n}\n'
    edit = ('"test": "jest"', '"test": "vitest run"')
    (after,) = _tasks("/home/u/kit", "package.json", package, edit)
    assert "vitest run" in after and "jest" not in after
    (before,) = _tasks("/home/u/kit", "package.json", package, None)
    assert "jest" in before
    makefile = "build:\n\tgo build ./...\n\ntest:\n\tgo test -race ./...\n"
    (after,) = _tasks("/home/u/billing", "Makefile", makefile, ("go test -race", "gotestsum --"))
    assert "gotestsum" in after and "-race" not in after


def _rewritten(command: str, code: int = 0) -> list[str]:
    s = Session("/home/u/kit", "s6", START)
    s.read("CLAUDE.md", "# Notes\n\n- Run the tests with `make test`.\n")
    s.run(command, code, "" if code == 0 else "bash: CLAUDE.md: Permission denied")
    after = latest_reads(s.events)
    return [e.content.get("output", "") for e in after if e.event_type == "tool_result"]


def test_a_file_a_shell_here_document_wrote_whole_is_read_as_written() -> None:
    heredoc = "# Notes\n\n- Run the tests with `just test`.\n"
    for command in (
        f"cat > CLAUDE.md <<'EOF'\n{heredoc}EOF",
        f"cat <<EOF > /home/u/kit/CLAUDE.md\n{heredoc}EOF",
        f'tee CLAUDE.md <<"END"\n{heredoc}END',
    ):
        (shown,) = _rewritten(command)
        assert "just test" in shown and "make test" not in shown, command


def test_a_here_document_that_failed_or_wrote_elsewhere_changes_nothing() -> None:
    heredoc = "# Notes\n\n- Run the tests with `just test`.\n"
    assert "make test" in _rewritten(f"cat > CLAUDE.md <<'EOF'\n{heredoc}EOF", 1)[0]
    assert "make test" in _rewritten(f"cat > NOTES.md <<'EOF'\n{heredoc}EOF")[0]
    assert "make test" in _rewritten("cat > ../../etc/CLAUDE.md <<'EOF'\nx\nEOF")[0]


def test_a_write_whose_text_is_not_told_leaves_the_file_unknown() -> None:
    # More than the write on the line, an append, a here-document left open or closed by
    # another tag: the file changed, and how is not known, so the read says nothing.
    heredoc = "# Notes\n\n- Run the tests with `just test`.\n"
    for command in (
        f"cat > CLAUDE.md <<'EOF'\n{heredoc}EOF\ngit add CLAUDE.md",
        f"cat >> CLAUDE.md <<'EOF'\n{heredoc}EOF",
        f"cat > CLAUDE.md <<'EOF'\n{heredoc}",
        f"cat > CLAUDE.md <<'EOF'\n{heredoc}END",
    ):
        assert _rewritten(command) == [""], command


def test_a_shell_command_that_wrote_the_file_drops_the_read_in_every_form() -> None:
    for command in (
        "echo '- Always run `bundle exec`.' >> CLAUDE.md",
        "sed -i 's/make test/just test/' CLAUDE.md",
        "sed -i.bak -e 's/make/just/' CLAUDE.md",
        "perl -pi -e 's/make/just/' CLAUDE.md",
        "./scripts/render.sh | tee CLAUDE.md",
        "cp templates/CLAUDE.md CLAUDE.md",
        "python3 tools/gen_rules.py > /home/u/kit/CLAUDE.md",
    ):
        assert _rewritten(command) == [""], command


def test_a_command_that_only_reads_failed_or_wrote_elsewhere_keeps_the_read() -> None:
    for command, code in (
        ("grep -n make CLAUDE.md > /tmp/hits.txt", 0),
        ("sed -n 1,20p CLAUDE.md", 0),
        ("sed -i 's/make/just/' CLAUDE.md", 1),
        ("cp CLAUDE.md CLAUDE.md.orig", 0),
        ("make test 2>&1 | tee build.log", 0),
        ("echo 'see CLAUDE.md' >&2", 0),
    ):
        assert "make test" in _rewritten(command, code)[0], command


def _seen(command: str, output: str, *, edited: bool = False, read_again: str = "") -> list[str]:
    s = Session("/home/u/kit", "s7", START)
    s.read("AGENTS.md", "@HANDBOOK.md\n")
    if edited:
        s.edit_lines("AGENTS.md", "@HANDBOOK.md", "@HANDBOOK.md\n\n- Run `tox -e lint`.")
    s.run(command, 0, output)
    if read_again:
        s.read("AGENTS.md", read_again)
    after = latest_reads(s.events)
    return [e.content.get("output", "") for e in after if e.event_type == "tool_result"]


DIFF = (
    "diff --git a/AGENTS.md b/AGENTS.md\n--- a/AGENTS.md\n+++ b/AGENTS.md\n@@ -1 +1,3 @@\n"
    " @HANDBOOK.md\n+\n+- Run `tox -e lint`.\n"
)


def test_a_status_a_diff_or_a_report_showing_the_file_changed_drops_the_read() -> None:
    for command, output in (
        ("git status --short", " M AGENTS.md\n"),
        ("git status", "On branch main\nChanges not staged for commit:\n\tmodified:   AGENTS.md\n"),
        ("git diff AGENTS.md", DIFF),
        ("git diff --stat", " AGENTS.md | 2 ++\n 1 file changed, 2 insertions(+)\n"),
        ("wrap git status -s", "M  AGENTS.md\n"),
        ("./scripts/sync_rules.sh", "Updated AGENTS.md\n"),
        ("node scripts/render.mjs", "wrote `AGENTS.md`.\n"),
    ):
        assert _seen(command, output) == [""], command


def test_what_explains_the_change_or_shows_the_text_keeps_it_known() -> None:
    # The session's own edit explains the status line: the edit is applied.
    (shown,) = _seen("git status --short", " M AGENTS.md\n", edited=True)
    assert "tox -e lint" in shown
    # Read again after the change: the new read holds, the old one says nothing.
    old, new = _seen("./sync.sh", "Updated AGENTS.md\n", read_again="@HANDBOOK.md\n\n- x y\n")
    assert old == "" and "- x y" in new
    # Other files changed, a status of no file, a log's diff: the read stands.
    for command, output in (
        ("git status --short", " M src/queue.rs\n?? AGENTS.md.orig\n"),
        ("git log -p -1", DIFF),
        ("git show HEAD", DIFF),
        ("cat AGENTS.md", "Updated AGENTS.md\n@HANDBOOK.md\n"),
    ):
        assert "@HANDBOOK.md" in _seen(command, output)[0], command


def _told(reply: str, *, edited: bool = False) -> list[str]:
    s = Session("/home/u/kit", "s8", START)
    s.read("AGENTS.md", "@HANDBOOK.md\n")
    s.run("./scripts/sync_rules.sh", 0, "done\n")
    s.say(reply)
    if edited:
        s.edit_lines("AGENTS.md", "@HANDBOOK.md", "@HANDBOOK.md\n\n- Run `tox -e lint`.")
    after = latest_reads(s.events)
    return [e.content.get("output", "") for e in after if e.event_type == "tool_result"]


def test_the_assistant_saying_a_run_updated_the_file_drops_the_read() -> None:
    assert _told("The script updated `AGENTS.md` with the checks section.") == [""]
    assert _told("Regenerated AGENTS.md from the handbook.") == [""]


def test_the_assistant_s_words_beside_an_edit_or_of_a_plan_keep_the_text_known() -> None:
    (shown,) = _told("I'll add the rule; updated `AGENTS.md` below.", edited=True)
    assert "tox -e lint" in shown
    assert "@HANDBOOK.md" in _told("I will update AGENTS.md next.")[0]
    assert "@HANDBOOK.md" in _told("The script updated `HANDBOOK.md`.")[0]
