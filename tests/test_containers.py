"""The container files: deploy/Dockerfile and deploy/compose.yaml say what docs/deploy.md says.

No Docker engine runs here, so nothing is built or started. The compose file is validated by
Compose itself (``docker compose config``, or the standalone ``docker-compose config``:
.ci/run installs Debian's when neither is there), and read here as YAML for what it must
contain: one beat, health checks, a volume for PostgreSQL, secrets as files.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent
COMPOSE = REPO / "deploy" / "compose.yaml"
DOCKERFILE = REPO / "deploy" / "Dockerfile"
APP = ("migrate", "web", "push", "worker", "webhooks", "beat")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def compose_command() -> list[str] | None:
    """Return the command that runs Compose here (the plugin or the standalone), or None."""
    docker = shutil.which("docker")
    if docker is not None:
        probe = subprocess.run([docker, "compose", "version"], capture_output=True, check=False)
        if probe.returncode == 0:
            return [docker, "compose"]
    standalone = shutil.which("docker-compose")
    return [standalone] if standalone else None


@pytest.mark.process
def test_compose_itself_accepts_the_file() -> None:
    command = compose_command()
    if command is None:
        if os.environ.get("SEEP_CI") == "1":
            pytest.fail("SEEP_CI=1 and neither docker compose nor docker-compose is installed")
        pytest.skip("needs docker compose (or docker-compose) to validate the compose file")
    env = {**os.environ, "ALLOWED_HOSTS": "seep.example.org"}
    checked = subprocess.run(
        [*command, "-f", str(COMPOSE), "config", "--quiet"],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stderr
    # ALLOWED_HOSTS has no default: Compose refuses to start without it.
    unset = {k: v for k, v in env.items() if k != "ALLOWED_HOSTS"}
    refused = subprocess.run(
        [*command, "-f", str(COMPOSE), "config", "--quiet"],
        env=unset, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert refused.returncode != 0
    assert "set ALLOWED_HOSTS" in refused.stderr


def test_the_services_are_the_databases_and_the_six_uses_of_one_image(
    compose: dict[str, Any],
) -> None:
    services = compose["services"]
    assert set(services) == {"db", "redis", *APP}
    assert {services[name]["image"] for name in APP} == {"seep-tournaments:latest"}
    assert services["db"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")


def test_exactly_one_beat_and_two_workers(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert services["beat"]["deploy"]["replicas"] == 1
    assert services["worker"]["deploy"]["replicas"] == 2
    assert "beat" in services["beat"]["command"]
    assert not any("--beat" in part or part == "-B" for part in services["worker"]["command"])


def test_webhook_deliveries_have_a_worker_of_their_own(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert "--queues=celery" in services["worker"]["command"]
    assert "--queues=celery-webhooks" in services["webhooks"]["command"]
    assert services["webhooks"]["deploy"]["replicas"] >= 1


def test_the_push_service_runs_push_processes_of_its_own_never_web_concurrency(
    compose: dict[str, Any],
) -> None:
    """uvicorn takes WEB_CONCURRENCY (gunicorn's) as its worker count unless told one."""
    command = compose["services"]["push"]["command"]
    assert command[command.index("--workers") + 1] == "${PUSH_PROCESSES:-2}"
    assert "WEB_CONCURRENCY" not in compose["services"]["push"].get("environment", {})


def test_every_long_running_service_has_a_health_check(compose: dict[str, Any]) -> None:
    services = compose["services"]
    checks = {
        name: " ".join(services[name]["healthcheck"]["test"])
        for name in services
        if name != "migrate"
    }
    assert "pg_isready" in checks["db"]
    assert "redis-cli ping" in checks["redis"]
    assert "/readyz" in checks["web"]
    assert "deploy.heartbeat worker@$$HOSTNAME" in checks["worker"]
    assert "deploy.heartbeat webhooks@$$HOSTNAME" in checks["webhooks"]
    assert "deploy.beat" in checks["beat"]
    assert services["migrate"]["healthcheck"] == {"disable": True}


def test_the_application_waits_for_healthy_databases_and_finished_migrations(
    compose: dict[str, Any],
) -> None:
    for name in ("web", "worker", "webhooks", "beat"):
        depends = compose["services"][name]["depends_on"]
        assert depends["db"]["condition"] == "service_healthy"
        assert depends["redis"]["condition"] == "service_healthy"
        assert depends["migrate"]["condition"] == "service_completed_successfully"


def test_postgresql_keeps_its_data_in_a_volume(compose: dict[str, Any]) -> None:
    assert "pgdata:/var/lib/postgresql/data" in compose["services"]["db"]["volumes"]
    assert "pgdata" in compose["volumes"]


@pytest.mark.process
def test_secrets_are_files_never_values(compose: dict[str, Any]) -> None:
    assert {s["file"] for s in compose["secrets"].values()} == {
        "./secrets/secret_key",
        "./secrets/receipt_signing_key",
        "./secrets/database_url",
        "./secrets/postgres_password",
    }
    for name in APP:
        env = compose["services"][name]["environment"]
        assert env["SECRET_KEY_FILE"] == "/run/secrets/secret_key"
        assert env["DATABASE_URL_FILE"] == "/run/secrets/database_url"
        assert env["RECEIPT_SIGNING_KEY_FILE"] == "/run/secrets/receipt_signing_key"
        assert not {"SECRET_KEY", "DATABASE_URL", "RECEIPT_SIGNING_KEY"} & env.keys()
    db = compose["services"]["db"]["environment"]
    assert db["POSTGRES_PASSWORD_FILE"] == "/run/secrets/postgres_password"
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", "deploy/secrets/secret_key"], cwd=REPO, check=False
    )
    assert ignored.returncode == 0, "secret files are never committed"


def test_workers_get_time_for_a_warm_shutdown(compose: dict[str, Any]) -> None:
    for name in ("worker", "webhooks"):
        grace = compose["services"][name]["stop_grace_period"]
        assert int(grace.rstrip("s")) > 90  # the tasks' hard time limit (deploy/settings.py)


def test_the_image_runs_as_a_user_with_static_files_collected_at_build() -> None:
    lines = DOCKERFILE.read_text().splitlines()
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in {"root", "0"}
    collect = next(i for i, line in enumerate(lines) if "collectstatic" in line)
    assert collect < next(i for i, line in enumerate(lines) if line.startswith("USER "))
    text = DOCKERFILE.read_text()
    assert re.search(r"HEALTHCHECK .*\n.*/healthz", text)
    assert "-c constraints.txt" in text  # the pinned versions
    ignored = (REPO / ".dockerignore").read_text().split()
    keys = {".receipt-signing-key", ".stack-secret-key"}  # never baked into an image
    assert {".git", ".venv", "deploy/secrets", ".env", *keys} <= set(ignored)
