"""Whether a passing run is the failed command run through an `env` that sets or unsets
variables (`env -u GH_TOKEN git push` after `git push`): that change of the environment is the
fix. Assignments put before the command (`A=1 cmd`) are `retries.environment_set`'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from squirrel_core.shell_words import ENV_ASSIGNMENT, shell_tokens
from squirrel_memory.extractors.evidence import Attempt
from squirrel_memory.extractors.retries import after_shared_steps, as_typed


def environment_changed(failed: Attempt, passed: Attempt) -> bool:
    """Whether the passing command is the failed one run through an `env` that sets or unsets
    variables (`env -u GH_TOKEN git push` after `git push`), nothing else changed: that change
    of the environment is the fix."""
    if failed.run.event_id == passed.run.event_id:
        return False
    if "\n" in failed.run.command or "\n" in passed.run.command:
        return False  # which step of a script failed, the exit code does not say
    old, new = after_shared_steps(as_typed(failed.run.command), as_typed(passed.run.command))
    rest_before, made_before = _without_env_runs(shell_tokens(old))
    rest_after, made_after = _without_env_runs(shell_tokens(new))
    changed = not set(made_after) <= set(made_before)
    return bool(rest_after) and rest_before == rest_after and changed


#: `env` options that change the environment the command runs in (`-u NAME` unsets it).
_ENV_UNSET: Final = frozenset({"-u", "--unset"})
_ENV_EMPTY: Final = frozenset({"-i", "--ignore-environment", "-"})


def _without_env_runs(words: Sequence[str]) -> tuple[list[str], list[str]]:
    """`words` without the `env …` launches that change the environment of the command they
    run (`env -u GH_TOKEN`, `env -i`, `env A=1`), and the changes they make (`-u GH_TOKEN`,
    `A=1`); an `env` that changes nothing is left as it is."""
    rest: list[str] = []
    changes: list[str] = []
    n = 0
    while n < len(words):
        word = words[n]
        k = n + 1
        made: list[str] = []
        if word == "env":
            while k < len(words):
                option = words[k]
                if option in _ENV_UNSET and k + 1 < len(words):
                    made.append(f"-u {words[k + 1]}")
                    k += 2
                elif option.startswith("--unset="):
                    made.append(f"-u {option.partition('=')[2]}")
                    k += 1
                elif option in _ENV_EMPTY or ENV_ASSIGNMENT.match(option):
                    made.append(option)
                    k += 1
                else:
                    break
        if made and k < len(words):
            changes.extend(made)
            n = k
            continue
        rest.append(word)
        n += 1
    return rest, changes
