"""The site's URLs: the web pages, the admin, the API (v1, its schema and docs), the probes."""

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.urls import URLPattern, include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from api import problems, stream_web
from web.signin import SignInView

from . import views


def stream_paths(
    match_stream: Callable[..., Any], results_stream: Callable[..., Any]
) -> list[URLPattern]:
    """The API's two streams, at the same paths and names whichever process serves them: the
    push process (deploy/push_urls.py, ``api.stream``) or this one (``api.stream_web``)."""
    return [
        path("api/v1/matches/<int:pk>/stream/", match_stream, name="match-stream"),
        path(
            "api/v1/tournaments/<int:pk>/results/stream/",
            results_stream,
            name="results-stream",
        ),
    ]


urlpatterns = [
    path("admin/", admin.site.urls),
    # the API's streams: served here without a push process, else a 404 that says where
    *stream_paths(stream_web.match_stream, stream_web.results_stream),
    path("api/v1/", include("api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # its script a file the page loads, not inline: the Content-Security-Policy allows no other
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"),
    # every other path under /api/: a problem document, whatever DEBUG says
    re_path(r"^api/", problems.unknown_path, name=problems.UNKNOWN_PATH),
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    # a desk page the API app serves: webhooks are its own, and the pages may not import it
    path("desk/<slug:slug>/webhooks/", include("api.desk")),
    # the signed-in person's API tokens: the API app's too
    path("account/tokens/", include("api.account")),
    # accounts (django-allauth): sign-up, addresses, password resets, passkeys, sessions; its
    # sign-in is the site's own (web.signin), at both addresses
    path("accounts/login/", SignInView.as_view(), name="account_login"),
    path("accounts/", include("allauth.urls")),
    # last: the web pages live at the root (the admin's "View site" link is "/")
    path("", include("web.urls")),
]

# Under /api/ every error is a problem document (RFC 9457), even for a path that matches
# nothing; elsewhere Django's own pages.
handler400 = "api.problems.bad_request"
handler403 = "api.problems.forbidden"
handler404 = "api.problems.not_found"
handler500 = "api.problems.server_error"
