"""The account page of the signed-in person's API tokens: listed, made (the secret shown on
this one answer only) and revoked, each by one call of ``api.services``.

Served by the API app, which owns tokens (the pages may not import it: tests/test_layering.py),
in the pages' look, mounted at ``/account/tokens/`` by deploy/urls.py. A token made here is
what ``POST /api/v1/tokens/`` makes, under the same caps and the same throttle.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from competition.access import visible_tournaments
from tournaments.access import directed_clubs
from tournaments.errors import QuotaExceeded

from . import services
from .models import ApiToken
from .problems import Problem
from .throttling import TokensMadeThrottle


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=200,
        label=_("Name"),
        help_text=_("What it is for (your bot, a scoreboard)."),
    )
    scope = forms.ChoiceField(
        label=_("Acts in"),
        help_text=_("A club's token makes its tournaments and keeps its members."),
    )
    write = forms.BooleanField(required=False, label=_("May change things (else read only)"))
    days = forms.IntegerField(min_value=1, max_value=366, initial=30, label=_("Lasts (days)"))

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [
            (f"club-{c.pk}", gettext("the club %(club)s") % {"club": c.name})
            for c in directed_clubs(user)
        ]
        choices += [
            (
                f"tournament-{t.pk}",
                gettext("the tournament %(tournament)s") % {"tournament": t.name},
            )
            for t in visible_tournaments(user).order_by("-created_at", "id")[:200]
        ]
        scope = self.fields["scope"]
        assert isinstance(scope, forms.ChoiceField)
        scope.choices = choices
        self.user = user

    def scope_objects(self) -> dict[str, Any]:
        kind, _, pk = self.cleaned_data["scope"].partition("-")
        if kind == "club":
            return {"club": directed_clubs(self.user).get(pk=pk)}
        return {"tournament": visible_tournaments(self.user).get(pk=pk)}


def _page(request: HttpRequest, form: TokenForm, made: str | None = None) -> HttpResponse:
    tokens = ApiToken.objects.filter(user=request.user).select_related("tournament", "club")
    return render(
        request,
        "api/account_tokens.html",
        {"form": form, "tokens": tokens.order_by("-created", "id"), "made": made},
    )


@login_required
@require_http_methods(["GET", "POST"])
def tokens_page(request: HttpRequest) -> HttpResponse:
    """Your tokens; POST makes one and shows its secret, on this answer only."""
    services.tokens_prune_expired(user=request.user)
    if request.method != "POST":
        return _page(request, TokenForm(user=request.user))
    form = TokenForm(request.POST, user=request.user)
    if not form.is_valid():
        return _page(request, form)
    scope = form.scope_objects()
    club = scope.get("club")
    club_id = club.pk if club is not None else scope["tournament"].club_id
    if not TokensMadeThrottle().allow_made(request, club_id):  # type: ignore[arg-type]
        form.add_error(None, gettext("Too many tokens made lately: try again later."))
        return _page(request, form)
    try:
        _, text = services.token_create(
            user=request.user,
            name=form.cleaned_data["name"],
            expires_in_days=form.cleaned_data["days"],
            write=form.cleaned_data["write"],
            **scope,
        )
    except Problem as exc:
        form.add_error(None, str(exc.detail))
        return _page(request, form)
    except QuotaExceeded as exc:  # the club's quota of tokens
        form.add_error(None, exc.message)
        return _page(request, form)
    return _page(request, TokenForm(user=request.user), made=text)


@login_required
@require_POST
def token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """Revoke one of your tokens (and those it made)."""
    token = get_object_or_404(ApiToken, pk=pk, user=request.user)
    services.token_revoke(token=token)
    messages.success(
        request,
        gettext("The token %(name)s is revoked: it is refused from now on.") % {"name": token.name},
    )
    return redirect(reverse("account_tokens:list"))


app_name = "account_tokens"
urlpatterns = [
    path("", tokens_page, name="list"),
    path("<int:pk>/revoke/", token_revoke, name="revoke"),
]
