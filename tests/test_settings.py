"""deploy.settings reads the environment, and refuses a bad value at start-up by name.

Each case loads the settings in a fresh interpreter with exactly the environment given (no
pytest-env defaults), as a process manager would start the application.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

#: every test here starts fresh interpreters (the settings as a new process reads them)
pytestmark = pytest.mark.process

REPO = Path(__file__).resolve().parent.parent

RECEIPT_KEY = "tf6caK9pFwjDK14c9hgfwJT5mh-jb19lPZLZPrAoIuI"  # a test key, as in pyproject.toml
PRODUCTION = {
    "SECRET_KEY": "s" * 50,
    "ALLOWED_HOSTS": "seep.example.org",
    "RECEIPT_SIGNING_KEY": RECEIPT_KEY,
}

# What the child prints: the settings a test looks at, and the Celery app's view of them.
REPORT = """
import json, django
django.setup()
from django.conf import settings
from deploy import celery_app
db = settings.DATABASES["default"]
conf = celery_app.conf
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "SECRET_KEY": settings.SECRET_KEY,
    "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "ENGINE": db["ENGINE"],
    "NAME": str(db["NAME"]),
    "HOST": db.get("HOST"),
    "CONN_MAX_AGE": db.get("CONN_MAX_AGE"),
    "CONN_HEALTH_CHECKS": db.get("CONN_HEALTH_CHECKS"),
    "TIME_ZONE": settings.TIME_ZONE,
    "USE_TZ": settings.USE_TZ,
    "DEFAULT_AUTO_FIELD": settings.DEFAULT_AUTO_FIELD,
    "broker_url": conf.broker_url,
    "broker_transport": conf.broker_transport,
    "task_always_eager": conf.task_always_eager,
    "task_eager_propagates": conf.task_eager_propagates,
    "task_acks_late": conf.task_acks_late,
    "task_reject_on_worker_lost": conf.task_reject_on_worker_lost,
    "worker_prefetch_multiplier": conf.worker_prefetch_multiplier,
    "task_soft_time_limit": conf.task_soft_time_limit,
    "task_time_limit": conf.task_time_limit,
    "task_serializer": conf.task_serializer,
    "accept_content": list(conf.accept_content),
    "broker_connection_retry_on_startup": conf.broker_connection_retry_on_startup,
    "visibility_timeout": conf.broker_transport_options.get("visibility_timeout"),
    "OPTIONS": {k: v for k, v in db.get("OPTIONS", {}).items() if k != "init_command"},
    "DISABLE_SERVER_SIDE_CURSORS": db.get("DISABLE_SERVER_SIDE_CURSORS", False),
    "SECURE_PROXY_SSL_HEADER": settings.SECURE_PROXY_SSL_HEADER,
    "SECURE_SSL_REDIRECT": settings.SECURE_SSL_REDIRECT,
    "SECURE_HSTS_SECONDS": settings.SECURE_HSTS_SECONDS,
    "SESSION_COOKIE_SECURE": settings.SESSION_COOKIE_SECURE,
    "CSRF_COOKIE_SECURE": settings.CSRF_COOKIE_SECURE,
    "LOG_FORMAT": settings.LOG_FORMAT,
    "STATIC_ROOT": str(settings.STATIC_ROOT),
    "beat_scheduler": conf.beat_scheduler,
    "CACHE": settings.CACHES["default"]["BACKEND"],
    "PUSH_CORS_ORIGINS": settings.PUSH_CORS_ORIGINS,
}))
"""


def start(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Load the settings with only ``env`` (and PATH) set; return the finished process."""
    return subprocess.run(
        [sys.executable, "-c", REPORT],
        cwd=REPO,
        env={
            "PATH": os.environ.get("PATH", ""),
            "DJANGO_SETTINGS_MODULE": "deploy.settings",
            **env,
        },
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def loaded(env: dict[str, str]) -> dict[str, Any]:
    process = start(env)
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout.splitlines()[-1])


def refused(env: dict[str, str]) -> str:
    """Return the last line of the traceback of a start-up that must fail."""
    process = start(env)
    assert process.returncode != 0, f"started with {env}"
    last_line = process.stderr.strip().splitlines()[-1]
    assert last_line.startswith("django.core.exceptions.ImproperlyConfigured: "), process.stderr
    return last_line


class TestDevelopment:
    def test_debug_alone_starts_on_the_embedded_defaults(self) -> None:
        settings = loaded({"DEBUG": "1"})
        assert settings["DEBUG"] is True
        assert settings["ENGINE"] == "django.db.backends.sqlite3"
        assert settings["NAME"] == str(REPO / "db.sqlite3")
        assert settings["ALLOWED_HOSTS"] == ["localhost", "127.0.0.1", "[::1]"]
        assert settings["SECRET_KEY"].startswith("django-insecure-")

    def test_without_redis_tasks_run_in_process_and_raise_to_the_caller(self) -> None:
        settings = loaded({"DEBUG": "1"})
        assert settings["task_always_eager"] is True
        assert settings["task_eager_propagates"] is True
        assert settings["broker_url"] == "memory://"

    @pytest.mark.parametrize("word", ["1", "true", "Yes", "ON"])
    def test_debug_accepts_the_usual_words_for_on(self, word: str) -> None:
        assert loaded({"DEBUG": word})["DEBUG"] is True

    @pytest.mark.parametrize("word", ["0", "false", "No", "off", ""])
    def test_debug_accepts_the_usual_words_for_off(self, word: str) -> None:
        assert loaded({"DEBUG": word, **PRODUCTION})["DEBUG"] is False


class TestProduction:
    def test_explicit_values_are_used(self) -> None:
        settings = loaded(
            {
                **PRODUCTION,
                "ALLOWED_HOSTS": " seep.example.org, api.seep.example.org ,",
                "DATABASE_URL": "postgres://seep:pw@db.internal:5432/seep",
                "REDIS_URL": "redis://cache.internal:6379/2",
                "CONN_MAX_AGE": "300",
            }
        )
        assert settings["DEBUG"] is False
        assert settings["SECRET_KEY"] == PRODUCTION["SECRET_KEY"]
        assert settings["ALLOWED_HOSTS"] == ["seep.example.org", "api.seep.example.org"]
        assert settings["ENGINE"] == "django.db.backends.postgresql"
        assert (settings["HOST"], settings["NAME"]) == ("db.internal", "seep")
        assert settings["CONN_MAX_AGE"] == 300
        assert settings["CONN_HEALTH_CHECKS"] is True
        assert settings["broker_url"] == "redis://cache.internal:6379/2"
        assert settings["broker_transport"] == "deploy.broker:Transport"
        assert settings["task_always_eager"] is False

    def test_a_tls_broker_keeps_kombu_s_own_transport_which_turns_tls_on(self) -> None:
        settings = loaded({**PRODUCTION, "REDIS_URL": "rediss://cache.internal:6380/2"})
        assert settings["broker_url"] == "rediss://cache.internal:6380/2"
        assert settings["broker_transport"] is None

    def test_postgresql_connections_are_kept_a_minute_by_default(self) -> None:
        settings = loaded({**PRODUCTION, "DATABASE_URL": "postgresql://u@localhost/seep"})
        assert settings["CONN_MAX_AGE"] == 60
        assert settings["CONN_HEALTH_CHECKS"] is True

    def test_a_relative_sqlite_path_is_relative_to_the_repository(self) -> None:
        settings = loaded({**PRODUCTION, "DATABASE_URL": "sqlite:///var/seep.sqlite3"})
        assert settings["NAME"] == str(REPO / "var" / "seep.sqlite3")

    def test_celery_is_set_up_for_at_least_once_delivery(self) -> None:
        settings = loaded({**PRODUCTION, "REDIS_URL": "redis://127.0.0.1:6379/0"})
        assert settings["task_acks_late"] is True
        assert settings["task_reject_on_worker_lost"] is True
        assert settings["worker_prefetch_multiplier"] == 1
        assert settings["task_soft_time_limit"] < settings["task_time_limit"]
        # Redis redelivers an unacknowledged task after the visibility timeout: it must be
        # longer than any task may run, or a slow task would run twice at once.
        assert settings["visibility_timeout"] > settings["task_time_limit"]
        assert settings["task_serializer"] == "json"
        assert settings["accept_content"] == ["json"]
        assert settings["broker_connection_retry_on_startup"] is True

    def test_time_is_utc_and_keys_are_big(self) -> None:
        settings = loaded({"DEBUG": "1"})
        assert (settings["TIME_ZONE"], settings["USE_TZ"]) == ("UTC", True)
        assert settings["DEFAULT_AUTO_FIELD"] == "django.db.models.BigAutoField"

    def test_the_clubs_time_zone_is_a_variable(self) -> None:
        settings = loaded({"DEBUG": "1", "TIME_ZONE": "Asia/Kolkata"})
        assert (settings["TIME_ZONE"], settings["USE_TZ"]) == ("Asia/Kolkata", True)


class TestHttps:
    def test_production_is_https_only_by_default(self) -> None:
        settings = loaded(PRODUCTION)
        assert settings["SECURE_SSL_REDIRECT"] is True
        assert settings["SECURE_HSTS_SECONDS"] == 60  # a start; raised once HTTPS works
        assert settings["SESSION_COOKIE_SECURE"] is True
        assert settings["CSRF_COOKIE_SECURE"] is True
        assert settings["SECURE_PROXY_SSL_HEADER"] is None  # no header is trusted unasked

    def test_development_is_plain_http(self) -> None:
        settings = loaded({"DEBUG": "1"})
        assert settings["SECURE_SSL_REDIRECT"] is False
        assert settings["SECURE_HSTS_SECONDS"] == 0
        assert settings["SESSION_COOKIE_SECURE"] is False

    def test_behind_a_proxy_its_header_says_the_request_was_https(self) -> None:
        settings = loaded({**PRODUCTION, "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto"})
        assert settings["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]

    def test_each_https_setting_is_a_variable(self) -> None:
        settings = loaded(
            {
                **PRODUCTION,
                "SECURE_SSL_REDIRECT": "0",
                "SECURE_HSTS_SECONDS": "31536000",
                "SESSION_COOKIE_SECURE": "no",
                "CSRF_COOKIE_SECURE": "off",
            }
        )
        assert settings["SECURE_SSL_REDIRECT"] is False
        assert settings["SECURE_HSTS_SECONDS"] == 31536000
        assert (settings["SESSION_COOKIE_SECURE"], settings["CSRF_COOKIE_SECURE"]) == (False, False)

    def test_check_deploy_is_clean_with_production_settings(self, tmp_path: Path) -> None:
        process = subprocess.run(
            [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
            cwd=REPO,
            env={
                "PATH": os.environ.get("PATH", ""),
                "SECRET_KEY": "k" * 10 + "-a-long-random-production-key-" + "q" * 30,
                "ALLOWED_HOSTS": "seep.example.org",
                "RECEIPT_SIGNING_KEY": RECEIPT_KEY,
                "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
                "SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto",
            },
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert process.returncode == 0, process.stdout + process.stderr
        assert "System check identified no issues (0 silenced)." in process.stdout


class TestSecretsFromFiles:
    def test_secrets_are_read_from_the_files_named_by_the_file_variables(
        self, tmp_path: Path
    ) -> None:
        files = {
            "SECRET_KEY": "from-a-file-" + "x" * 40,
            "DATABASE_URL": "postgres://seep:s3cret@db.internal:5432/seep",
            "REDIS_URL": "redis://:pw@cache.internal:6379/0",
        }
        env = {"ALLOWED_HOSTS": "seep.example.org", "RECEIPT_SIGNING_KEY": RECEIPT_KEY}
        for name, value in files.items():
            (tmp_path / name).write_text(value + "\n")  # a trailing newline, as editors leave
            env[f"{name}_FILE"] = str(tmp_path / name)
        settings = loaded(env)
        assert settings["SECRET_KEY"] == files["SECRET_KEY"]
        assert (settings["HOST"], settings["NAME"]) == ("db.internal", "seep")
        assert settings["broker_url"] == files["REDIS_URL"]

    def test_a_variable_and_its_file_together_are_refused(self, tmp_path: Path) -> None:
        (tmp_path / "key").write_text("k" * 50)
        message = refused({**PRODUCTION, "SECRET_KEY_FILE": str(tmp_path / "key")})
        assert "set SECRET_KEY or SECRET_KEY_FILE, not both" in message

    def test_a_missing_or_empty_file_is_refused_by_name(self, tmp_path: Path) -> None:
        env = {"ALLOWED_HOSTS": "x", "RECEIPT_SIGNING_KEY": RECEIPT_KEY}
        missing = refused({**env, "SECRET_KEY_FILE": str(tmp_path / "nope")})
        assert "SECRET_KEY_FILE names a file that cannot be read" in missing
        (tmp_path / "empty").write_text("\n")
        empty = refused({**env, "SECRET_KEY_FILE": str(tmp_path / "empty")})
        assert "SECRET_KEY_FILE names an empty file" in empty


class TestPoolingAndLogs:
    POSTGRES = {**PRODUCTION, "DATABASE_URL": "postgres://u@localhost/seep"}

    def test_no_pool_by_default_persistent_connections_instead(self) -> None:
        settings = loaded(self.POSTGRES)
        assert "pool" not in settings["OPTIONS"]
        assert settings["CONN_MAX_AGE"] == 60
        assert settings["OPTIONS"]["prepare_threshold"] == 5  # api/sql.py's queries

    def test_a_psycopg_pool_per_process_replaces_persistent_connections(self) -> None:
        settings = loaded(
            {**self.POSTGRES, "DATABASE_POOLING": "psycopg", "DATABASE_POOL_SIZE": "8"}
        )
        assert settings["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 8, "timeout": 10}
        assert settings["CONN_MAX_AGE"] == 0

    def test_behind_pgbouncer_nothing_outlives_a_transaction_on_the_server(self) -> None:
        settings = loaded({**self.POSTGRES, "DATABASE_POOLING": "pgbouncer"})
        assert settings["OPTIONS"]["prepare_threshold"] is None
        assert settings["DISABLE_SERVER_SIDE_CURSORS"] is True
        assert "pool" not in settings["OPTIONS"]

    def test_logs_are_json_in_production_and_plain_in_development(self) -> None:
        assert loaded(PRODUCTION)["LOG_FORMAT"] == "json"
        assert loaded({"DEBUG": "1"})["LOG_FORMAT"] == "plain"
        assert loaded({"DEBUG": "1", "LOG_FORMAT": "JSON"})["LOG_FORMAT"] == "json"

    def test_every_beat_takes_the_beat_lock(self) -> None:
        assert loaded(PRODUCTION)["beat_scheduler"] == "deploy.beat:LockedScheduler"

    def test_a_relative_static_root_is_under_the_repository(self) -> None:
        assert loaded({**PRODUCTION, "STATIC_ROOT": "var/static"})["STATIC_ROOT"] == str(
            REPO / "var" / "static"
        )


class TestBadValuesStopStartUp:
    def test_no_environment_at_all_is_refused_for_want_of_a_secret_key(self) -> None:
        assert "SECRET_KEY must be set when DEBUG is off" in refused({})

    def test_a_missing_secret_key_is_refused_when_debug_is_off(self) -> None:
        message = refused({"DEBUG": "0", "ALLOWED_HOSTS": "seep.example.org"})
        assert "SECRET_KEY must be set when DEBUG is off" in message

    def test_missing_allowed_hosts_are_refused_when_debug_is_off(self) -> None:
        message = refused({"SECRET_KEY": "s" * 50})
        assert "ALLOWED_HOSTS must be set when DEBUG is off" in message

    @pytest.mark.parametrize(
        ("env", "words"),
        [
            ({"DEBUG": "maybe"}, "DEBUG must be a boolean (1/0, true/false, yes/no, on/off)"),
            ({"DATABASE_URL": "nonsense://x"}, "DATABASE_URL must be sqlite:///"),
            ({"DATABASE_URL": "db.sqlite3"}, "DATABASE_URL must be sqlite:///"),
            ({"DATABASE_URL": "postgres://localhost"}, "DATABASE_URL must name the database"),
            ({"REDIS_URL": "http://x"}, "REDIS_URL must be redis://host:port/db"),
            ({"CONN_MAX_AGE": "abc"}, "CONN_MAX_AGE must be a whole number >= 0"),
            ({"CONN_MAX_AGE": "-5"}, "CONN_MAX_AGE must be a whole number >= 0"),
            ({"CONN_MAX_AGE": "²"}, "CONN_MAX_AGE must be a whole number >= 0"),
            ({"ALLOWED_HOSTS": ",,"}, "ALLOWED_HOSTS must be a comma-separated list"),
            ({"LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of DEBUG, INFO"),
            ({"LOG_FORMAT": "xml"}, "LOG_FORMAT must be one of JSON, PLAIN"),
            ({"DATABASE_POOLING": "yes"}, "DATABASE_POOLING must be one of NONE, PSYCOPG"),
            ({"SECURE_PROXY_SSL_HEADER": "X-Proto: https"}, "SECURE_PROXY_SSL_HEADER must be"),
            ({"SECURE_HSTS_SECONDS": "a year"}, "SECURE_HSTS_SECONDS must be a whole number"),
            ({"BEAT_LOCK_SECONDS": "1"}, "BEAT_LOCK_SECONDS must be a whole number >= 3"),
            ({"WORKER_HEARTBEAT_SECONDS": "0"}, "WORKER_HEARTBEAT_SECONDS must be a whole"),
            ({"TIME_ZONE": "Mars/Olympus"}, "TIME_ZONE must be an IANA time zone"),
            ({"PUSH_DB_THREADS": "0"}, "PUSH_DB_THREADS must be a whole number >= 1"),
            ({"PUSH_RENDER_PROCESSES": "two"}, "PUSH_RENDER_PROCESSES must be a whole number"),
            # an address's limit below one account's, a longest lock below the first: refused
            (
                {"SIGNIN_FAILURE_LIMIT": "20", "SIGNIN_ADDRESS_FAILURE_LIMIT": "19"},
                "SIGNIN_ADDRESS_FAILURE_LIMIT must be a whole number >= 20",
            ),
            (
                {"SIGNIN_LOCKOUT_SECONDS": "600", "SIGNIN_LOCKOUT_MAX_SECONDS": "599"},
                "SIGNIN_LOCKOUT_MAX_SECONDS must be a whole number >= 600",
            ),
            ({"SIGNIN_KNOWN_BROWSER_DAYS": "0"}, "SIGNIN_KNOWN_BROWSER_DAYS must be a whole"),
        ],
    )
    def test_a_malformed_value_is_refused_by_name(self, env: dict[str, str], words: str) -> None:
        if {"CONN_MAX_AGE", "DATABASE_POOLING"} & env.keys():  # read only for PostgreSQL
            env = {**env, "DATABASE_URL": "postgres://u@localhost/seep"}
        assert words in refused({**PRODUCTION, **env})

    def test_a_missing_receipt_signing_key_is_refused_when_debug_is_off(self) -> None:
        env = {k: v for k, v in PRODUCTION.items() if k != "RECEIPT_SIGNING_KEY"}
        assert "RECEIPT_SIGNING_KEY (or RECEIPT_SIGNING_KEY_FILE) must be set" in refused(env)

    def test_a_receipt_signing_key_that_is_not_ed25519_is_refused(self) -> None:
        message = refused({**PRODUCTION, "RECEIPT_SIGNING_KEY": "not-a-key"})
        assert "RECEIPT_SIGNING_KEY: not an Ed25519 private key" in message
        assert "not-a-key" not in message

    def test_the_receipt_signing_key_may_come_from_a_file(self, tmp_path: Path) -> None:
        key_file = tmp_path / "receipt-key"
        key_file.write_text(RECEIPT_KEY + "\n")
        env = {k: v for k, v in PRODUCTION.items() if k != "RECEIPT_SIGNING_KEY"}
        assert start({**env, "RECEIPT_SIGNING_KEY_FILE": str(key_file)}).returncode == 0
        both = {**PRODUCTION, "RECEIPT_SIGNING_KEY_FILE": str(key_file)}
        assert "set RECEIPT_SIGNING_KEY or RECEIPT_SIGNING_KEY_FILE, not both" in refused(both)
        missing = {**env, "RECEIPT_SIGNING_KEY_FILE": str(tmp_path / "nowhere")}
        assert "RECEIPT_SIGNING_KEY_FILE names a file that cannot be read" in refused(missing)

    def test_a_refused_database_url_does_not_print_its_password(self) -> None:
        process = start({**PRODUCTION, "DATABASE_URL": "mysql://seep:hunter2@db/seep"})
        assert process.returncode != 0
        assert "DATABASE_URL" in process.stderr
        assert "hunter2" not in process.stderr


class TestPushProcess:
    def test_the_streams_cors_origins_are_kept_exactly_as_a_browser_sends_them(self) -> None:
        env = {"DEBUG": "1", "PUSH_CORS_ORIGINS": "http://127.0.0.1:8000, HTTPS://Seep.org:443"}
        assert loaded(env)["PUSH_CORS_ORIGINS"] == ["http://127.0.0.1:8000", "https://seep.org"]
        assert loaded({"DEBUG": "1"})["PUSH_CORS_ORIGINS"] == []

    @pytest.mark.parametrize(
        "origins", ["127.0.0.1:8000", "http://seep.org/push/", "ftp://seep.org", "http://:80"]
    )
    def test_a_cors_origin_that_is_not_scheme_host_and_port_is_refused(self, origins: str) -> None:
        message = refused({"DEBUG": "1", "PUSH_CORS_ORIGINS": origins})
        assert "PUSH_CORS_ORIGINS must list origins" in message

    @pytest.mark.parametrize("name", ["PUSH_MAX_STREAMS", "PUSH_MAX_STREAMS_PER_CLIENT"])
    @pytest.mark.parametrize("value", ["0", "-5", "many"])
    def test_a_stream_cap_is_a_whole_number_of_one_or_more(self, name: str, value: str) -> None:
        assert f"{name} must be a whole number >= 1" in refused({"DEBUG": "1", name: value})
