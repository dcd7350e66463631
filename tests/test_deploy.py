"""The deployment surface: the health check, and the Celery app against a real broker."""

from __future__ import annotations

import json
import os
import uuid
from typing import Any

import pytest
from django.db import DatabaseError

from deploy.celery import app as celery_app


@pytest.mark.django_db
class TestHealthCheck:
    def test_a_healthy_site_without_a_broker_answers_ok(self, client: Any, settings: Any) -> None:
        settings.CELERY_TASK_ALWAYS_EAGER = True  # no REDIS_URL: tasks run in-process
        response = client.get("/healthz")
        assert response.status_code == 200
        assert response["Content-Type"] == "application/json"
        assert response.json() == {"status": "ok", "database": "ok", "broker": "eager"}

    @pytest.mark.redis
    def test_a_healthy_site_with_redis_answers_ok(self, client: Any, settings: Any) -> None:
        settings.CELERY_TASK_ALWAYS_EAGER = False
        settings.CELERY_BROKER_URL = os.environ["REDIS_URL"]
        response = client.get("/healthz")
        assert response.status_code == 200
        assert response.json() == {"status": "ok", "database": "ok", "broker": "ok"}

    def test_an_unreachable_broker_is_reported_with_503(self, client: Any, settings: Any) -> None:
        settings.CELERY_TASK_ALWAYS_EAGER = False
        settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
        response = client.get("/healthz")
        assert response.status_code == 503
        assert response.json() == {
            "status": "unavailable",
            "database": "ok",
            "broker": "unavailable",
        }

    def test_a_database_error_is_reported_with_503(
        self, client: Any, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from deploy import views

        class DownDatabase:
            def cursor(self) -> Any:
                raise DatabaseError("connection refused")

        monkeypatch.setattr(views, "connection", DownDatabase())
        response = client.get("/healthz")
        assert response.status_code == 503
        assert response.json()["database"] == "unavailable"
        assert "connection refused" not in response.content.decode()

    def test_only_get_is_allowed(self, client: Any) -> None:
        assert client.post("/healthz").status_code == 405

    def test_the_admin_is_served(self, client: Any) -> None:
        response = client.get("/admin/")
        assert response.status_code == 302
        assert "/admin/login/" in response["Location"]


@pytest.mark.redis
def test_the_celery_app_sends_json_tasks_to_redis() -> None:
    import redis

    queue = f"test-{uuid.uuid4().hex}"
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        celery_app.send_task("tests.ping", args=[1], queue=queue)
        assert client.llen(queue) == 1
        message = json.loads(client.lindex(queue, 0))
        assert message["content-type"] == "application/json"
        assert message["headers"]["task"] == "tests.ping"
    finally:
        client.delete(queue, f"_kombu.binding.{queue}")
        client.close()
