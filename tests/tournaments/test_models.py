"""The models keep their invariants: engine-checked rules, distinct players and teams, seats."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

import seep_core
from tournaments.models import Match, MatchEvent, MatchSnapshot, Player, Team, Tournament

pytestmark = pytest.mark.django_db


def new_team(world: Any, name: str, first: Player, second: Player) -> Team:
    return Team.objects.create(
        tournament=world.tournament, name=name, first_player=first, second_player=second
    )


def new_event(match: Match, seq: int, **fields: Any) -> MatchEvent:
    fields.setdefault("kind", MatchEvent.Kind.MOVE_PLAYED)
    fields.setdefault("payload", {})
    fields.setdefault("hash", "f" * 64)
    return MatchEvent.objects.create(match=match, seq=seq, **fields)


# --- Tournament ---------------------------------------------------------------------------


class TestTournament:
    def test_a_new_tournament_plays_the_engines_default_rules_and_format(self, world: Any) -> None:
        world.tournament.refresh_from_db()
        assert world.tournament.rules == seep_core.Rules().to_dict()
        assert world.tournament.match_format == seep_core.MatchFormat().to_dict()

    def test_clean_fills_in_the_variants_left_out(self, world: Any) -> None:
        world.tournament.rules = {"minimum": 0}
        world.tournament.match_format = {"bazzis": 3}
        world.tournament.full_clean()
        assert world.tournament.rules == seep_core.Rules(minimum=0).to_dict()
        assert world.tournament.match_format == seep_core.MatchFormat(bazzis=3).to_dict()

    @pytest.mark.parametrize(
        ("rules", "words"),
        [
            ({"minimum": 99}, "minimum (V2)"),
            ({"sweep": "fifty"}, "sweep (V1)"),
            ({"jokers": True}, "unknown rule variant(s): jokers"),
            ([1, 2], "rules must be an object"),
        ],
    )
    def test_clean_refuses_rules_the_engine_refuses(
        self, world: Any, rules: object, words: str
    ) -> None:
        world.tournament.rules = rules
        with pytest.raises(ValidationError) as refused:
            world.tournament.full_clean()
        assert list(refused.value.message_dict) == ["rules"]
        assert words in refused.value.message_dict["rules"][0]

    def test_clean_refuses_a_format_the_engine_refuses(self, world: Any) -> None:
        world.tournament.match_format = {"bazzis": 0}
        with pytest.raises(ValidationError) as refused:
            world.tournament.full_clean()
        assert "bazzis must be a whole number 1-99" in refused.value.message_dict["match_format"][0]

    def test_slugs_are_unique(self, world: Any) -> None:
        with pytest.raises(IntegrityError), transaction.atomic():
            Tournament.objects.create(
                name="Another", slug=world.tournament.slug, organizer=world.organizer
            )

    def test_an_organizer_with_a_tournament_cannot_be_deleted(self, world: Any) -> None:
        with pytest.raises(ProtectedError):
            world.organizer.delete()
        assert Tournament.objects.filter(organizer=world.organizer).exists()


# --- Player and Team ------------------------------------------------------------------------


class TestPlayerAndTeam:
    def test_deleting_a_players_account_keeps_the_player(self, world: Any) -> None:
        player = world.players[0]
        player.user.delete()
        player.refresh_from_db()
        assert player.user is None

    def test_a_team_is_two_different_players_in_the_database(self, world: Any) -> None:
        solo = Player.objects.create(name="Solo")
        with pytest.raises(IntegrityError), transaction.atomic():
            new_team(world, "Solo and Solo", solo, solo)

    def test_a_team_is_two_different_players_in_validation(self, world: Any) -> None:
        solo = Player.objects.create(name="Solo")
        team = Team(
            tournament=world.tournament, name="Twice", first_player=solo, second_player=solo
        )
        with pytest.raises(ValidationError, match="two different players"):
            team.full_clean()

    def test_team_names_are_unique_within_a_tournament(self, world: Any) -> None:
        a, b = Player.objects.create(name="A"), Player.objects.create(name="B")
        with pytest.raises(IntegrityError), transaction.atomic():
            new_team(world, world.teams[0].name, a, b)

    def test_another_tournament_may_reuse_a_team_name(self, world: Any) -> None:
        other = Tournament.objects.create(name="Open", slug="open", organizer=world.organizer)
        team = Team.objects.create(
            tournament=other,
            name=world.teams[0].name,
            first_player=world.players[0],
            second_player=world.players[1],
        )
        assert team.pk is not None

    def test_a_player_plays_for_one_team_per_tournament(self, world: Any) -> None:
        newcomer = Player.objects.create(name="Newcomer")
        team = Team(
            tournament=world.tournament,
            name="Poachers",
            first_player=newcomer,
            second_player=world.players[3],
        )
        with pytest.raises(ValidationError, match="already plays for Team B"):
            team.full_clean()

    def test_a_team_may_be_cleaned_again_with_its_own_players(self, world: Any) -> None:
        world.teams[0].full_clean()


# --- Match ----------------------------------------------------------------------------------


class TestMatch:
    def test_a_new_match_is_scheduled_with_an_empty_log(self, world: Any) -> None:
        match = world.digital_match
        assert (match.status, match.last_seq, match.last_hash) == ("scheduled", 0, "")
        assert match.first_dealer is None
        assert list(match.scorekeepers.all()) == [world.scorekeeper]

    def test_seats_alternate_between_the_teams_with_partners_opposite(self, world: Any) -> None:
        a1, a2, b1, b2 = world.players[:4]
        assert world.digital_match.seat_players() == (a1, b1, a2, b2)
        teams = [world.digital_match.team_of_seat(seat) for seat in range(4)]
        assert teams == [world.teams[0], world.teams[1], world.teams[0], world.teams[1]]

    @pytest.mark.parametrize("seat", [-1, 4, "0", 1.0, None])
    def test_a_seat_is_0_to_3(self, world: Any, seat: Any) -> None:
        with pytest.raises(ValueError, match="a seat is 0, 1, 2 or 3"):
            world.digital_match.team_of_seat(seat)

    def test_a_match_is_between_two_different_teams(self, world: Any) -> None:
        team = world.teams[0]
        with pytest.raises(IntegrityError), transaction.atomic():
            Match.objects.create(
                tournament=world.tournament,
                team0=team,
                team1=team,
                mode="digital",
                rules={},
                match_format={},
            )

    def test_the_first_dealer_is_a_seat_in_the_database(self, world: Any) -> None:
        with pytest.raises(IntegrityError), transaction.atomic():
            Match.objects.filter(pk=world.digital_match.pk).update(first_dealer=4)

    def test_a_new_match_takes_the_tournaments_rules_and_keeps_them(self, world: Any) -> None:
        world.tournament.rules = seep_core.Rules(minimum=0, bazzi_lead=200).to_dict()
        world.tournament.match_format = seep_core.MatchFormat(bazzis=3).to_dict()
        world.tournament.save()
        match = Match(
            tournament=world.tournament, team0=world.teams[2], team1=world.teams[0], mode="table"
        )
        match.full_clean()
        match.save()

        world.tournament.rules = seep_core.Rules().to_dict()
        world.tournament.save()
        match.refresh_from_db()
        assert seep_core.Rules.from_dict(match.rules) == seep_core.Rules(minimum=0, bazzi_lead=200)
        assert seep_core.MatchFormat.from_dict(match.match_format).bazzis == 3

    def test_cleaning_a_match_never_rewrites_its_rules(self, world: Any) -> None:
        match = world.digital_match
        Match.objects.filter(pk=match.pk).update(rules={"minimum": 5})
        match.refresh_from_db()
        match.full_clean()
        assert match.rules == {"minimum": 5}

    def test_a_match_is_between_teams_of_its_tournament(self, world: Any) -> None:
        other = Tournament.objects.create(name="Open", slug="open", organizer=world.organizer)
        stranger = Team.objects.create(
            tournament=other,
            name="Visitors",
            first_player=Player.objects.create(name="V1"),
            second_player=Player.objects.create(name="V2"),
        )
        match = Match(
            tournament=world.tournament, team0=world.teams[0], team1=stranger, mode="score"
        )
        with pytest.raises(ValidationError, match="team1: Visitors is not a team of"):
            match.full_clean()

    def test_a_bad_match_format_is_refused(self, world: Any) -> None:
        match = world.digital_match
        match.match_format = {"deal_cap": 0}
        with pytest.raises(ValidationError, match="match format: deal_cap must be null"):
            match.full_clean()

    def test_a_team_in_a_match_cannot_be_deleted(self, world: Any) -> None:
        with pytest.raises(ProtectedError):
            world.teams[0].delete()


# --- MatchEvent and MatchSnapshot -----------------------------------------------------------


class TestMatchEvent:
    def test_a_seq_appears_once_per_match(self, world: Any) -> None:
        new_event(world.digital_match, 1)
        new_event(world.score_match, 1)
        with pytest.raises(IntegrityError), transaction.atomic():
            new_event(world.digital_match, 1)
        assert world.digital_match.events.count() == 1

    def test_an_idempotency_key_is_used_once_per_match(self, world: Any) -> None:
        new_event(world.digital_match, 1, idempotency_key="retry-me")
        new_event(world.score_match, 1, idempotency_key="retry-me")
        with pytest.raises(IntegrityError), transaction.atomic():
            new_event(world.digital_match, 2, idempotency_key="retry-me")

    def test_events_without_a_key_never_collide(self, world: Any) -> None:
        new_event(world.digital_match, 1)
        new_event(world.digital_match, 2)
        assert world.digital_match.events.filter(idempotency_key=None).count() == 2

    def test_seq_starts_at_1(self, world: Any) -> None:
        with pytest.raises(IntegrityError), transaction.atomic():
            new_event(world.digital_match, 0)

    def test_a_derived_event_is_caused_by_an_earlier_one(self, world: Any) -> None:
        new_event(world.digital_match, 1)
        with pytest.raises(IntegrityError), transaction.atomic():
            new_event(world.digital_match, 2, caused_by=2)
        assert new_event(world.digital_match, 2, caused_by=1).caused_by == 1

    def test_a_match_reads_its_events_in_seq_order(self, world: Any) -> None:
        for seq in (3, 1, 2):
            new_event(world.digital_match, seq)
        assert [e.seq for e in world.digital_match.events.all()] == [1, 2, 3]

    def test_an_event_records_defaults_for_an_unkeyed_request(self, world: Any) -> None:
        event = new_event(world.digital_match, 1)
        event.refresh_from_db()
        assert (event.idempotency_key, event.request_digest, event.caused_by) == (None, "", None)
        assert event.recorded_at is not None

    def test_a_match_with_events_cannot_be_deleted(self, world: Any) -> None:
        new_event(world.digital_match, 1)
        with pytest.raises(ProtectedError):
            world.digital_match.delete()

    def test_an_actor_with_events_cannot_be_deleted(self, world: Any) -> None:
        new_event(world.digital_match, 1, actor=world.scorekeeper)
        with pytest.raises(ProtectedError):
            world.scorekeeper.delete()


class TestMatchSnapshot:
    def test_a_match_has_at_most_one_snapshot(self, world: Any) -> None:
        MatchSnapshot.objects.create(match=world.digital_match, seq=0, state="{}")
        assert world.digital_match.snapshot.seq == 0
        with pytest.raises(IntegrityError), transaction.atomic():
            MatchSnapshot.objects.create(match=world.digital_match, seq=1, state="{}")


def test_only_a_score_match_asks_for_confirmation(world: Any) -> None:
    from tournaments.services import match_create

    for mode in ("digital", "table"):
        with pytest.raises(ValidationError, match="only deal results entered in score mode"):
            match_create(tournament=world.tournament, team0=world.teams[0],
                         team1=world.teams[1], mode=mode, confirmation="other_team")  # fmt: skip
    made = match_create(tournament=world.tournament, team0=world.teams[0], team1=world.teams[1],
                        mode="score", confirmation="other_team")  # fmt: skip
    assert made.confirmation == "other_team"


def test_the_time_zone_names_are_read_once_from_the_zone_files() -> None:
    from tournaments.models import time_zone_names

    # a scan of the tz database each time a tournament is validated otherwise
    assert time_zone_names() is time_zone_names()
    assert "Asia/Kolkata" in time_zone_names()
