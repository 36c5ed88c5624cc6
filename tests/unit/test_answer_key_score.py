"""The answer-key judge (bench/answer_key_score.py) on small made-up keys and memories."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bench import answer_key, answer_key_table, fixture_pipeline
from bench.answer_key_gold import SPLITS, AnswerKey, AnswerKeyError, Question, load_keys, parse_key
from bench.answer_key_hook import HOOK_SECTIONS, score_hook
from bench.answer_key_score import (
    Memory,
    Score,
    add_question,
    duplicate_pairs,
    high_by_kind,
    judge,
    junk_reason,
    score,
)
from squirrel_gateway.hook_context import FRAME, SECTION_TITLES
from tests.unit.demo_answer_key import demo_key, key_toml

KEY_TOML = key_toml(
    "held-out",
    ["test"],
    r"""
[[item]]
id = "language"
importance = "normal"
kind = "project_fact"
note = "The project is Rust."
match = ['\brust\b']
types = ["project_fact"]

[[wrong]]
pattern = '\bpython\b'
why = "no Python here"
types = ["project_fact"]

[[one_off]]
pattern = "^Don.t summari[sz]e"
why = "said once"

[[question]]
text = "how do I run the tests?"
answers = ["test"]

[[question]]
text = "how do I lint?"
answers = ["lint"]
""",
)


def _key() -> AnswerKey:
    return demo_key(KEY_TOML)


def test_an_item_needs_every_concept_and_an_allowed_type() -> None:
    key = _key()
    assert judge(key, Memory("recipe", "r", "To lint: `cargo clippy -- -D warnings`.")).matched == (
        "lint",
    )
    # One concept of two is not enough.
    assert judge(key, Memory("recipe", "r", "To lint: `cargo clippy`.")).matched == ()
    # Alternatives of one concept; case does not matter.
    assert judge(key, Memory("recipe", "r", "Tests run with `CARGO NEXTEST run`.")).matched == (
        "test",
    )
    # `types` limits which memory types may cover the item.
    assert judge(key, Memory("pitfall", "p", "Rust code must build first.")).matched == ()
    assert judge(key, Memory("project_fact", "l", "Rust project (Cargo.toml).")).matched == (
        "language",
    )


WEB_KEY = r"""
project = "shop"
language = "TypeScript"
split = "tuning"

[[item]]
id = "language"
importance = "high"
kind = "project_fact"
note = "The project is written in TypeScript."
match = ['typescript']

[[item]]
id = "manager"
importance = "high"
kind = "user_style"
note = "The user installs packages with pnpm."
match = ['\bpnpm\b']

[[item]]
id = "test"
importance = "high"
kind = "recipe"
note = "Run the tests with `pnpm test`."
match = ['pnpm (run )?test']
"""


@pytest.mark.parametrize(
    ("toml", "kind", "content"),
    [
        (KEY_TOML, "project_fact", "The project is written in Rust or C++."),
        (KEY_TOML, "project_fact", "The project is written in C++, or Rust."),
        (WEB_KEY, "project_fact", "The project is written in JavaScript or TypeScript."),
        (WEB_KEY, "project_fact", "Its code is `TypeScript` or `JavaScript` (unclear)."),
        (WEB_KEY, "user_style", "The user installs packages with either npm or pnpm."),
    ],
)
def test_a_fact_that_hedges_between_two_answers_finds_neither(
    toml: str, kind: str, content: str
) -> None:
    key = demo_key(toml)
    assert judge(key, Memory(kind, "k", content)).matched == ()
    # The same statement without the hedge is a find.
    alone = content.replace(" or C++", "").replace("C++, or ", "")
    alone = alone.replace("JavaScript or ", "").replace(" or `JavaScript`", "")
    alone = alone.replace("either npm or ", "")
    assert judge(key, Memory(kind, "k", alone)).matched != ()


@pytest.mark.parametrize(
    ("toml", "kind", "content", "item"),
    [
        # Two ways of one recipe, or of a pitfall's fix, are no hedge.
        (KEY_TOML, "recipe", "To test: `cargo nextest run` or `cargo test`.", "test"),
        (WEB_KEY, "recipe", "To test: `npm test` or `pnpm test`.", "test"),
        # Both sides match the concept: nothing is left open.
        (
            KEY_TOML,
            "project_fact",
            "The project is Rust (stable Rust or nightly Rust).",
            "language",
        ),
        # The fact is stated plainly once; an "or" elsewhere does not take it back.
        (
            WEB_KEY,
            "project_fact",
            "The app is TypeScript; its scripts are Bash or Python.",
            "language",
        ),
        (WEB_KEY, "project_fact", "TypeScript, compiled to JavaScript or WebAssembly.", "language"),
        # "or" qualifying the answer offers no other one.
        (KEY_TOML, "project_fact", "The project needs Rust 1.75 or later.", "language"),
        (KEY_TOML, "project_fact", "The project is Rust, or at least its core is.", "language"),
        (WEB_KEY, "user_style", "The user installs packages with pnpm or similar.", "manager"),
    ],
)
def test_an_or_that_leaves_nothing_open_is_still_a_find(
    toml: str, kind: str, content: str, item: str
) -> None:
    assert item in judge(demo_key(toml), Memory(kind, "k", content)).matched


def test_a_hedged_session_start_line_states_nothing() -> None:
    key = demo_key(
        WEB_KEY.replace('split = "tuning"', 'split = "tuning"\nsession_start = ["language"]')
    )
    hedge = f"{FRAME}\n\n### Project\n- The project is written in JavaScript or TypeScript.\n"
    assert score_hook(key, hedge).covered == ()
    assert score_hook(key, hedge.replace("JavaScript or ", "")).covered == ("language",)


def test_a_wrong_session_start_line_states_no_needed_item() -> None:
    toml = WEB_KEY.replace('split = "tuning"', 'split = "tuning"\nsession_start = ["language"]')
    key = demo_key(
        toml
        + "\n[[wrong]]\n"
        + "pattern = 'TypeScript project built with Deno'\nwhy = 'the app runs on Node'\n"
    )
    line = f"{FRAME}\n\n### Project\n- The TypeScript project built with Deno.\n"

    scored = score_hook(key, line)

    assert scored.wrong and scored.covered == ()
    assert score_hook(key, line.replace(" built with Deno", "")).covered == ("language",)


def test_a_wrong_memory_counts_as_noise_and_covers_nothing() -> None:
    key = _key()
    memories = [
        Memory("project_fact", "language", "Python and Rust project."),
        Memory("recipe", "recipe:test", "To run the tests: `cargo test`."),
    ]
    result = score(key, memories)
    assert result.wrong == 1
    assert result.junk == 0
    assert result.noise == 1
    assert [i.id for i in result.missed] == ["lint", "language"]
    assert (result.high_covered, result.high_total) == (1, 2)
    assert (result.all_covered, result.all_total) == (1, 3)


@pytest.mark.parametrize(
    ("key", "content", "reason"),
    [
        ("pref:master", "Don't touch master.**.", "markdown residue"),
        ("recipe:lint", "To lint: `ruff check /Users/ann/work/app/x.py`.", "home"),
        ("module:~", "Module `~`: ~/.claude/CLAUDE.md.", "not a unit of code"),
        ("module:deps", "Module `deps`: deps/phoenix/lib/phoenix.ex.", "not a unit of code"),
        ("module:-experiments", "Module `-experiments`: -experiments/a.md.", "not a unit of code"),
        ("module:notes", "Module `notes`: notes/a.md, notes/b.md.", "only non-code files"),
        ("x", "`mix test` failed with `** (CompileError) lib/a.ex:3: und…", "backticks"),
        ("x", "Run the migrations before starting the server…", "cut off"),
        ("x", "To test, see the packages under `src/pkg`...", "cut off"),
        ("x", "Vitest", "one word"),
        ("x", "Tests run with `cargo test`", "no ending"),
        ("x", "Worktree at /work/.claude/worktrees/agent-1/ holds notes.", "home"),
    ],
)
def test_junk_rules(key: str, content: str, reason: str) -> None:
    assert reason in junk_reason(Memory("project_fact", key, content))


@pytest.mark.parametrize(
    "content",
    [
        "Module `deep_manifest`: deep_manifest/deep_manifest.py, deep_manifest/__init__.py.",
        "To run the tests: `uv run pytest` (e.g. `uv run pytest test/test_a.py::test_b…`).",
        "JavaScript project.",
        "`git push` failed with `has no upstream branch`; it passed after `git push -u origin x`.",
        "Module `src/agents`: src/agents/registry.ts.",
        "README.md, under Testing, gives: `go test ./...`.",
    ],
)
def test_clean_memories_are_not_junk(content: str) -> None:
    assert junk_reason(Memory("project_fact", "k", content)) == ""


def test_a_reviewed_one_off_is_junk() -> None:
    verdict = judge(_key(), Memory("user_style", "pref:summarize", "Don't summarize."))
    assert verdict.junk.startswith("one-off")
    assert not verdict.usable


def test_duplicates_by_key_by_words_and_by_the_same_gold_items() -> None:
    key = _key()
    memories = [
        Memory("project_fact", "module:api", "Module `api`: src/api/routes.rs."),
        Memory("project_fact", "module:api", "Module `api`: src/api/handlers.rs."),  # same key
        Memory("recipe", "recipe:test", "To run the tests: `cargo test`."),
        Memory("recipe", "recipe:test2", "To run the tests: `cargo test --all`."),  # same words
        Memory("recipe", "lint", "To lint: `cargo clippy -- -D warnings`."),
        Memory("recipe", "lint2", "Lint the crate: clippy with deny on warnings."),  # same item
        Memory("pitfall", "p", "To run the tests: `cargo test` fails without a database."),
    ]
    verdicts = [judge(key, m) for m in memories]
    pairs = duplicate_pairs(key, verdicts)
    assert [(a.key, b.key) for a, b in pairs] == [
        ("module:api", "module:api"),
        ("recipe:test", "recipe:test2"),
        ("lint", "lint2"),
    ]
    assert score(key, memories).duplicates == 3


def test_a_memory_that_covers_more_is_not_a_duplicate() -> None:
    key = _key()
    memories = [
        Memory("recipe", "a", "To lint: `cargo clippy -- -D warnings`."),
        Memory("recipe", "b", "Before committing: `cargo clippy -- -D warnings`, `cargo test`."),
    ]
    assert duplicate_pairs(key, [judge(key, m) for m in memories]) == []


def test_pitfalls_written_from_one_template_are_not_duplicates_by_their_template_words() -> None:
    key = _key()
    memories = [
        Memory(
            "pitfall",
            "p1",
            "`cargo test` failed with `error[E0425]: cannot find value`; editing src/lib.rs "
            "(named in the error) fixed it.",
        ),
        Memory(
            "pitfall",
            "p2",
            "`cargo build` failed with `linker cc not found`; editing build.rs "
            "(named in the error) fixed it.",
        ),
    ]
    assert duplicate_pairs(key, [judge(key, m) for m in memories]) == []


def test_questions_look_at_the_top_five_usable_results_only() -> None:
    key = _key()
    result = score(key, [])
    filler = [Memory("project_fact", f"f{n}", f"Fact number {n} here.") for n in range(5)]
    add_question(
        result,
        key,
        Question("how do I run the tests?", ("test",)),
        [
            *filler,
            Memory("recipe", "t", "To run the tests: `cargo test`."),
        ],
    )
    add_question(
        result,
        key,
        Question("how do I lint?", ("lint",)),
        [
            Memory("recipe", "l", "To lint: `cargo clippy -- -D warnings`."),
        ],
    )
    junk_answer = Memory("recipe", "t", "To run the tests: `cargo test` **.")
    add_question(result, key, Question("tests?", ("test",)), [junk_answer])
    assert (result.hits, result.questions) == (1, 3)
    assert [hit for _, hit in result.question_hits] == [False, True, False]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("language"), "language"),
        (lambda d: d.update(item=[]), "at least one"),
        (lambda d: d["item"][0].update(importance="urgent"), "importance"),
        (lambda d: d["item"][0].update(match=[["(unclosed"]]), "bad regex"),
        (lambda d: d["item"][0].update(match=[]), "concept"),
        (lambda d: d["item"][1].update(id="test"), "duplicate"),
        (lambda d: d["question"][0].update(answers=["nope"]), "unknown answers"),
        (lambda d: d["item"][2].update(types=["fact"]), "types"),
        (lambda d: d["wrong"][0].pop("why"), "why"),
        (lambda d: d.pop("split"), "split"),
        (lambda d: d.update(split="train"), "split"),
        (lambda d: d.update(session_start=["nope"]), "session_start"),
        (lambda d: d.update(session_start="test"), "session_start"),
        (lambda d: d.update(session_start_host_loaded={"cursor": ["test"]}), "unknown host"),
        (lambda d: d.update(session_start_host_loaded={"claude": ["lint"]}), "session_start"),
        (lambda d: d.update(session_start_host_loaded=["test"]), "table"),
    ],
)
def test_malformed_keys_are_refused_with_the_reason(change: object, message: str) -> None:
    data = tomllib.loads(KEY_TOML)
    change(data)  # type: ignore[operator]
    with pytest.raises(AnswerKeyError, match=message):
        parse_key(data, "demo.toml")


def test_a_broken_toml_file_names_itself(tmp_path: Path) -> None:
    (tmp_path / "broken.toml").write_text("project = \n", encoding="utf-8")
    with pytest.raises(AnswerKeyError, match=r"broken\.toml"):
        load_keys(tmp_path)


def test_the_shipped_keys_cover_four_projects_in_three_languages() -> None:
    keys = load_keys()
    assert len(keys) >= 4
    assert len({k.language.split()[0] for k in keys}) >= 3
    for key in keys:
        assert 8 <= len(key.questions) <= 12, key.project
        assert any(i.importance == "high" for i in key.items), key.project
        # Every gold note is a sentence a reader understands on its own.
        for item in key.items:
            assert junk_reason(Memory(item.kind, item.id, item.note)) == "", item.id


def test_the_shipped_keys_are_split_and_name_what_must_not_be_said() -> None:
    keys = load_keys()
    assert {"tuning", "held-out"} <= {k.split for k in keys} <= set(SPLITS)
    assert sum(1 for k in keys if k.split == "held-out") >= 3
    # The fresh and dev splits' projects each have their transcripts in the repository.
    collected = [k for k in keys if k.split in ("fresh", "dev")]
    assert collected
    assert all((fixture_pipeline.PROJECT_TRANSCRIPTS / k.project).is_dir() for k in collected)
    for key in keys:
        assert key.wrong, f"{key.project}: no [[wrong]] facts"
        # A gold note never states what its own key calls wrong.
        for item in key.items:
            verdict = judge(key, Memory(item.kind, item.id, item.note))
            assert not verdict.wrong, (key.project, item.id, verdict.wrong)


def test_the_shipped_keys_name_fixture_projects() -> None:
    base = fixture_pipeline.DEFAULT_FIXTURES
    if not base.is_dir():
        pytest.skip(f"no fixture transcripts at {base}")
    keys = load_keys()
    _, missing = answer_key.keyed_projects(keys, [base, fixture_pipeline.PROJECT_TRANSCRIPTS])
    assert missing == []


# -- the report: splits, wrong facts, targets ---------------------------------------------------


def _scored(project: str, split: str, memories: list[Memory]) -> Score:
    data = tomllib.loads(KEY_TOML)
    data.update(project=project, split=split)
    return score(parse_key(data, f"{project}.toml"), memories)


def test_the_report_puts_tuning_and_held_out_projects_in_tables_apart() -> None:
    good = [Memory("recipe", "t", "To run the tests: `cargo test`.")]
    wrong = [*good, Memory("project_fact", "l", "Python project.")]
    scores = [
        _scored("tuned-a", "tuning", good),
        _scored("fresh-b", "held-out", wrong),
        _scored("tuned-c", "tuning", good),
    ]
    text = answer_key_table.tables(scores, {"tuned-a": 10, "fresh-b": 20, "tuned-c": 30})
    tuning, held_out = text.split("### held-out projects")
    assert "tuned-a" in tuning and "tuned-c" in tuning and "fresh-b" not in tuning
    assert "fresh-b" in held_out and "tuned-" not in held_out

    def cells(table: str, first: str) -> list[str]:
        (line,) = [row for row in table.splitlines() if row.startswith(f"| {first}")]
        return [c.strip() for c in line.strip("|").split("|")]

    events = answer_key_table.HEAD.index("events")
    # Each table pools its own projects: events 10 + 30 for tuning, 20 for held-out.
    assert cells(tuning, "all (pooled)")[events] == "40"
    assert cells(held_out, "all (pooled)")[events] == "20"
    # The wrong-facts column counts memories that match a [[wrong]] pattern.
    row = cells(held_out, "fresh-b")
    assert row[answer_key_table.HEAD.index("wrong facts")] == "1"
    assert row[answer_key_table.HEAD.index("noise (wrong+junk)")] == "1+0/2 50 %"
    assert cells(tuning, "all (pooled)")[answer_key_table.HEAD.index("wrong facts")] == "0"


def test_fresh_projects_get_their_own_table_pooled_line_and_targets() -> None:
    good = [Memory("recipe", "t", "To run the tests: `cargo test`.")]
    wrong = [*good, Memory("project_fact", "l", "Python project.")]
    scores = [
        _scored("tuned-a", "tuning", good),
        _scored("fresh-f", "fresh", wrong),
        _scored("kept-h", "held-out", good),
    ]
    assert [s.split for s in scores] == ["tuning", "fresh", "held-out"]
    text = answer_key_table.tables(scores, {"tuned-a": 10, "fresh-f": 20, "kept-h": 30})
    # Tuning first, then held-out, then fresh: each split's projects in their own table only.
    head, fresh = text.split("### fresh projects")
    tuning, held_out = head.split("### held-out projects")
    assert "fresh-f" in fresh and "tuned-a" not in fresh and "kept-h" not in fresh
    assert "fresh-f" not in tuning and "fresh-f" not in held_out
    (pooled_line,) = [row for row in fresh.splitlines() if row.startswith("| all (pooled)")]
    cells = [c.strip() for c in pooled_line.strip("|").split("|")]
    # The fresh table pools its own project's events alone.
    assert cells[answer_key_table.HEAD.index("events")] == "20"
    # A fresh project is held to the held-out bar: one wrong fact fails it.
    assert "wrong facts <= 0: NOT met (1)" in fresh
    names = [f.measure for f in answer_key_table.figures(scores)]
    assert "fresh: high-importance gold covered" in names
    assert "tuning: high-importance gold covered" in names


def test_a_key_names_one_of_the_known_splits() -> None:
    data = tomllib.loads(KEY_TOML)
    assert parse_key({**data, "split": "fresh"}, "f.toml").split == "fresh"
    with pytest.raises(AnswerKeyError, match="split"):
        parse_key({**data, "split": "new"}, "n.toml")


def test_high_items_are_counted_by_kind_across_projects() -> None:
    tests = [Memory("recipe", "t", "To run the tests: `cargo test`.")]
    scores = [_scored("a", "held-out", tests), _scored("b", "held-out", [])]
    # Two projects, two high recipes each; only the first project's test recipe is covered.
    assert high_by_kind(scores) == "high by kind (pooled): recipe 1/4 25 %"
    assert high_by_kind([]) == "high by kind (pooled): none"
    text = answer_key_table.tables(scores, {})
    assert "high by kind (pooled): recipe 1/4 25 %" in text


def test_held_out_targets_ask_for_no_wrong_fact_at_all() -> None:
    covered = [
        Memory("recipe", "t", "To run the tests: `cargo test`."),
        Memory("recipe", "l", "To lint: `cargo clippy -- -D warnings`."),
    ]
    clean = [_scored("b", "held-out", covered)]
    assert "wrong facts <= 0: met (0)" in answer_key_table.targets(clean, "held-out")
    assert "high-importance coverage >= 70%: met (100 %)" in answer_key_table.targets(
        clean, "held-out"
    )
    many = [Memory("recipe", f"x{n}", f"Fact {n} about the crate.") for n in range(18)]
    one_wrong = [
        _scored("b", "held-out", [*covered, *many, Memory("project_fact", "p", "Python.")])
    ]
    report = answer_key_table.targets(one_wrong, "held-out")
    assert "wrong facts <= 0: NOT met (1)" in report
    assert "noise <= 10%: met (5 %)" in report  # 1 of 21: noise alone would pass
    # The tuning targets have no wrong-fact line and a looser noise bar.
    assert "wrong facts" not in answer_key_table.targets(one_wrong, "tuning")


def test_a_project_without_memories_says_nothing_wrong() -> None:
    report = answer_key_table.targets([_scored("b", "held-out", [])], "held-out")
    assert "wrong facts <= 0: met (0)" in report
    assert "noise <= 10%: met (n/a)" in report
    assert "high-importance coverage >= 70%: NOT met (0 %)" in report


def test_keys_are_found_in_every_fixture_root(tmp_path: Path) -> None:
    shared, own = tmp_path / "shared", tmp_path / "own"
    for folder in (
        shared / "tool" / "real_projects" / "-src-a",
        own / "b-project" / "sessions",
    ):
        folder.mkdir(parents=True)
        (folder / "s.jsonl").write_text("{}\n", encoding="utf-8")
    data = tomllib.loads(KEY_TOML)
    keys = [
        parse_key({**data, "project": name}, f"{name}.toml")
        for name in ("-src-a", "b-project", "c-missing")
    ]
    found, missing = answer_key.keyed_projects(keys, [shared, own, tmp_path / "absent"])
    assert [name for name, _ in found] == ["-src-a", "b-project"]
    assert missing == ["c-missing"]


def test_bench_figures_give_each_split_apart() -> None:
    scores = [
        _scored("tuned-a", "tuning", [Memory("recipe", "t", "To run the tests: `cargo test`.")]),
        _scored("fresh-b", "held-out", []),  # no memory at all: no division by zero
    ]
    named = {f.measure: f.value for f in answer_key_table.figures(scores)}
    assert named["tuning: high-importance gold covered"] == 0.5
    assert named["held-out: high-importance gold covered"] == 0.0
    assert named["held-out: noise (wrong + junk)"] == 0.0
    assert named["held-out: wrong facts"] == 0
    # Without held-out projects there is one set of figures.
    alone = answer_key_table.figures(scores[:1])
    assert all(f.measure.startswith("tuning: ") for f in alone)


# -- the session-start text ----------------------------------------------------------------------

HOOK_TEXT = f"""{FRAME}

### Project
- Language: Python project (pyproject.toml).

### How things are run here
- To lint: `cargo clippy -- -D warnings`.

### Known pitfalls
- `cargo test` failed with `linker not found`; installing build-essential fixed it.

📏 ~80 tokens"""


def test_the_judge_knows_every_section_of_the_session_start_text() -> None:
    assert set(HOOK_SECTIONS) == set(SECTION_TITLES)


def test_the_session_start_text_is_judged_line_by_line_with_its_sections_types() -> None:
    key = _key()
    result = score_hook(key, HOOK_TEXT)
    # The test item names no `types`, so the pitfall line that ran `cargo test` covers it.
    assert result.needed == ("test",)
    assert result.covered == ("test",)
    assert result.wrong == ("Language: Python project (pyproject.toml).",)
    # A key whose needed item is limited to recipes is not covered by a pitfall line.
    data = tomllib.loads(KEY_TOML)
    data["item"][0]["types"] = ["recipe"]
    strict = score_hook(parse_key(data, "demo.toml"), HOOK_TEXT)
    assert strict.missing == ("test",)
    # Nothing to say: nothing needed is stated, nothing wrong.
    empty = score_hook(key, "")
    assert (empty.covered, empty.wrong, empty.missing) == ((), (), ("test",))


def test_a_host_that_loads_the_file_saying_an_item_need_not_state_it() -> None:
    data = tomllib.loads(KEY_TOML)
    data["session_start_host_loaded"] = {"claude": ["test"], "codex": ["test"]}
    key = parse_key(data, "demo.toml")
    assert key.start_items("claude") == () and key.start_items("codex") == ()
    assert key.start_items("gemini") == ("test",)
    assert score_hook(key, "", "claude").missing == ()
    assert score_hook(key, "", "gemini").missing == ("test",)
    assert score_hook(key, HOOK_TEXT, "gemini").covered == ("test",)


def test_the_shipped_keys_spare_claude_and_codex_only_what_agents_md_alone_says() -> None:
    keys = {k.project: k for k in load_keys() if k.project in ("julia", "php-ai-toolkit")}
    for key in keys.values():
        assert key.start_items("claude") == () and key.start_items("codex") == ()
        assert key.start_items("gemini") == key.session_start != ()


def test_the_session_start_columns_and_target_appear_when_the_hook_was_measured() -> None:
    measured = _scored("fresh-b", "held-out", [])
    assert "session start" not in answer_key_table.table([measured], {})
    assert "session-start" not in answer_key_table.targets([measured], "held-out")
    measured.hook = score_hook(_key(), HOOK_TEXT)
    text = answer_key_table.table([measured], {})
    (row,) = [line for line in text.splitlines() if line.startswith("| fresh-b")]
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[-3:] == ["1/1", "1", "0"]
    report = answer_key_table.targets([measured], "held-out")
    assert "no wrong fact: NOT met (1/1 items, 1 wrong lines)" in report
    assert "WRONG Language: Python project" in answer_key.details(measured)
