"""The site's URLs: the web pages, the admin, the API (v1, its schema and docs), the probes."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from . import views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    # last: the web pages live at the root (the admin's "View site" link is "/")
    path("", include("web.urls")),
]

# Under /api/ every error is a problem document (RFC 9457), even for a path that matches
# nothing; elsewhere Django's own pages.
handler400 = "api.problems.bad_request"
handler403 = "api.problems.forbidden"
handler404 = "api.problems.not_found"
handler500 = "api.problems.server_error"
