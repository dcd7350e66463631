"""The web pages' URLs (at the site's root; the API is under /api/)."""

from django.contrib.auth import views as auth
from django.urls import path

from .views import desk, keeper, public

app_name = "web"

urlpatterns = [
    path("", public.home, name="home"),
    path("login/", auth.LoginView.as_view(template_name="web/login.html"), name="login"),
    path("logout/", auth.LogoutView.as_view(), name="logout"),
    path("t/<slug:slug>/", public.tournament, name="tournament"),
    path("t/<slug:slug>/live/", public.tournament_live, name="tournament-live"),
    path("t/<slug:slug>/print/", public.tournament_print, name="tournament-print"),
    path("m/<int:pk>/", public.match_sheet, name="match"),
    path("m/<int:pk>/live/", public.match_live, name="match-live"),
    path("m/<int:pk>/receipt-<int:seq>.json", public.match_receipt, name="match-receipt"),
    path("keep/", keeper.index, name="keep"),
    path("keep/<int:pk>/", keeper.match_page, name="keep-match"),
    path("keep/<int:pk>/status/", keeper.status, name="keep-status"),
    path("keep/<int:pk>/enter/", keeper.enter, name="keep-enter"),
    path("keep/<int:pk>/answer/", keeper.answer, name="keep-answer"),
    path("keep/<int:pk>/start/", keeper.start, name="keep-start"),
    path("desk/<slug:slug>/", desk.desk, name="desk"),
    path("desk/<slug:slug>/teams/", desk.register_team, name="desk-register"),
    path("desk/<slug:slug>/teams/act/", desk.team_command, name="desk-team"),
    path(
        "desk/<slug:slug>/stages/<int:pk>/<str:command>/",
        desk.stage_command,
        name="desk-stage",
    ),
    path("desk/<slug:slug>/rounds/<int:pk>/", desk.round_page, name="desk-round"),
    path("desk/<slug:slug>/rounds/<int:pk>/edit/", desk.round_edit, name="desk-round-edit"),
    path(
        "desk/<slug:slug>/rounds/<int:pk>/publish/", desk.round_publish, name="desk-round-publish"
    ),
    path("desk/<slug:slug>/matches/<int:pk>/", desk.match_page, name="desk-match"),
    path("desk/<slug:slug>/matches/<int:pk>/decide/", desk.decide, name="desk-decide"),
    path("desk/<slug:slug>/matches/<int:pk>/confirm/", desk.confirm_entry, name="desk-confirm"),
    path("desk/<slug:slug>/matches/<int:pk>/correct/", desk.correct, name="desk-correct"),
]
