"""/api/v1/: the resources (the paths are a contract)."""

from django.urls import path

from . import views
from .views import seasons

app_name = "api"

urlpatterns = [
    path("", views.Index.as_view(), name="index"),
    path("tournaments/", views.Tournaments.as_view(), name="tournaments"),
    path("tournaments/<int:pk>/", views.TournamentDetail.as_view(), name="tournament"),
    path("tournaments/<int:pk>/teams/", views.TournamentTeams.as_view(), name="tournament-teams"),
    path(
        "tournaments/<int:pk>/stages/", views.TournamentStages.as_view(), name="tournament-stages"
    ),
    path(
        "tournaments/<int:pk>/results/",
        views.TournamentResults.as_view(),
        name="tournament-results",
    ),
    path("teams/<int:pk>/check-in/", views.TeamCheckIn.as_view(), name="team-check-in"),
    path("teams/<int:pk>/withdraw/", views.TeamWithdraw.as_view(), name="team-withdraw"),
    path("teams/<int:pk>/reinstate/", views.TeamReinstate.as_view(), name="team-reinstate"),
    path("teams/<int:pk>/token/", views.TeamToken.as_view(), name="team-token"),
    path("stages/<int:pk>/", views.StageDetail.as_view(), name="stage"),
    path("stages/<int:pk>/start/", views.StageStart.as_view(), name="stage-start"),
    path("stages/<int:pk>/cut/", views.StageCut.as_view(), name="stage-cut"),
    path("stages/<int:pk>/rounds/", views.StageRounds.as_view(), name="stage-rounds"),
    path("stages/<int:pk>/standings/", views.StageStandings.as_view(), name="stage-standings"),
    path("stages/<int:pk>/bracket/", views.StageBracket.as_view(), name="stage-bracket"),
    path("rounds/<int:pk>/", views.RoundDetail.as_view(), name="round"),
    path("rounds/<int:pk>/publish/", views.RoundPublish.as_view(), name="round-publish"),
    path("rounds/<int:pk>/unpublish/", views.RoundUnpublish.as_view(), name="round-unpublish"),
    path("matches/", views.Matches.as_view(), name="matches"),
    path("matches/<int:pk>/", views.MatchDetail.as_view(), name="match"),
    path("matches/<int:pk>/events/", views.MatchEvents.as_view(), name="match-events"),
    path("matches/<int:pk>/state/", views.MatchState.as_view(), name="match-state"),
    path("matches/<int:pk>/deals/", views.MatchDeals.as_view(), name="match-deals"),
    path("matches/<int:pk>/history/", views.MatchHistory.as_view(), name="match-history"),
    path(
        "tournaments/<int:pk>/notices/",
        views.TournamentNotices.as_view(),
        name="tournament-notices",
    ),
    path(
        "tournaments/<int:pk>/disputes/",
        views.TournamentDisputes.as_view(),
        name="tournament-disputes",
    ),
    path("notices/<int:pk>/resolve/", views.NoticeResolve.as_view(), name="notice-resolve"),
    path("clubs/", views.Clubs.as_view(), name="clubs"),
    path("clubs/<int:pk>/", views.ClubDetail.as_view(), name="club"),
    path("clubs/<int:pk>/members/", views.ClubMembers.as_view(), name="club-members"),
    path("members/<int:pk>/", views.MemberDetail.as_view(), name="member"),
    path("members/<int:pk>/invite/", views.MemberInvite.as_view(), name="member-invite"),
    path("clubs/<int:pk>/ratings/", seasons.ClubRatings.as_view(), name="club-ratings"),
    path("clubs/<int:pk>/seasons/", seasons.ClubSeasonsView.as_view(), name="club-seasons"),
    path(
        "clubs/<int:pk>/seasons-settings/",
        seasons.ClubSeasonsSettings.as_view(),
        name="club-seasons-settings",
    ),
    path("seasons/<int:pk>/", seasons.SeasonDetail.as_view(), name="season"),
    path("seasons/<int:pk>/ladder/", seasons.SeasonLadder.as_view(), name="season-ladder"),
    path("members/<int:pk>/rating/", seasons.MemberRatingView.as_view(), name="member-rating"),
    path(
        "tournaments/<int:pk>/seed-by-ratings/",
        seasons.TournamentSeedByRatings.as_view(),
        name="tournament-seed-by-ratings",
    ),
    path("tokens/", views.Tokens.as_view(), name="tokens"),
    path("tokens/<int:pk>/", views.TokenDetail.as_view(), name="token"),
    path("webhooks/", views.Webhooks.as_view(), name="webhooks"),
    path("webhooks/<int:pk>/", views.WebhookDetail.as_view(), name="webhook"),
    path("webhooks/<int:pk>/pause/", views.WebhookPause.as_view(), name="webhook-pause"),
    path("webhooks/<int:pk>/resume/", views.WebhookResume.as_view(), name="webhook-resume"),
    path(
        "webhooks/<int:pk>/deliveries/",
        views.WebhookDeliveries.as_view(),
        name="webhook-deliveries",
    ),
]
