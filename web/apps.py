from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Web pages"

    def ready(self) -> None:
        from . import clubtime, known_browsers  # noqa: F401  (its signal receiver)

        clubtime.connect()
