"""The extractors' patterns read a huge hostile text in one pass.

Each text is hundreds of thousands of characters of the prefix a backtracking pattern would try
again from every position (a run of `[`, of `[a](`, one long word, blanks before a name or with
no dash after them, `?` after a question): minutes or hours of work before, milliseconds now.
The calls run in one child process that must finish before a generous backstop (it names each
call before making it, so a call that never ends is named); nothing is timed.
"""

from __future__ import annotations

from tests.one_pass import answers

#: (module, function, arguments, what it answers) for each hostile text.
CALLS = [
    # A lead line tried for how the code being written must behave ("the logic I want:").
    (
        "squirrel_memory.extractors.behaviour_lists",
        "without_behaviour_lists",
        "'the logic ' * 60_000 + 'should ' * 60_000 + ':\\n- always x'",
        "the logic",
    ),
    # A reply tried for a rule of the project's standards it cites ("`a` should be `b` (…)").
    (
        "squirrel_memory.extractors.cited_conventions",
        "cited_rules",
        "'`a` should be `b` (' + 'x ' * 150_000",
        [],
    ),
    (
        "squirrel_memory.extractors.cited_conventions",
        "cited_rules",
        "'`a` should be `b`, per ' + 'the ' * 100_000",
        [],
    ),
    # A user's sentence tried for a new wish after a comma or a slash.
    (
        "squirrel_memory.extractors.wanted_ways",
        "wanted_ways",
        "'keep it' + '/i ' * 100_000 + 'x', after_assistant_action=False",
        [],
    ),
    # A user's sentence tried for a goal of the whole project ("my overall goal is to …").
    (
        "squirrel_memory.extractors.wanted_ways",
        "wanted_ways",
        "'my ' + 'overall ' * 40_000 + ' ' * 100_000 + 'goal', after_assistant_action=False",
        [],
    ),
    # A commit message tried for the line that closes an issue.
    (
        "squirrel_memory.extractors.evidence.git_ways",
        "closing_line",
        "'fixes' + ' ' * 300_000",
        "",
    ),
    (
        "squirrel_memory.extractors.evidence.git_ways",
        "closing_line",
        "'Fixes' + ' \\t:' * 100_000 + ' x'",
        "",
    ),
    # A read's output tried as a file wrapped in tags, its lines numbered `N: `.
    (
        "squirrel_memory.extractors.file_reads",
        "unwrapped_read",
        "'<path>' + 'a' * 300_000",
        "<path>aaa",
    ),
    (
        "squirrel_memory.extractors.file_reads",
        "unwrapped_read",
        "'<path>a</path>\\n<type>file</type>\\n<content>\\n' + '1' * 300_000",
        "",
    ),
    # A user's message tried for the files attached to it (a read's input, then its result).
    (
        "squirrel_memory.extractors.file_reads",
        "_numbered_run",
        "'1\\t' + ' ' * 300_000 + 'x'",
        "1\t" + " " * 7,
    ),
    # A committed path tried as a page of the project's CLI reference.
    (
        "squirrel_memory.extractors.cli_reference",
        "reference_page",
        "'docs/' + 'a/' * 150_000",
        None,
    ),
    (
        "squirrel_memory.extractors.cli_reference",
        "reference_page",
        "'docs/' + 'a' * 300_000 + '/cli/x.md'",
        None,
    ),
    # An assistant's answer: its links taken out, then a sentence that only reacts left out.
    ("squirrel_memory.extractors.reported", "_cause", "'[' * 300_000", ""),
    ("squirrel_memory.extractors.reported", "_cause", "'[a](' * 200_000", ""),
    ("squirrel_memory.extractors.reported", "_cause", "'a' * 300_000", ""),
    ("squirrel_memory.extractors.reported", "_cause", "'Ah, ' + 'a' * 300_000 + ' b'", ""),
    # A line of an instruction file or README, its links taken out.
    ("squirrel_memory.repository.instructions", "clean_markdown", "'[' * 300_000", "[" * 9),
    ("squirrel_memory.repository.instructions", "clean_markdown", "'[a](' * 200_000", "[a]([a](["),
    # The one Markdown link pattern every reader of prose shares, and each of those readers.
    ("squirrel_memory.markdown_links", "unlinked", "'[' * 300_000", "[" * 9),
    ("squirrel_memory.markdown_links", "unlinked", "'[a](' * 200_000", "[a]([a](["),
    ("squirrel_memory.extractors.stated_causes", "sentences", "'[' * 300_000", ["[" * 9]),
    ("squirrel_memory.extractors.stated_causes", "sentences", "'[a](' * 200_000", ["[a]([a](["]),
    ("squirrel_memory.extractors.lessons", "_explaining_sentence", "'[' * 300_000", ""),
    ("squirrel_memory.extractors.lessons", "_explaining_sentence", "'[a](' * 200_000", ""),
    # A cause that shows only under a condition, what a tool leaves undone, what stopped it.
    (
        "squirrel_memory.extractors.lessons",
        "_explaining_sentence",
        "'The failures ' + 'only ' * 60_000 + 'x'",
        "",
    ),
    (
        "squirrel_memory.extractors.lessons",
        "_explaining_sentence",
        "'The tests ' + ' ' * 300_000",
        "",
    ),
    (
        "squirrel_memory.extractors.lessons",
        "_explaining_sentence",
        "'Stopped ' + 'by ' * 100_000",
        "",
    ),
    # A closing report's sentence with advice after ", so": the statement before it.
    ("squirrel_memory.extractors.report_sentences", "clauses", "' so' * 100_000", []),
    ("squirrel_memory.extractors.report_sentences", "clauses", "', so ' + 'a ' * 150_000", []),
    # The parts a summary lists, each with what it is in brackets.
    (
        "squirrel_memory.extractors.report_sentences",
        "stated_shape",
        "'Modules: ' + '`a` (b), ' * 40_000, ''",
        "",
    ),
    (
        "squirrel_memory.extractors.report_sentences",
        "stated_shape",
        "'3 crates: `a` (' + 'b ' * 150_000, ''",
        "",
    ),
    # An insight block's sentences, in any script.
    (
        "squirrel_memory.extractors.finding_sentences",
        "insight_sentences",
        "'a. ' * 100_000",
        ["a. a. a. "],
    ),
    ("squirrel_memory.extractors.finding_sentences", "insight", "'a ' * 150_000", ""),
    # A finding behind a label, a rule behind an answer's lead word, an empty search's cause.
    (
        "squirrel_memory.extractors.finding_sentences",
        "finding",
        "\"Here's what \" + ' ' * 300_000 + 'x'",
        "",
    ),
    (
        "squirrel_memory.extractors.finding_sentences",
        "named_rule",
        "'No: ' + 'a ' * 150_000, ''",
        "",
    ),
    (
        "squirrel_memory.extractors.finding_sentences",
        "named_rule",
        "'No ' + ' ' * 300_000 + 'x', ''",
        "",
    ),
    (
        "squirrel_memory.extractors.stated_causes",
        "stated_cause",
        "'`rg` found ' + 'no ' * 100_000 + 'because x'",
        ("", ""),
    ),
    ("squirrel_memory.extractors.log_failures", "_sentences", "'[' * 300_000", ["[" * 9]),
    ("squirrel_memory.extractors.log_failures", "_sentences", "'[a](' * 200_000", ["[a]([a](["]),
    ("squirrel_memory.extractors.written_notes", "_clean", "'[' * 300_000", "[" * 9),
    ("squirrel_memory.extractors.written_notes", "_clean", "'[a](' * 200_000", "[a]([a](["),
    # An answer's first line tried as the kind of failure it names ("This is a … failure.").
    (
        "squirrel_memory.extractors.labelled_fixes",
        "_diagnosed_pair",
        "'This is a ' + 'a ' * 150_000 + 'x\\nFix: run'",
        None,
    ),
    (
        "squirrel_memory.extractors.labelled_fixes",
        "_diagnosed_pair",
        "'This is a ' + 'a' * 300_000 + ' failure, not a b'",
        None,
    ),
    # A doc comment's sentence that leads into a list of named points.
    (
        "squirrel_memory.extractors.modules",
        "_named_list",
        "'A. ' + ' ' * 300_000 + 'x:', ['- `a` b', '- `c` d'], 240",
        None,
    ),
    (
        "squirrel_memory.extractors.modules",
        "_named_list",
        "'A ' + 'a' * 300_000, ['- `' + 'a' * 300_000], 240",
        None,
    ),
    # A list under a caveats heading: a label that never closes, a run of blanks.
    (
        "squirrel_memory.extractors.listed_caveats",
        "_points",
        "'**Caveats**\\n1. **' + 'a' * 300_000",
        [],
    ),
    (
        "squirrel_memory.extractors.listed_caveats",
        "_points",
        "'**Caveats**\\n- **abc**' + ' ' * 300_000",
        [],
    ),
    # A user's message cut into clauses: a long run of blanks with no spaced dash after it.
    ("squirrel_memory.extractors.clauses", "clauses", "'a' + ' ' * 300_000 + 'b'", []),
    # A runner's list of tasks: each line tried as an indented name.
    (
        "squirrel_memory.extractors.listed_tasks",
        "listed_in",
        "'Available tasks:\\n' + ' ' * 300_000 + '!'",
        [],
    ),
    # A reply's paragraph tried as a question about the project ("What is Ledger?").
    (
        "squirrel_memory.extractors.summaries",
        "_reply_summary",
        "'what is a' + '?' * 300_000 + 'x', '/p'",
        "",
    ),
    # A user's sentence tried as a statement of what the repository is.
    (
        "squirrel_memory.extractors.user_about",
        "user_statement",
        "'this project is a ' + ' ' * 300_000 + 'x'",
        "",
    ),
    # A user's sentence tried as a statement naming the project.
    (
        "squirrel_memory.extractors.user_about",
        "named_statement",
        "'since forem is a ' + ' a' * 150_000 + 'x', 'forem'",
        "",
    ),
    # A message's first sentence tried as opening on what the work is.
    (
        "squirrel_memory.extractors.user_about",
        "opening_statement",
        "'this is a ' + ' ' * 300_000 + 'x'",
        "",
    ),
    # A clause tried as a rule after the kind of work it holds for ("For UI changes, …").
    (
        "squirrel_memory.extractors.standing_marks",
        "kind_last",
        "'for ' + 'a ' * 150_000",
        "for a a a",
    ),
    # An approved plan's text tried for its checks: one long line, no heading.
    (
        "squirrel_memory.extractors.planned_checks",
        "plan_checks",
        "'## Verification\\n' + '`a ' * 100_000, '/p'",
        [],
    ),
    # A run-on sentence cut at its commas: its rule kept, the blanks read once.
    (
        "squirrel_memory.extractors.clauses",
        "clauses",
        "'never do x,' + ' ' * 300_000 + 'and then b' * 30",
        [("never do x", "never do x")],
    ),
    # An approved fix plan: the files it names, its fenced blocks taken out.
    (
        "squirrel_memory.extractors.approved_fixes",
        "_named_files",
        "'file: ' + 'a' * 300_000, '/p'",
        [],
    ),
    (
        "squirrel_memory.extractors.approved_fixes",
        "_named_files",
        "'```\\n' + ' ' * 300_000, '/p'",
        [],
    ),
    ("squirrel_memory.extractors.approved_fixes", "_first_sentence", "'a' * 300_000", ""),
    # A failed run's line tried as a count of failed checks, a reply's as one that says all
    # of them fail, an output's as a shell's numbered error or a refusal in words.
    (
        "squirrel_memory.extractors.summary_lines",
        "is_summary",
        "'a' * 300_000 + ': 1 checks'",
        False,
    ),
    ("squirrel_memory.extractors.lessons", "_explaining_sentence", "'All ' + 'a ' * 150_000", ""),
    (
        "squirrel_memory.extractors.pitfalls",
        "first_error_line",
        "'sh' * 150_000 + ': 1: x is not allowed'",
        "",
    ),
    (
        "squirrel_memory.extractors.output_explanations",
        "explanation",
        "'panicked at ' * 20_000 + 'a:' * 100_000",
        "",
    ),
    # An error line tried for a backtrace's frame before its message.
    ("squirrel_memory.extractors.pitfall_wording", "unframed", "'a' * 300_000", "a" * 9),
    (
        "squirrel_memory.extractors.pitfall_wording",
        "unframed",
        "'a:1:in `' + 'b' * 300_000 + \"': c\"",
        "a:1:in `b",
    ),
    # A cause tried for the clauses that say the fix again.
    (
        "squirrel_memory.extractors.pitfall_wording",
        "_unrepeated",
        "'so, I added `a` ' * 30_000 + '; ' * 100_000, '`a`'",
        "; ; ; ; ;",
    ),
    # A user's clause tried after its reason ("since CI is slow, run …"): blanks, no comma.
    (
        "squirrel_memory.extractors.user_wording",
        "after_reason",
        "'because ' + ' a' * 150_000",
        None,
    ),
    # A message's first sentence tried as a thing ruled out with "Ever." after it.
    (
        "squirrel_memory.extractors.user_wording",
        "ruled_out_for_good",
        "'no ' + ' ' * 300_000 + 'x. ever ' + ' ' * 300_000 + 'x'",
        False,
    ),
    # A user's refusal set off by a comma, then many more, then none.
    ("squirrel_memory.extractors.clauses", "clauses", "'no' + ' no' * 150_000 + ' x'", []),
    # A clause tried for a kind of thing the work makes ("any UI you build").
    (
        "squirrel_memory.extractors.standing_marks",
        "standing_words",
        "'any ' + 'a ' * 150_000 + 'x'",
        False,
    ),
    # A clause tried as a prohibition of a kind of thing ("don't leave commented out code").
    (
        "squirrel_memory.extractors.instruction_forms",
        "statement",
        "\"don't leave \" + 'a ' * 150_000 + 'x', imperative_ok=False",
        None,
    ),
    # A message tried for what done means for any piece of work.
    (
        "squirrel_memory.extractors.workflow_habits",
        "workflow_habits",
        "\"don't tell me something is \" + ' ' * 300_000 + 'x', after_assistant_action=False",
        [],
    ),
    # A commit's subject tried as a release of a version.
    (
        "squirrel_memory.extractors.release_commits",
        "commit_subject",
        "'git commit -am ' + '\"x' * 150_000",
        "x",
    ),
    # A test run's output tried as packages without a test file: one long line of blanks.
    (
        "squirrel_memory.extractors.pitfalls",
        "nothing_ran",
        "'? ' + ' ' * 300_000 + 'x [no test'",
        "",
    ),
    # A user's report with its quoted lines left out: a long quoted line.
    ("squirrel_memory.extractors.stated_causes", "reported_defect", "'> ' + 'a ' * 150_000", ""),
    # A user's sentence read for the delivery steps it asks along other work.
    (
        "squirrel_memory.extractors.routine_requests",
        "steps_asked",
        "'commit' + ' ' * 300_000 + ' - x'",
        frozenset({"commit"}),
    ),
    (
        "squirrel_memory.extractors.routine_requests",
        "steps_asked",
        "'コミット' * 100_000",
        frozenset(),
    ),
    # A user's message that asks a question, read for the length of the answer it asks.
    (
        "squirrel_memory.extractors.workflow_habits",
        "workflow_clauses",
        "'why? ' + '？' * 300_000 + ' 简短'",
        {"pref:answer_length": "简短"},
    ),
    (
        "squirrel_memory.extractors.workflow_habits",
        "workflow_clauses",
        "'explain ' + 'a' * 300_000 + ', briefly'",
        {},
    ),
    # A user's message read for the clauses that may be requests (read up to 2,000 characters).
    ("squirrel_memory.extractors.said_requests", "request_clauses", "' -' * 999", []),
    ("squirrel_memory.extractors.said_requests", "short_requests", "'a. ' + ' -' * 999", []),
    # A user's message read for a paste it announces: one long line with an apostrophe-less
    # word before its colon, and many short colon lines with text after them.
    ("squirrel_memory.extractors.own_words", "paste_start", "'a' * 300_000 + ':\\nb'", None),
    # An explanation read for "your" before the project's file: a long path after it.
    (
        "squirrel_memory.extractors.finding_sentences",
        "_projects_own",
        "'your ' + 'a-' * 150_000",
        "your a-a-",
    ),
    ("squirrel_memory.extractors.own_words", "paste_start", "'the x said:\\n' * 50_000", 12),
    # A user's message read for a rule about one thing of the project, sentence by sentence.
    (
        "squirrel_memory.extractors.one_thing_rules",
        "about_one_thing",
        "('Never ' + 'a' * 250 + '/, ' + 'b_' * 20 + '.\\n') * 3_000",
        None,
    ),
    # A user's message read for the form it hands work over in (read up to 20,000 characters).
    (
        "squirrel_memory.extractors.handover_forms",
        "message_forms",
        "'## ' + ' ' * 19_000 + 'x'",
        {},
    ),
    (
        "squirrel_memory.extractors.handover_forms",
        "message_forms",
        "'implement ' + 'a/' * 4_000 + 'b.md\\n> x' + ' ' * 9_000 + '\\nreview'",
        {"review": ()},
    ),
    (
        "squirrel_memory.extractors.handover_forms",
        "message_forms",
        "'pass ' + '```\\n def test_(' * 700 + '`' * 9_000",
        {"test": ()},
    ),
    # A user's sentence read for the action at its head, past its leads.
    ("squirrel_memory.extractors.asked_actions", "action_of", "'ok ' + '!' * 300_000 + 'x'", None),
    (
        "squirrel_memory.extractors.asked_actions",
        "action_of",
        "'also ' * 100_000 + 'spawn a worker'",
        ("spawn", "worker"),
    ),
    # A user's message without the rules it takes back, hypothetical or for the day: sentences
    # each taken back by the next, one long run of blanks, a condition that never says "ever".
    ("squirrel_memory.extractors.passing_rules", "standing_text", "'Forget that. ' * 100_000", ""),
    (
        "squirrel_memory.extractors.passing_rules",
        "standing_text",
        "'a' + ' ' * 300_000 + 'b'",
        "a" + " " * 8,
    ),
    (
        "squirrel_memory.extractors.passing_rules",
        "standing_text",
        "'if we ' + 'x ' * 150_000",
        "if we x x",
    ),
    # A polite request, a complaint and a lead of a kind of task, each over a long run of words
    # or blanks with no end.
    (
        "squirrel_memory.extractors.user_wording",
        "asked_as_rule",
        "'would you mind ' + 'a ' * 150_000 + '?'",
        None,
    ),
    (
        "squirrel_memory.extractors.impersonal_habits",
        "impersonal_form",
        "'it drives me crazy when you ' + 'a ' * 150_000",
        None,
    ),
    (
        "squirrel_memory.extractors.impersonal_habits",
        "impersonal_form",
        "\"it's important that all \" + 'a ' * 150_000",
        None,
    ),
    (
        "squirrel_memory.extractors.standing_marks",
        "standing_words",
        "'before you ' + 'a ' * 150_000",
        False,
    ),
    (
        "squirrel_memory.extractors.standing_words",
        "standing_sentences",
        "'siempre ' + 'a ' * 150_000",
        [],
    ),
    # Whole-session hostile texts: a user's message tried for its language, a runner's task
    # list, a commit gate's checks, an error line's paths, a code's imports, a command's
    # substitutions and words, a reply's labelled commands and steps to apply, a commit's
    # error names, a question's marker, a hook file's ids, a code name's closing mark, and a
    # listing's file names.
    ("squirrel_memory.extractors.reply_language", "_plain", "'hello ' + '{' * 300_000", "hello"),
    ("squirrel_memory.extractors.reply_language", "_plain", "'a' * 300_000 + ' x.py'", "a" * 9),
    ("squirrel_memory.extractors.listed_tasks", "listed_in", "'\\n' * 300_000", []),
    ("squirrel_memory.extractors.listed_tasks", "listed_in", "' \\n' * 150_000", []),
    ("squirrel_memory.extractors.commit_gates", "hook_checks", "'Error: ' + '.' * 300_000", []),
    ("squirrel_memory.extractors.pitfalls", "normalise_line", "'/' * 300_000", "/" * 9),
    ("squirrel_memory.extractors.pitfalls", "normalise_line", "'_' * 300_000", "_" * 9),
    ("squirrel_memory.extractors.manifests", "libraries_in", "'\\n' * 300_000", set()),
    ("squirrel_memory.extractors.manifests", "libraries_in", "' \\n' * 150_000, 'Rust'", set()),
    (
        "squirrel_core.typed_commands",
        "_with_substitutions",
        "['$'] * 4_000, '$(' * 4_000",
        "'$' '$' '",
    ),
    (
        "squirrel_memory.extractors.apply_steps",
        "_steps",
        "'a' * 300_000 + '\\n```bash\\nx'",
        None,
    ),
    ("squirrel_memory.extractors.commit_fixes", "_error_names", "'a-' * 150_000", (set(), set())),
    ("squirrel_memory.extractors.commit_fixes", "_error_names", "'/' * 300_000", (set(), set())),
    (
        "squirrel_memory.extractors.asked_forms",
        "_TRAILING_ADVERB.sub",
        "'', 'a' + ' ' * 300_000 + 'b'",
        "a" + " " * 8,
    ),
    (
        "squirrel_memory.extractors.answered_questions",
        "_MARKER.sub",
        "'', 'a' + ' ' * 300_000 + 'b'",
        "a" + " " * 8,
    ),
    ("squirrel_memory.extractors.commit_hooks", "_HOOK_ID.findall", "'\\n' * 300_000", []),
    (
        "squirrel_memory.extractors.activity",
        "split_segments",
        "'a' + ' ' * 300_000 + 'b'",
        ["a" + " " * 8],
    ),
    ("squirrel_memory.extractors.activity", "core_tokens", "'a' * 300_000", ["a" * 9]),
    (
        "squirrel_memory.extractors.clauses",
        "_bangs_kept",
        "['a_' * 150_000 + '-b!', 'then x']",
        ["a_a_a_a_a", "then x"],
    ),
    (
        "squirrel_memory.extractors.delegated_commands",
        "labelled_commands",
        "'The cause: ' + ' ' * 300_000, '/p'",
        [],
    ),
    ("squirrel_memory.extractors.notes_repository", "_foreign_names", "'*' * 300_000", False),
    # A clause tried as a thing the task makes ("add a test that … never …").
    (
        "squirrel_memory.extractors.standing_marks",
        "standing_words",
        "'write a ' + 'a ' * 150_000 + ' that always x'",
        True,
    ),
    (
        "squirrel_memory.extractors.standing_words",
        "standing_sentences",
        "'asla ' + 'a ' * 150_000 + 'yapma'",
        [],
    ),
    # A clause tried as one way only with its rival ruled out ("f-strings only, no %").
    (
        "squirrel_memory.extractors.labelled_habits",
        "only_choice",
        "'a only ' + ' ' * 300_000 + 'no'",
        None,
    ),
    (
        "squirrel_memory.extractors.labelled_habits",
        "only_choice",
        "'a ' * 150_000 + 'only, no b x'",
        None,
    ),
    # A message tried for a list under a line naming the user's ways ("Conventions:").
    (
        "squirrel_memory.extractors.rule_lists",
        "listed_under_lead",
        "'rules' + ' ' * 300_000 + 'x\\n- ' + ' ' * 300_000",
        set(),
    ),
    (
        "squirrel_memory.extractors.rule_lists",
        "is_lead_line",
        "'our ' * 100_000 + 'rules for the x'",
        False,
    ),
    # A reply's claim of a change it made, and the first sentence of a reply after a lost run.
    (
        "squirrel_memory.extractors.reported_fixes",
        "_claimed_step",
        "'a ' * 150_000 + 'I added `x` to a.py'",
        "adding `x",
    ),
    (
        "squirrel_memory.extractors.reported_fixes",
        "_claimed_step",
        "'I added ' + '`--a ' * 100_000",
        "",
    ),
    ("squirrel_memory.extractors.reported_fixes", "_first_sentence", "'```' + '`a' * 150_000", ""),
    ("squirrel_memory.extractors.reported_fixes", "_first_sentence", "'x. ' * 100_000", "x."),
    # A failed run's output tried for its error line (a requirement a resolver could not meet).
    ("squirrel_memory.extractors.pitfalls", "first_error_line", "'requires ' * 33_000", ""),
    # A correction's reason tried as a lesson learned, a refusal tried for the team's way after
    # it, and a rule said before tried for a bare choice of names.
    (
        "squirrel_memory.extractors.way_reasons",
        "lesson_reason",
        "'a ,' + ' ' * 300_000 + 'x'",
        False,
    ),
    ("squirrel_memory.extractors.way_reasons", "lesson_reason", "'a' + ' —' * 150_000", False),
    (
        "squirrel_memory.extractors.way_reasons",
        "way_after_refusal",
        "\"I don't want \" + 'a ' * 150_000 + '— we prefer'",
        None,
    ),
    (
        "squirrel_memory.extractors.said_before",
        "told_rule",
        "'I told you: a' + ' ' * 300_000 + 'not b'",
        "",
    ),
    # … for a sentence saying what was not found, and an error's class before its message.
    ("squirrel_memory.extractors.pitfalls", "first_error_line", "'A ' + 'a ' * 150_000", ""),
    (
        "squirrel_memory.extractors.pitfalls",
        "first_error_line",
        "'Aa' * 150_000 + ' error (x) at'",
        "",
    ),
    # An edit's lines tried as a list that gained items.
    (
        "squirrel_memory.extractors.differences",
        "_added_items",
        "['\"' + 'a' * 300_000], ['x']",
        "",
    ),
    # A log's subjects tried as a dependency bot's ("Bump x from 1 to 2") and as plain ones.
    (
        "squirrel_memory.extractors.commits",
        "plain_convention",
        "['Bump ' + 'a' * 300_000 + ' from'] * 8 + ['Update ' + 'a ' * 150_000] * 8",
        (16, 16),
    ),
    # What the project is, less a stack clause the root manifest contradicts.
    (
        "squirrel_memory.extractors.about_stack",
        "_without_contradicted",
        "'A tool' + ' ' * 300_000 + 'x', {'Rust'}",
        "A tool   ",
    ),
    (
        "squirrel_memory.extractors.about_stack",
        "_without_contradicted",
        "'A tool, ' + ', ' * 150_000 + 'written in Python.', {'Rust'}",
        "",
    ),
    # An instruction file's overview written as a labelled list.
    ("squirrel_memory.extractors.about", "_listed_overview", "'\\n' * 300_000 + 'x'", None),
    ("squirrel_memory.extractors.about", "_listed_overview", "' - **What' * 50_000", None),
    # The answer to "what's in this repo?".
    (
        "squirrel_memory.extractors.summaries",
        "answered_summary",
        "'It is a ' + ' ' * 300_000 + 'x'",
        "",
    ),
    # A manifest's description as a generator left it.
    (
        "squirrel_memory.repository.boilerplate",
        "is_boilerplate",
        "'a ' + ' ' * 300_000 + 'sample command-line application x'",
        False,
    ),
    # A reply tried for the options it lays out, and the user's next words for a pick of one.
    (
        "squirrel_memory.extractors.chosen_options",
        "offer",
        "'Should we a' + ' ' * 300_000 + 'x?'",
        None,
    ),
    ("squirrel_memory.extractors.chosen_options", "offer", "'Option A: ' + ' ' * 300_000", None),
    (
        "squirrel_memory.extractors.chosen_options",
        "offer",
        "'two ways: a' + ' ' * 300_000 + 'b'",
        None,
    ),
    (
        "squirrel_memory.extractors.chosen_options",
        "_OR.split",
        "'a' + ' ' * 300_000 + 'b'",
        ["a" + " " * 8],
    ),
    (
        "squirrel_memory.extractors.chosen_options",
        "_TRAILING_JOIN.sub",
        "'', 'a' + ' ' * 300_000 + 'b'",
        "a" + " " * 8,
    ),
    (
        "squirrel_memory.extractors.chosen_options",
        "_option_text",
        "'a' + ', ' * 150_000 + 'x'",
        "a, , , , ",
    ),
    # A search's query tried for a question's intent (the words of a short question only).
    (
        "squirrel_memory.retrieval.intents",
        "question_intents",
        "'what is this ' + 'a' * 300_000 + '?'",
        (),
    ),
    (
        "squirrel_memory.retrieval.intents",
        "question_intents",
        "'what is this ' + ' ' * 300_000 + 'repo?'",
        (),
    ),
    # A sentence in another language: its language, its markers, its sentences.
    ("squirrel_memory.extractors.finding_tongues", "tongue", "'la ' * 150_000", "es"),
    ("squirrel_memory.extractors.finding_tongues", "tongue", "'a' * 300_000", None),
    (
        "squirrel_memory.extractors.finding_tongues",
        "not_a_finding",
        "'ru', 'Записа' + 'а' * 300_000",
        False,
    ),
    (
        "squirrel_memory.extractors.finding_tongues",
        "not_a_finding",
        "'uk', 'За' + 'а' * 300_000",
        False,
    ),
    (
        "squirrel_memory.extractors.finding_tongues",
        "not_a_finding",
        "'es', 'he ' + 'a' * 300_000",
        False,
    ),
    (
        "squirrel_memory.extractors.finding_tongues",
        "not_a_finding",
        "'es', 'Lo ' + 'a' * 300_000",
        False,
    ),
    (
        "squirrel_memory.extractors.finding_tongues",
        "not_a_finding",
        "'pt', 'O ' + 'a' * 300_000",
        False,
    ),
    (
        "squirrel_memory.extractors.finding_tongues",
        "not_a_finding",
        "'de', 'Das' + ' ' * 300_000 + 'X'",
        False,
    ),
    (
        "squirrel_memory.extractors.finding_tongues",
        "opens_a_cause",
        "'de', 'Der Grund ist, dass ' + ' ' * 300_000",
        False,
    ),
    (
        "squirrel_memory.extractors.finding_sentences",
        "insight_sentences",
        "'я' + '-' * 300_000 + '. b'",
        ["я--------", "b"],
    ),
    (
        "squirrel_memory.extractors.finding_sentences",
        "insight_sentences",
        "'я-' * 150_000 + '. b'",
        ["я-я-я-я-я", "b"],
    ),
    (
        "squirrel_memory.extractors.finding_sentences",
        "insight_sentences",
        "'я' + '。' * 300_000",
        ["я。 。 。 。 "],
    ),
    ("squirrel_memory.extractors.finding_sentences", "insight", "'Причина ' + 'в ' * 150_000", ""),
    (
        "squirrel_memory.extractors.finding_sentences",
        "finding",
        "'Причина в том, что ' + 'не ' * 100_000",
        "",
    ),
    # A failed script's output searched for the line that names its failing step.
    (
        "squirrel_memory.extractors.script_steps",
        "failing_step",
        "'make a && make b', 'error ' * 60_000 + 'x'",
        None,
    ),
    (
        "squirrel_memory.extractors.script_steps",
        "failing_step",
        "'make a && make b', ('fail ' + ' ' * 3_000 + 'x\\n') * 100",
        None,
    ),
    ("squirrel_memory.extractors.script_steps", "_ERROR_LINE.search", "'x' * 300_000", None),
    (
        "squirrel_memory.extractors.script_steps",
        "_CUT.split",
        "'a' + ' ' * 300_000 + 'b'",
        ["a", "b"],
    ),
    (
        "squirrel_memory.extractors.script_steps",
        "_LITERAL.findall",
        "'a' * 300_000 + '%'",
        ["aaaaaaaaa"],
    ),
    # A program's error with its name first, and an argument a run could not read.
    (
        "squirrel_memory.extractors.pitfalls",
        "_ERROR_LINE.search",
        "'a' * 300_000 + ': Errors'",
        None,
    ),
    (
        "squirrel_memory.extractors.retries",
        "USAGE_ERROR.search",
        "'cannot read ' * 30_000 + 'the config'",
        None,
    ),
]


def test_huge_hostile_texts_are_read_in_one_pass() -> None:
    found, expected = answers(CALLS)
    assert found == expected
