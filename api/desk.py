"""The desk's page of a tournament's webhooks: each subscription with its recent deliveries,
and buttons to pause, resume and delete it (delete asks first).

Served by the API app, which owns webhooks: the pages (``web``) may not import it
(tests/test_layering.py), so this page lives here, in the desk's look (its template extends
the pages' base, its confirmation is the desk's), mounted under ``/desk/<slug>/webhooks/`` by
deploy/urls.py. Only the tournament's directors find it (anyone else: 404); every change is
one call of ``api.services``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.access import is_director
from tournaments.models import Tournament

from . import services
from .models import Webhook, WebhookDelivery

#: deliveries shown for each subscription, the newest first
RECENT = 5


def _tournament_or_404(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not is_director(request.user, tournament):
        raise Http404("no such desk")
    return tournament


@login_required
@require_GET
def webhooks_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's webhooks, each with its latest deliveries and their attempts."""
    tournament = _tournament_or_404(request, slug)
    hooks = list(tournament.webhooks.order_by("pk"))
    recent = {
        hook.pk: [
            (delivery, next(reversed(delivery.attempt_log.all()), None))
            for delivery in WebhookDelivery.objects.filter(webhook=hook)
            .order_by("-created_at", "-id")
            .prefetch_related("attempt_log")[:RECENT]
        ]
        for hook in hooks
    }
    return render(
        request,
        "api/desk_webhooks.html",
        {"tournament": tournament, "hooks": [(hook, recent[hook.pk]) for hook in hooks]},
    )


@login_required
@require_POST
def webhook_command(request: HttpRequest, slug: str, pk: int, command: str) -> HttpResponse:
    """Pause, resume or delete (asked first) one of the tournament's webhooks."""
    tournament = _tournament_or_404(request, slug)
    hook = get_object_or_404(Webhook, pk=pk, tournament=tournament)
    page = reverse("desk_webhooks:list", args=[slug])
    said = {"url": hook.url}
    if command == "pause":
        services.webhook_pause(webhook=hook)
        messages.success(request, _("The webhook to %(url)s is paused: nothing is sent.") % said)
    elif command == "resume":
        services.webhook_resume(webhook=hook)
        messages.success(request, _("The webhook to %(url)s is resumed.") % said)
    elif command == "delete":
        if request.POST.get("confirmed") != "yes":
            return render(
                request,
                "web/desk_confirm.html",
                {
                    "tournament": tournament,
                    "title": _("Delete the webhook to %(url)s?") % said,
                    "consequences": [
                        _("Nothing more is sent to %(url)s.") % said,
                        _(
                            "Its deliveries and their attempts are deleted with it; "
                            "a delivery still pending is never sent."
                        ),
                    ],
                    "action": reverse("desk_webhooks:command", args=[slug, hook.pk, "delete"]),
                    "fields": {},
                    "button": _("Delete the webhook"),
                    "cancel": page,
                },
            )
        services.webhook_delete(webhook=hook)
        messages.success(request, _("The webhook to %(url)s is deleted.") % said)
    else:
        messages.error(request, _("Nothing was changed: choose a webhook's button."))
    return redirect(page)


app_name = "desk_webhooks"
urlpatterns = [
    path("", webhooks_page, name="list"),
    path("<int:pk>/<str:command>/", webhook_command, name="command"),
]
