"""The web pages' URLs (at the site's root; the API is under /api/)."""

from django.contrib.auth import views as auth
from django.urls import path

from .views import invites, keeper, links, public, recorder, seasons, seat, wall
from .views.desk import board, clubs, home, matches, rounds, stages, teams, tournament
from .views.desk import links as desk_links
from .views.desk import seasons as desk_seasons

app_name = "web"

urlpatterns = [
    path("", public.home, name="home"),
    path("login/", auth.LoginView.as_view(template_name="web/login.html"), name="login"),
    path("logout/", auth.LogoutView.as_view(), name="logout"),
    path("t/<slug:slug>/", public.tournament, name="tournament"),
    path("t/<slug:slug>/live/", public.tournament_live, name="tournament-live"),
    path("t/<slug:slug>/print/", public.tournament_print, name="tournament-print"),
    path("t/<slug:slug>/wall/", wall.wall_page, name="tournament-wall"),
    path("t/<slug:slug>/wall/live/", wall.wall_live, name="tournament-wall-live"),
    path("m/<int:pk>/", public.match_sheet, name="match"),
    path("m/<int:pk>/live/", public.match_live, name="match-live"),
    path("m/<int:pk>/receipt-<int:seq>.json", public.match_receipt, name="match-receipt"),
    path("l/<str:key>/", links.open_link, name="team-link"),
    path("keep/", keeper.index, name="keep"),
    path("keep/<int:pk>/", keeper.match_page, name="keep-match"),
    path("keep/<int:pk>/status/", keeper.status, name="keep-status"),
    path("keep/<int:pk>/enter/", keeper.enter, name="keep-enter"),
    path("keep/<int:pk>/answer/", keeper.answer, name="keep-answer"),
    path("keep/<int:pk>/withdraw/", keeper.withdraw, name="keep-withdraw"),
    path("keep/<int:pk>/accept/", keeper.accept_version, name="keep-accept"),
    path("keep/<int:pk>/start/", keeper.start, name="keep-start"),
    path("play/<int:pk>/", seat.seat_page, name="seat"),
    path("play/<int:pk>/live/", seat.seat_live, name="seat-live"),
    path("play/<int:pk>/seat/", seat.seat_choose, name="seat-choose"),
    path("play/<int:pk>/move/", seat.seat_move, name="seat-move"),
    path("record/<int:pk>/", recorder.record_page, name="record"),
    path("record/<int:pk>/start/", recorder.start, name="record-start"),
    path("record/<int:pk>/bid/", recorder.bid, name="record-bid"),
    path("record/<int:pk>/play/", recorder.play, name="record-play"),
    path("record/<int:pk>/undo/", recorder.undo, name="record-undo"),
    path("desk/", home.index, name="desk-home"),
    path("desk/new/", home.new_evening, name="desk-new"),
    path("clubs/<slug:slug>/members/", clubs.roster, name="club-roster"),
    path("clubs/<slug:slug>/members/new/", clubs.member_new, name="club-member-new"),
    path("clubs/<slug:slug>/members/<int:pk>/", clubs.member_edit, name="club-member"),
    path(
        "clubs/<slug:slug>/members/<int:pk>/invite/",
        clubs.member_invite,
        name="club-member-invite",
    ),
    path("invite/<str:key>/", invites.accept, name="member-invite"),
    path("c/<slug:slug>/", seasons.club_page, name="club-page"),
    path("c/<slug:slug>/m/<int:pk>/", seasons.member_page, name="club-member-page"),
    path("clubs/<slug:slug>/seasons/", desk_seasons.seasons_page, name="club-seasons"),
    path("clubs/<slug:slug>/seasons/new/", desk_seasons.season_new, name="club-season-new"),
    path(
        "clubs/<slug:slug>/seasons/public/",
        desk_seasons.seasons_public,
        name="club-seasons-public",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:pk>/remove/",
        desk_seasons.season_remove,
        name="club-season-remove",
    ),
    path(
        "desk/<slug:slug>/seed-by-ratings/",
        desk_seasons.seed_by_ratings,
        name="desk-seed-by-ratings",
    ),
    path("desk/<slug:slug>/", tournament.desk, name="desk"),
    path(
        "desk/<slug:slug>/notices/<int:pk>/resolve/",
        tournament.notice_resolve,
        name="desk-notice-resolve",
    ),
    path("desk/<slug:slug>/board/", board.board_page, name="desk-board"),
    path("desk/<slug:slug>/board/live/", board.board_live, name="desk-board-live"),
    path(
        "desk/<slug:slug>/board/matches/<int:pk>/confirm/",
        board.board_confirm,
        name="desk-board-confirm",
    ),
    path(
        "desk/<slug:slug>/board/matches/<int:pk>/decide/",
        board.board_decide,
        name="desk-board-decide",
    ),
    path("desk/<slug:slug>/teams/", teams.register_team, name="desk-register"),
    path("desk/<slug:slug>/teams/many/", teams.register_teams, name="desk-register-many"),
    path("desk/<slug:slug>/teams/act/", teams.team_command, name="desk-team"),
    path("desk/<slug:slug>/teams/<int:pk>/", teams.team_edit, name="desk-team-edit"),
    path("desk/<slug:slug>/teams/<int:pk>/link/", desk_links.team_link, name="desk-team-link"),
    path(
        "desk/<slug:slug>/teams/<int:pk>/link/reissue/",
        desk_links.team_link_reissue,
        name="desk-team-link-reissue",
    ),
    path("desk/<slug:slug>/cards/", desk_links.cards, name="desk-cards"),
    path(
        "desk/<slug:slug>/rounds/<int:pk>/cards/", desk_links.round_cards, name="desk-round-cards"
    ),
    path("desk/<slug:slug>/stages/new/", stages.stage_new, name="desk-stage-new"),
    path("desk/<slug:slug>/stages/<int:pk>/edit/", stages.stage_edit, name="desk-stage-edit"),
    path("desk/<slug:slug>/stages/<int:pk>/remove/", stages.stage_remove, name="desk-stage-remove"),
    path(
        "desk/<slug:slug>/stages/<int:pk>/standings.csv",
        stages.standings_csv,
        name="desk-standings-csv",
    ),
    path("desk/<slug:slug>/stages/<int:pk>/cut/", stages.stage_cut, name="desk-stage-cut"),
    path(
        "desk/<slug:slug>/stages/<int:pk>/cut/decide/",
        stages.stage_cut_decide,
        name="desk-stage-cut-decide",
    ),
    path(
        "desk/<slug:slug>/stages/<int:pk>/<str:command>/",
        stages.stage_command,
        name="desk-stage",
    ),
    path("desk/<slug:slug>/rounds/<int:pk>/", rounds.round_page, name="desk-round"),
    path("desk/<slug:slug>/rounds/<int:pk>/edit/", rounds.round_edit, name="desk-round-edit"),
    path(
        "desk/<slug:slug>/rounds/<int:pk>/publish/", rounds.round_publish, name="desk-round-publish"
    ),
    path(
        "desk/<slug:slug>/rounds/<int:pk>/discard/", rounds.round_discard, name="desk-round-discard"
    ),
    path(
        "desk/<slug:slug>/rounds/<int:pk>/unpublish/",
        rounds.round_unpublish,
        name="desk-round-unpublish",
    ),
    path(
        "desk/<slug:slug>/rounds/<int:pk>/pairings.csv",
        rounds.pairings_csv,
        name="desk-pairings-csv",
    ),
    path("desk/<slug:slug>/matches/<int:pk>/", matches.match_page, name="desk-match"),
    path("desk/<slug:slug>/matches/<int:pk>/decide/", matches.decide, name="desk-decide"),
    path("desk/<slug:slug>/matches/<int:pk>/confirm/", matches.confirm_entry, name="desk-confirm"),
    path("desk/<slug:slug>/matches/<int:pk>/correct/", matches.correct, name="desk-correct"),
]
