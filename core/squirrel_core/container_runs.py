"""A command run inside a container: `docker compose exec app bin/rails test`,
`docker run --rm -v "$PWD:/src" node:20 npm test` run the words after the service or image."""

from __future__ import annotations

import posixpath

#: Programs that start or enter a container, and their Compose forms.
_ENGINES = frozenset({"docker", "podman"})
_COMPOSE = frozenset({"docker-compose", "podman-compose"})
#: The subcommands whose next word (after their options) names a service, container or image,
#: and whose words after that are the command run inside it.
_LAUNCHES = frozenset({"run", "exec"})
#: Compose options before the subcommand that take a value (`-f compose.test.yml`).
_COMPOSE_OPTIONS = frozenset(
    {"-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--project-directory"}
)
#: Options of a launch (`docker run`, `docker exec`, `podman run`, `compose run`/`exec`) that
#: take a value as the next word (`-e KEY=1`, `-w /app`, `--gpus all`); every other option is a
#: flag. An option given as `--name=value` is one word either way.
_VALUE_OPTIONS = frozenset(
    {"-e", "--env", "--env-file", "-w", "--workdir", "-u", "--user", "--entrypoint", "-p"}
    | {"--publish", "-v", "--volume", "--name", "-l", "--label", "--network", "--index"}
    | {"--mount", "--platform", "--pull", "-m", "--memory", "--cpus", "-a", "--attach"}
    | {"--add-host", "--annotation", "--blkio-weight", "--blkio-weight-device", "--cap-add"}
    | {"--cap-drop", "--cgroup-parent", "--cgroupns", "--cidfile", "-c", "--cpu-shares"}
    | {"--cpu-period", "--cpu-quota", "--cpu-rt-period", "--cpu-rt-runtime", "--cpuset-cpus"}
    | {"--cpuset-mems", "--detach-keys", "--device", "--device-cgroup-rule", "--dns"}
    | {"--device-read-bps", "--device-read-iops", "--device-write-bps", "--device-write-iops"}
    | {"--dns-option", "--dns-opt", "--dns-search", "--domainname", "--expose", "--gpus"}
    | {"--group-add", "--health-cmd", "--health-interval", "--health-retries", "--ip", "--ip6"}
    | {"--health-start-period", "--health-start-interval", "--health-timeout", "--ipc"}
    | {"-h", "--hostname", "--isolation", "--kernel-memory", "--label-file", "--link"}
    | {"--link-local-ip", "--log-driver", "--log-opt", "--mac-address", "--memory-reservation"}
    | {"--memory-swap", "--memory-swappiness", "--net", "--network-alias", "--net-alias"}
    | {"--oom-score-adj", "--pid", "--pids-limit", "--restart", "--runtime", "--security-opt"}
    | {"--shm-size", "--stop-signal", "--stop-timeout", "--storage-opt", "--sysctl", "--tmpfs"}
    | {"--ulimit", "--userns", "--uts", "--volume-driver", "--volumes-from", "--pod"}
    | {"--hooks-dir", "--secret", "--arch", "--os", "--variant", "--uidmap"}
    | {"--gidmap", "--subuidname", "--subgidname", "--preserve-fds"}
)


def _after_options(words: tuple[str, ...], with_value: frozenset[str]) -> tuple[str, ...]:
    index = 0
    while index < len(words) and words[index].startswith("-"):
        index += 2 if words[index] in with_value else 1
    return words[index:]


def inside_container(words: tuple[str, ...]) -> tuple[str, ...] | None:
    """The command a container launch runs (`("pytest", "-x")`), or None when `words` are not
    such a launch or run the container's own entry point."""
    program = posixpath.basename(words[0]) if words else ""
    if program in _ENGINES and words[1:2] == ("compose",):
        rest = _after_options(words[2:], _COMPOSE_OPTIONS)
    elif program in _COMPOSE:
        rest = _after_options(words[1:], _COMPOSE_OPTIONS)
    elif program in _ENGINES:
        rest = words[1:]
    else:
        return None
    if not rest or rest[0] not in _LAUNCHES:
        return None
    inside = _after_options(rest[1:], _VALUE_OPTIONS)[1:]
    return inside or None
