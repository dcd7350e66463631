"""The scoring settings come from the environment: the task queue, the catch-up period (beat)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
RECEIPT_KEY = "tf6caK9pFwjDK14c9hgfwJT5mh-jb19lPZLZPrAoIuI"  # a test key, as in pyproject.toml
PRODUCTION = {
    "SECRET_KEY": "s" * 50,
    "ALLOWED_HOSTS": "seep.example.org",
    "RECEIPT_SIGNING_KEY": RECEIPT_KEY,
}

REPORT = """
import json, django
django.setup()
from deploy.celery import app
conf = app.conf
print(json.dumps({
    "queue": conf.task_default_queue,
    "prefetch": conf.worker_prefetch_multiplier,
    "beat": {name: {**entry, "schedule": float(entry["schedule"])}
             for name, entry in conf.beat_schedule.items()},
}))
"""


def start(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", REPORT],
        cwd=REPO,
        env={"PATH": os.environ.get("PATH", ""), "DJANGO_SETTINGS_MODULE": "deploy.settings",
             **PRODUCTION, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )  # fmt: skip


def loaded(env: dict[str, str]) -> dict[str, Any]:
    process = start(env)
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout.splitlines()[-1])


@pytest.mark.process
def test_by_default_tasks_go_to_the_celery_queue_and_beat_catches_up_every_15_s() -> None:
    conf = loaded({})
    assert conf["queue"] == "celery" and conf["prefetch"] == 1
    assert conf["beat"] == {
        "scoring-catch-up": {
            "task": "scoring.tasks.catch_up",
            "schedule": 15.0,
            "options": {"expires": 15},
        },
        "competition-catch-up": {
            "task": "competition.tasks.catch_up",
            "schedule": 15.0,
            "options": {"expires": 15},
        },
        "webhooks-catch-up": {
            "task": "api.tasks.catch_up",
            "schedule": 15.0,
            "options": {"expires": 15},
        },
        # members' ratings (docs/seasons.md): a fold compared per club, once a minute
        "seasons-catch-up": {
            "task": "seasons.tasks.catch_up",
            "schedule": 60.0,
            "options": {"expires": 60},
        },
    }


@pytest.mark.process
def test_the_queue_and_the_catch_up_period_are_set_by_the_environment() -> None:
    conf = loaded({"CELERY_QUEUE": "seep-eu.1", "SCORING_CATCH_UP_SECONDS": "7"})
    assert conf["queue"] == "seep-eu.1"
    assert conf["beat"]["scoring-catch-up"]["schedule"] == 7.0
    assert conf["beat"]["competition-catch-up"]["schedule"] == 7.0


@pytest.mark.process
@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"CELERY_QUEUE": "two words"}, "CELERY_QUEUE must be a queue name"),
        ({"SCORING_CATCH_UP_SECONDS": "0"}, "SCORING_CATCH_UP_SECONDS must be a whole number >= 1"),
        ({"SCORING_CATCH_UP_SECONDS": "soon"}, "SCORING_CATCH_UP_SECONDS must be a whole number"),
    ],
)
def test_a_malformed_value_is_refused_by_name(env: dict[str, str], words: str) -> None:
    process = start(env)
    assert process.returncode != 0
    assert words in process.stderr.strip().splitlines()[-1]
