"""The Celery app: configured from Django settings (the CELERY_ names), tasks autodiscovered.

Also wired here: the request id travels from the code that sends a task into the worker's
log lines (``deploy.logs``), and each worker writes a heartbeat that /readyz reads
(``deploy.heartbeat``). The beat scheduler (``deploy.beat``) is named by the settings.
"""

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")

app = Celery("deploy")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _wire() -> None:
    from . import heartbeat, logs

    signals.before_task_publish.connect(logs.add_request_id_header, weak=False)
    signals.task_prerun.connect(logs.enter_task, weak=False)
    signals.task_postrun.connect(logs.leave_task, weak=False)
    app.steps["consumer"].add(heartbeat.Heartbeat)


_wire()
