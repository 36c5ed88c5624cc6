"""Redaction removes made-up secrets of every supported kind and leaves ordinary text alone."""

from __future__ import annotations

import random
import string
from typing import Any

import pytest

from squirrel_core.redaction import redact, redact_value
from squirrel_core.redaction_entropy import looks_random
from tests.one_pass import finishes

# Every secret below is made up at test time from a seeded generator; none is a real credential.
# They are assembled from pieces so that secret scanners do not mistake this file for a leak.
_RNG = random.Random(20261122)
_ALNUM = string.ascii_letters + string.digits


def _rand(n: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _hex(n: int) -> str:
    return _rand(n, "0123456789abcdef")


FAKE_SECRETS: dict[str, str] = {
    "anthropic": "sk-" + "ant-api03-" + _rand(80, _ALNUM + "-_"),
    "openai_project": "sk-" + "proj-" + _rand(64, _ALNUM + "-_"),
    "openai_classic": "sk-" + _rand(48),
    "openrouter": "sk-" + "or-v1-" + _hex(64),
    "aws_access_key": "AKIA" + _rand(16, string.ascii_uppercase + string.digits),
    "aws_session_key": "ASIA" + _rand(16, string.ascii_uppercase + string.digits),
    "github_classic": "ghp" + "_" + _rand(36),
    "github_oauth": "gho" + "_" + _rand(36),
    "github_server": "ghs" + "_" + _rand(36),
    "github_fine_grained": "github" + "_pat_" + _rand(22) + "_" + _rand(59),
    "gitlab": "glpat" + "-" + _rand(20),
    "slack_bot": "xoxb" + "-" + _rand(12, string.digits) + "-" + _rand(24),
    "slack_user": "xoxp" + "-" + _rand(12, string.digits) + "-" + _rand(24),
    "google_api_key": "AIza" + _rand(35, _ALNUM + "-_"),
    "stripe_secret": "sk" + "_live_" + _rand(24),
    "stripe_restricted": "rk" + "_live_" + _rand(24),
    "stripe_publishable": "pk" + "_live_" + _rand(24),
    "stripe_webhook": "whsec" + "_" + _rand(32),
    "npm": "npm" + "_" + _rand(36),
    "huggingface": "hf" + "_" + _rand(34),
    "supabase": "sbp" + "_" + _hex(40),
    "sendgrid": "SG" + "." + _rand(22) + "." + _rand(43),
    "telegram": "123456789" + ":AA" + _rand(33, _ALNUM + "_-"),
    "jwt": "eyJ" + _rand(30) + ".eyJ" + _rand(60) + "." + _rand(43, _ALNUM + "-_"),
    "random_base64": _rand(40, _ALNUM + "+/"),
}


@pytest.mark.parametrize("name", sorted(FAKE_SECRETS))
def test_made_up_secret_is_gone_after_redaction(name: str) -> None:
    secret = FAKE_SECRETS[name]
    text = f"the tool printed {secret} and then exited"

    cleaned, count = redact(text)

    assert secret not in cleaned
    assert count >= 1
    assert cleaned.startswith("the tool printed ")
    assert "[REDACTED:" in cleaned
    assert cleaned.endswith(" and then exited")


def test_every_secret_in_one_document_is_gone() -> None:
    document = "\n".join(f"{name}: {secret}" for name, secret in FAKE_SECRETS.items())

    cleaned, count = redact(document)

    for secret in FAKE_SECRETS.values():
        assert secret not in cleaned
    assert count >= len(FAKE_SECRETS)


def test_provider_key_is_labelled_by_kind() -> None:
    cleaned, _ = redact("key " + FAKE_SECRETS["aws_access_key"])

    assert cleaned == "key [REDACTED:aws_access_key]"


def test_aws_secret_key_in_context_is_redacted() -> None:
    secret = _rand(40, _ALNUM + "/+")
    cleaned, count = redact(f"aws_secret_access_key = {secret}\n")

    assert secret not in cleaned
    assert count == 1


def test_aws_secret_key_assignment_is_labelled_as_aws() -> None:
    cleaned, _ = redact("AWS_SECRET_ACCESS_KEY=" + _rand(40))

    assert cleaned == "AWS_SECRET_ACCESS_KEY=[REDACTED:aws_secret_key]"


def test_aws_secret_key_in_json_output_is_redacted() -> None:
    secret = _rand(40, _ALNUM + "/+")
    cleaned, _ = redact('{"AccessKeyId": "x", "SecretAccessKey": "' + secret + '"}')

    assert secret not in cleaned


def test_pem_private_key_block_is_removed() -> None:
    body = "\n".join(_rand(64, _ALNUM + "+/") for _ in range(5))
    text = f"before\n-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----\nafter"

    cleaned, count = redact(text)

    assert cleaned == "before\n[REDACTED:private_key]\nafter"
    assert count == 1


def test_unterminated_private_key_block_is_removed_to_the_end() -> None:
    text = "cat id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\n" + _rand(70) + "\n"

    cleaned, _ = redact(text)

    assert cleaned == "cat id_ed25519\n[REDACTED:private_key]"


def test_password_in_url_is_redacted_and_host_kept() -> None:
    cleaned, count = redact("DATABASE at postgres://app:s3cr3t-pw@db.internal:5432/app ok")

    assert cleaned == "DATABASE at postgres://app:[REDACTED:url_password]@db.internal:5432/app ok"
    assert count == 1


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("SECRET=hunter2-horse", "hunter2-horse"),
        ("PASSWORD: correct-battery", "correct-battery"),
        ("export API_KEY='abc.def.ghi'", "abc.def.ghi"),
        ('{"db_password": "p@ss word"}', "p@ss word"),
        ("DB_PASS=letmein99", "letmein99"),
        ('{"access_token": "opaque-value-1"}', "opaque-value-1"),
        ("authToken: 'abc-def-ghi'", "abc-def-ghi"),
        ('client_secret = "zzz-top"', "zzz-top"),
        ("GITHUB_TOKEN=abcdef0123", "abcdef0123"),
        ("mysql --password=opensesame -u root", "opensesame"),
        ("curl --token s3cr3tvalue https://x", "s3cr3tvalue"),
        ('{\\"password\\": \\"escaped-pw\\"}', "escaped-pw"),
    ],
)
def test_env_style_assignment_value_is_redacted(text: str, secret: str) -> None:
    cleaned, count = redact(text)

    assert secret not in cleaned
    assert count == 1


@pytest.mark.parametrize(
    "text",
    [
        "password: str",
        "token = os.environ['TOKEN']",
        "api_key=settings.api_key",
        "password = getpass()",
        "self.password = password",
        "max_tokens=500",
        '"input_tokens": 1234, "output_tokens": 56',
        "token_count: 12",
        "secrets: inherit",
        "PASSWORD=${DB_PASSWORD}",
        "author: Jane Doe",
        "env.CODEMIE_API_KEY = apiKeyValue",
        "password = user_input",
        "// FIRST PASS: build the index",
        'token_summary = "Token usage: 1,234"',
        "a 10k-token records file",
        '"@aws-sdk/credential-providers": "^3.948.0"',
    ],
)
def test_code_and_counts_that_mention_secret_names_are_kept(text: str) -> None:
    cleaned, count = redact(text)

    assert cleaned == text
    assert count == 0


@pytest.mark.parametrize(
    "text",
    [
        "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 fixed it",
        "id 123e4567-e89b-12d3-a456-426614174000 done",
        "digest sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "/home/dev/projects/squirrel/services/ingest/squirrel_ingest/watcher.py:120",
        "src/components/UserAccountSettingsPanel/UserAccountSettingsPanel.test.tsx",
        "~/.claude/projects/-home-dev-projects-squirrel/0f7c2a0e-4c8e-4b53-9f55-3f8d1b5c2e11.jsonl",
        "getUserAccountSettingsForProjectId2 and AbstractSingletonProxyFactoryBean2",
        "test_half_written_line_is_read_once_complete_v2",
        "rollout-2026-02-23T12-54-34-0198a2b3-c4d5-7e6f-8a9b-0c1d2e3f4a5b.jsonl",
        "tool_use_id toolu_01XyZabcDEF123ghiJKL456mnoP",
        "https://github.com/anthropics/claude-code/issues/52387",
        "import org.springframework.boot.autoconfigure.SpringBootApplication;",
        "pip install grpcio-tools==1.85.1 grpcio-reflection==1.85.1",
        "--trace-process-track-uuid=3190719430580320448 --launch-time-ticks=584621970677",
        "npm@10.8.1+sha256.b8807aebb9656758e2872fa6e7c564b506aa2faa9297439a478d471d2fe32483",
        "htmlcov/z_7a75fb84fc14b0a3_converter_py.html",
        "setup-uv-1-x86_64-unknown-linux-gnu-0.7.13-f6c65b29c82e498115b3dc436b3a85fc046536dc",
        "git diff ecd1cfd5e3274aad51afbcc43ec7d6cf350b8fa8..d6e32051544c86a0523cb7959f7847174499f5ec",
    ],
)
def test_hashes_ids_paths_and_identifiers_are_not_redacted(text: str) -> None:
    cleaned, count = redact(text)

    assert cleaned == text
    assert count == 0


def test_private_span_is_dropped_entirely() -> None:
    cleaned, count = redact("keep <private>my home address</private> this")

    assert cleaned == "keep  this"
    assert count == 1


def test_unclosed_private_span_drops_the_rest() -> None:
    cleaned, count = redact("keep <PRIVATE>everything after")

    assert cleaned == "keep "
    assert count == 1


def test_multiline_private_spans_are_dropped_independently() -> None:
    cleaned, count = redact("a<private>\nx\n</private>b<private>y</private>c")

    assert cleaned == "abc"
    assert count == 2


def test_redaction_is_idempotent() -> None:
    once, _ = redact("token " + FAKE_SECRETS["github_classic"] + " API_KEY=" + FAKE_SECRETS["npm"])

    twice, count = redact(once)

    assert twice == once
    assert count == 0


def test_empty_text_is_returned_unchanged() -> None:
    assert redact("") == ("", 0)


def test_redact_value_walks_nested_structures_without_mutating_them() -> None:
    secret = FAKE_SECRETS["openai_project"]
    command = f"curl -H 'x: {secret}'"
    value: dict[str, Any] = {
        "tool": "Bash",
        "input": {"command": command, "env": ["A=1", f"OPENAI={secret}"]},
        "count": 3,
        "flag": True,
        "pair": ("ok", secret),
    }

    cleaned, count = redact_value(value)

    assert secret not in repr(cleaned)
    assert count == 3
    assert cleaned["count"] == 3
    assert cleaned["flag"] is True
    assert isinstance(cleaned["pair"], tuple)
    assert value["input"]["command"] == command


def test_redact_value_replaces_values_under_secret_keys() -> None:
    cleaned, count = redact_value({"password": "short", "api_key": "k", "max_tokens": 400})

    assert cleaned == {
        "password": "[REDACTED:secret_assignment]",
        "api_key": "[REDACTED:secret_assignment]",
        "max_tokens": 400,
    }
    assert count == 2


def test_redact_value_keeps_identifier_fields_that_look_random() -> None:
    tool_id = "x" + _rand(40)
    cleaned, count = redact_value({"tool_use_id": tool_id, "text": tool_id})

    assert cleaned["tool_use_id"] == tool_id
    assert cleaned["text"] == "[REDACTED:high_entropy]"
    assert count == 1


def test_random_value_after_an_equals_sign_is_redacted_and_the_name_kept() -> None:
    value = _rand(40)
    cleaned, count = redact(f"--session-cookie={value}")

    assert cleaned == "--session-cookie=[REDACTED:high_entropy]"
    assert count == 1


def test_random_tokens_are_recognised_and_words_are_not() -> None:
    rng = random.Random(7)
    tokens = ["".join(rng.choice(_ALNUM) for _ in range(40)) for _ in range(200)]

    recognised = sum(looks_random(token) for token in tokens)

    assert recognised >= 190
    assert not looks_random("ThisIsAVeryLongCamelCaseIdentifier123")


def test_hostile_long_runs_are_handled() -> None:
    blob = "A-" * 200_000 + "password=" + "_" * 100_000
    cleaned, _ = redact(blob)

    assert cleaned.startswith("A-A-")


def test_large_base64_blob_is_replaced_as_one_token() -> None:
    blob = _rand(200_000, _ALNUM + "+/")
    cleaned, count = redact(f'{{"data": "{blob}"}}')

    assert cleaned == '{"data": "[REDACTED:high_entropy]"}'
    assert count == 1


def test_the_ruleset_fingerprint_covers_every_redaction_module() -> None:
    """A rule edited in any redaction module changes the stamp, so no service trusts content
    redacted by other rules (the provider rules were once left out)."""
    from pathlib import Path  # noqa: PLC0415

    from squirrel_core import redaction  # noqa: PLC0415

    here = Path(redaction.__file__).parent
    assert set(redaction.RULE_FILES) == {p.name for p in here.glob("redaction*.py")}


@pytest.mark.parametrize(
    "said",
    [
        "从现在开始，提交前都要运行测试。这是一段很长的中文说明，用来确认整段文字不会被当作密钥。",
        "今後、コミットする前に必ずテストを実行してください。長い日本語の文章でも秘密とは見なされません。",
        "С этого момента не добавляй зависимости без моего согласия, даже для тестов.",
        "A partir de ahora, ejecuta las pruebas antes de hacer commit; configuración según año.",
    ],
)
def test_a_users_words_in_another_language_are_kept_whole(said: str) -> None:
    assert redact(said) == (said, 0)


def test_a_secret_inside_words_in_another_language_is_still_redacted() -> None:
    said = "今後はこのトークンを使ってください: ghp_abcdefghijklmnopqrstuvwxyz0123456789 です"
    text, count = redact(said)
    assert count == 1 and "ghp_" not in text
    assert text.startswith("今後はこのトークンを使ってください") and text.endswith("です")


def test_a_token_whose_header_holds_another_header_is_redacted_whole() -> None:
    # `{"alg":"RS256","jwk":{"kty":"RSA"}}`: its base64 holds `eyJ` again, after `jwk`.
    header = "eyJhbGciOiJSUzI1NiIsImp3ayI6eyJrdHkiOiJSU0EifX0"
    token = f"{header}.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl"
    assert redact(f"auth {token} done", entropy=False) == ("auth [REDACTED:jwt] done", 1)


def test_a_run_of_token_heads_is_read_in_one_pass() -> None:
    # Tried from each `eyJ`, the run was read again to its end for each: minutes, not a pass.
    printed = finishes(
        "from squirrel_core.redaction import redact\n"
        "text, count = redact('eyJ' * 100_000)\n"
        "print(count, len(text))"
    )
    assert printed.split() == ["0", "300000"]
