"""The web pages' URLs (at the site's root; the API is under /api/).

Each area's pages are listed once under their common prefix (a tournament's desk, a match's
score-keeper page...); a more particular path stands before the one that would take it
(``desk/new/`` before a tournament's desk, a stage's cut before its commands).
"""

from django.contrib.auth import views as auth
from django.urls import include, path, reverse_lazy
from django.views.i18n import set_language

from .signin import SignInView
from .views import calendar as club_calendar
from .views import exports as csv_files
from .views import (
    invites,
    keeper,
    links,
    operator,
    privacy,
    public,
    recorder,
    seasons,
    seat,
    table,
    wall,
)
from .views import offline as phone_app
from .views import share as sharing
from .views.desk import board, clubs, home, matches, rounds, stages, teams, tournament
from .views.desk import links as desk_links
from .views.desk import seasons as desk_seasons

app_name = "web"

tournament_pages = [
    path("", public.tournament, name="tournament"),
    path("live/", public.tournament_live, name="tournament-live"),
    path("print/", public.tournament_print, name="tournament-print"),
    path("wall/", wall.wall_page, name="tournament-wall"),
    path("wall/live/", wall.wall_live, name="tournament-wall-live"),
    path("share/<str:kind>/<int:stage>/", sharing.tournament_share, name="tournament-share"),
    path("stages/<int:pk>/standings.csv", csv_files.standings_csv, name="tournament-standings-csv"),
    path("matches.csv", csv_files.matches_csv, name="tournament-matches-csv"),
    path("deals.csv", csv_files.deals_csv, name="tournament-deals-csv"),
]
match_sheets = [
    path("", public.match_sheet, name="match"),
    path("live/", public.match_live, name="match-live"),
    path("receipt-<int:seq>.json", public.match_receipt, name="match-receipt"),
]
keeper_pages = [
    path("", keeper.match_page, name="keep-match"),
    path("status/", keeper.status, name="keep-status"),
    path("enter/", keeper.enter, name="keep-enter"),
    path("answer/", keeper.answer, name="keep-answer"),
    path("code/", keeper.confirm_with_code, name="keep-code"),
    path("code-enter/", keeper.enter_with_code, name="keep-code-enter"),
    path("withdraw/", keeper.withdraw, name="keep-withdraw"),
    path("accept/", keeper.accept_version, name="keep-accept"),
    path("start/", keeper.start, name="keep-start"),
]
seat_pages = [
    path("", seat.seat_page, name="seat"),
    path("live/", seat.seat_live, name="seat-live"),
    path("seat/", seat.seat_choose, name="seat-choose"),
    path("move/", seat.seat_move, name="seat-move"),
]
recorder_pages = [
    path("", recorder.record_page, name="record"),
    path("start/", recorder.start, name="record-start"),
    path("bid/", recorder.bid, name="record-bid"),
    path("play/", recorder.play, name="record-play"),
    path("undo/", recorder.undo, name="record-undo"),
]
club_desk = [
    path("members/", clubs.roster, name="club-roster"),
    path("members/new/", clubs.member_new, name="club-member-new"),
    path("members/<int:pk>/", clubs.member_edit, name="club-member"),
    path("members/<int:pk>/invite/", clubs.member_invite, name="club-member-invite"),
    path("seasons/", desk_seasons.seasons_page, name="club-seasons"),
    path("seasons/new/", desk_seasons.season_new, name="club-season-new"),
    path("seasons/public/", desk_seasons.seasons_public, name="club-seasons-public"),
    path("seasons/<int:pk>/remove/", desk_seasons.season_remove, name="club-season-remove"),
]
club_pages = [
    path("", seasons.club_page, name="club-page"),
    path("evenings.ics", club_calendar.club_evenings, name="club-evenings-ics"),
    path("m/<int:pk>/", seasons.member_page, name="club-member-page"),
    path("m/<int:pk>/data.json", privacy.member_data, name="club-member-data"),
    path(
        "m/<int:pk>/rating-privacy/",
        seasons.member_rating_privacy,
        name="club-member-rating-privacy",
    ),
    path("m/<int:pk>/erase/", privacy.member_erase, name="club-member-erase"),
]
tournament_desk = [
    path("", tournament.desk, name="desk"),
    path("seed-by-ratings/", desk_seasons.seed_by_ratings, name="desk-seed-by-ratings"),
    path("notices/<int:pk>/resolve/", tournament.notice_resolve, name="desk-notice-resolve"),
    path("board/", board.board_page, name="desk-board"),
    path("board/live/", board.board_live, name="desk-board-live"),
    path("board/matches/<int:pk>/confirm/", board.board_confirm, name="desk-board-confirm"),
    path("board/matches/<int:pk>/decide/", board.board_decide, name="desk-board-decide"),
    path("board/matches/<int:pk>/codes/", board.board_codes, name="desk-board-codes"),
    path("teams/", teams.register_team, name="desk-register"),
    path("teams/many/", teams.register_teams, name="desk-register-many"),
    path("teams/act/", teams.team_command, name="desk-team"),
    path("teams/<int:pk>/", teams.team_edit, name="desk-team-edit"),
    path("teams/<int:pk>/link/", desk_links.team_link, name="desk-team-link"),
    path(
        "teams/<int:pk>/link/reissue/", desk_links.team_link_reissue, name="desk-team-link-reissue"
    ),
    path("cards/", desk_links.cards, name="desk-cards"),
    path("rounds/<int:pk>/cards/", desk_links.round_cards, name="desk-round-cards"),
    path("stages/new/", stages.stage_new, name="desk-stage-new"),
    path("stages/<int:pk>/edit/", stages.stage_edit, name="desk-stage-edit"),
    path("stages/<int:pk>/remove/", stages.stage_remove, name="desk-stage-remove"),
    path("stages/<int:pk>/standings.csv", stages.standings_csv, name="desk-standings-csv"),
    path("stages/<int:pk>/cut/", stages.stage_cut, name="desk-stage-cut"),
    path("stages/<int:pk>/cut/decide/", stages.stage_cut_decide, name="desk-stage-cut-decide"),
    path("stages/<int:pk>/<str:command>/", stages.stage_command, name="desk-stage"),
    path("rounds/<int:pk>/", rounds.round_page, name="desk-round"),
    path("rounds/<int:pk>/edit/", rounds.round_edit, name="desk-round-edit"),
    path("rounds/<int:pk>/publish/", rounds.round_publish, name="desk-round-publish"),
    path("rounds/<int:pk>/discard/", rounds.round_discard, name="desk-round-discard"),
    path("rounds/<int:pk>/unpublish/", rounds.round_unpublish, name="desk-round-unpublish"),
    path("rounds/<int:pk>/pairings.csv", rounds.pairings_csv, name="desk-pairings-csv"),
    path("matches/<int:pk>/", matches.match_page, name="desk-match"),
    path("matches/<int:pk>/decide/", matches.decide, name="desk-decide"),
    path("matches/<int:pk>/confirm/", matches.confirm_entry, name="desk-confirm"),
    path("matches/<int:pk>/correct/", matches.correct, name="desk-correct"),
    path("matches/<int:pk>/seats/release/", desk_links.seat_release, name="desk-seat-release"),
    path("matches/<int:pk>/table-card/", desk_links.table_card, name="desk-table-card"),
]
table_pages = [
    path("", table.table_page, name="table"),
    path("enter/", table.table_enter, name="table-enter"),
    path("confirm/", table.table_confirm, name="table-confirm"),
]

urlpatterns = [
    path("", public.home, name="home"),
    # a password, then the account's own steps (a passkey, a verified address: web.signin)
    path("login/", SignInView.as_view(), name="login"),
    path("logout/", auth.LogoutView.as_view(), name="logout"),
    # an account a director made (members/{id}/account/) gets a password of its owner's own
    path(
        "password/",
        auth.PasswordChangeView.as_view(
            template_name="web/password_change.html",
            success_url=reverse_lazy("web:password-changed"),
        ),
        name="password-change",
    ),
    path(
        "password/changed/",
        auth.PasswordChangeDoneView.as_view(template_name="web/password_changed.html"),
        name="password-changed",
    ),
    path("t/<slug:slug>/", include(tournament_pages)),
    path("m/<int:pk>/", include(match_sheets)),
    path("l/<str:key>/", links.open_link, name="team-link"),
    # a round's table card: the table's match on one phone, for no team (codes speak)
    path("tc/<str:key>/", table.open_table, name="table-link"),
    path("table/<int:pk>/", include(table_pages)),
    # the language switch on every page: a form, no script (Django's view keeps it in a cookie)
    path("language/", set_language, name="set-language"),
    path("keep/", keeper.index, name="keep"),
    # the phone pages as an app: its worker (scope /keep/), manifest and icons
    path("keep/sw.js", phone_app.worker, name="keep-worker"),
    path("keep/app.webmanifest", phone_app.manifest, name="keep-manifest"),
    path("keep/icon-<int:size>.png", phone_app.icon, name="keep-icon"),
    path("keep/<int:pk>/", include(keeper_pages)),
    path("play/<int:pk>/", include(seat_pages)),
    path("record/<int:pk>/", include(recorder_pages)),
    path("desk/", home.index, name="desk-home"),
    path("desk/new/", home.new_evening, name="desk-new"),
    # an organizer who signed up names their club (before a club's own pages: "new" is no slug)
    path("clubs/new/", clubs.club_new, name="club-new"),
    path("clubs/<slug:slug>/", include(club_desk)),
    # the site operator's page (superusers): the clubs, their size and activity, suspensions
    path("operator/", operator.clubs_page, name="operator"),
    path("operator/clubs/<int:pk>/suspend/", operator.club_suspend, name="operator-suspend"),
    path("invite/", invites.accept, name="member-invite-form"),
    path("invite/<str:key>/", invites.open_invitation, name="member-invite"),
    path("c/<slug:slug>/", include(club_pages)),
    path("desk/<slug:slug>/", include(tournament_desk)),
]
