"""The repository a Codex session ran in: the `git` block of its `session_meta` becomes one
`session_repository` event, without credentials, once per session."""

from __future__ import annotations

import json

from squirrel_core.events import Event, EventType, Origin, SourcePosition
from squirrel_ingest.parsers import CodexFileParser
from squirrel_ingest.parsers.codex_git import without_credentials

# The first lines of two real rollouts (bench/data/transcripts/brain-node, …/fnox): Codex 0.63
# with an ssh remote, Codex Desktop 0.153 with an https one.
BRAIN_NODE_META = (
    b'{"timestamp":"2025-11-30T20:03:11.313Z","type":"session_meta","payload":{"id":"019ad65c-'
    b'b4ff-7ec0-94b5-d8247f8004af","timestamp":"2025-11-30T20:03:11.231Z","cwd":"/Users/xsaven'
    b'/PhpstormProjects/jarvis-brain-node","originator":"codex_cli_rs","cli_version":"0.63.0",'
    b'"instructions":"","source":"cli","model_provider":"openai","git":{"commit_hash":"fee9a60'
    b'da2ff0665e09a7c8cfbd5bcbf9560c9bc","branch":"master","repository_url":"git@github.com:ja'
    b'rvis-systems/brain-node.git"}}}'
)
FNOX_META = (
    b'{"timestamp":"2026-09-09T13:22:29.488Z","ordinal":0,"type":"session_meta","payload":{"se'
    b'ssion_id":"01a08655-8940-7fb1-b1a7-be45067fa312","id":"01a08655-8940-7fb1-b1a7-be45067fa'
    b'312","timestamp":"2026-09-09T13:22:27.786Z","cwd":"/Users/jdx/src/fnox","originator":"Co'
    b'dex Desktop","cli_version":"0.153.4","source":"vscode","thread_source":"user","model_pro'
    b'vider":"openai","base_instructions":{"text":"","provenance":{"type":"model","model":"gpt'
    b'-5.6-sol"}},"history_mode":"paginated","context_window":{"window_id":"01a08655-8940-7fb1'
    b'-b1a7-be5031bec895"},"git":{"commit_hash":"9a3bedad366fdae89bd70cafc723000a4c0ed59b","br'
    b'anch":"codex/fix-pass-store-dir-relative","repository_url":"https://github.com/jdx/fnox.'
    b'git"}}}'
)
PROMPT = (
    b'{"timestamp":"2025-11-30T20:03:20.000Z","type":"event_msg",'
    b'"payload":{"type":"user_message","message":"fix the store var format"}}'
)


def _feed(parser: CodexFileParser, *lines: bytes) -> list[Event]:
    position = SourcePosition(path="rollout-x.jsonl", inode=1, end_offset=0)
    return [event for line in lines for event in parser.feed(line, position)]


def _repositories(events: list[Event]) -> list[dict[str, object]]:
    return [e.content for e in events if e.event_type is EventType.SESSION_REPOSITORY]


def _with_url(line: bytes, url: str) -> bytes:
    record = json.loads(line)
    record["payload"]["git"]["repository_url"] = url
    return json.dumps(record).encode()


def test_the_git_block_of_session_meta_is_the_session_s_repository() -> None:
    events = _feed(CodexFileParser("rollout-x.jsonl"), BRAIN_NODE_META, PROMPT)
    (repository, prompt) = events
    assert repository.event_type is EventType.SESSION_REPOSITORY
    assert repository.content == {
        "repository_url": "git@github.com:jarvis-systems/brain-node.git",
        "branch": "master",
        "commit": "fee9a60da2ff0665e09a7c8cfbd5bcbf9560c9bc",
    }
    assert repository.origin is Origin.HARNESS
    assert repository.session_id == prompt.session_id == "019ad65c-b4ff-7ec0-94b5-d8247f8004af"
    assert repository.cwd == "/Users/xsaven/PhpstormProjects/jarvis-brain-node"
    assert repository.source_version == "0.63.0"


def test_a_newer_rollout_s_git_block_is_read_the_same_way() -> None:
    (content,) = _repositories(_feed(CodexFileParser("rollout-x.jsonl"), FNOX_META))
    assert content["repository_url"] == "https://github.com/jdx/fnox.git"
    assert content["branch"] == "codex/fix-pass-store-dir-relative"


def test_credentials_in_the_recorded_url_never_leave_the_parser() -> None:
    line = _with_url(FNOX_META, "https://jdx:ghp_abc123secret@github.com/jdx/fnox.git")
    events = _feed(CodexFileParser("rollout-x.jsonl"), line)
    assert _repositories(events) == [
        {
            "repository_url": "https://github.com/jdx/fnox.git",
            "branch": "codex/fix-pass-store-dir-relative",
            "commit": "9a3bedad366fdae89bd70cafc723000a4c0ed59b",
        }
    ]
    assert "ghp_abc123secret" not in json.dumps([e.content for e in events])


def test_only_the_credentials_part_of_a_url_is_removed() -> None:
    assert (
        without_credentials("https://oauth2:tok@gitlab.com/a/b.git") == "https://gitlab.com/a/b.git"
    )
    assert without_credentials("ssh://git@github.com/a/b.git") == "ssh://github.com/a/b.git"
    assert without_credentials("git@github.com:a/b.git") == "git@github.com:a/b.git"
    assert without_credentials("https://github.com/a/b@v2") == "https://github.com/a/b@v2"


def test_a_session_meta_written_again_does_not_repeat_the_repository() -> None:
    parser = CodexFileParser("rollout-x.jsonl")
    assert len(_repositories(_feed(parser, BRAIN_NODE_META, PROMPT, BRAIN_NODE_META))) == 1
    resumed = CodexFileParser("rollout-x.jsonl")
    resumed.restore_state(json.loads(json.dumps(parser.export_state())))
    assert _repositories(_feed(resumed, BRAIN_NODE_META)) == []


def test_a_session_meta_without_a_repository_url_says_nothing() -> None:
    record = json.loads(BRAIN_NODE_META)
    del record["payload"]["git"]["repository_url"]
    events = _feed(CodexFileParser("rollout-x.jsonl"), json.dumps(record).encode(), PROMPT)
    assert _repositories(events) == []
    assert [e.event_type for e in events] == [EventType.USER_MESSAGE]


def test_a_subagent_s_rollout_leaves_the_repository_to_its_parent() -> None:
    record = json.loads(BRAIN_NODE_META)
    record["payload"]["source"] = {"subagent": {"thread_spawn": {}}}
    events = _feed(CodexFileParser("rollout-x.jsonl"), json.dumps(record).encode())
    assert _repositories(events) == []
