"""The answer key's model path without a model: recorded answers replayed through the real
`openai_compatible` backend (bench/answer_key_model.py, bench/model_recording.py), on the
`entireio-cli` project kept in bench/data/transcripts (so this runs wherever the repository is)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench import answer_key_model
from bench.answer_key_gold import AnswerKeyError
from bench.answer_key_score import Memory
from bench.model_recording import REPLAY_MODEL, Recording, RecordingError
from tests.integration.llm_fakes.fake_openai import running_fake_openai

PROJECT = "entireio-cli"
ROOT = Path(__file__).resolve().parents[2]
RECORDING = ROOT / "tests" / "fixtures" / "model_answers" / PROJECT
REPLAY_WRITER = f"openai_compatible:{REPLAY_MODEL}"


LANGUAGE = {
    "type": "project_fact",
    "key": "language",
    "content": "The project is written in Go.",
    "importance": 0.6,
    "source_event_ids": ["e1"],
}


# A memory no rule writes for this project (a recipe could meet the rules' own test recipe).
SCRIPTED_PITFALL = {
    "type": "pitfall",
    "key": "pitfall:scripted-answer",
    "content": "A scripted answer: the release build needs the `-trimpath` flag.",
    "importance": 0.6,
    "source_event_ids": ["e1"],
}


def _memories(measured: Any) -> set[tuple[str, str, str]]:
    (score,) = measured.scores
    found: list[Memory] = [v.memory for v in score.verdicts]
    return {(m.kind, m.key, m.content) for m in found}


def _recorded() -> set[tuple[str, str, str]]:
    out: set[tuple[str, str, str]] = set()
    for path in sorted(RECORDING.glob("*.json")):
        for item in json.loads(path.read_text(encoding="utf-8"))["answer"]["memories"]:
            out.add((item["type"], item["key"], " ".join(item["content"].split())))
    return out


def test_the_replayed_model_adds_its_memories_on_top_of_the_rules(tmp_path: Path) -> None:
    # `tmp_path` stands for a missing ../shared/fixtures: only the repository's transcripts.
    compared = answer_key_model.compare(tmp_path, "openai_compatible", [PROJECT], replay=RECORDING)

    rules, model = _memories(compared.rules), _memories(compared.model)
    assert rules, "the rules write memories of their own on this project"
    assert rules <= model  # every rules memory is still there, unchanged
    added = model - rules
    assert added == _recorded()  # and the model's are exactly the recorded answers
    writers = compared.model.writers[PROJECT]
    assert writers.get("rules") == len(rules) == compared.rules.writers[PROJECT]["rules"]
    assert writers.get(REPLAY_WRITER) == len(added) == answer_key_model.model_memories(writers)
    assert compared.calls == len(list(RECORDING.glob("*.json"))) == 3

    table = answer_key_model.comparison(compared)
    assert "tuning projects" in table and "rules + replay of" in table
    row = next(line for line in table.splitlines() if line.startswith(f"| {PROJECT} "))
    assert f"{len(rules)} → {len(model)}" in row
    assert f"| {len(added)} " in row


def test_a_request_missing_from_the_recording_is_an_error_naming_it(tmp_path: Path) -> None:
    partial = tmp_path / "recording"
    partial.mkdir()
    kept, dropped = sorted(RECORDING.glob("*.json"))[:2], sorted(RECORDING.glob("*.json"))[2]
    for path in kept:
        shutil.copy(path, partial / path.name)

    with pytest.raises(RecordingError) as caught:
        answer_key_model.compare(tmp_path / "none", "openai_compatible", [PROJECT], replay=partial)

    message = str(caught.value)
    assert message.startswith("1 model request(s) not in the recording")
    assert dropped.stem in message and "record_memories" in message
    assert all(path.stem not in message for path in kept)


def test_an_answer_that_is_not_a_recorded_answer_is_an_error(tmp_path: Path) -> None:
    broken = tmp_path / "recording"
    shutil.copytree(RECORDING, broken)
    victim = sorted(broken.glob("*.json"))[0]
    victim.write_text('{"key": "other"}', encoding="utf-8")

    with pytest.raises(RecordingError, match=victim.stem):
        answer_key_model.compare(tmp_path / "none", "openai_compatible", [PROJECT], replay=broken)


def test_a_run_recorded_from_a_backend_replays_to_the_same_memories(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recording = tmp_path / "recorded"
    with running_fake_openai() as fake:
        # A scripted server, not a model: the same two memories for every episode, the second
        # on the rules' `language` anchor (so an update decision is asked), and NOOP decisions.
        fake.answer = {"memories": [SCRIPTED_PITFALL, LANGUAGE]}
        fake.other_tools = lambda body: {"action": "NOOP", "reason": "already known"}
        monkeypatch.setenv("SQRL_OPENAI_COMPATIBLE_BASE_URL", fake.url)
        monkeypatch.setenv("SQRL_OPENAI_COMPATIBLE_MODEL", "scripted")
        recorded = answer_key_model.compare(
            tmp_path / "none", "openai_compatible", [PROJECT], record=recording
        )
        asked = len(fake.requests)

    files = sorted(recording.glob("*.json"))
    tools = [json.loads(p.read_text(encoding="utf-8"))["tool"] for p in files]
    assert recorded.calls == asked == len(files) > 0
    assert "record_memories" in tools and "decide_memory_update" in tools
    assert recorded.model.writers[PROJECT].get("openai_compatible:scripted", 0) > 0

    replayed = answer_key_model.compare(
        tmp_path / "none", "openai_compatible", [PROJECT], replay=recording
    )
    assert replayed.calls == asked
    assert _memories(replayed.model) == _memories(recorded.model)


def test_a_failing_backend_leaves_the_rules_memories_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SQRL_CLAUDE_CLI_COMMAND", str(tmp_path / "no-such-claude"))
    compared = answer_key_model.compare(tmp_path / "none", "claude_cli", [PROJECT])

    assert _memories(compared.model) == _memories(compared.rules)
    assert answer_key_model.model_memories(compared.model.writers[PROJECT]) == 0
    assert compared.calls == 0 and len(compared.failures) == 3
    assert all("no-such-claude" in reason for reason in compared.failures)


def test_replay_and_record_are_refused_together_and_for_other_backends(tmp_path: Path) -> None:
    with pytest.raises(AnswerKeyError, match="exclude each other"):
        answer_key_model.compare(tmp_path, "openai_compatible", record=tmp_path, replay=tmp_path)
    with pytest.raises(AnswerKeyError, match="openai_compatible"):
        answer_key_model.compare(tmp_path, "claude_cli", replay=RECORDING)
    with pytest.raises(AnswerKeyError, match="no recording"):
        answer_key_model.compare(tmp_path, "openai_compatible", replay=tmp_path / "absent")
    assert Recording(RECORDING).load("0" * 24) is None


def _command(*args: str) -> subprocess.CompletedProcess[str]:
    """`python -m bench.answer_key ARGS` in its own process (it configures logging globally)."""
    return subprocess.run(
        [sys.executable, "-m", "bench.answer_key", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_the_command_line_prints_both_tables_and_fails_closed(tmp_path: Path) -> None:
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()  # empty: only the repository's transcripts
    argv = ["--fixtures", str(fixtures), "--project", PROJECT]
    done = _command(*argv, "--replay", str(RECORDING))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "answer key, rules alone" in done.stdout
    assert "answer key, rules + replay of" in done.stdout
    assert "model requests: 3 answered, 0 failed" in done.stdout

    empty = tmp_path / "empty"
    empty.mkdir()
    failed = _command(*argv, "--replay", str(empty))
    assert failed.returncode == 2
    assert "3 model request(s) not in the recording" in failed.stderr
    assert all(
        f"  - {path.stem} (record_memories" in failed.stderr for path in RECORDING.glob("*.json")
    )
