"""/api/v1/: the resources (the paths are a contract)."""

from django.urls import path
from rest_framework.views import APIView

from . import views

app_name = "api"

#: each resource's path, its view and the name it is reversed by
ROUTES: list[tuple[str, type[APIView], str]] = [
    ("", views.Index, "index"),
    ("tournaments/", views.Tournaments, "tournaments"),
    ("tournaments/<int:pk>/", views.TournamentDetail, "tournament"),
    ("tournaments/<int:pk>/teams/", views.TournamentTeams, "tournament-teams"),
    ("tournaments/<int:pk>/stages/", views.TournamentStages, "tournament-stages"),
    ("tournaments/<int:pk>/results/", views.TournamentResults, "tournament-results"),
    ("tournaments/<int:pk>/matches.csv", views.TournamentMatchesCsv, "tournament-matches-csv"),
    ("tournaments/<int:pk>/deals.csv", views.TournamentDealsCsv, "tournament-deals-csv"),
    ("teams/<int:pk>/check-in/", views.TeamCheckIn, "team-check-in"),
    ("teams/<int:pk>/withdraw/", views.TeamWithdraw, "team-withdraw"),
    ("teams/<int:pk>/reinstate/", views.TeamReinstate, "team-reinstate"),
    ("teams/<int:pk>/token/", views.TeamToken, "team-token"),
    ("stages/<int:pk>/", views.StageDetail, "stage"),
    ("stages/<int:pk>/start/", views.StageStart, "stage-start"),
    ("stages/<int:pk>/cut/", views.StageCut, "stage-cut"),
    ("stages/<int:pk>/rounds/", views.StageRounds, "stage-rounds"),
    ("stages/<int:pk>/standings/", views.StageStandings, "stage-standings"),
    ("stages/<int:pk>/standings.csv", views.StageStandingsCsv, "stage-standings-csv"),
    ("stages/<int:pk>/bracket/", views.StageBracket, "stage-bracket"),
    ("rounds/<int:pk>/", views.RoundDetail, "round"),
    ("rounds/<int:pk>/publish/", views.RoundPublish, "round-publish"),
    ("rounds/<int:pk>/unpublish/", views.RoundUnpublish, "round-unpublish"),
    ("matches/", views.Matches, "matches"),
    ("matches/<int:pk>/", views.MatchDetail, "match"),
    ("matches/<int:pk>/events/", views.MatchEvents, "match-events"),
    ("matches/<int:pk>/state/", views.MatchState, "match-state"),
    ("matches/<int:pk>/deals/", views.MatchDeals, "match-deals"),
    ("matches/<int:pk>/history/", views.MatchHistory, "match-history"),
    ("tournaments/<int:pk>/notices/", views.TournamentNotices, "tournament-notices"),
    ("tournaments/<int:pk>/disputes/", views.TournamentDisputes, "tournament-disputes"),
    ("notices/<int:pk>/resolve/", views.NoticeResolve, "notice-resolve"),
    ("clubs/", views.Clubs, "clubs"),
    ("clubs/<int:pk>/", views.ClubDetail, "club"),
    ("clubs/<int:pk>/members/", views.ClubMembers, "club-members"),
    ("members/<int:pk>/", views.MemberDetail, "member"),
    ("members/<int:pk>/invite/", views.MemberInvite, "member-invite"),
    ("members/<int:pk>/account/", views.MemberAccount, "member-account"),
    ("members/<int:pk>/export/", views.MemberExport, "member-export"),
    ("members/<int:pk>/erase/", views.MemberErase, "member-erase"),
    ("clubs/<int:pk>/ratings/", views.ClubRatings, "club-ratings"),
    ("clubs/<int:pk>/seasons/", views.ClubSeasonsView, "club-seasons"),
    ("clubs/<int:pk>/seasons-settings/", views.ClubSeasonsSettings, "club-seasons-settings"),
    ("seasons/<int:pk>/", views.SeasonDetail, "season"),
    ("seasons/<int:pk>/ladder/", views.SeasonLadder, "season-ladder"),
    ("members/<int:pk>/rating/", views.MemberRatingView, "member-rating"),
    ("members/<int:pk>/rating/privacy/", views.MemberRatingPrivacy, "member-rating-privacy"),
    (
        "tournaments/<int:pk>/seed-by-ratings/",
        views.TournamentSeedByRatings,
        "tournament-seed-by-ratings",
    ),
    ("tokens/", views.Tokens, "tokens"),
    ("tokens/<int:pk>/", views.TokenDetail, "token"),
    ("tokens/<int:pk>/renew/", views.TokenRenew, "token-renew"),
    ("webhooks/", views.Webhooks, "webhooks"),
    ("webhooks/<int:pk>/", views.WebhookDetail, "webhook"),
    ("webhooks/<int:pk>/pause/", views.WebhookPause, "webhook-pause"),
    ("webhooks/<int:pk>/resume/", views.WebhookResume, "webhook-resume"),
    ("webhooks/<int:pk>/deliveries/", views.WebhookDeliveries, "webhook-deliveries"),
]

urlpatterns = [path(route, view.as_view(), name=name) for route, view, name in ROUTES]
