"""Provider and structural secret formats that redaction looks for, each with its literal hints."""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Rule:
    """One precompiled pattern; it runs only when one of its cheap literal hints is in the text.

    Patterns start with a literal so the regex engine can skip ahead quickly; the check that a
    token does not start in the middle of a longer word is done on the match instead.
    """

    kind: str
    pattern: re.Pattern[str]
    hints: tuple[str, ...]
    # Group whose span is replaced (0 = whole match); text around it is kept.
    group: int = 0
    # Require that no token character comes just before the match.
    boundary: bool = True


def rule(kind: str, regex: str, *hints: str, group: int = 0, boundary: bool = True) -> Rule:
    """One rule, its pattern compiled once."""
    return Rule(kind, re.compile(regex, re.DOTALL), hints, group, boundary)


_LOWER_HEX: Final = "0123456789abcdef"


def _prefixed(prefixes: tuple[str, ...], chars: str) -> tuple[str, ...]:
    """Each prefix followed by each character: hints as narrow as the pattern's first chars."""
    return tuple(prefix + char for prefix in prefixes for char in chars)


TOKEN_CHARS: Final = frozenset(string.ascii_letters + string.digits + "_-")
_E = r"(?![A-Za-z0-9_-])"  # end of a token

# Specific provider formats first, then structural secrets. Case-sensitive, run on the text.
RULES: Final[tuple[Rule, ...]] = (
    rule(
        "private_key",
        r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----.*?"
        r"(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
        "PRIVATE KEY",
        boundary=False,
    ),
    rule("anthropic_key", r"sk-ant-[A-Za-z0-9_-]{20,}", "sk-ant-"),
    rule("openrouter_key", r"sk-or-(?:v\d+-)?[A-Za-z0-9_-]{20,}", "sk-or-"),
    rule("openai_key", r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}", "sk-"),
    rule(
        "aws_access_key",
        r"A(?:KIA|SIA|BIA|CCA|3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])",
        "AKIA",
        "ASIA",
        "ABIA",
        "ACCA",
        "A3T",
    ),
    rule("github_token", r"gh[pousr]_[A-Za-z0-9]{36,}" + _E, *(f"gh{c}_" for c in "pousr")),
    rule("github_token", r"github_pat_[A-Za-z0-9_]{22,}", "github_pat_"),
    rule(
        "gitlab_token",
        r"gl(?:pat|dt|ptt|rt|cbt|soat|ft|imt|agent)-[A-Za-z0-9_-]{20,}",
        *(f"gl{kind}-" for kind in ("pat", "dt", "ptt", "rt", "cbt", "soat", "ft", "imt", "agent")),
    ),
    rule("slack_token", r"xox[abposr]-[A-Za-z0-9-]{10,}", "xox"),
    rule("slack_token", r"xapp-\d-[A-Za-z0-9-]{10,}", "xapp-"),
    rule(
        "slack_webhook",
        r"hooks\.slack\.com/services/T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]+",
        "hooks.slack.com",
        boundary=False,
    ),
    rule("google_api_key", r"AIza[0-9A-Za-z_-]{35}" + _E, "AIza"),
    rule("google_oauth_secret", r"GOCSPX-[A-Za-z0-9_-]{20,}", "GOCSPX-"),
    rule("google_oauth_token", r"ya29\.[A-Za-z0-9_-]{20,}", "ya29."),
    rule(
        "stripe_key",
        r"[spr]k_(?:live|test)_[A-Za-z0-9]{16,}",
        *(f"{c}k_{mode}_" for c in "spr" for mode in ("live", "test")),
    ),
    rule("stripe_webhook_secret", r"whsec_[A-Za-z0-9+/=]{20,}", "whsec_"),
    rule("npm_token", r"npm_[A-Za-z0-9]{36}" + _E, "npm_"),
    rule("pypi_token", r"pypi-AgE[A-Za-z0-9_-]{50,}", "pypi-"),
    rule("huggingface_token", r"hf_[A-Za-z0-9]{30,}" + _E, "hf_"),
    rule("supabase_token", r"sbp_[a-f0-9]{40}" + _E, "sbp_"),
    rule("digitalocean_token", r"do[opr]_v1_[a-f0-9]{64}" + _E, "_v1_"),
    rule("groq_key", r"gsk_[A-Za-z0-9]{40,}" + _E, "gsk_"),
    rule("xai_key", r"xai-[A-Za-z0-9]{40,}" + _E, "xai-"),
    rule("sendgrid_key", r"SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{20,}", "SG."),
    rule("shopify_token", r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}" + _E, "shp"),
    rule(
        "telegram_bot_token",
        r":AA[A-Za-z0-9_-]{30,}",
        ":AA",
        boundary=False,
    ),
    # Tried where a token starts only (a match inside a token is no secret's start, see
    # `boundary`), so a run of `eyJ` is read once, not once for each.
    rule(
        "jwt",
        r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*",
        "eyJ",
    ),
    # Vendor keys known by their prefix (several are the prefix plus plain hex).
    rule("databricks_token", r"dapi[a-f0-9]{32}(?:-\d)?" + _E, "dapi"),
    rule("twilio_key", r"(?:SK|AC)[a-f0-9]{32}" + _E, *_prefixed(("SK", "AC"), _LOWER_HEX)),
    rule("mailgun_key", r"key-[a-f0-9]{32}" + _E, "key-"),
    rule("mailchimp_key", r"[a-f0-9]{32}-us\d{1,2}" + _E, *_prefixed(("-us",), string.digits)),
    rule("postman_key", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}" + _E, "PMAK-"),
    rule("new_relic_key", r"NRAK-[A-Z0-9]{27}" + _E, "NRAK-"),
    rule("atlassian_token", r"ATATT3[A-Za-z0-9_=-]{100,}" + _E, "ATATT3"),
    rule("linear_key", r"lin_(?:api|oauth)_[A-Za-z0-9]{40}" + _E, "lin_"),
    rule("grafana_token", r"gl(?:sa|c)_[A-Za-z0-9_+/=-]{32,}" + _E, "glsa_", "glc_"),
    rule("vault_token", r"hv[sbr]\.[A-Za-z0-9_-]{24,}" + _E, "hvs.", "hvb.", "hvr."),
    rule("doppler_token", r"dp\.(?:st|ct|sa|scim|audit|pt)\.[A-Za-z0-9_.-]{40,}" + _E, "dp."),
    rule("square_token", r"sq0(?:csp|atp|idp)-[A-Za-z0-9_-]{22,}" + _E, "sq0"),
    rule("age_secret_key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}", "AGE-SECRET"),
    rule("sentry_token", r"sntr[ysu]_[A-Za-z0-9_=+/-]{40,}" + _E, "sntr"),
    rule("brevo_key", r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}" + _E, "xkeysib-"),
    rule("notion_token", r"ntn_[A-Za-z0-9]{40,}" + _E, "ntn_"),
    rule("flutterwave_key", r"FLWSECK(?:_TEST)?-[a-f0-9]{32}-X" + _E, "FLWSECK"),
    rule(
        "url_password",
        r"://[^\s:/?#@\"'<>]*:((?!\[REDACTED)[^\s/?#@\"'<>]+)@",
        "://",
        group=1,
        boundary=False,
    ),
    rule("bearer_token", r"[Bb]earer[ \t]+([A-Za-z0-9._~+/-]{20,}=*)", "earer", group=1),
)

RULE_HINTS: Final = frozenset(hint for rule in RULES for hint in rule.hints)
