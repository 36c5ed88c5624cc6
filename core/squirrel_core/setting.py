"""One documented setting: its name, type, default, meaning and the values it accepts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ENV_PREFIX = "SQRL_"


@dataclass(frozen=True, slots=True)
class Setting:
    """A documented setting: `section.name`, its type, default, meaning and allowed values.

    Numbers have a `minimum` and `maximum`; text has `choices`, or a `max_length` (and `url` or
    `nonempty` where that is the rule); lists hold up to `MAX_LIST_ITEMS` non-empty paths.
    """

    section: str
    name: str
    kind: type
    default: Any
    doc: str
    secret: bool = False
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    max_length: int = 1_000
    url: bool = False
    nonempty: bool = False

    @property
    def dotted(self) -> str:
        return f"{self.section}.{self.name}"

    @property
    def env(self) -> str:
        return f"{ENV_PREFIX}{self.section}_{self.name}".upper()

    @property
    def allowed(self) -> str:
        """What the setting accepts, in words (used in every error about it)."""
        if self.kind is bool:
            return "true or false"
        if self.kind is list:
            return f"a list of up to {MAX_LIST_ITEMS} paths"
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.kind in (int, float):
            noun = "an integer" if self.kind is int else "a number"
            return f"{noun} from {_number(self.minimum)} to {_number(self.maximum)}"
        if self.url:
            return "empty, or an http:// or https:// URL"
        what = "non-empty text" if self.nonempty else "text"
        return f"{what} of at most {self.max_length} characters on one line"


MAX_LIST_ITEMS = 100


def _number(value: float | None) -> str:
    if value is None:
        return "any"
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"
