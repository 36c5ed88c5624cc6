"""A made-up corpus of secrets (one sample per kind, in the context it appears in) and negatives.

Every secret is generated from a seeded generator and assembled from pieces, so none is a real
credential and secret scanners do not mistake this file for a leak. Each sample says which part
must not survive redaction; each negative must come out unchanged.
"""

from __future__ import annotations

import base64
import hashlib
import random
import string
import uuid
from dataclasses import dataclass

_RNG = random.Random(20261123)
_ALNUM = string.ascii_letters + string.digits
_UPPER_DIGITS = string.ascii_uppercase + string.digits


def _rand(n: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _hex(n: int) -> str:
    return _rand(n, "0123456789abcdef")


def _b64(n: int) -> str:
    return base64.b64encode(_RNG.randbytes(n)).decode()


def _password() -> str:
    return _rand(4, string.ascii_letters) + _rand(3, string.digits) + "!" + _rand(4)


@dataclass(frozen=True, slots=True)
class Sample:
    """One kind of secret: `text` as an assistant transcript would carry it, `secret` inside."""

    kind: str
    text: str
    secret: str


def _s(kind: str, secret: str, template: str) -> Sample:
    return Sample(kind, template.format(s=secret), secret)


def _samples() -> list[Sample]:
    pw = _password
    return [
        _s(
            "anthropic_key",
            "sk-" + "ant-api03-" + _rand(90, _ALNUM + "-_"),
            "export ANTHROPIC_API_KEY={s}",
        ),
        _s(
            "openai_project_key",
            "sk-" + "proj-" + _rand(64, _ALNUM + "-_"),
            "client = OpenAI(api_key='{s}')",
        ),
        _s(
            "openrouter_key",
            "sk-" + "or-v1-" + _hex(64),
            "curl -H 'Authorization: Bearer {s}' https://api.example",
        ),
        _s(
            "aws_access_key",
            "AKIA" + _rand(16, _UPPER_DIGITS),
            "aws configure set aws_access_key_id {s}",
        ),
        _s("aws_secret_key", _rand(40, _ALNUM + "/+"), "aws_secret_access_key = {s}"),
        _s(
            "github_classic_token",
            "ghp" + "_" + _rand(36),
            "git remote set-url origin https://{s}@github.com/o/r.git",
        ),
        _s(
            "github_fine_grained",
            "github" + "_pat_" + _rand(22) + "_" + _rand(59),
            "GH_TOKEN={s} gh pr list",
        ),
        _s("gitlab_token", "glpat" + "-" + _rand(20), "the token is {s} (expires in 30 days)"),
        _s(
            "slack_bot_token",
            "xoxb" + "-" + _rand(12, string.digits) + "-" + _rand(24),
            "SLACK_BOT={s}",
        ),
        _s(
            "slack_webhook",
            "https://hooks.slack.com/services/T"
            + _rand(8, _UPPER_DIGITS)
            + "/B"
            + _rand(8, _UPPER_DIGITS)
            + "/"
            + _rand(24),
            "post to {s} when done",
        ),
        _s(
            "google_api_key",
            "AIza" + _rand(35, _ALNUM + "-_"),
            "maps.googleapis.com/maps/api/js?key={s}",
        ),
        _s(
            "google_oauth_secret",
            "GOCSPX" + "-" + _rand(28, _ALNUM + "-_"),
            '"client_secret": "{s}"',
        ),
        _s("stripe_secret_key", "sk" + "_live_" + _rand(24), "stripe.api_key = {s}"),
        _s("stripe_webhook_secret", "whsec" + "_" + _rand(32), "STRIPE_WEBHOOK={s}"),
        _s("npm_token", "npm" + "_" + _rand(36), "//registry.npmjs.org/:_authToken={s}"),
        _s(
            "pypi_token",
            "pypi-AgE" + _rand(70, _ALNUM + "-_"),
            "twine upload -u __token__ -p {s} dist/*",
        ),
        _s("huggingface_token", "hf" + "_" + _rand(34), "huggingface-cli login --token {s}"),
        _s("sendgrid_key", "SG" + "." + _rand(22) + "." + _rand(43), "SENDGRID={s}"),
        _s("twilio_api_key", "SK" + _hex(32), "twilio api:core:keys:fetch --sid {s}"),
        _s(
            "mailchimp_key",
            _hex(32) + "-us" + _rand(2, string.digits),
            "mailchimp.set_config(api='{s}')",
        ),
        _s(
            "databricks_token", "dapi" + _hex(32), "databricks configure --host h --token-value {s}"
        ),
        _s("mailgun_key", "key" + "-" + _hex(32), "requests.post(url, auth=('api', '{s}'))"),
        _s("square_secret", "sq0csp" + "-" + _rand(43, _ALNUM + "-_"), "SQUARE={s}"),
        _s(
            "age_secret_key",
            "AGE-SECRET-KEY-1" + _rand(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"),
            "# {s}",
        ),
        _s("linear_key", "lin" + "_api_" + _rand(40), "LINEAR={s}"),
        _s("grafana_service_token", "glsa" + "_" + _rand(32) + "_" + _hex(8), "grafana token {s}"),
        _s(
            "vault_token",
            "hvs" + "." + _rand(90, _ALNUM + "_-"),
            "VAULT_TOKEN={s} vault kv get secret/app",
        ),
        _s("doppler_token", "dp" + ".st." + _rand(43), "doppler run --token {s} -- ./start"),
        _s("new_relic_key", "NRAK" + "-" + _rand(27, _UPPER_DIGITS), "newrelic {s}"),
        _s(
            "postman_key",
            "PMAK" + "-" + _hex(24) + "-" + _hex(34),
            "postman login --with-api-key {s}",
        ),
        _s(
            "atlassian_token",
            "ATATT3x" + _rand(180, _ALNUM + "_-=") + "=" + _hex(8).upper(),
            "jira token {s}",
        ),
        _s("digitalocean_token", "dop" + "_v1_" + _hex(64), "doctl auth init -t {s}"),
        _s("shopify_token", "shpat" + "_" + _hex(32), "X-Shopify-Access-Token: {s}"),
        _s(
            "discord_bot_token",
            "M" + _rand(25, _ALNUM) + "." + _rand(6, _ALNUM) + "." + _rand(38, _ALNUM + "_-"),
            "client.run('{s}')",
        ),
        _s(
            "telegram_bot_token",
            _rand(10, string.digits) + ":AA" + _rand(33, _ALNUM + "_-"),
            "bot = Bot('{s}')",
        ),
        _s(
            "private_key",
            "-----BEGIN OPENSSH PRIVATE KEY-----\n"
            + _b64(180)
            + "\n-----END OPENSSH PRIVATE KEY-----",
            "cat ~/.ssh/id_ed25519\n{s}\n",
        ),
        _s(
            "jwt",
            "eyJ" + _rand(30) + ".eyJ" + _rand(60) + "." + _rand(43, _ALNUM + "-_"),
            "Cookie: session={s}",
        ),
        _s("postgres_url_password", pw(), "DATABASE_URL=postgres://app:{s}@db.internal:5432/app"),
        _s("redis_url_password", pw(), "redis-cli -u redis://:{s}@cache:6379/0 ping"),
        _s(
            "mongodb_srv_password",
            pw(),
            'MongoClient("mongodb+srv://admin:{s}@cluster0.abcde.mongodb.net/")',
        ),
        _s("amqp_url_password", pw(), "BROKER=amqp://guest:{s}@rabbit//"),
        _s("ftp_url_password", pw(), "wget ftp://deploy:{s}@files.example.org/release.tgz"),
        _s(
            "bearer_header",
            _rand(48, _ALNUM + "._-"),
            'curl -H "Authorization: Bearer {s}" https://api.example',
        ),
        _s("basic_auth_header", _b64(24), "Authorization: Basic {s}"),
        _s("mysql_glued_password", pw(), "mysql -h db -P 3306 -uroot -p{s} app < dump.sql"),
        _s("mysql_password_flag", pw(), "mysqldump --user=root --password={s} app > app.sql"),
        _s("pgpassword_env", pw(), "PGPASSWORD={s} psql -h db -U app -c 'select 1'"),
        _s("mysql_pwd_env", pw(), "MYSQL_PWD={s} mysql -uroot app"),
        _s("sshpass_password", pw(), "sshpass -p {s} ssh deploy@web1 uptime"),
        _s("docker_login_password", pw(), "docker login -u ci -p {s} registry.example.com"),
        _s("redis_cli_password", pw(), "redis-cli -h cache -a {s} info"),
        _s("curl_user_password", pw(), "curl -u admin:{s} https://jenkins.example/api/json"),
        _s("openssl_passin", pw(), "openssl rsa -in key.pem -passin pass:{s} -out plain.pem"),
        _s(
            "azure_storage_account_key",
            _b64(64),
            "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={s};EndpointSuffix=core.windows.net",
        ),
        _s(
            "azure_shared_access_key",
            _b64(32),
            "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey={s}",
        ),
        _s(
            "sql_server_password",
            pw(),
            "Server=tcp:db,1433;Database=app;User Id=sa;Password={s};Encrypt=true",
        ),
        _s("odbc_pwd", pw(), "DRIVER={{ODBC Driver 18}};SERVER=db;UID=sa;PWD={s};"),
        _s("dotenv_password", pw(), "DB_PASSWORD={s}"),
        _s("json_api_key", _rand(32), '{{"api_key": "{s}", "region": "eu"}}'),
        _s("yaml_secret", _rand(24), "  client_secret: {s}\n  region: eu"),
        _s("secret_named_high_entropy", _rand(44, _ALNUM + "+/"), 'SESSION_SIGNING_SALT = "{s}"'),
        _s("token_named_hex", _hex(40), "CLOUDFLARE_API_TOKEN={s}"),
        _s("heroku_api_key_uuid", str(uuid.UUID(int=_RNG.getrandbits(128))), "HEROKU_API_KEY={s}"),
        _s("password_flag_space", pw(), "psql-wrapper --password {s} --db app"),
        _s("random_base64_token", _rand(40, _ALNUM + "+/"), "the value was {s} in the log"),
    ]


def _negatives() -> list[tuple[str, str]]:
    sha = hashlib.sha1(b"squirrel").hexdigest()
    digest = hashlib.sha256(b"squirrel").hexdigest()
    png = (
        "data:image/png;base64,"
        + base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 3).decode()
    )
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(b"left-pad").digest()).decode()
    return [
        ("git_sha", f"commit {sha}\nAuthor: Ada <ada@example.com>"),
        ("short_sha", f"HEAD is now at {sha[:7]} Fix the login form"),
        ("sha256_digest", f"sha256sum: {digest}  dist/app.tar.gz"),
        ("docker_digest", f"image: postgres@sha256:{digest}"),
        ("uuid", f"session {uuid.UUID(int=12345678901234567890)} started"),
        ("base64_png", f'<img src="{png}">'),
        ("npm_integrity", f'"integrity": "{integrity}"'),
        ("go_sum", "golang.org/x/text v0.14.0 h1:ScX5w1eTa3QqT8oi6+ziP7dTV1S2+ALU0bI+0zXKWiQ="),
        ("mysql_prompt_flag", "mysql -u root -p app_db"),
        ("docker_port_flag", "docker run -p 8080:80 -p 5432:5432 nginx"),
        ("pytest_plugin_flag", "python -m pytest -p no:cacheprovider -q"),
        ("ssh_port_flag", "ssh -p 2222 deploy@web1"),
        ("mkdir_p", "mkdir -p build/out && cp -pr src dest && git log -p -3"),
        ("password_from_getpass", "password = getpass.getpass()"),
        ("token_count", "max_tokens=4096, token_count: 12"),
        ("password_file_flag", "pg_dump --password-file /run/secrets/pg --dbname app"),
        ("url_without_password", "git clone https://user@github.com/org/repo.git"),
        ("ssh_git_url", "git@github.com:org/repo.git"),
        ("url_with_port", "postgres://localhost:5432/app and http://127.0.0.1:8000/docs"),
        ("placeholder_password", "Password=<your password>; AccountKey=...; api_key: ${API_KEY}"),
        (
            "code_identifiers",
            "def get_api_key(self) -> str:\n    return self.settings.api_key_name",
        ),
        ("camel_case", "const accessTokenExpiresIn = getTokenLifetimeInSeconds(config);"),
        (
            "file_paths",
            "services/gateway/squirrel_gateway/responses.py:214 in render_search_result",
        ),
        ("version_strings", "django==5.0.6 numpy>=1.26.4 node v20.11.1"),
        (
            "tool_ids",
            "toolu_01A2B3C4D5E6F7G8H9J0K1L2M3 msg_01XyZabc123DEF456ghi789 req_011CUaBcDeFgHiJkLmNoPq",
        ),
        ("long_words", "internationalization_configuration_management_subsystem_initialization"),
        ("redacted_already", "password=[REDACTED:secret_assignment]"),
        ("css_colors", "color: #ff00aa; background: #00ff00aa11; --accent-hex: 0x1f2e3d4c"),
        (
            "prose_about_secrets",
            "Store the password in the vault and rotate the API key every 90 days.",
        ),
        ("env_reference", "export DATABASE_URL=$DATABASE_URL PASSWORD=${PASSWORD:-}"),
    ]


SAMPLES: tuple[Sample, ...] = tuple(_samples())
"""One made-up secret per kind, in context."""

NEGATIVES: tuple[tuple[str, str], ...] = tuple(_negatives())
"""(kind, text) that carry no secret and must come out of redaction unchanged."""
