"""Every kind of secret in the made-up corpus is caught, and every negative is left alone."""

from __future__ import annotations

import pytest

from squirrel_core.redaction import redact, redact_value
from squirrel_core.redaction_rules import maintained_detectors
from tests.redaction_corpus import NEGATIVES, SAMPLES, Sample


def test_the_corpus_has_at_least_fifty_kinds_and_negatives() -> None:
    assert len({s.kind for s in SAMPLES}) == len(SAMPLES) >= 50
    assert len(NEGATIVES) >= 20


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.kind)
def test_every_kind_is_caught_in_text_and_in_event_content(sample: Sample) -> None:
    cleaned, count = redact(sample.text)
    assert sample.secret not in cleaned
    assert count >= 1 and "[REDACTED:" in cleaned
    content, _ = redact_value({"command": sample.text, "output": f"ran: {sample.text}"})
    assert sample.secret not in str(content)


@pytest.mark.parametrize(("kind", "text"), NEGATIVES, ids=[k for k, _ in NEGATIVES])
def test_negatives_come_out_unchanged(kind: str, text: str) -> None:
    assert redact(text) == (text, 0)
    assert redact_value({"text": text}) == ({"text": text}, 0)


def test_the_maintained_rule_set_is_loaded() -> None:
    kinds = {d.kind for d in maintained_detectors()}
    assert {"artifactory_credentials", "cloudant_credentials", "ibm_cloud_iam_key"} <= kinds
    assert all(d.patterns for d in maintained_detectors())


def test_maintained_detectors_find_what_they_are_for() -> None:
    secret = "AKC" + "p8" * 20
    cleaned, _ = redact(f'artifactory_password: "{secret}"', entropy=False)
    assert secret not in cleaned
    assert "[REDACTED:" in cleaned


def test_artifactory_api_keys_are_found_and_words_starting_with_ap_are_not() -> None:
    secret = "APB" + "x8y7z6w5v4u3"
    cleaned, _ = redact(f"export ARTIFACTORY={secret} ", entropy=False)
    assert secret not in cleaned
    assert redact("APPLICATION API_URL APIs ", entropy=False) == ("APPLICATION API_URL APIs ", 0)


@pytest.mark.parametrize(
    ("token", "kind"),
    [
        ("ghp_" + "a1B2" * 9, "github_token"),
        ("ghs_" + "a1B2" * 9, "github_token"),
        ("glpat-" + "x9" * 10, "gitlab_token"),
        ("glagent-" + "x9" * 10, "gitlab_token"),
        ("sk_live_" + "Ab3" * 8, "stripe_key"),
        ("rk_test_" + "Ab3" * 8, "stripe_key"),
        ("SK" + "0a" * 16, "twilio_key"),
        ("AC" + "f9" * 16, "twilio_key"),
        ("0a" * 16 + "-us12", "mailchimp_key"),
    ],
)
def test_provider_rules_fire_on_their_narrow_hints(token: str, kind: str) -> None:
    cleaned, count = redact(f"value: {token} end", entropy=False, maintained=False)
    assert cleaned == f"value: [REDACTED:{kind}] end" and count == 1
