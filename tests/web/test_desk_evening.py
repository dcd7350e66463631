"""A club night from nothing on the desk: a new evening in one form, teams pasted from the
club's roster, edits and undos that ask first, drafts that explain themselves, CSV out."""

from __future__ import annotations

import csv
import io
import random
from typing import Any

import pytest
from django.test import TestCase

from competition import demo, presets
from competition.models import Fixture, Registration, Round, Stage
from tournaments.models import Club, Match, Player, Team, Tournament

from .checks import check_html
from .conftest import CommittingClient

pytestmark = pytest.mark.django_db

TEN = """Aces: Asha & Bilal
Kings\tChandra\tDev
Queens, Esha, Farid
Jacks: Gita and Hari
Tens: Indu & Javed
Nines: Kiran & Lata
Eights: Mohan & Nisha
Sevens: Om & Priya
Sixes: Qasim & Rani
Fives: Sunil & Tara"""


def evening_form(**changes: Any) -> dict[str, Any]:
    form = {
        "club": "0", "name": "Friday night", "date": "2026-12-04", "place": "Community hall",
        "published": "on", "sweep": 50, "first_sweep": 25, "last_sweep": 0, "minimum": 9,
        "bazzi_lead": 100, "max_houses": "", "preset": "swiss_knockout", "rounds": 3,
        "groups": "", "top": 4, "seeding": "manual", "mode": "score", "confirmation": "none",
        "bazzis": 1, "deal_cap": 4, "draws": "on", "points_win": 2, "points_draw": 1,
        "points_loss": 0, "points_bye": 2, "tiebreak_1": "bazzis_won", "tiebreak_2": "buchholz",
        "tiebreak_3": "running_difference", "tiebreak_4": "", "tiebreak_5": "",
    }  # fmt: skip
    form.update(changes)
    return {k: v for k, v in form.items() if v is not None}


@pytest.fixture
def organizer(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("meera")


@pytest.fixture
def desk(organizer: Any) -> CommittingClient:
    client = CommittingClient()
    client.force_login(organizer)
    return client


def make_evening(desk: CommittingClient, **changes: Any) -> Tournament:
    response = desk.post("/desk/new/", evening_form(**changes))
    assert response.status_code == 302, response.content.decode()[:2000]
    return Tournament.objects.get(slug=response["Location"].split("/")[2])


def register(desk: CommittingClient, t: Tournament, text: str) -> Any:
    return desk.post(
        f"/desk/{t.slug}/teams/many/",
        {"many-lines": text, "many-checked_in": "on", "step": "register"},
    )


def test_a_new_evening_is_one_form_and_makes_its_club_and_stages(
    desk: CommittingClient, organizer: Any
) -> None:
    assert "You direct no tournament yet" in desk.get("/desk/").content.decode()
    page = desk.get("/desk/new/").content.decode()
    assert "meera&#x27;s club (made now)" in page and "Tie-break 1" in page
    t = make_evening(desk)
    assert (t.name, t.slug, str(t.date), t.place) == (
        "Friday night", "friday-night", "2026-12-04", "Community hall"
    )  # fmt: skip
    assert t.club is not None and organizer in t.club.directors.all()
    swiss, knockout = Stage.objects.filter(tournament=t).order_by("order")
    assert (swiss.format, swiss.rounds, swiss.mode, swiss.tiebreaks) == (
        "swiss", 3, "score", ["bazzis_won", "buchholz", "running_difference"]
    )  # fmt: skip
    assert (knockout.format, knockout.entry, knockout.entry_count) == (
        "single_elimination", "top", 4
    )  # fmt: skip
    assert knockout.match_format["draws"] is False and swiss.match_format["deal_cap"] == 4
    assert "Friday night" in desk.get("/desk/").content.decode()
    # the next evening takes the same club, and a slug of its own
    again = make_evening(desk, club=str(t.club_id))
    assert again.club_id == t.club_id and again.slug == "friday-night-2"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"rounds": ""}, "Say how many Swiss rounds."),
        ({"top": ""}, "Say how many teams go through."),
        ({"tiebreak_1": "random", "tiebreak_2": "buchholz"}, "only be the last tie-break"),
        ({"tiebreak_2": "bazzis_won"}, "Each tie-break can be chosen once."),
        ({"tiebreak_1": "bazzis won"}, "Select a valid choice."),
        ({"bazzis": 0}, "greater than or equal to 1"),
        ({"minimum": 51}, "less than or equal to 50"),
        ({"name": ""}, "This field is required."),
    ],
)
def test_a_refused_evening_says_why_and_makes_nothing(
    desk: CommittingClient, changes: dict[str, Any], field: str
) -> None:
    response = desk.post("/desk/new/", evening_form(**changes))
    assert response.status_code == 422
    assert field in response.content.decode()
    assert not Tournament.objects.exists() and not Stage.objects.exists()


def test_an_evening_whose_second_stage_is_refused_makes_nothing_at_all(
    desk: CommittingClient,
) -> None:
    """The tournament, its club and its first stage are undone with the refused second."""
    from unittest import mock

    from competition.errors import InvalidSettings
    from competition.services import stages

    real = stages.stage_create
    calls = []

    def second_refused(**kwargs: Any) -> Any:
        calls.append(kwargs["name"])
        if len(calls) == 2:
            raise InvalidSettings("the knockout is refused", code="bad_entry")
        return real(**kwargs)

    with mock.patch.object(stages, "stage_create", side_effect=second_refused):
        response = desk.post("/desk/new/", evening_form())
    assert calls == ["Swiss", "Knockout"]
    assert response.status_code == 422 and "The knockout is refused." in response.content.decode()
    assert not Tournament.objects.exists() and not Stage.objects.exists()
    assert not Club.objects.exists()


def test_pasted_teams_are_previewed_then_registered_from_the_roster(
    desk: CommittingClient,
) -> None:
    t = make_evening(desk)
    preview = desk.post(f"/desk/{t.slug}/teams/many/", {"many-lines": TEN, "step": "preview"})
    assert preview.status_code == 200
    assert "Register 10 teams?" in preview.content.decode()
    assert not Team.objects.exists()  # a preview writes nothing
    assert register(desk, t, TEN).status_code == 302
    assert Team.objects.filter(tournament=t).count() == 10
    assert Player.objects.filter(club=t.club).count() == 20
    assert Registration.objects.filter(tournament=t, checked_in_at__isnull=False).count() == 10
    kings = Team.objects.get(tournament=t, name="Kings")
    assert (kings.first_player.name, kings.second_player.name) == ("Chandra", "Dev")
    # the next evening: the same people are the same members, matched as they are typed
    other = make_evening(desk, club=str(t.club_id), name="Next Friday")
    page = desk.post(
        f"/desk/{other.slug}/teams/many/", {"many-lines": "Duo: asha & BILAL", "step": "preview"}
    ).content.decode()
    assert "member #" in page and "0 new members" in page
    assert register(desk, other, "Duo: asha & BILAL").status_code == 302
    duo = Team.objects.get(tournament=other)
    assert duo.first_player_id == Team.objects.get(tournament=t, name="Aces").first_player_id
    assert Player.objects.filter(club=t.club).count() == 20


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Aces: Zed & Yan", "a team called Aces is registered already"),
        ("New: Asha & Zed", "Asha already plays for Aces"),
        ("One: Zed & Yan\nTwo: Zed & Xi", "Zed is on line 1 too"),
        ("One: Zed & Yan\none: Xi & Wu", "the team name one is on line 1 too"),
        ("Solo: Zed & Zed", "a team is two different players"),
        ("Just one name", "write a team as"),
    ],
)
def test_a_paste_with_a_problem_registers_nothing(
    desk: CommittingClient, text: str, why: str
) -> None:
    t = make_evening(desk)
    assert register(desk, t, "Aces: Asha & Bilal").status_code == 302
    before = (Team.objects.count(), Player.objects.count())
    response = register(desk, t, text)
    assert response.status_code == 422
    assert why in response.content.decode()
    assert (Team.objects.count(), Player.objects.count()) == before


def test_a_csv_file_registers_teams_and_its_header_is_no_team(desk: CommittingClient) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    t = make_evening(desk)
    upload = SimpleUploadedFile(
        "teams.csv", b"team,first,second\r\nAces,Asha,Bilal\r\nKings,Chandra,Dev\r\n"
    )
    response = desk.post(
        f"/desk/{t.slug}/teams/many/",
        {"many-file": upload, "many-checked_in": "on", "step": "register"},
    )
    assert response.status_code == 302
    assert sorted(Team.objects.values_list("name", flat=True)) == ["Aces", "Kings"]


def test_two_members_of_one_name_are_told_apart_by_id(desk: CommittingClient) -> None:
    t = make_evening(desk)
    club = t.club
    assert club is not None
    first = Player.objects.create(name="Mohan", club=club, contact="98450 00001")
    Player.objects.create(name="Mohan", club=club, contact="98450 00002")
    response = register(desk, t, "Aces: Mohan & Asha")
    assert response.status_code == 422 and "2 members are called Mohan" in response.content.decode()
    assert register(desk, t, f"Aces: Mohan #{first.pk} & Asha").status_code == 302
    assert Team.objects.get(name="Aces").first_player_id == first.pk
    options = desk.get(f"/desk/{t.slug}/").content.decode()
    assert f'value="Mohan #{first.pk}"' in options


def test_a_team_is_renamed_and_reseeded_until_the_first_stage_starts(
    desk: CommittingClient,
) -> None:
    t = make_evening(desk)
    register(desk, t, TEN)
    aces = Team.objects.get(tournament=t, name="Aces")
    url = f"/desk/{t.slug}/teams/{aces.pk}/"
    assert desk.get(url).status_code == 200
    assert desk.post(url, {"name": "Aces High", "seed": 3, "rating": 1500}).status_code == 302
    aces.refresh_from_db()
    registration = Registration.objects.get(team=aces)
    assert (aces.name, registration.seed, registration.rating) == ("Aces High", 3, 1500)
    swiss = Stage.objects.get(tournament=t, order=1)
    desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/start/")
    refused = desk.post(url, {"name": "Aces Again", "seed": 1, "rating": 1500}, follow=True)
    assert "fixed once a stage has started" in refused.content.decode()
    aces.refresh_from_db()
    registration.refresh_from_db()
    assert (aces.name, registration.seed) == ("Aces High", 3)  # all or nothing
    assert desk.post(url, {"name": "Aces Again", "seed": 3, "rating": 1500}).status_code == 302
    aces.refresh_from_db()
    assert aces.name == "Aces Again"  # a rename alone is fine at any time


def test_a_withdrawal_asks_first_and_is_undone_before_the_start(desk: CommittingClient) -> None:
    t = make_evening(desk)
    register(desk, t, TEN)
    aces = Team.objects.get(tournament=t, name="Aces")
    asked = desk.post(f"/desk/{t.slug}/teams/act/", {"withdraw": aces.pk})
    assert asked.status_code == 200 and "Withdraw Aces?" in asked.content.decode()
    assert Registration.objects.get(team=aces).withdrawn_at is None  # nothing yet
    desk.post(f"/desk/{t.slug}/teams/act/", {"withdraw": aces.pk, "confirmed": "yes"})
    assert Registration.objects.get(team=aces).withdrawn_at is not None
    assert "Undo withdrawal" in desk.get(f"/desk/{t.slug}/").content.decode()
    desk.post(f"/desk/{t.slug}/teams/act/", {"reinstate": aces.pk})
    assert Registration.objects.get(team=aces).withdrawn_at is None
    desk.post(f"/desk/{t.slug}/teams/act/", {"check_out": aces.pk})
    assert Registration.objects.get(team=aces).checked_in_at is None
    desk.post(f"/desk/{t.slug}/teams/act/", {"check_in": aces.pk})
    swiss = Stage.objects.get(tournament=t, order=1)
    desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/start/")
    refused = desk.post(f"/desk/{t.slug}/teams/act/", {"check_out": aces.pk}, follow=True)
    assert "only before the first stage starts" in refused.content.decode()
    assert Registration.objects.get(team=aces).checked_in_at is not None


def test_a_stage_is_added_edited_and_removed_while_pending(desk: CommittingClient) -> None:
    t = make_evening(desk, preset="swiss", rounds=3)
    assert desk.get(f"/desk/{t.slug}/stages/new/").status_code == 200
    form = {
        "name": "Final four", "format": "single_elimination", "entry": "top", "entry_count": 4,
        "seeding": "standings", "mode": "score", "confirmation": "none", "points_win": 2,
        "points_draw": 1, "points_loss": 0, "points_bye": 2, "bazzis": 1, "start_matches": "on",
    }  # fmt: skip
    assert desk.post(f"/desk/{t.slug}/stages/new/", form).status_code == 302
    final = Stage.objects.get(tournament=t, order=2)
    assert (final.name, final.entry_count, final.match_format["draws"]) == ("Final four", 4, False)
    edit = f"/desk/{t.slug}/stages/{final.pk}/edit/"
    assert desk.get(edit).status_code == 200
    assert desk.post(edit, {**form, "name": "Final eight", "entry_count": 8}).status_code == 302
    final.refresh_from_db()
    assert (final.name, final.entry_count) == ("Final eight", 8)
    refused = desk.post(edit, {**form, "tiebreak_1": "nonsense"})
    assert refused.status_code == 422
    final.refresh_from_db()
    assert final.name == "Final eight"
    remove = f"/desk/{t.slug}/stages/{final.pk}/remove/"
    assert "Remove Final eight?" in desk.post(remove).content.decode()
    assert Stage.objects.filter(pk=final.pk).exists()
    desk.post(remove, {"confirmed": "yes"})
    assert not Stage.objects.filter(pk=final.pk).exists()


def play_round(round_: Round, rng: random.Random) -> None:
    """Score every match of the round, its results projected as after a commit."""
    for fixture in Fixture.objects.filter(round=round_, match__isnull=False):
        assert fixture.match is not None
        with TestCase.captureOnCommitCallbacks(execute=True):
            demo.play(fixture.match, rng)


def test_the_whole_evening_runs_from_the_desk_with_drafts_that_explain_themselves(
    desk: CommittingClient,
) -> None:
    rng = random.Random(7)
    t = make_evening(desk)
    register(desk, t, TEN)
    swiss, knockout = Stage.objects.filter(tournament=t).order_by("order")
    desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/start/")
    waiting = desk.get(f"/desk/{t.slug}/").content.decode()
    assert "Start Knockout" not in waiting and "Starts when the stage before is complete" in waiting
    assert "the top 4 of the stage before" in waiting
    for number in (1, 2, 3):
        response = desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/pair/")
        assert response.status_code == 302, number
        round_ = Round.objects.get(stage=swiss, number=number)
        page = desk.get(f"/desk/{t.slug}/rounds/{round_.pk}/").content.decode()
        assert "Discard and pair again" in page
        if number > 1:
            assert " pts)" in page  # each team's place and points before the round
        if number == 2:  # discard the draft and pair again: a new draft, the same round
            desk.post(
                f"/desk/{t.slug}/rounds/{round_.pk}/discard/", {"again": "yes", "confirmed": "yes"}
            )
            assert not Round.objects.filter(pk=round_.pk).exists()
            round_ = Round.objects.get(stage=swiss, number=2)
            assert round_.status == Round.Status.DRAFT
        desk.post(f"/desk/{t.slug}/rounds/{round_.pk}/publish/")
        round_.refresh_from_db()
        assert round_.status == Round.Status.PUBLISHED
        play_round(round_, rng)
    swiss.refresh_from_db()
    assert swiss.status == Stage.Status.COMPLETE
    standings = desk.get(f"/desk/{t.slug}/stages/{swiss.pk}/standings.csv")
    rows = list(csv.reader(io.StringIO(standings.content.decode())))
    assert rows[0][:4] == ["group", "rank", "team", "points"] and len(rows) == 11
    assert "Start Knockout" in desk.get(f"/desk/{t.slug}/").content.decode()
    started = desk.post(f"/desk/{t.slug}/stages/{knockout.pk}/start/")
    first = Round.objects.filter(stage=knockout).order_by("number").first()
    assert first is not None and started["Location"].endswith(f"/rounds/{first.pk}/")
    cut = desk.get(started["Location"]).content.decode()
    assert "The cut: the top 4" in cut
    assert cut.count("<td>in</td>") == 4 and cut.count("<td>out</td>") == 6
    desk.post(f"/desk/{t.slug}/rounds/{first.pk}/publish/")
    for _ in range(3):
        for round_ in Round.objects.filter(stage=knockout, status=Round.Status.PUBLISHED):
            play_round(round_, rng)
    knockout.refresh_from_db()
    assert knockout.status == Stage.Status.COMPLETE
    pairings = desk.get(f"/desk/{t.slug}/rounds/{first.pk}/pairings.csv").content.decode()
    assert pairings.splitlines()[0] == "table,team a,players a,team b,players b,result"
    assert Match.objects.filter(tournament=t).count() == 15 + 3  # 3 rounds of 5, then 2 + 1


def test_the_pages_a_paste_and_a_question_lead_to_are_valid_html(desk: CommittingClient) -> None:
    t = make_evening(desk)
    preview = desk.post(f"/desk/{t.slug}/teams/many/", {"many-lines": TEN, "step": "preview"})
    check_html(preview.content.decode())
    refused = desk.post(
        f"/desk/{t.slug}/teams/many/", {"many-lines": "Aces: A & A\nnonsense", "step": "preview"}
    )
    assert refused.status_code == 422
    check_html(refused.content.decode())
    register(desk, t, TEN)
    aces = Team.objects.get(tournament=t, name="Aces")
    asked = desk.post(f"/desk/{t.slug}/teams/act/", {"withdraw": aces.pk})
    check_html(asked.content.decode())
    assert t.club is not None
    check_html(desk.get(f"/clubs/{t.club.slug}/members/").content.decode())
    check_html(desk.get(f"/clubs/{t.club.slug}/members/{aces.first_player_id}/").content.decode())


def test_a_members_name_is_corrected_once_for_every_evening(
    desk: CommittingClient, django_user_model: Any
) -> None:
    t = make_evening(desk)
    register(desk, t, "Aces: Asha & Bilal")
    other = make_evening(desk, club=str(t.club_id), name="Next Friday")
    register(desk, other, "Duo: Asha & Chandra")
    club = t.club
    assert club is not None
    asha = Player.objects.get(club=club, name="Asha")
    roster = desk.get(f"/clubs/{club.slug}/members/").content.decode()
    assert "Asha" in roster and "3 members" in roster
    url = f"/clubs/{club.slug}/members/{asha.pk}/"
    assert desk.post(url, {"name": "Aasha", "contact": "98450 00001"}).status_code == 302
    for tournament in (t, other):
        assert "Aasha &amp; " in desk.get(f"/desk/{tournament.slug}/").content.decode()
    refused = desk.post(url, {"name": "   ", "contact": ""})
    assert refused.status_code == 422
    asha.refresh_from_db()
    assert (asha.name, asha.contact) == ("Aasha", "98450 00001")
    added = desk.post(f"/clubs/{club.slug}/members/new/", {"name": "Dev", "contact": ""})
    assert added.status_code == 302 and Player.objects.filter(club=club, name="Dev").exists()
    # only the club's directors find its roster
    outsider = CommittingClient()
    outsider.force_login(django_user_model.objects.create_user("outsider"))
    for page in (f"/clubs/{club.slug}/members/", url):
        assert outsider.get(page).status_code == 404
    assert outsider.post(url, {"name": "Hacked"}).status_code == 404
    asha.refresh_from_db()
    assert asha.name == "Aasha"


def test_a_stage_the_services_refuse_on_the_desk_says_why_and_changes_nothing(
    desk: CommittingClient,
) -> None:
    """A top K larger than the field: the service's refusal, in words, nothing saved."""
    t = make_evening(desk, preset="swiss", rounds=3)
    register(desk, t, TEN)
    form = {
        "name": "Final", "format": "single_elimination", "entry": "top", "entry_count": 12,
        "seeding": "standings", "mode": "score", "confirmation": "none", "points_win": 2,
        "points_draw": 1, "points_loss": 0, "points_bye": 2, "bazzis": 1,
    }  # fmt: skip
    response = desk.post(f"/desk/{t.slug}/stages/new/", form)
    assert response.status_code == 422
    page = check_html(response.content.decode())
    on_field = page.find(".//input[@name='entry_count']/../ul[@class='errorlist']/li")
    assert on_field is not None and "the top 12" in on_field.text
    assert Stage.objects.filter(tournament=t).count() == 1


def test_a_swiss_of_more_rounds_than_its_field_allows_is_refused_on_its_field(
    desk: CommittingClient,
) -> None:
    t = make_evening(desk, preset="swiss", rounds=3)
    form = {
        "name": "Second Swiss", "format": "swiss", "rounds": 4, "entry": "top",
        "entry_count": 4, "seeding": "standings", "mode": "score", "confirmation": "none",
        "points_win": 2, "points_draw": 1, "points_loss": 0, "points_bye": 2, "bazzis": 1,
    }  # fmt: skip
    response = desk.post(f"/desk/{t.slug}/stages/new/", form)
    assert response.status_code == 422
    page = check_html(response.content.decode())
    on_field = page.find(".//input[@name='rounds']/../ul[@class='errorlist']/li")
    assert on_field is not None and "at most 3 rounds" in on_field.text
    assert Stage.objects.filter(tournament=t).count() == 1


def test_members_contacts_are_shown_only_to_the_clubs_directors(
    desk: CommittingClient, django_user_model: Any
) -> None:
    t = make_evening(desk)
    assert t.club is not None
    Player.objects.create(name="Priya", club=t.club, contact="priya@example.org")
    paste = {"many-lines": "Q: Priya & Zed", "step": "preview"}
    assert "priya@example.org" in desk.post(f"/desk/{t.slug}/teams/many/", paste).content.decode()
    helper = django_user_model.objects.create_user("helper")  # directs the evening, not the club
    t.directors.add(helper)
    client = CommittingClient()
    client.force_login(helper)
    page = client.post(f"/desk/{t.slug}/teams/many/", paste).content.decode()
    assert "Priya" in page and "member #" in page and "priya@example.org" not in page


@pytest.mark.parametrize(
    ("line", "first"),
    [("Par: Dev (junior) & Kiran", "Dev (junior)"), ("Par: Ravi (Sr) & Kiran", "Ravi (Sr)"),
     ("Par: Table #4 & Kiran", "Table #4")],
)  # fmt: skip
def test_a_name_that_ends_like_a_label_is_a_name_first(
    desk: CommittingClient, line: str, first: str
) -> None:
    t = make_evening(desk)
    assert t.club is not None
    junior = Player.objects.create(name="Dev (junior)", club=t.club)
    assert register(desk, t, line).status_code == 302
    team = Team.objects.get(tournament=t, name="Par")
    assert team.first_player.name == first
    assert (team.first_player_id == junior.pk) == (first == "Dev (junior)")


@pytest.mark.parametrize("name", ["A\x07", "Ali\x00ce", "\x1b[31mRed"])
def test_a_name_with_a_control_character_is_refused_and_nothing_is_written(
    desk: CommittingClient, name: str
) -> None:
    t = make_evening(desk)
    before = (Team.objects.count(), Player.objects.count())
    response = register(desk, t, f"Z6: {name} & Bob")
    assert response.status_code == 422
    page = response.content.decode()
    assert "holds no control characters" in page or "Null characters are not allowed" in page
    assert (Team.objects.count(), Player.objects.count()) == before


def test_a_draft_discarded_meanwhile_is_refused_in_words_not_a_500(
    desk: CommittingClient, organizer: Any
) -> None:
    from competition import services
    from competition.errors import NotNow

    t = make_evening(desk, preset="swiss", rounds=3)
    register(desk, t, TEN)
    swiss = Stage.objects.get(tournament=t)
    desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/start/")
    desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/pair/")
    draft = Round.objects.get(stage=swiss)
    stale = Round.objects.get(pk=draft.pk)  # what a second director's page holds
    services.round_discard(actor=organizer, round=draft)
    with pytest.raises(NotNow) as refused:
        services.round_publish(actor=organizer, round=stale)
    assert refused.value.code == "gone"
    with pytest.raises(NotNow):
        services.round_edit(actor=organizer, round=stale, swap_tables=(1, 2))
    assert not Match.objects.filter(tournament=t).exists()


def test_a_tournament_cannot_take_the_address_of_a_desk_page(desk: CommittingClient) -> None:
    from competition import services
    from competition.errors import InvalidSettings

    t = make_evening(desk, name="New")
    assert t.slug == "new-2"
    with pytest.raises(InvalidSettings) as refused:
        services.tournament_update(actor=t.organizer, tournament=t, slug="new")
    assert "slug" in refused.value.fields
    t.refresh_from_db()
    assert t.slug == "new-2"


def test_a_round_is_unpublished_from_the_desk_after_a_question_while_nothing_is_recorded(
    desk: CommittingClient,
) -> None:
    t = make_evening(desk)
    register(desk, t, TEN)
    swiss = Stage.objects.filter(tournament=t).order_by("order", "pk").first()
    assert swiss is not None
    desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/start/")
    desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/pair/")
    round_ = Round.objects.get(stage=swiss)
    desk.post(f"/desk/{t.slug}/rounds/{round_.pk}/publish/")
    matches = list(Match.objects.filter(tournament=t))
    assert len(matches) == 5

    page = desk.get(f"/desk/{t.slug}/rounds/{round_.pk}/")
    assert "Unpublish round 1" in page.content.decode()
    asked = desk.post(f"/desk/{t.slug}/rounds/{round_.pk}/unpublish/")
    assert asked.status_code == 200 and "called off" in asked.content.decode()
    check_html(asked.content.decode())
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED  # asked, not done

    done = desk.post(
        f"/desk/{t.slug}/rounds/{round_.pk}/unpublish/", {"confirmed": "yes"}, follow=True
    )
    assert "is a draft again" in done.content.decode()
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT
    assert {m.status for m in Match.objects.filter(pk__in=[m.pk for m in matches])} == {
        Match.Status.CALLED_OFF
    }
    # the draft is discarded and paired again, then published: new matches
    desk.post(f"/desk/{t.slug}/rounds/{round_.pk}/discard/", {"again": "yes", "confirmed": "yes"})
    again = Round.objects.get(stage=swiss)
    desk.post(f"/desk/{t.slug}/rounds/{again.pk}/publish/")
    fresh = Match.objects.filter(tournament=t).exclude(pk__in=[m.pk for m in matches])
    assert fresh.count() == 5

    # once a deal is entered the button is gone and a stale form is refused in words
    with TestCase.captureOnCommitCallbacks(execute=True):
        demo.play(fresh.first(), random.Random(5), moves=1)
    page = desk.get(f"/desk/{t.slug}/rounds/{again.pk}/")
    assert "Unpublish" not in page.content.decode()
    refused = desk.post(
        f"/desk/{t.slug}/rounds/{again.pk}/unpublish/", {"confirmed": "yes"}, follow=True
    )
    assert refused.status_code == 200
    assert "something was recorded in this match" in refused.content.decode()
    again.refresh_from_db()
    assert again.status == Round.Status.PUBLISHED


def test_another_clubs_director_cannot_unpublish(
    desk: CommittingClient, django_user_model: Any
) -> None:
    t = make_evening(desk)
    register(desk, t, TEN)
    swiss = Stage.objects.filter(tournament=t).order_by("order", "pk").first()
    assert swiss is not None
    desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/start/")
    desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/pair/")
    round_ = Round.objects.get(stage=swiss)
    desk.post(f"/desk/{t.slug}/rounds/{round_.pk}/publish/")
    other = CommittingClient()
    other.force_login(django_user_model.objects.create_user("rival"))
    answer = other.post(f"/desk/{t.slug}/rounds/{round_.pk}/unpublish/", {"confirmed": "yes"})
    assert answer.status_code == 404
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED


def test_a_clubs_pages_show_its_time_zone_and_the_next_request_the_default(
    desk: CommittingClient,
) -> None:
    t = make_evening(desk)
    assert t.club is not None
    Club.objects.filter(pk=t.club_id).update(time_zone="Asia/Kolkata")
    for path in (f"/desk/{t.slug}/", f"/t/{t.slug}/"):
        page = desk.get(path).content.decode()
        assert "Times are in the time zone Asia/Kolkata, the club's." in page, path
    home = desk.get("/desk/").content.decode()
    assert "Times are in the time zone UTC." in home  # one club's zone leaks into no other page
    register(desk, t, TEN)
    swiss = Stage.objects.filter(tournament=t).order_by("order", "pk").first()
    assert swiss is not None
    desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/start/")
    desk.post(f"/desk/{t.slug}/stages/{swiss.pk}/pair/")
    round_ = Round.objects.get(stage=swiss)
    desk.post(f"/desk/{t.slug}/rounds/{round_.pk}/publish/")
    match = Match.objects.filter(tournament=t).first()
    assert match is not None
    assert "time zone Asia/Kolkata" in desk.get(f"/m/{match.pk}/").content.decode()
    assert "time zone Asia/Kolkata" in desk.get(f"/keep/{match.pk}/").content.decode()


@pytest.mark.parametrize(
    ("preset", "expected"),
    [("swiss_knockout", presets.SWISS_TIEBREAKS), ("round_robin", presets.ROUND_ROBIN_TIEBREAKS)],
)
def test_a_new_evening_without_tiebreaks_takes_its_shapes_own(
    desk: CommittingClient, preset: str, expected: tuple[str, ...]
) -> None:
    empty = {f"tiebreak_{n}": "" for n in range(1, 6)}
    t = make_evening(desk, preset=preset, **empty)
    league = Stage.objects.get(tournament=t, order=1)
    assert league.tiebreaks == list(expected)
    assert (
        "Leave them all empty for the shape&#x27;s own" in desk.get("/desk/new/").content.decode()
    )
