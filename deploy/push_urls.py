"""The push process's URLs (deploy/push.py): the streams, then the site's own (for reverse()
and the error pages only: deploy.push answers 404 to any other path before Django sees it)."""

from django.urls import include, path

from api import stream

from .urls import handler400, handler403, handler404, handler500, stream_paths

urlpatterns = [
    path("push/", include("web.push")),
    *stream_paths(stream.match_stream, stream.results_stream),
    path("", include("deploy.urls")),
]

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]
