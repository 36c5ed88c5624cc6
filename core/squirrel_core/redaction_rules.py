"""Secret finders beside redaction's own rules: passwords on command lines and in connection
strings, and the regex detectors of detect-secrets (a maintained rule set, Apache-2.0).

Each finder returns spans `(start, end, kind)` of secret values in a text; `redaction` replaces
them. Every finder is cheap to skip: it first looks for a literal hint in the text.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from squirrel_core.redaction_literals import Found

Span = tuple[int, int, str]

# -- command lines ----------------------------------------------------------------------------

_ARGS: Final = r"(?:[ \t]+(?!-p\b)[^\s;|&]+)*?"  # other arguments of the same command
_VALUE: Final = r"(\"[^\"\n]{1,256}\"|'[^'\n]{1,256}'|[^\s\"';|&]{1,256})"


@dataclass(frozen=True, slots=True)
class _CommandRule:
    kind: str
    pattern: re.Pattern[str]
    hints: tuple[str, ...]  # one of these (program names) must be in the text
    options: tuple[str, ...]  # and one of these (the option that takes the password)


def _command(kind: str, programs: str, option: str, hints: str, options: str) -> _CommandRule:
    regex = rf"(?<![\w./-])(?:{programs})(?![\w-]){_ARGS}[ \t]+{option}"
    return _CommandRule(kind, re.compile(regex), tuple(hints.split()), tuple(options.split("|")))


_COMMAND_RULES: Final = (
    # mysql -uroot -psecret: the password is glued to -p (a bare `-p` prompts for it).
    _command(
        "command_password",
        r"mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump|mysqlcheck",
        r"-p(?!\s)" + _VALUE,
        "mysql mariadb",
        " -p",
    ),
    # sshpass -p secret, docker login -p secret, mongosh -p secret, twine upload -p secret.
    _command(
        "command_password",
        r"sshpass|docker[ \t]+login|podman[ \t]+login|mongo|mongosh|mongodump|mongorestore"
        r"|mongoexport|mongoimport|twine[ \t]+upload|helm[ \t]+registry[ \t]+login",
        r"-p[ \t]+" + _VALUE,
        "sshpass login mongo twine",
        " -p ",
    ),
    _command("command_password", r"redis-cli", r"-a[ \t]+" + _VALUE, "redis-cli", " -a "),
    # curl -u user:pass, wget --user=u --password=p (the latter is a --password flag anyway).
    _command(
        "command_password",
        r"curl|http|https|xh",
        r"(?:-u|--user)(?:[ \t]+|=)[\"']?[^\s:\"']{1,128}:" + r"([^\s\"'@]{1,256})",
        "curl http xh",
        " -u | -u=| --user",
    ),
    # openssl … -passin pass:secret, -passout pass:secret, -pass pass:secret.
    _CommandRule(
        "command_password",
        re.compile(r"-pass(?:in|out)?[ \t]+pass:" + _VALUE),
        ("pass:",),
        ("-pass",),
    ),
)


OPTION_HINTS: Final = (" -p", " -a ", "-u", "--user", "pass:")
COMMAND_LITERALS: Final = frozenset(
    [*OPTION_HINTS, *(word for rule in _COMMAND_RULES for word in (*rule.options, *rule.hints))]
)
"""Every literal `command_spans` looks for (all case-sensitive)."""


def command_spans(text: str, found: Found | None = None) -> Iterator[Span]:
    """Passwords passed on command lines (`mysql -psecret`, `sshpass -p secret`, `curl -u u:p`).

    `found` is what a scan for `COMMAND_LITERALS` (at least) found in `text`, when the caller
    has it already.
    """

    def holds(literal: str) -> bool:
        return literal in text if found is None else found.in_text(literal)

    if not any(holds(hint) for hint in OPTION_HINTS):
        return
    for rule in _COMMAND_RULES:
        if not any(holds(o) for o in rule.options) or not any(holds(h) for h in rule.hints):
            continue
        for match in rule.pattern.finditer(text):
            start, end = match.span(1)
            value = text[start:end].strip("\"'")
            if value and not value.startswith(("$", "[REDACTED")):
                yield start, end, rule.kind


# -- connection strings -----------------------------------------------------------------------

_CONNECTION_KEY: Final = re.compile(
    r"(?i)(?<![A-Za-z])(accountkey|sharedaccesskey|sharedaccesssignature|password|pwd|"
    r"accesskey|secretkey|clientsecret)=[ \t]*([^;\"'\s{}]{1,512})"
)
CONNECTION_HINTS: Final = ("key=", "pwd=", "password=", "signature=", "secret=")
"""One of these (in the lower-cased text) comes with every connection-string secret."""


def connection_string_spans(text: str, lowered: str | None = None) -> Iterator[Span]:
    """Values of secret keys in `Key=value;` connection strings (Azure, SQL Server, ODBC).

    `lowered` is `text` lower-cased, when the caller has it already.
    """
    if ";" not in text or "=" not in text:
        return
    low = text.lower() if lowered is None else lowered
    if not any(hint in low for hint in CONNECTION_HINTS):
        return
    for match in _CONNECTION_KEY.finditer(text):
        value = match.group(2)
        following = text[match.end() : match.end() + 1]
        preceding = text[max(0, match.start() - 1) : match.start()]
        if following not in ("", ";") and preceding not in (";", ""):
            continue  # not inside a `k=v;k=v` string
        if value.startswith(("$", "<", "[REDACTED", "...", "…")) or set(value) <= {".", "*"}:
            continue
        yield match.start(2), match.end(2), "connection_string_secret"


# -- detect-secrets ---------------------------------------------------------------------------

# Detectors left out: public IPs are not secrets; the private-key detector marks only the BEGIN
# line (redaction removes whole key blocks itself); and the detectors whose secrets redaction's
# own prefix, URL and connection-string rules or its high-entropy check already find (they are
# not run twice).
_SKIPPED_DETECTORS: Final = frozenset(
    {
        "IPPublicDetector", "PrivateKeyDetector", "AzureStorageKeyDetector", "BasicAuthDetector",
        "DiscordBotTokenDetector",
        "GitHubTokenDetector", "GitLabTokenDetector", "JwtTokenDetector", "MailchimpDetector",
        "NpmDetector", "OpenAIDetector", "PypiTokenDetector", "SendGridDetector", "SlackDetector",
        "SquareOAuthDetector", "StripeDetector", "TelegramBotTokenDetector", "TwilioKeyDetector",
    }
)  # fmt: skip

_ANY_SECRET_WORD: Final = ("key", "pw", "pass", "token", "secret")

# Literal hints per detector kind: each group needs one of its words in the text (lower-cased
# when the hint is lower case), or the detector's patterns are not run at all; a credential
# pattern keyed on a short name (`cl_key`, `sl_pass`) is left to redaction's own assignment
# rule. A detector without hints (one added upstream later) always runs.
_HINTS: Final[dict[str, tuple[tuple[str, ...], ...]]] = {
    # Its tokens are `AKC…` and `AP` + a hex digit + more (`API`, `APP` start none of them).
    "artifactory_credentials": (("AKC", *(f"AP{digit}" for digit in "0123456789ABCDEF")),),
    "aws_access_key": (("aws",),),  # key ids alone are redaction's own rule
    "cloudant_credentials": (("cloudant",),),
    "ibm_cloud_iam_key": (("iam",), _ANY_SECRET_WORD),
    "ibm_cos_hmac_credentials": (("hmac", "cos_", "cos-"), _ANY_SECRET_WORD),
    "softlayer_credentials": (("softlayer",),),
}


DETECTOR_LITERALS: Final = frozenset(
    hint for groups in _HINTS.values() for group in groups for hint in group
)
"""Every hint of the detectors (lower-case ones are looked for in the lower-cased text)."""

_MIN_DETECTED_LEN: Final = 16
"""Shorter texts hold nothing a detect-secrets detector flags (its tokens are longer)."""


@dataclass(frozen=True, slots=True)
class Detector:
    """One detect-secrets regex detector: its kind (a slug of its secret type), its patterns,
    and the hint groups that must all be met before they run."""

    kind: str
    patterns: tuple[re.Pattern[str], ...]
    hints: tuple[frozenset[str], ...] = ()

    def hints_met(self, text: str, lowered: str, found: Found | None) -> bool:
        """Whether every hint group has a hint in the text (lower-case hints: in `lowered`)."""
        for group in self.hints:
            if found is not None:
                if found.words.isdisjoint(hint.lower() for hint in group):
                    return False
                met = any(
                    found.in_lower(hint) if hint.islower() else found.in_text(hint)
                    for hint in group
                )
            else:
                met = any(hint in (lowered if hint.islower() else text) for hint in group)
            if not met:
                return False
        return True


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


@functools.cache
def maintained_detectors() -> tuple[Detector, ...]:
    """Every regex detector detect-secrets ships (loaded once; empty if it is not installed)."""
    try:
        plugins = importlib.import_module("detect_secrets.plugins")
        base = importlib.import_module("detect_secrets.plugins.base")
    except ImportError:  # pragma: no cover - a dependency; redaction still has its own rules
        return ()
    found: list[Detector] = []
    for info in pkgutil.iter_modules(plugins.__path__):
        module = importlib.import_module(f"detect_secrets.plugins.{info.name}")
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if (
                cls.__module__ != module.__name__
                or not issubclass(cls, base.RegexBasedDetector)
                or inspect.isabstract(cls)
                or name in _SKIPPED_DETECTORS
            ):
                continue
            detector: Any = cls()
            patterns = tuple(p for p in detector.denylist if isinstance(p, re.Pattern))
            kind = _slug(str(detector.secret_type))
            hints = tuple(frozenset(group) for group in _HINTS.get(kind, ()))
            found.append(Detector(kind, patterns, hints))
    return tuple(found)


@functools.cache
def has_unhinted_detectors() -> bool:
    """Whether a detector runs on every text (one without hints, e.g. added upstream later)."""
    return any(not detector.hints for detector in maintained_detectors())


def maintained_spans(
    text: str, lowered: str | None = None, found: Found | None = None
) -> Iterator[Span]:
    """Secrets detect-secrets' regex detectors find, as spans (a group when the rule has one).

    `lowered` is `text` lower-cased, and `found` what a scan for `DETECTOR_LITERALS` (at least)
    found in it, when the caller has them already.
    """
    if len(text) < _MIN_DETECTED_LEN:
        return
    low = text.lower() if lowered is None else lowered
    for detector in maintained_detectors():
        if not detector.hints_met(text, low, found):
            continue
        for pattern in detector.patterns:
            for match in pattern.finditer(text):
                span = next(
                    (match.span(g) for g in range(1, (pattern.groups or 0) + 1) if match.group(g)),
                    match.span(0),
                )
                start, end = _trimmed(text, *span)
                if end > start and "[REDACTED" not in text[start:end]:
                    yield start, end, detector.kind


_DELIMITERS: Final = " \t\r\n=:\"'"


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """A span without the quotes, blanks and `=`/`:` some patterns match around the secret."""
    while start < end and text[start] in _DELIMITERS:
        start += 1
    while end > start and text[end - 1] in _DELIMITERS:
        end -= 1
    return start, end
