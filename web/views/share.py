"""The share buttons of a tournament's page: each opens WhatsApp with the text of what the
page shows now (``web.share``), built when it is pressed (so it is never older than the
click, and in the language of whoever pressed it)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_GET

from tournaments.reads import consistent_read
from tournaments.site import absolute_url

from .. import pages, share
from .common import visible_tournament


@require_GET
def tournament_share(request: HttpRequest, slug: str, kind: str, stage: int) -> HttpResponse:
    """Send the visitor to WhatsApp with the stage's ``kind`` of text (pairings, results,
    standings) written; 404 for a tournament they may not see, one not published (its
    players may see it, but nothing of it goes to a group), or a text the stage has not."""
    t = visible_tournament(request, slug)
    if not t.published or kind not in share.KINDS:
        raise Http404("nothing to share")
    with consistent_read():
        found = [p for p in pages.tournament_page(t) if p.stage.pk == stage]
    if not found or kind not in share.shares(found[0]):
        raise Http404("nothing to share")
    url = absolute_url(request, reverse("web:tournament", args=[t.slug]))
    text = share.stage_text(kind, t.name, found[0], url)
    response = HttpResponseRedirect(share.whatsapp_url(text))
    response["Cache-Control"] = "private, no-store"
    return response
