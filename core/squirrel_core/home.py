"""Where things live under the Squirrel home (`~/.sqrl` or `$SQRL_HOME`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from squirrel_core.files import ensure_private_dir

SERVICES = ("memory", "ingest", "gateway")


@dataclass(frozen=True, slots=True)
class HomeLayout:
    """Paths of every file Squirrel keeps in its home."""

    root: Path

    @property
    def config(self) -> Path:
        return self.root / "config.toml"

    @property
    def token(self) -> Path:
        return self.root / "token"

    @property
    def projects(self) -> Path:
        return self.root / "projects.json"

    @property
    def worktrees(self) -> Path:
        """Every linked git worktree seen of a registered project (so removed ones still route)."""
        return self.root / "worktrees.json"

    @property
    def user_db(self) -> Path:
        return self.root / "user.db"

    @property
    def store_key(self) -> Path:
        """`<home>/store.key`: the secret that signs the markers of the stores this home made."""
        return self.root / "store.key"

    @property
    def stores(self) -> Path:
        """`<home>/stores.json`: each project's store id, where it lives, and what was set aside."""
        return self.root / "stores.json"

    @property
    def project_stores(self) -> Path:
        """`<home>/projects/`: project stores kept under the home (one folder per project)."""
        return self.root / "projects"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def run(self) -> Path:
        return self.root / "run"

    @property
    def team(self) -> Path:
        """`<home>/team/`: a team server's issued tokens, a laptop's own team token."""
        return self.root / "team"

    @property
    def team_tokens(self) -> Path:
        """`<home>/team/tokens.json`: the team server's issued tokens (salted hashes only)."""
        return self.team / "tokens.json"

    @property
    def team_token(self) -> Path:
        """`<home>/team/token` (0600): this laptop's token for the team server."""
        return self.team / "token"

    @property
    def team_refused(self) -> Path:
        """`<home>/team/refused`: the hash of the team token the server last refused."""
        return self.team / "refused"

    @property
    def team_laptop(self) -> Path:
        """`<home>/team/laptop`: this home's own random id, so two laptops that share a machine
        name and a project path keep apart delivery positions on the team server."""
        return self.team / "laptop"

    @property
    def team_outbox(self) -> Path:
        """`<home>/team/outbox.db`: a laptop's remembers queued for the team server."""
        return self.team / "outbox.db"

    def service_file(self, service: str) -> Path:
        """`<home>/run/<service>-service.json`: pid, host and port of a running service."""
        return self.run / f"{service}-service.json"

    @property
    def gateway_http_file(self) -> Path:
        """`<home>/run/gateway-mcp.json`: the gateway's loopback HTTP endpoint (MCP, hooks, the
        CLI's quick reads), written once it answers."""
        return self.run / "gateway-mcp.json"

    def starting_file(self, service: str) -> Path:
        """`<home>/run/<service>-starting.json`: how far a service's start is (a migration of
        its database), while it listens and does not serve yet."""
        return self.run / f"{service}-starting.json"

    @property
    def serve_file(self) -> Path:
        """`<home>/run/serve.json`: `sqrl serve`'s own pid and the address it serves laptops on,
        from its start (the memory service writes `team_server_file` only once it serves)."""
        return self.run / "serve.json"

    @property
    def team_server_file(self) -> Path:
        """`<home>/run/team-server.json`: host and port a team server listens on for laptops."""
        return self.run / "team-server.json"

    def log_file(self, name: str) -> Path:
        return self.logs / f"{name}.log"

    @property
    def supervisor_file(self) -> Path:
        """`<home>/run/supervisor.json`: the `sqrl up` process and the state of its services."""
        return self.run / "supervisor.json"

    @property
    def up_failure_file(self) -> Path:
        """`<home>/run/up-failed.txt`: why the last `sqrl up` could not start the services, when
        the user can fix it (removed by the next `sqrl up`)."""
        return self.run / "up-failed.txt"

    def ensure(self) -> HomeLayout:
        """Creates the home and its folders (0700)."""
        for folder in (self.root, self.logs, self.run):
            ensure_private_dir(folder)
        return self
