"""A club keeps its roster: its directors add and rename members, one row per person, and a
team of a club's tournament is two of the club's members."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.test import RequestFactory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments import clubs
from tournaments.access import SYSTEM, directed_clubs, is_club_director
from tournaments.admin import ClubAdmin, PlayerAdmin
from tournaments.errors import ClubNotPermitted, ClubRefused, InvalidClubData
from tournaments.models import Club, Player, Team, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("director", is_staff=True)


@pytest.fixture
def club(director: Any) -> Club:
    return clubs.club_create(actor=director, name="Friday Seep Club", time_zone="Asia/Kolkata")


@pytest.fixture
def outsider(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("outsider", is_staff=True)


def tournament_of(club: Club | None, slug: str) -> Tournament:
    """Return a new tournament of ``club`` (None: of no club, as the API makes them)."""
    organizer = club.directors.first() if club is not None else None
    if organizer is None:
        organizer, _ = get_user_model().objects.get_or_create(username="someone")
    return Tournament.objects.create(name=slug, slug=slug, organizer=organizer, club=club)


def team(tournament: Tournament, name: str, first: Player, second: Player) -> Team:
    """Return the team, checked as every way in checks it (full_clean), then saved."""
    made = Team(tournament=tournament, name=name, first_player=first, second_player=second)
    made.full_clean()
    made.save()
    return made


def refused(call: Any, kind: type[ClubRefused], code: str) -> ClubRefused:
    with pytest.raises(kind) as caught:
        call()
    assert caught.value.code == code
    return caught.value


# --- Who directs a club ---------------------------------------------------------------------


class TestWhoDirectsAClub:
    def test_its_maker_directs_it(self, director: Any, club: Club) -> None:
        assert list(club.directors.all()) == [director]
        assert is_club_director(director, club) and is_club_director(director, club.pk)

    def test_someone_else_does_not(self, outsider: Any, club: Club) -> None:
        assert not is_club_director(outsider, club)
        assert list(directed_clubs(outsider)) == []

    def test_a_superuser_and_the_server_direct_every_club(
        self, club: Club, django_user_model: Any
    ) -> None:
        root = django_user_model.objects.create_superuser("root")
        assert is_club_director(root, club) and is_club_director(SYSTEM, club)
        assert list(directed_clubs(root)) == [club]

    def test_nobody_signed_out_or_deactivated_does(self, director: Any, club: Club) -> None:
        assert not is_club_director(AnonymousUser(), club)
        assert not is_club_director(None, club)
        director.is_active = False
        assert not is_club_director(director, club)
        assert list(directed_clubs(director)) == []


# --- Making a club --------------------------------------------------------------------------


class TestMakingAClub:
    def test_a_club_has_a_slug_made_from_its_name_and_a_time_zone(self, club: Club) -> None:
        club.refresh_from_db()
        assert (str(club), club.slug, club.time_zone) == (
            "Friday Seep Club",
            "friday-seep-club",
            "Asia/Kolkata",
        )

    def test_two_clubs_of_one_name_get_two_slugs(self, director: Any, club: Club) -> None:
        again = clubs.club_create(actor=director, name="  Friday Seep Club ")
        assert (again.name, again.slug, again.time_zone) == (
            "Friday Seep Club",
            "friday-seep-club-2",
            "UTC",
        )

    def test_a_name_with_no_letters_still_gets_a_slug(self, director: Any) -> None:
        assert clubs.club_create(actor=director, name="♠♥").slug == "club"

    def test_a_time_zone_that_is_not_an_iana_name_is_refused_naming_the_field(
        self, director: Any
    ) -> None:
        error = refused(
            lambda: clubs.club_create(actor=director, name="Moon club", time_zone="Mars/Base"),
            InvalidClubData,
            "bad_club",
        )
        assert "time zone" in error.message and "Mars/Base" in error.message
        assert not Club.objects.exists()

    def test_the_model_refuses_it_on_the_time_zone_field(self) -> None:
        with pytest.raises(ValidationError) as caught:
            Club(name="Moon club", slug="moon", time_zone="utc+5").full_clean()
        assert list(caught.value.message_dict) == ["time_zone"]

    def test_an_empty_name_is_refused(self, director: Any) -> None:
        refused(lambda: clubs.club_create(actor=director, name="  "), InvalidClubData, "bad_club")
        assert not Club.objects.exists()

    def test_someone_signed_out_is_refused(self) -> None:
        refused(
            lambda: clubs.club_create(actor=AnonymousUser(), name="X"),
            ClubNotPermitted,
            "forbidden",
        )


class TestClubFor:
    def test_a_user_without_a_club_gets_one_of_their_own_once(self, outsider: Any) -> None:
        made = clubs.club_for(outsider)
        # named for the account, never by its user name (its name and slug are public)
        number = outsider.pk
        assert (made.name, made.slug) == (f"Account {number}'s club", f"account-{number}s-club")
        assert list(made.directors.all()) == [outsider]
        assert clubs.club_for(outsider) == made
        assert Club.objects.count() == 1

    def test_a_club_made_for_a_user_with_a_full_name_bears_it(self, django_user_model: Any) -> None:
        user = django_user_model.objects.create_user("ar7", first_name="Asha", last_name="Rao")
        assert clubs.club_for(user).name == "Asha Rao's club"

    def test_a_director_of_clubs_gets_the_oldest(self, director: Any, club: Club) -> None:
        clubs.club_create(actor=director, name="A later club")
        assert clubs.club_for(director) == club

    def test_someone_signed_out_has_none(self) -> None:
        refused(lambda: clubs.club_for(AnonymousUser()), ClubNotPermitted, "forbidden")


# --- The roster -----------------------------------------------------------------------------


class TestAddingMembers:
    def test_a_director_adds_a_member_their_name_stripped(
        self, director: Any, club: Club, django_user_model: Any
    ) -> None:
        account = django_user_model.objects.create_user("asha")
        asha = clubs.member_add(
            actor=director, club=club, name="  Asha Rao ", contact=" 98100 00000 ", user=account
        )
        asha.refresh_from_db()
        assert (asha.name, asha.contact, asha.club, asha.user) == (
            "Asha Rao",
            "98100 00000",
            club,
            account,
        )
        assert Player._meta.verbose_name == "member"

    def test_someone_who_does_not_direct_the_club_is_refused(
        self, outsider: Any, club: Club
    ) -> None:
        for actor in (outsider, AnonymousUser(), None):
            refused(
                lambda actor=actor: clubs.member_add(actor=actor, club=club, name="Asha"),
                ClubNotPermitted,
                "forbidden",
            )
        assert not Player.objects.exists()

    @pytest.mark.parametrize(
        ("name", "words"),
        [
            ("", "cannot be empty"),
            (" \t\n ", "cannot be empty"),
            ("A" * 201, "at most 200 characters"),
            ("Asha\x00", "control character"),
            (None, "is text"),
        ],
        ids=["empty", "blank", "too-long", "nul", "not-text"],
    )
    def test_a_name_that_is_no_name_is_refused(
        self, director: Any, club: Club, name: Any, words: str
    ) -> None:
        error = refused(
            lambda: clubs.member_add(actor=director, club=club, name=name),
            InvalidClubData,
            "bad_member",
        )
        assert words in error.message
        assert not Player.objects.exists()

    def test_a_name_of_200_characters_is_a_name(self, director: Any, club: Club) -> None:
        assert len(clubs.member_add(actor=director, club=club, name="A" * 200).name) == 200

    def test_the_roster_lists_the_clubs_members_by_name(
        self, director: Any, club: Club, outsider: Any
    ) -> None:
        for name in ("Chitra", "Asha", "Bilal"):
            clubs.member_add(actor=director, club=club, name=name)
        other = clubs.club_create(actor=outsider, name="Other club")
        clubs.member_add(actor=outsider, club=other, name="Aarav")
        assert [m.name for m in clubs.club_members(club=club)] == ["Asha", "Bilal", "Chitra"]


class TestRenamingMembers:
    def test_a_rename_shows_in_every_team_of_every_tournament(
        self, director: Any, club: Club
    ) -> None:
        asha, bilal, chitra = (
            clubs.member_add(actor=director, club=club, name=name)
            for name in ("Asha", "Bilal", "Chitra")
        )
        first, second = tournament_of(club, "first"), tournament_of(club, "second")
        teams = [team(first, "Aces", asha, bilal), team(second, "Kings", chitra, asha)]
        renamed = clubs.member_update(actor=director, member=asha, name=" Asha Rao ")
        assert renamed.name == asha.name == "Asha Rao"
        shown = Team.objects.filter(pk__in=[t.pk for t in teams]).select_related(
            "first_player", "second_player"
        )
        assert sorted((t.first_player.name, t.second_player.name) for t in shown) == [
            ("Asha Rao", "Bilal"),
            ("Chitra", "Asha Rao"),
        ]
        assert Player.objects.filter(name__startswith="Asha").count() == 1

    def test_the_contact_alone_can_change(self, director: Any, club: Club) -> None:
        asha = clubs.member_add(actor=director, club=club, name="Asha", contact="old")
        clubs.member_update(actor=director, member=asha, contact="asha@example.org")
        asha.refresh_from_db()
        assert (asha.name, asha.contact) == ("Asha", "asha@example.org")

    def test_someone_who_does_not_direct_the_club_is_refused(
        self, director: Any, outsider: Any, club: Club
    ) -> None:
        asha = clubs.member_add(actor=director, club=club, name="Asha")
        refused(
            lambda: clubs.member_update(actor=outsider, member=asha, name="Mallory"),
            ClubNotPermitted,
            "forbidden",
        )
        asha.refresh_from_db()
        assert asha.name == "Asha"

    def test_an_empty_name_is_refused_and_the_member_keeps_theirs(
        self, director: Any, club: Club
    ) -> None:
        asha = clubs.member_add(actor=director, club=club, name="Asha")
        refused(
            lambda: clubs.member_update(actor=director, member=asha, name=" "),
            InvalidClubData,
            "bad_member",
        )
        asha.refresh_from_db()
        assert asha.name == "Asha"

    def test_a_player_of_no_club_is_not_a_member_to_update(self, director: Any) -> None:
        loose = Player.objects.create(name="Loose")
        refused(
            lambda: clubs.member_update(actor=director, member=loose, name="X"),
            InvalidClubData,
            "bad_member",
        )


# --- Finding a member by a typed name -------------------------------------------------------


def spelled_otherwise(name: str) -> st.SearchStrategy[str]:
    """The name with each letter's case and the spaces around and between words varied."""
    spaces = st.text(alphabet=" \t\u00a0", max_size=3)
    words = name.split()

    @st.composite
    def build(draw: st.DrawFn) -> str:
        cased = [
            "".join(draw(st.sampled_from([c.lower(), c.upper()])) for c in word) for word in words
        ]
        typed = cased[0]
        for word in cased[1:]:
            typed += (draw(spaces) or " ") + word  # words stay apart: "AshaRao" is not a name
        return draw(spaces) + typed + draw(spaces)

    return build()


class TestMembersNamed:
    @settings(
        max_examples=60,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(data=st.data())
    def test_a_typed_name_finds_the_member_whatever_its_case_and_spacing(
        self, director: Any, club: Club, data: st.DataObject
    ) -> None:
        members = {m.name: m for m in clubs.club_members(club=club)}
        if not members:  # the first example makes the roster; the others only read it
            for name in ("Asha Rao", "Bilal", "Asha"):
                members[name] = clubs.member_add(actor=director, club=club, name=name)
        name = data.draw(st.sampled_from(sorted(members)))
        typed = data.draw(spelled_otherwise(name))
        assert clubs.members_named(club=club, name=typed) == [members[name]]

    def test_two_members_of_one_name_are_both_found(self, director: Any, club: Club) -> None:
        first = clubs.member_add(actor=director, club=club, name="Asha", contact="a@x.org")
        second = clubs.member_add(actor=director, club=club, name="ASHA", contact="b@x.org")
        assert clubs.members_named(club=club, name="asha") == [second, first]  # by name

    def test_another_clubs_member_or_another_name_is_not_found(
        self, director: Any, outsider: Any, club: Club
    ) -> None:
        clubs.member_add(actor=director, club=club, name="Asha Rao")
        other = clubs.club_create(actor=outsider, name="Other club")
        clubs.member_add(actor=outsider, club=other, name="Bilal")
        for typed in ("Bilal", "Asha", "AshaRao", "", "   "):
            assert clubs.members_named(club=club, name=typed) == []

    @settings(derandomize=True, deadline=None)
    @given(
        name=st.text(max_size=30),
        spaces=st.text(alphabet=" \t\n\u00a0\u3000", min_size=1, max_size=3),
    )
    def test_names_compare_alike_whatever_the_spaces_around_and_between_words(
        self, name: str, spaces: str
    ) -> None:
        key = clubs.name_key(name)
        assert clubs.name_key(spaces + spaces.join(name.split()) + spaces) == key
        assert key == key.strip() and "  " not in key

    @settings(derandomize=True, deadline=None)
    @given(name=st.text(alphabet=st.characters(codec="ascii", categories=["L"]), max_size=30))
    def test_names_compare_alike_whatever_their_case(self, name: str) -> None:
        assert (
            clubs.name_key(name.upper())
            == clubs.name_key(name.lower())
            == (clubs.name_key(name.swapcase()))
        )


# --- A team is two members of the tournament's club -----------------------------------------


class TestTeamsOfAClub:
    @pytest.fixture
    def roster(self, director: Any, club: Club) -> list[Player]:
        return [
            clubs.member_add(actor=director, club=club, name=name)
            for name in ("Asha", "Bilal", "Chitra", "Dev")
        ]

    def test_two_members_of_the_club_make_a_team(self, club: Club, roster: list[Player]) -> None:
        made = team(tournament_of(club, "evening"), "Aces", roster[0], roster[1])
        assert (made.first_player, made.second_player) == (roster[0], roster[1])

    def test_a_member_already_in_a_team_of_the_tournament_is_refused(
        self, club: Club, roster: list[Player]
    ) -> None:
        evening = tournament_of(club, "evening")
        team(evening, "Aces", roster[0], roster[1])
        with pytest.raises(ValidationError, match="already plays for Aces in this tournament"):
            team(evening, "Kings", roster[2], roster[0])

    def test_the_same_member_plays_in_two_tournaments_of_the_club(
        self, club: Club, roster: list[Player]
    ) -> None:
        first = team(tournament_of(club, "first"), "Aces", roster[0], roster[1])
        second = team(tournament_of(club, "second"), "Aces", roster[0], roster[2])
        assert first.first_player_id == second.first_player_id == roster[0].pk
        assert Player.objects.filter(club=club, name=roster[0].name).count() == 1

    def test_a_member_of_another_club_is_refused(
        self, club: Club, roster: list[Player], outsider: Any
    ) -> None:
        other = clubs.club_create(actor=outsider, name="Other club")
        stranger = clubs.member_add(actor=outsider, club=other, name="Esha")
        with pytest.raises(ValidationError, match="Esha is a member of another club"):
            team(tournament_of(club, "evening"), "Aces", roster[0], stranger)
        with pytest.raises(ValidationError, match="Asha is a member of another club"):
            team(tournament_of(None, "clubless"), "Aces", roster[0], roster[1])

    def test_a_player_of_no_club_may_still_play_as_before(
        self, club: Club, roster: list[Player]
    ) -> None:
        loose = Player.objects.create(name="Loose")  # as the API makes them
        team(tournament_of(club, "evening"), "Aces", roster[0], loose)
        team(tournament_of(None, "clubless"), "Aces", loose, Player.objects.create(name="Too"))
        assert Team.objects.filter(Q(first_player=loose) | Q(second_player=loose)).count() == 2

    def test_a_member_who_plays_cannot_move_to_another_club(
        self, club: Club, roster: list[Player], outsider: Any
    ) -> None:
        team(tournament_of(club, "evening"), "Aces", roster[0], roster[1])
        roster[0].club = clubs.club_create(actor=outsider, name="Other club")
        with pytest.raises(ValidationError) as caught:
            roster[0].full_clean()
        assert list(caught.value.message_dict) == ["club"]
        roster[2].club = roster[0].club  # one who plays nowhere yet may move
        roster[2].full_clean()


# --- The admin ------------------------------------------------------------------------------


class TestTheAdmin:
    def request(self, user: Any) -> Any:
        request = RequestFactory().get("/admin/")
        request.user = user
        return request

    def test_staff_see_only_the_clubs_they_direct_and_their_members(
        self, director: Any, outsider: Any, club: Club
    ) -> None:
        other = clubs.club_create(actor=outsider, name="Other club")
        mine = clubs.member_add(actor=director, club=club, name="Asha")
        clubs.member_add(actor=outsider, club=other, name="Bilal")
        club_admin = ClubAdmin(Club, admin.site)
        player_admin = PlayerAdmin(Player, admin.site)
        request = self.request(director)
        assert list(club_admin.get_queryset(request)) == [club]
        assert list(player_admin.get_queryset(request)) == [mine]
        assert club_admin.has_change_permission(request, club)
        assert not club_admin.has_change_permission(request, other)
        assert not club_admin.has_delete_permission(request, club)
        # a club's director keeps its roster before directing any tournament
        assert player_admin.has_module_permission(request)
        assert player_admin.has_change_permission(request, mine)

    def test_staff_who_direct_no_club_see_none(self, outsider: Any, club: Club) -> None:
        request = self.request(outsider)
        assert list(ClubAdmin(Club, admin.site).get_queryset(request)) == []
        assert not ClubAdmin(Club, admin.site).has_module_permission(request)

    def test_a_superuser_sees_every_club(
        self, club: Club, outsider: Any, django_user_model: Any
    ) -> None:
        other = clubs.club_create(actor=outsider, name="Another club")
        request = self.request(django_user_model.objects.create_superuser("root"))
        assert list(ClubAdmin(Club, admin.site).get_queryset(request)) == [other, club]

    def test_a_member_is_added_to_one_of_the_directors_clubs(
        self, director: Any, outsider: Any, club: Club
    ) -> None:
        clubs.club_create(actor=outsider, name="Other club")
        form = PlayerAdmin(Player, admin.site).get_form(self.request(director))
        field = form.base_fields["club"]
        assert field.required and list(field.queryset) == [club]
