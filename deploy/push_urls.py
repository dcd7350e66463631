"""The push process's URLs (deploy/push.py): the streams, then the site's own (for reverse()
and the error pages only: deploy.push answers 404 to any other path before Django sees it)."""

from django.urls import include, path

from api import stream

from .urls import handler400, handler403, handler404, handler500

urlpatterns = [
    path("push/", include("web.push")),
    path("api/v1/matches/<int:pk>/stream/", stream.match_stream, name="match-stream"),
    path(
        "api/v1/tournaments/<int:pk>/results/stream/",
        stream.results_stream,
        name="results-stream",
    ),
    path("", include("deploy.urls")),
]

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]
