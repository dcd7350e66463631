from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Web pages"

    def ready(self) -> None:
        from . import admin, clubtime, known_browsers  # noqa: F401  (its signal receiver)

        clubtime.connect()
        admin.narrow_later_apps()  # the admin read every app's admin module before this
