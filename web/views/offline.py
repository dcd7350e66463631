"""The phone pages as an installable web app: its manifest, its icons and its service worker.

The worker (``/keep/sw.js``, scope ``/keep/``) keeps on the phone the page shell (the static
files the phone pages load) and the pages of ``/keep/`` the server marks as a phone's own
(``OFFLINE_HEADER``: the pick list and a match's phone page, for its teams and
score-keepers, never a director's); it keeps nothing else: no seat page (a player's cards),
no recorder, no desk, board or admin, no API answer. What the phone could not send waits in
its IndexedDB (``keeper.js``), not in the worker. Served from this view (not the static
files) so that it is always asked for again (``no-cache``), it lists the shell by the
static files' current names, and its scope stops at ``/keep/``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ..icons import SIZES, app_icon

#: the answer header by which a page says the worker may keep it on the phone
OFFLINE_HEADER = "X-Seep-Offline"
#: the static files a phone page loads: kept on the phone when the worker is installed
SHELL = (
    "web/site.css",
    "web/clock.js",
    "web/live.js",
    "web/points.js",
    "web/keeper.js",
    "web/offline.js",
)
#: the paths the worker never answers nor keeps, whatever a page fetches (given to the worker)
NEVER = ("/play/", "/record/", "/desk/", "/admin/", "/api/", "/l/", "/account/", "/login/")


def keep_offline(response: HttpResponse) -> HttpResponse:
    """Mark ``response`` as a page the phone's worker may keep (a team's or a score-keeper's
    phone page; never a director's)."""
    response[OFFLINE_HEADER] = "keep"
    return response


def _scope() -> str:
    return reverse("web:keep")


def _version(shell: list[str]) -> str:
    """The shell's version: its addresses (hashed names in production) and the files' own
    text (in development the names stay the same while the files change), so that a worker
    whose shell changed differs from the one before, and the phone takes it."""
    digest = hashlib.sha256("\n".join(shell).encode())
    for name in SHELL:
        found = finders.find(name)
        if isinstance(found, str):
            digest.update(Path(found).read_bytes())
    return digest.hexdigest()[:16]


@require_GET
def worker(request: HttpRequest) -> HttpResponse:
    """The service worker: JavaScript, asked for again at every check (``no-cache``), its
    scope at most ``/keep/``."""
    # the icons are not in it: the browser fetches them itself when the app is installed
    shell = [static(name) for name in SHELL]
    version = _version(shell)
    script = render_to_string(
        "web/keep_sw.js",
        {
            "shell": json.dumps(shell),
            "never": json.dumps(list(NEVER)),
            "scope": json.dumps(_scope()),
            "header": json.dumps(OFFLINE_HEADER),
            "version": json.dumps(version),
        },
    )
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = _scope()
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the phone pages installed as an app that opens at ``/keep/``."""
    response = JsonResponse(
        {
            "name": _("Seep: keep score"),
            "short_name": _("Seep"),
            "description": _("Enter and confirm your table's deals, even while offline."),
            "start_url": _scope(),
            "scope": _scope(),
            "id": _scope(),
            "display": "standalone",
            "background_color": "#1b5e20",
            "theme_color": "#1b5e20",
            "icons": [
                {
                    "src": reverse("web:keep-icon", args=[size]),
                    "sizes": f"{size}x{size}",
                    "type": "image/png",
                    "purpose": "any maskable",
                }
                for size in SIZES
            ],
        },
        content_type="application/manifest+json",
    )
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def icon(request: HttpRequest, size: int) -> HttpResponse:
    """The app's icon at one of the manifest's sizes (else 404)."""
    if size not in SIZES:
        raise Http404("no icon of that size")
    response = HttpResponse(app_icon(size), content_type="image/png")
    response["Cache-Control"] = "public, max-age=86400"
    return response
