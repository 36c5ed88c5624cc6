"""Configuration that names services and ports: compose files, example environment files,
framework config (Phoenix endpoints, Rails database.yml, Spring properties), Procfile, Dockerfile,
and the database adapter the application's data-access configuration names (an Ecto Repo's
`adapter:`, Django's `ENGINE`, Prisma's provider, a knex/Drizzle/TypeORM config, Entity
Framework's `Use<Provider>`, a SQLAlchemy/Alembic URL, `DATABASE_URL`/`DB_CONNECTION`).

Only names are read — the kind of a service, a port number, a URL's scheme — never a value
that could be a secret (passwords, tokens, hosts with credentials).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import yaml

from squirrel_memory.repository.findings import (
    Command,
    Port,
    Readings,
    Service,
    Toolchain,
    folder_of,
)
from squirrel_memory.repository.snapshot import TextFile
from squirrel_memory.repository.stack import image_role, runtime_image, scheme_name
from squirrel_memory.repository.task_records import purpose_of

ConfigReader = Callable[[TextFile, Readings], None]

_COMPOSE = re.compile(r"^(?:.*/)?(?:docker-)?compose(?:\.[\w-]+)?\.ya?ml$")
_ENV_EXAMPLE = re.compile(r"^(?:.*/)?\.env\.(?:example|sample|template|dist|defaults)$")
_ELIXIR_CONFIG = re.compile(r"^(?:.*/)?config/\w+\.exs$")
_DJANGO_SETTINGS = re.compile(r"^(?:.*/)?(?:settings\.py|settings/\w+\.py)$")
_PY_DB_CONFIG = re.compile(
    r"^(?:.*/)?(?:config|database|db|session|engine)\.py$|(?:^|/)alembic\.ini$"
)
_JS_DB_CONFIG = re.compile(
    r"^(?:.*/)?(?:drizzle\.config|knexfile|ormconfig|data-source)\.(?:[cm]?[jt]s|json)$"
)
_DOTNET_STARTUP = re.compile(r"^(?:.*/)?(?:Program|Startup)\.cs$")
_SPRING = re.compile(r"^(?:.*/)?src/main/resources/application(?:-\w+)?\.(?:properties|ya?ml)$")
#: Configuration whose conventional place is folders below the module it configures: Spring's
#: `src/main/resources/application.properties`, an Ecto Repo's `lib/<app>/repo.ex`.
_IN_MODULE = re.compile(
    r"^(?:(?P<module>.+)/)?(?:src/main/resources/application(?:-\w+)?\.(?:properties|ya?ml)"
    r"|lib/\w+/repo\.ex)$"
)


def is_env_example(path: str) -> bool:
    """Whether `path` is an example environment file (`.env.example`, `.env.sample`): a
    template to copy, often left from a starter, that the application itself never reads."""
    return bool(_ENV_EXAMPLE.match(path))


def configured_module(path: str) -> str | None:
    """The module folder ("" for the root) a configuration file in its convention's place
    configures (`services/orders` for `services/orders/src/main/resources/application.yml`),
    or None for any other file."""
    match = _IN_MODULE.match(path)
    return None if match is None else match.group("module") or ""


#: An identifier, and the words of a camel-cased one (`AddHangfire` → addhangfire, add, hangfire).
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CAMEL_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def set_up_words(text: str) -> set[str]:
    """The words (lower-cased) of a configuration or process file: what it may set up or start
    (`config :shop, Oban`, `worker: bundle exec sidekiq`, `services.AddHangfire(…)`)."""
    words: set[str] = set()
    for identifier in _IDENTIFIER.findall(text):
        words.add(identifier.lower())
        words.update(word.lower() for word in _CAMEL_WORD.findall(identifier))
    return words


def config_reader(path: str) -> ConfigReader | None:
    """The reader for a tracked configuration path, if this module reads it."""
    name = path.rsplit("/", 1)[-1]
    if _COMPOSE.match(path):
        return read_compose
    if _ENV_EXAMPLE.match(path):
        return read_env_example
    if _ELIXIR_CONFIG.match(path):
        return read_elixir_config
    if name.endswith("repo.ex"):
        return read_ecto_repo
    if _DJANGO_SETTINGS.match(path):
        return read_django_settings
    if _PY_DB_CONFIG.search(path):
        return read_database_urls
    if _JS_DB_CONFIG.match(path):
        return read_js_database_config
    if _DOTNET_STARTUP.match(path):
        return read_dotnet_startup
    if path.endswith("config/database.yml"):
        return read_rails_database
    if _SPRING.match(path):
        return read_spring_config
    if name == "schema.prisma":
        return read_prisma_schema
    if name == "Procfile" or name.startswith("Procfile."):
        return read_procfile
    if name == "Dockerfile":
        return read_dockerfile
    return None


def _host_port(spec: object) -> int | None:
    if isinstance(spec, int):
        return spec
    if isinstance(spec, dict):
        value = spec.get("published") or spec.get("target")
        return int(value) if isinstance(value, int | str) and str(value).isdigit() else None
    if isinstance(spec, str):
        parts = spec.split("/", 1)[0].split(":")
        host = parts[-2] if len(parts) >= 2 else parts[0]
        return int(host) if host.isdigit() else None
    return None


def is_compose_file(path: str) -> bool:
    """Whether `path` is a compose file (`docker-compose.yml`, `compose.dev.yaml`)."""
    return bool(_COMPOSE.match(path))


def read_compose(text: TextFile, out: Readings) -> None:
    data = yaml.safe_load(text.text)
    services = data.get("services") if isinstance(data, dict) else None
    if not isinstance(services, dict):
        raise ValueError("a compose file needs a services mapping")
    for name, spec in services.items():
        if not isinstance(spec, dict):
            continue
        image = spec.get("image")
        role = image_role(image) if isinstance(image, str) else None
        where = text.ref_of(str(image)) if isinstance(image, str) else text.ref_of(f"{name}:")
        if role is not None:
            out.services.append(Service(role.role, role.name, where, via=text.path))
        if "build" in spec:
            _built_service_database(text, spec.get("environment"), out)
        label = role.name if role is not None else str(name)
        for port_spec in spec.get("ports") or []:
            port = _host_port(port_spec)
            if port is not None and 0 < port < 65536:
                out.ports.append(Port(port, label, text.ref_of(str(port))))


#: Environment keys that hold the URL of the database the application itself connects to (a
#: `MYSQL_URL` or `ANALYTICS_DB_URL` beside it may be a side store).
_APP_DATABASE_KEYS = frozenset({"DATABASE_URL", "DB_URL", "SQLALCHEMY_DATABASE_URI"})


def _built_service_database(text: TextFile, environment: object, out: Readings) -> None:
    """The database a compose service built from the repository (the application itself, not
    an image of another program) connects to: its `DATABASE_URL` (or the like) environment
    entry's scheme."""
    pairs: list[tuple[str, str]] = []
    if isinstance(environment, dict):
        pairs = [(str(k), str(v)) for k, v in environment.items() if v is not None]
    elif isinstance(environment, list):
        for entry in environment:
            key, sep, value = str(entry).partition("=")
            if sep:
                pairs.append((key, value))
    for key, value in pairs:
        scheme = _SCHEME.match(value.strip())
        name = scheme_name(scheme.group(1)) if scheme and key in _APP_DATABASE_KEYS else None
        if name is not None and name not in ("Redis", "RabbitMQ"):
            ref = text.ref_of(f"{key}:") if f"{key}:" in text.text else text.ref_of(f"{key}=")
            out.services.append(Service("database", name, ref, via=text.path, configured=True))


#: Adapter, driver, dialect and provider names of data-access libraries → the database.
_DRIVERS = {
    "postgres": "PostgreSQL",
    "postgresql": "PostgreSQL",
    "pgsql": "PostgreSQL",
    "pg": "PostgreSQL",
    "psycopg": "PostgreSQL",
    "psycopg2": "PostgreSQL",
    "asyncpg": "PostgreSQL",
    "npgsql": "PostgreSQL",
    "mysql": "MySQL",
    "mysql2": "MySQL",
    "myxql": "MySQL",
    "pymysql": "MySQL",
    "mariadb": "MariaDB",
    "sqlite": "SQLite",
    "sqlite3": "SQLite",
    "better-sqlite3": "SQLite",
    "aiosqlite": "SQLite",
    "libsql": "SQLite",
    "turso": "SQLite",
    "sqlserver": "SQL Server",
    "sqlsrv": "SQL Server",
    "mssql": "SQL Server",
    "tds": "SQL Server",
    "oracle": "Oracle",
    "mongodb": "MongoDB",
    "cockroachdb": "CockroachDB",
}


def _configured(
    out: Readings, text: TextFile, driver: str, number: int, read_only: bool = False
) -> None:
    name = _DRIVERS.get(driver.lower())
    if name is not None:
        out.services.append(
            Service(
                "database",
                name,
                text.ref(number),
                via=text.path,
                configured=True,
                read_only=read_only,
            )
        )


_ENV_LINE = re.compile(r"^\s*(?:export\s+)?([A-Z][A-Z0-9_]*)\s*=\s*(.*)$")
_SCHEME = re.compile(r"^[\"']?([a-z][a-z0-9+.\-]*)://")


def read_env_example(text: TextFile, out: Readings) -> None:
    for number, line in enumerate(text.lines, 1):
        match = _ENV_LINE.match(line)
        if not match:
            continue
        key, value = match.group(1), match.group(2).strip()
        scheme = _SCHEME.match(value)
        name = scheme_name(scheme.group(1)) if scheme else None
        if name is not None:
            kind = "cache" if name in ("Redis",) else "queue" if name == "RabbitMQ" else "database"
            configured = kind == "database" and key in _APP_DATABASE_KEYS
            out.services.append(
                Service(kind, name, text.ref(number), via=text.path, configured=configured)
            )
        if key == "DB_CONNECTION" and (driver := _DRIVERS.get(value.strip("\"' ").lower())):
            out.services.append(
                Service("database", driver, text.ref(number), via=text.path, configured=True)
            )
        if key in ("PORT", "HTTP_PORT", "APP_PORT", "SERVER_PORT") and value.strip("\"'").isdigit():
            out.ports.append(Port(int(value.strip("\"'")), "dev server", text.ref(number)))


_ENDPOINT = re.compile(r"^\s*config\s+:\w+,\s*[\w.]*Endpoint\b")
_PORT_KW = re.compile(r"\bport:\s*(\d{2,5})\b")


_ECTO_ADAPTER = re.compile(r"\badapter:\s*Ecto\.Adapters\.(\w+)")


#: Ecto's option for a Repo that only reads (a legacy source an import reads, a replica).
_ECTO_READ_ONLY = re.compile(r"\bread_only:\s*true\b")


def read_ecto_repo(text: TextFile, out: Readings) -> None:
    """`use Ecto.Repo, otp_app: :x, adapter: Ecto.Adapters.SQLite3`: the Repo's database. A
    Repo declared `read_only: true` is marked so: it reads data the project does not keep (a
    legacy source an import reads, a replica)."""
    for number, line in enumerate(text.lines, 1):
        if match := _ECTO_ADAPTER.search(line):
            _configured(out, text, match.group(1), number, bool(_ECTO_READ_ONLY.search(line)))


def read_elixir_config(text: TextFile, out: Readings) -> None:
    read_ecto_repo(text, out)
    if not text.path.endswith(("dev.exs", "config.exs", "runtime.exs")):
        return
    in_endpoint = False
    for number, line in enumerate(text.lines, 1):
        if line.startswith("config "):
            in_endpoint = bool(_ENDPOINT.match(line))
        if in_endpoint and (match := _PORT_KW.search(line)) and text.path.endswith("dev.exs"):
            out.ports.append(Port(int(match.group(1)), "dev server", text.ref(number)))
            in_endpoint = False


_RAILS_ADAPTERS = {"postgresql": "PostgreSQL", "postgis": "PostgreSQL", "mysql2": "MySQL"}
_RAILS_ADAPTERS |= {"trilogy": "MySQL", "sqlite3": "SQLite"}
#: Environments a Rails app runs on its own machines only: what they name is not what it runs on.
_LOCAL_ENVIRONMENTS = frozenset({"development", "test"})


def read_rails_database(text: TextFile, out: Readings) -> None:
    """`config/database.yml`: each environment's adapter, an alias (`<<: *default`) giving the
    aliased section's. The environments the app is deployed to (`production`, `staging`) name
    its database; development and test name their own only when they differ from it (SQLite
    on the developer's machine, PostgreSQL in production), recorded as those environments'.
    A file with no deployed environment names the database its first adapter names."""
    adapters: dict[str, tuple[str, int]] = {}
    aliases: dict[str, str] = {}
    anchors: dict[str, str] = {}
    section = ""
    for number, line in enumerate(text.lines, 1):
        if top := re.match(r"^([\w-]+):\s*(?:&([\w-]+))?", line):
            section = top.group(1)
            if top.group(2):
                anchors[top.group(2)] = section
        elif section and (alias := re.match(r"^\s+<<:\s*\*([\w-]+)", line)):
            aliases[section] = alias.group(1)
        elif (
            section
            and section not in adapters
            and (match := re.match(r"^\s+adapter:\s*[\"']?(\w+)", line))
            and match.group(1) in _RAILS_ADAPTERS
        ):
            adapters[section] = (_RAILS_ADAPTERS[match.group(1)], number)
    for section, anchor in aliases.items():
        source = anchors.get(anchor)
        if section not in adapters and source in adapters:
            adapters[section] = adapters[source]
    found = {
        env: Service("database", name, text.ref(number), via=text.path, configured=True)
        for env, (name, number) in adapters.items()
        if env not in anchors.values()
    }
    if not found and adapters:  # only an anchored section names one
        name, number = next(iter(adapters.values()))
        found = {"": Service("database", name, text.ref(number), via=text.path, configured=True)}
    deployed = [service for env, service in found.items() if env not in _LOCAL_ENVIRONMENTS]
    if not deployed:
        if found:
            out.services.append(next(iter(found.values())))
        return
    names = set()
    for service in deployed:
        if service.name not in names:
            names.add(service.name)
            out.services.append(service)
    for env, service in found.items():
        if env in _LOCAL_ENVIRONMENTS and service.name not in names:
            out.profiles.append((env, service))


_SPRING_PROFILE = re.compile(r"application-(?P<profile>\w+)\.(?:properties|ya?ml)$")


def read_spring_config(text: TextFile, out: Readings) -> None:
    """Spring's `application.properties`: the `jdbc:` URL's database and the server port. A
    profile's file (`application-mysql.properties`) configures that profile only: its
    database is recorded as the profile's, never as the application's."""
    profile = _SPRING_PROFILE.search(text.path)
    for number, line in enumerate(text.lines, 1):
        if match := re.search(r"jdbc:([a-z0-9]+):", line):
            name = scheme_name(match.group(1))
            if name:
                found = Service("database", name, text.ref(number), via=text.path, configured=True)
                if profile:
                    out.profiles.append((profile.group("profile"), found))
                else:
                    out.services.append(found)
        if match := re.match(r"^\s*server\.port\s*[=:]\s*(\d{2,5})\s*$", line):
            out.ports.append(Port(int(match.group(1)), "dev server", text.ref(number)))


_PRISMA_PROVIDER = re.compile(r'^\s*provider\s*=\s*"(\w+)"')


def read_prisma_schema(text: TextFile, out: Readings) -> None:
    names = {"postgresql": "PostgreSQL", "mysql": "MySQL", "sqlite": "SQLite"}
    names |= {"mongodb": "MongoDB", "sqlserver": "SQL Server", "cockroachdb": "CockroachDB"}
    in_source = False
    for number, line in enumerate(text.lines, 1):
        if line.startswith("datasource "):
            in_source = True
        elif line.startswith("}"):
            in_source = False
        elif in_source and (match := _PRISMA_PROVIDER.match(line)) and match.group(1) in names:
            name = names[match.group(1)]
            out.services.append(
                Service("database", name, text.ref(number), via=text.path, configured=True)
            )


_DJANGO_ENGINE = re.compile(r"""["']ENGINE["']\s*:\s*["']django\.db\.backends\.(\w+)""")


def read_django_settings(text: TextFile, out: Readings) -> None:
    """Django's `DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", …}}`."""
    for number, line in enumerate(text.lines, 1):
        if match := _DJANGO_ENGINE.search(line):
            _configured(out, text, match.group(1), number)
    read_database_urls(text, out)


#: A literal connection URL in code or an ini file (`sqlite:///app.db`, `postgresql+asyncpg://`):
#: only the scheme is read.
_DATABASE_URL = re.compile(r"""(?:["'=]\s*)(sqlite|postgres(?:ql)?|mysql|mariadb)(?:\+\w+)?:///?""")


#: A URL given as the fallback of a setting read from the environment
#: (`dj_database_url.config(default="sqlite:///db.sqlite3")`, `os.getenv("DATABASE_URL",
#: "sqlite://…")`, `os.environ.get("DATABASE_URL") or "sqlite://…"`, `ENV.fetch(…)`): what
#: runs where the variable is unset, not what the deployed app uses.
_FALLBACK = re.compile(
    r"""\bdefault\s*=\s*["']\w+(?:\+\w+)?:|\b(?:getenv|environ|ENV\.fetch|ENV\[|env\(|process\.env)"""
)


def read_database_urls(text: TextFile, out: Readings) -> None:
    """A SQLAlchemy or Alembic database URL the configuration module sets; one that is only
    the fallback of an environment variable names a database nothing configures."""
    for number, line in enumerate(text.lines, 1):
        if line.lstrip().startswith("#"):
            continue
        if match := _DATABASE_URL.search(line):
            if _FALLBACK.search(line) and (name := _DRIVERS.get(match.group(1).lower())):
                out.services.append(Service("database", name, text.ref(number), via=text.path))
            else:
                _configured(out, text, match.group(1), number)


_JS_DRIVER = re.compile(
    r"""^\s*["']?(?:dialect|client|driver|type|provider)["']?\s*:\s*["']([\w-]+)["']"""
)


def read_js_database_config(text: TextFile, out: Readings) -> None:
    """Drizzle's `dialect`, knex's `client`, TypeORM's `type` in their config files."""
    for number, line in enumerate(text.lines, 1):
        if match := _JS_DRIVER.match(line):
            _configured(out, text, match.group(1), number)


_EF_PROVIDER = re.compile(r"\.Use(Npgsql|Sqlite|SqlServer|MySql|MySQL|Oracle)\s*\(")


def read_dotnet_startup(text: TextFile, out: Readings) -> None:
    """Entity Framework's provider: `options.UseNpgsql(…)`, `UseSqlite(…)`."""
    for number, line in enumerate(text.lines, 1):
        if match := _EF_PROVIDER.search(line):
            _configured(out, text, match.group(1), number)


def read_procfile(text: TextFile, out: Readings) -> None:
    for number, line in enumerate(text.lines, 1):
        name, sep, command = line.partition(":")
        if not sep or name.strip() not in ("web", "dev", "server", "app"):
            continue
        found = purpose_of(command.strip())
        if found is not None and found[0] == "run":
            out.commands.append(
                Command(
                    command.strip(),
                    "run",
                    found[1],
                    folder_of(text.path),
                    "task",
                    text.ref(number),
                )
            )


_FROM = re.compile(r"^\s*FROM\s+(?:--platform=\S+\s+)?(?P<image>\S+)", re.IGNORECASE)


def read_dockerfile(text: TextFile, out: Readings) -> None:
    for number, line in enumerate(text.lines, 1):
        base = _FROM.match(line)
        runtime = runtime_image(base.group("image")) if base and "/" not in text.path else None
        if runtime is not None:
            out.image_runtimes.append(Toolchain(runtime[0], runtime[1], text.ref(number)))
        match = re.match(r"^\s*EXPOSE\s+(\d{2,5})", line, re.IGNORECASE)
        if match:
            out.ports.append(Port(int(match.group(1)), "container", text.ref(number)))
