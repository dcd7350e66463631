from django.apps import AppConfig
from django.db.backends.signals import connection_created


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from .suspension import read_on_connect

        # the suspended clubs, read as each database connection opens (tournaments.suspension)
        connection_created.connect(read_on_connect, dispatch_uid="tournaments.suspension")
