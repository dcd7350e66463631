"""The Celery app: configured from Django settings (the CELERY_ names), tasks autodiscovered."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deploy.settings")

app = Celery("deploy")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
