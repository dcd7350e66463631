"""Migrations 0010-0011 give every tournament a club of its organizer's and turn the players
of its teams into that club's members: one row per person, except where that would seat one
person twice in a tournament; the match logs, which keep the player ids they were written
with, still verify; and back again, the columns go and merged rows stay merged."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from io import StringIO
from typing import Any

import pytest
from django.apps.registry import Apps
from django.contrib.auth import authenticate
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import clubs
from tournaments.models import Club, Match, MatchEvent, Player, Team, Tournament

#: every test migrates the schema back to 0009 and forward again (seconds each): not in the
#: fast tier
pytestmark = pytest.mark.slow

BEFORE = ("tournaments", "0009_snapshot_state_text")
AFTER = ("tournaments", "0011_members_from_players")
MIGRATION = importlib.import_module("tournaments.migrations.0011_members_from_players")


def migrate(target: tuple[str, str] | None) -> Apps:
    """Migrate the test database to ``target`` (None: to the latest of every app); return the
    models as they are there."""
    executor = MigrationExecutor(connection)
    targets = [target] if target else executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.fixture
def back_to_the_latest() -> Iterator[None]:
    """Whatever the test does to the schema, leave the database at the latest migrations."""
    yield
    migrate(None)


def columns(table: str) -> set[str]:
    with connection.cursor() as cursor:
        return {c.name for c in connection.introspection.get_table_description(cursor, table)}


# --- Duplicate players, three ways -----------------------------------------------------------


def made_before_clubs() -> dict[str, int]:
    """At 0009, two organizers' tournaments whose teams made new player rows each time; return
    each row's id by its key.

    meena runs T1 and T2, ravi runs T3. Rows are made in the order listed, so a lower id
    is an earlier row.
    """
    old = migrate(BEFORE)
    User = old.get_model("auth", "User")
    PlayerAt = old.get_model("tournaments", "Player")
    TournamentAt = old.get_model("tournaments", "Tournament")
    TeamAt = old.get_model("tournaments", "Team")
    meena, ravi, asha, farhan = (
        User.objects.create(username=name) for name in ("meena", "ravi", "asha", "farhan")
    )
    rows = {}
    for key, name, user in [
        ("a1", "Asha", asha), ("b1", "Bilal", None), ("c1", "Chitra", None),
        ("d1", "Dev", None), ("c2", "Chitra", None), ("f1", "Farhan", farhan),
        ("g1", "Gita", None), ("g2", "gita", None), ("a2", " asha ", asha),
        ("b2", "BILAL", None), ("c3", "chitra", None), ("e1", "Esha", None),
        ("f2", "Farhan", None), ("h", "Hema", None), ("e2", "Esha", None),
        ("loose", "Loose", None),
    ]:  # fmt: skip
        rows[key] = PlayerAt.objects.create(name=name, user=user)
    tournaments = {
        slug: TournamentAt.objects.create(name=slug, slug=slug, organizer=organizer)
        for slug, organizer in (("t1", meena), ("t2", meena), ("t3", ravi))
    }
    for slug, name, first, second in [
        ("t1", "Aces", "a1", "b1"), ("t1", "Kings", "c1", "d1"),
        ("t1", "Queens", "c2", "f1"), ("t1", "Jacks", "g1", "g2"),
        ("t2", "Aces", "a2", "b2"), ("t2", "Kings", "c3", "e1"), ("t2", "Queens", "f2", "h"),
        ("t3", "Aces", "d1", "e2"),
    ]:  # fmt: skip
        TeamAt.objects.create(
            tournament=tournaments[slug], name=name,
            first_player=rows[first], second_player=rows[second],
        )  # fmt: skip
    return {key: row.pk for key, row in rows.items()}


@pytest.fixture
def before_clubs(back_to_the_latest: None) -> dict[str, int]:
    """The rows made before clubs (``made_before_clubs``), for a test that migrates itself."""
    return made_before_clubs()


@pytest.fixture(scope="class")
def after_clubs(
    django_db_setup: None, django_db_blocker: Any
) -> Iterator[tuple[dict[str, int], Apps]]:
    """The rows made before clubs, migrated to 0011 once for the tests that only read the
    result (each migrated down to 0009 and up again before: seconds a test); yields the rows'
    ids and the models at 0011. Then the latest migrations and an empty database again, as a
    transactional test leaves it."""
    with django_db_blocker.unblock():
        try:
            rows = made_before_clubs()
            apps = migrate(AFTER)
        except BaseException:
            migrate(None)
            raise
    yield rows, apps
    with django_db_blocker.unblock():
        migrate(None)
        call_command("flush", interactive=False, verbosity=0)


def lineups(apps: Apps) -> dict[tuple[str, str], tuple[int, int]]:
    """Every team's players (row ids), by (tournament slug, team name)."""
    TeamAt = apps.get_model("tournaments", "Team")
    return {
        (slug, name): (first, second)
        for slug, name, first, second in TeamAt.objects.values_list(
            "tournament__slug", "name", "first_player", "second_player"
        )
    }


@pytest.mark.django_db
class TestTheMigrationOfDuplicatePlayers:
    """What 0010-0011 made of the rows: read in one database migrated once (``after_clubs``)."""

    def test_each_organizer_gets_a_club_which_their_tournaments_join(
        self, after_clubs: tuple[dict[str, int], Apps]
    ) -> None:
        _, new = after_clubs
        ClubAt, TournamentAt = (new.get_model("tournaments", m) for m in ("Club", "Tournament"))
        made = {
            club.name: (club.slug, club.time_zone, [u.username for u in club.directors.all()])
            for club in ClubAt.objects.all()
        }
        assert made == {
            "meena's club": ("meena", "UTC", ["meena"]),
            "ravi's club": ("ravi", "UTC", ["ravi"]),
        }
        assert dict(TournamentAt.objects.values_list("slug", "club__name")) == {
            "t1": "meena's club",
            "t2": "meena's club",
            "t3": "ravi's club",
        }

    def test_one_persons_rows_in_one_clubs_tournaments_become_one_member(
        self, after_clubs: tuple[dict[str, int], Apps]
    ) -> None:
        row, new = after_clubs
        PlayerAt = new.get_model("tournaments", "Player")
        teams = lineups(new)
        # same name and account, case and spaces aside: the lowest id is kept
        assert teams["t2", "Aces"] == (row["a1"], row["b1"])
        assert not PlayerAt.objects.filter(pk__in=[row["a2"], row["b2"]]).exists()
        # a row that clashes with the first is kept, and a later one joins the first it fits
        assert teams["t1", "Kings"][0] == row["c1"] and teams["t1", "Queens"][0] == row["c2"]
        assert teams["t2", "Kings"] == (row["c1"], row["e1"])
        assert not PlayerAt.objects.filter(pk=row["c3"]).exists()
        club = PlayerAt.objects.get(pk=row["a1"]).club
        assert sorted(PlayerAt.objects.filter(club=club).values_list("name", flat=True)) == [
            "Asha", "Bilal", "Chitra", "Chitra", "Dev", "Esha", "Farhan", "Farhan", "Gita",
            "Hema", "gita",
        ]  # fmt: skip

    def test_two_of_one_name_in_one_tournament_stay_two(
        self, after_clubs: tuple[dict[str, int], Apps]
    ) -> None:
        row, new = after_clubs
        teams = lineups(new)
        assert teams["t1", "Jacks"] == (row["g1"], row["g2"])  # one team
        assert {teams["t1", "Kings"][0], teams["t1", "Queens"][0]} == {row["c1"], row["c2"]}

    def test_one_name_with_two_accounts_is_two_people(
        self, after_clubs: tuple[dict[str, int], Apps]
    ) -> None:
        row, new = after_clubs
        teams = lineups(new)
        assert (teams["t1", "Queens"][1], teams["t2", "Queens"][0]) == (row["f1"], row["f2"])

    def test_a_player_of_two_clubs_tournaments_is_one_member_in_each(
        self, after_clubs: tuple[dict[str, int], Apps]
    ) -> None:
        row, new = after_clubs
        PlayerAt = new.get_model("tournaments", "Player")
        teams = lineups(new)
        dev_here, dev_there = (
            PlayerAt.objects.get(pk=row["d1"]),
            PlayerAt.objects.get(pk=teams["t3", "Aces"][0]),
        )
        assert dev_here.pk == teams["t1", "Kings"][1] and dev_there.pk != dev_here.pk
        assert (dev_here.name, dev_there.name) == ("Dev", "Dev")
        assert (dev_here.club.name, dev_there.club.name) == ("meena's club", "ravi's club")
        # two rows of one name in two clubs are not merged: each club keeps its own
        esha_here, esha_there = (PlayerAt.objects.get(pk=row[k]) for k in ("e1", "e2"))
        assert (esha_here.club.name, esha_there.club.name) == ("meena's club", "ravi's club")
        assert sorted(
            PlayerAt.objects.filter(club=dev_there.club).values_list("name", flat=True)
        ) == ["Dev", "Esha"]

    def test_a_player_of_no_team_joins_no_club(
        self, after_clubs: tuple[dict[str, int], Apps]
    ) -> None:
        row, new = after_clubs
        PlayerAt = new.get_model("tournaments", "Player")
        assert PlayerAt.objects.get(pk=row["loose"]).club is None
        assert list(PlayerAt.objects.filter(club=None).values_list("name", flat=True)) == ["Loose"]


@pytest.mark.django_db(transaction=True)
def test_backwards_the_clubs_and_columns_go_and_merged_rows_stay_merged(
    before_clubs: dict[str, int],
) -> None:
    after = migrate(AFTER)
    members = after.get_model("tournaments", "Player").objects.count()
    teams = lineups(after)
    old = migrate(BEFORE)
    assert "tournaments_club" not in connection.introspection.table_names()
    assert not {"club_id", "contact"} & columns("tournaments_player")
    assert not {"club_id", "date", "place"} & columns("tournaments_tournament")
    assert old.get_model("tournaments", "Player").objects.count() == members == 14
    assert lineups(old) == teams
    # and forwards again: the same members, nothing more to merge
    again = migrate(AFTER)
    assert again.get_model("tournaments", "Player").objects.count() == members
    assert lineups(again) == teams
    assert again.get_model("tournaments", "Club").objects.count() == 2


# --- The merge rule, on any history --------------------------------------------------------


@given(plays_in=st.lists(st.frozensets(st.integers(1, 4), min_size=1, max_size=3), max_size=8))
def test_merged_rows_never_share_a_tournament_and_each_kept_row_is_the_first_that_fits(
    plays_in: list[frozenset[int]],
) -> None:
    rows = {row_id: set(tournaments) for row_id, tournaments in enumerate(plays_in, start=1)}
    merged_into = MIGRATION.first_fit(sorted(rows), rows)
    kept = [row_id for row_id in sorted(rows) if row_id not in merged_into]
    together: dict[int, list[int]] = {keeper: [keeper] for keeper in kept}
    for row_id, keeper in merged_into.items():
        assert keeper in kept and keeper < row_id  # the lowest id is the one kept
        together[keeper].append(row_id)
    for group in together.values():  # no one sits twice in a tournament
        seen = [t for row_id in group for t in rows[row_id]]
        assert len(seen) == len(set(seen))
    for row_id in kept[1:]:  # a row is kept apart only when it clashes with every earlier one
        earlier = [k for k in kept if k < row_id]
        assert all(
            {t for r in together[k] if r < row_id for t in rows[r]} & rows[row_id] for k in earlier
        )


@settings(derandomize=True, deadline=None)
@given(name=st.text(max_size=20))
def test_the_migration_compares_names_as_the_roster_does(name: str) -> None:
    assert MIGRATION.name_key(name) == clubs.name_key(name)


# --- The demo, made before clubs ------------------------------------------------------------


class DemoStrength(PBKDF2PasswordHasher):
    """The demo's password hashes as seed_demo writes them (1,000 iterations), never raised to
    full strength at a sign-in: each of the demo's logins below would otherwise hash its
    password again at a million iterations (about half a second each), which is Django's
    doing, not the migration's."""

    iterations = 1000

    def must_update(self, encoded: str) -> bool:
        return False


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # seed_demo commits, its tasks run then
def test_the_demo_migrates_and_every_match_still_verifies(
    settings: Any, monkeypatch: pytest.MonkeyPatch, back_to_the_latest: None, small_demo: None
) -> None:
    settings.DEBUG = True
    settings.PASSWORD_HASHERS = [f"{__name__}.DemoStrength"]
    call_command("seed_demo", stdout=StringIO())
    with monkeypatch.context() as patch:  # a second evening as before clubs: new rows
        patch.setattr(clubs, "members_named", lambda **_: [])
        # and the account checks of today's roster, which the rows before clubs never met
        patch.setattr(clubs, "_account_free", lambda *_, **__: None)
        call_command("seed_demo", stdout=StringIO())
    people = {
        (name.casefold(), user)
        for name, user in Player.objects.values_list("name", "user").order_by()
    }
    assert Player.objects.count() == 2 * len(people)  # each person twice
    logged = {
        player
        for payload in MatchEvent.objects.filter(kind="match_started").values_list(
            "payload", flat=True
        )
        for player in payload["players"]
    }
    migrate(BEFORE)
    migrate(None)
    # one row per person again, in the one club of the organizer's
    assert Player.objects.count() == len(people)
    assert list(Club.objects.values_list("name", flat=True)) == ["organizer's club"]
    club = Club.objects.get()
    assert not Player.objects.exclude(club=club).exists()
    assert not Tournament.objects.exclude(club=club).exists()
    assert not Team.objects.exclude(first_player__club=club).exists()
    # the logs name rows merged away (events are never rewritten) and still verify
    assert logged - set(Player.objects.values_list("pk", flat=True))
    out = StringIO()
    call_command("verify_match", "--all", stdout=out)
    # two evenings of 6 + 1 matches, a ladder round of 2, a friendly and a table each: 22
    assert out.getvalue().count(": ok (") == Match.objects.count() == 22  # else CommandError
    for player in Player.objects.select_related("user"):  # every demo login still works
        login = player.name.lower()
        assert authenticate(username=login, password=login) == player.user
