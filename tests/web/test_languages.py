"""The pages in Hindi, Punjabi, Urdu and Bengali (docs/languages.md): which language a request
gets (the switch's cookie, the browser's Accept-Language, a team link's language, the club's),
``<html lang dir>``, the API's problems in the caller's language, the catalogs complete for
every word the code marks, and the phone pages free of English outside names and numbers."""

from __future__ import annotations

import ast
import html
import re
from collections.abc import Callable
from datetime import date, timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import polib
import pytest
from django.conf import settings
from django.utils.translation.template import templatize

from competition import services as competition
from competition.models import Registration, Round, Stage
from seasons.models import ClubSeasons, Season
from tests.competition.test_cut_ties import tied_cut
from tournaments import links
from tournaments.models import Club as ClubRow
from tournaments.models import Match, Player, Team, Tournament
from tournaments.services import match_create
from web import catalogs

from .conftest import Club, CommittingClient, make_club
from .test_one_phone import by_code, table
from .test_team_links import command, desk, enter, link_of, published_evening
from .test_team_links import phone as team_phone

__all__ = ["desk"]  # the fixture, used by name

ROOT = Path(settings.BASE_DIR)
LANGUAGES = ["hi", "pa", "ur", "bn"]
#: the templates marked for translation so far (docs/languages.md lists the others)
MARKED_TEMPLATES = [
    "400.html",
    "403.html",
    "403_csrf.html",
    "404.html",
    "web/login.html",
    "mfa/webauthn/snippets/scripts.html",
    "web/home.html",
    "base.html",
    "phone.html",
    "keep.html",
    "_keep_status.html",
    "_deals_so_far.html",
    "_keep_dispute.html",
    "seat.html",
    "_seat_live.html",
    "_seat_released.html",
    "seat_choose.html",
    "keep_index.html",
    "_match_links.html",
    "_team_card.html",
    "_form_errors.html",
    "link_stopped.html",
    "record.html",
    "_keep_code.html",
    "_team_card_code.html",
    "_board_phones.html",
    "_phone_state.html",
    "_app_head.html",
    "_share.html",
    "tournament.html",
    "_live.html",
    "_standings.html",
    "_bracket_slot.html",
    "match.html",
    "_match_live.html",
    "print.html",
    "_print.html",
    "_bracket_results.html",
    "club_page.html",
    "member_page.html",
    "_board.html",
    "wall.html",
    "_wall.html",
    "api/account_tokens.html",
    "api/desk_webhooks.html",
    "_deal_fields.html",
    "desk_team.html",
    "desk_team_link.html",
    "desk_cards.html",
    "desk_board.html",
    "desk_club.html",
    "desk_member.html",
    "desk_invite.html",
    "desk_seasons.html",
    "member_erase.html",
    "password_change.html",
    "password_changed.html",
    "invite.html",
    "invite_closed.html",
    "_field.html",
    "_fields.html",
    # the desk's evening: its home, a new evening, the tournament's desk, a stage, a round,
    # a match's review and correction, the cut, the confirmation step, teams in bulk
    "desk_home.html",
    "desk_new.html",
    "desk.html",
    "desk_stage.html",
    "_desk_match_fields.html",
    "desk_round.html",
    "desk_match.html",
    "_correction.html",
    "_cut.html",
    "desk_cut.html",
    "desk_confirm.html",
    "desk_teams_preview.html",
    "_table_card.html",
    "table_phone.html",
]
#: the Python modules whose words are marked (the phone pages', the words, the problems, the
#: services' refusals)
MARKED_MODULES = [
    "web/words.py",
    "web/moves.py",
    "web/seat.py",
    "web/announce.py",
    "web/commands.py",
    "web/forms.py",
    "web/views/keeper.py",
    "web/views/seat.py",
    "web/desk_forms.py",
    "web/board.py",
    "web/recorder.py",
    "web/views/recorder.py",
    "api/problems.py",
    "web/views/offline.py",
    "web/share.py",
    "web/charts.py",
    "web/pages.py",
    "web/wall.py",
    "api/account.py",
    "api/desk.py",
    "web/views/desk/teams.py",
    "web/views/desk/links.py",
    "web/views/desk/board.py",
    "web/views/desk/clubs.py",
    "web/views/desk/seasons.py",
    "web/views/desk/_common.py",
    "web/views/invites.py",
    "web/views/privacy.py",
    "web/views/table.py",
    # the refusals the services raise, and the model checks they pass on (docs/languages.md)
    "competition/services/_common.py",
    "competition/services/cut_decisions.py",
    "competition/services/evenings.py",
    "competition/services/registration.py",
    "competition/services/roster.py",
    "competition/services/rounds.py",
    "competition/services/stage_settings.py",
    "competition/services/stages.py",
    "competition/services/withdrawals.py",
    "competition/corrections.py",
    "competition/models/stages.py",
    "seasons/services/seasons.py",
    "seasons/services/seeding.py",
    "seasons/models.py",
    "tournaments/services.py",
    "tournaments/clubs.py",
    "tournaments/seats.py",
    "tournaments/links.py",
    "tournaments/invites.py",
    "tournaments/privacy.py",
    "tournaments/models.py",
    "web/desk_words.py",
    "web/views/desk/home.py",
    "web/views/desk/tournament.py",
    "web/views/desk/stages.py",
    "web/views/desk/rounds.py",
    "web/views/desk/matches.py",
]
#: a placeholder (printf's, or a script's {name}) or an HTML tag: a translation keeps exactly
#: the ones its source has
KEPT = re.compile(r"%\(\w+\)s|<[^>]+>|\{\w+\}")

# --- the catalogs ----------------------------------------------------------------------------


def _marked_in_templates() -> set[tuple[str | None, str]]:
    """Every (context, msgid) the marked templates ask for, read as makemessages reads them."""
    quoted = r"""u(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""  # either quote: "club's"
    call = re.compile(rf"\b(n?p?gettext)\(((?:{quoted}(?:, )?)+)")
    text = re.compile(quoted)
    found: set[tuple[str | None, str]] = set()
    for name in MARKED_TEMPLATES:
        folder = ROOT / "web/templates" / ("" if name[0].isdigit() or "/" in name else "web")
        if name.startswith("api/"):  # the API app's own pages
            folder = ROOT / "api/templates"
        source = (folder / name).read_text()
        for kind, args in call.findall(templatize(source)):
            values = [ast.literal_eval(t) for t in text.findall(args)]
            context = values.pop(0) if kind.endswith("pgettext") else None
            found.add((context, values[0]))
    return found


_GETTEXT = {"_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy"}
_PGETTEXT = {"pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"}


def _marked_in_modules() -> set[tuple[str | None, str]]:
    """Every (context, msgid) the marked Python modules pass to gettext and its kin."""
    found: set[tuple[str | None, str]] = set()
    for name in MARKED_MODULES:
        for node in ast.walk(ast.parse((ROOT / name).read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            args = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if node.func.id in _GETTEXT and args:
                found.add((None, args[0]))
            elif node.func.id in _PGETTEXT and len(args) >= 2:
                found.add((args[0], args[1]))
    return found


def test_the_scan_of_the_code_finds_the_marked_words() -> None:
    """(the two readers below must find something, or the next test proves nothing)"""
    assert (None, "Keep score") in _marked_in_templates()
    assert ("card", "Ace of %(suit)s") in _marked_in_modules()
    assert (None, "no such resource") in _marked_in_modules()


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_every_word_the_code_marks_is_translated_in_each_catalog(language: str) -> None:
    po = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    translated = {(e.msgctxt, e.msgid) for e in po.translated_entries()}
    missing = (_marked_in_templates() | _marked_in_modules()) - translated
    assert not missing, f"not translated in {language}: {sorted(missing, key=str)[:10]}"


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_each_catalog_is_complete_unfuzzy_and_keeps_placeholders_and_tags(language: str) -> None:
    po = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    assert len(po) > 250
    for entry in po:
        assert not entry.obsolete and "fuzzy" not in entry.flags, entry.msgid
        if entry.msgid_plural:
            forms = list(entry.msgstr_plural.values())
            sources = [entry.msgid] + [entry.msgid_plural] * (len(forms) - 1)
        else:
            forms, sources = [entry.msgstr], [entry.msgid]
        for source, form in zip(sources, forms, strict=True):
            assert form, f"{language}: no translation of {entry.msgid!r}"
            assert sorted(KEPT.findall(form)) == sorted(KEPT.findall(source)), (language, form)
    assert po.metadata["Plural-Forms"].startswith("nplurals=2;")


def test_the_compiled_catalogs_say_what_their_sources_say() -> None:
    for catalog in catalogs.catalogs():
        compiled = catalogs.compiled_messages(catalog.mo)
        assert compiled == catalogs.source_messages(catalog.po), catalog.language
        assert len(compiled) > 250


# --- which language a request gets -----------------------------------------------------------


def _html_tag(page: str) -> tuple[str, str]:
    found = re.search(r'<html lang="([^"]+)" dir="([^"]+)"', page)
    assert found is not None, page[:300]
    return found.group(1), found.group(2)


@pytest.fixture
def evening(db: None, django_capture_on_commit_callbacks: Any) -> Club:
    """A club evening whose teams' and players' names are no English words (so a page's
    English shows in the scan below), and whose tournament belongs to a club."""
    with django_capture_on_commit_callbacks(execute=True):
        club = make_club(teams=["Sher", "Baaz", "Chakor", "Hiran"])
    row = ClubRow.objects.create(name="Jalandhar Seep", slug="jalandhar-seep")
    club.tournament.club = row
    club.tournament.name = "Basant Mela"
    club.tournament.save(update_fields=["club", "name"])
    Player.objects.filter(pk__in=_player_ids(club)).update(club=row)
    return club


def _player_ids(club: Club) -> list[int]:
    teams = Team.objects.filter(tournament=club.tournament)
    return [pk for t in teams for pk in (t.first_player_id, t.second_player_id)]


def test_english_when_nothing_asks_for_another_language(evening: Club) -> None:
    page = CommittingClient().get("/").content.decode()
    assert _html_tag(page) == ("en", "ltr") and "Keep score" in page


def test_the_browsers_accept_language_is_honoured(evening: Club) -> None:
    answer = CommittingClient().get("/", headers={"accept-language": "hi-IN, bn;q=0.8"})
    page = answer.content.decode()
    assert _html_tag(page) == ("hi", "ltr")
    assert "स्कोर रखें" in page and "Keep score" not in page
    assert answer["Content-Language"] == "hi"
    # the first language of ours it asks for, whatever comes before it
    page = CommittingClient().get("/", headers={"accept-language": "fr, bn"}).content
    assert _html_tag(page.decode()) == ("bn", "ltr")


def test_urdu_pages_are_written_right_to_left(evening: Club) -> None:
    page = CommittingClient().get("/", headers={"accept-language": "ur"}).content.decode()
    assert _html_tag(page) == ("ur", "rtl")
    assert "اسکور رکھیں" in page


def test_the_switchs_cookie_wins_over_the_header(evening: Club) -> None:
    phone = CommittingClient()
    answer = phone.post("/language/", {"language": "pa", "next": "/login/"})
    assert answer.status_code == 302 and answer["Location"] == "/login/"
    assert phone.cookies[settings.LANGUAGE_COOKIE_NAME].value == "pa"
    page = phone.get("/", headers={"accept-language": "hi"}).content.decode()
    assert _html_tag(page) == ("pa", "ltr") and "ਸਕੋਰ ਰੱਖੋ" in page


def test_the_switch_is_on_every_page_as_a_form_with_its_csrf_token(evening: Club) -> None:
    for path in ("/", f"/t/{evening.tournament.slug}/", "/login/", f"/m/{evening.digital.pk}/"):
        page = CommittingClient().get(path).content.decode()
        form = re.search(r'<form class="language" method="post" action="/language/">(.*?)</form>',
                         page, re.S)  # fmt: skip
        assert form is not None, path
        assert 'name="csrfmiddlewaretoken"' in form.group(1)
        for code, _name in settings.LANGUAGES:
            assert f'<option value="{code}"' in form.group(1)


def test_a_language_we_do_not_have_changes_nothing(evening: Club) -> None:
    phone = CommittingClient()
    phone.post("/language/", {"language": "fr", "next": "/"})
    page = phone.get("/", headers={"accept-language": "ur"}).content.decode()
    assert _html_tag(page) == ("ur", "rtl")  # as if it had chosen nothing


def _link(club: Club, team: Team) -> str:
    _link_row, key = links.team_link(actor=club.users["director"], team=team)
    return f"/l/{key}/"


def test_a_team_link_with_a_punjabi_language_opens_in_punjabi(evening: Club) -> None:
    team = evening.matches[0].team0
    Team.objects.filter(pk=team.pk).update(language="pa")
    phone = CommittingClient()
    opened = phone.get(_link(evening, team), headers={"accept-language": "en"})
    assert opened.status_code == 302
    page = phone.get("/keep/", headers={"accept-language": "en"}).content.decode()
    assert _html_tag(page) == ("pa", "ltr") and "ਸਕੋਰ ਰੱਖੋ" in page
    # until its person switches
    phone.post("/language/", {"language": "en", "next": "/keep/"})
    assert _html_tag(phone.get("/keep/").content.decode()) == ("en", "ltr")
    # and a phone that had chosen a language keeps it when it opens the link
    chosen = CommittingClient()
    chosen.post("/language/", {"language": "bn", "next": "/"})
    chosen.get(_link(evening, team))
    assert _html_tag(chosen.get("/keep/").content.decode()) == ("bn", "ltr")


def test_a_team_of_no_language_of_its_own_gets_its_clubs(evening: Club) -> None:
    ClubRow.objects.filter(pk=evening.tournament.club_id).update(language="ur")
    phone = CommittingClient()
    phone.get(_link(evening, evening.matches[0].team1))
    assert _html_tag(phone.get("/keep/").content.decode()) == ("ur", "rtl")


def test_a_clubs_page_is_in_its_language_when_the_browser_asks_for_none_of_ours(
    evening: Club,
) -> None:
    ClubRow.objects.filter(pk=evening.tournament.club_id).update(language="bn")
    path = f"/t/{evening.tournament.slug}/"
    assert _html_tag(CommittingClient().get(path).content.decode()) == ("bn", "ltr")
    asked_french = CommittingClient().get(path, headers={"accept-language": "fr"}).content
    assert _html_tag(asked_french.decode()) == ("bn", "ltr")
    # a browser that asks for one of ours gets it, English too
    for asked in ("hi", "en"):
        page = CommittingClient().get(path, headers={"accept-language": asked}).content
        assert _html_tag(page.decode()) == (asked, "ltr")
    # a page about no club stays in English
    assert _html_tag(CommittingClient().get("/").content.decode()) == ("en", "ltr")


def test_a_club_language_we_do_not_have_is_refused_by_the_api(evening: Club) -> None:
    from rest_framework.test import APIClient

    api = APIClient()
    row = ClubRow.objects.get(pk=evening.tournament.club_id)
    row.directors.add(evening.users["director"])
    api.force_authenticate(evening.users["director"])
    refused = api.patch(f"/api/v1/clubs/{row.pk}/", {"language": "fr"}, format="json")
    assert refused.status_code == 400 and "language" in refused.json()["errors"]
    saved = api.patch(f"/api/v1/clubs/{row.pk}/", {"language": "ur"}, format="json")
    assert saved.status_code == 200 and saved.json()["language"] == "ur"
    assert ClubRow.objects.get(pk=row.pk).language == "ur"


def test_the_desk_sets_a_teams_language_and_its_card_is_printed_in_it(evening: Club) -> None:
    team = evening.matches[0].team0
    desk = evening.client("director")
    slug = evening.tournament.slug
    form = desk.get(f"/desk/{slug}/teams/{team.pk}/").content.decode()
    assert 'name="language"' in form
    registration = Registration.objects.get(team=team)
    fields = {
        "name": team.name,
        "seed": registration.seed or "",
        "rating": registration.rating or "",
    }
    saved = desk.post(f"/desk/{slug}/teams/{team.pk}/", {**fields, "language": "hi"})
    assert saved.status_code == 302
    assert Team.objects.get(pk=team.pk).language == "hi"
    card = desk.get(f"/desk/{slug}/teams/{team.pk}/link/").content.decode()
    assert '<section class="team-card" lang="hi" dir="ltr"' in card
    assert "अपनी टीम के नतीजे दर्ज करने" in card  # the card's words, on an English page
    refused = desk.post(f"/desk/{slug}/teams/{team.pk}/", {**fields, "language": "fr"})
    assert refused.status_code != 302 and Team.objects.get(pk=team.pk).language == "hi"


# --- the API -----------------------------------------------------------------------------------


def test_a_problems_detail_is_in_hindi_for_accept_language_hi_and_its_code_unchanged(
    evening: Club,
) -> None:
    from rest_framework.test import APIClient

    english = APIClient().get("/api/v1/matches/999999/").json()
    hindi = APIClient().get("/api/v1/matches/999999/", headers={"accept-language": "hi"}).json()
    assert english["code"] == hindi["code"] == "not_found"
    assert english["type"] == hindi["type"]
    assert english["detail"] == "no such resource (or not one you may see)"
    assert hindi["detail"] == "ऐसा कुछ नहीं है (या आप उसे नहीं देख सकते)"
    assert hindi["title"] == "नहीं मिला" and english["title"] == "Not Found"
    unknown = APIClient().get("/api/v1/nothing-here/", headers={"accept-language": "ur"}).json()
    assert unknown["code"] == "not_found" and unknown["detail"] == "ایسی کوئی چیز نہیں"


# --- the services' refusals, in the request's language ----------------------------------------


def _desk(club: Club, language: str) -> Any:
    """The director's desk on a browser whose person chose ``language`` with the switch."""
    desk = club.client("director")
    desk.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return desk


def test_a_services_refusal_is_shown_on_the_desk_in_hindi(evening: Club) -> None:
    """Publishing a round twice: the desk shows the competition's refusal in Hindi."""
    path = f"/desk/{evening.tournament.slug}/rounds/{evening.round.pk}/publish/"
    page = _desk(evening, "hi").post(path, follow=True).content.decode()
    assert _html_tag(page)[0] == "hi"
    assert "राउंड पहले ही जारी हो चुका है" in page
    assert "published already" not in page
    english = _desk(evening, "en").post(path, follow=True).content.decode()
    assert "The round is published already." in english  # word for word as it always was


#: a second stage of the evening's four teams: a Swiss of four rounds among the top four
_TOO_MANY_ROUNDS = {
    "name": "Dusra", "format": "swiss", "rounds": 4, "entry": "top", "entry_count": 4,
    "seeding": "standings", "mode": "score", "confirmation": "none", "points_win": 2,
    "points_draw": 1, "points_loss": 0, "points_bye": 2, "bazzis": 1,
}  # fmt: skip


def test_a_bad_stage_setting_is_refused_on_the_desk_in_hindi(evening: Club) -> None:
    """The settings' check (a service's, with figures in it): in Hindi above the form and on
    the field it names, nothing saved; the same in English as it always was."""
    path = f"/desk/{evening.tournament.slug}/stages/new/"
    answer = _desk(evening, "hi").post(path, _TOO_MANY_ROUNDS)
    assert answer.status_code == 422
    page = html.unescape(answer.content.decode())
    hindi = (
        "4 स्विस राउंड के लिए कम से कम 5 टीमें चाहिए (हर टीम दूसरी से ज़्यादा से ज़्यादा एक "
        "बार मिलती है), और 4 आ रही हैं: ज़्यादा से ज़्यादा 3 राउंड"
    )
    assert hindi in page  # above the form, in its summary, and on the rounds field
    assert "Swiss rounds need" not in page
    english = html.unescape(_desk(evening, "en").post(path, _TOO_MANY_ROUNDS).content.decode())
    assert "4 Swiss rounds need at least 5 teams (each meets another at most once), and 4 " \
        "enter: at most 3 rounds" in english  # fmt: skip
    assert evening.tournament.stages.count() == 1


def test_a_competition_refusals_detail_is_in_urdu_and_its_code_unchanged(
    evening: Club,
) -> None:
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(evening.users["director"])
    path = f"/api/v1/rounds/{evening.round.pk}/publish/"
    urdu = api.post(path, headers={"accept-language": "ur"})
    english = api.post(path, headers={"accept-language": "en"})
    assert urdu.status_code == english.status_code == 409
    assert urdu["Content-Type"] == english["Content-Type"] == "application/problem+json"
    assert urdu.json()["code"] == english.json()["code"] == "round_published"
    assert urdu.json()["type"] == english.json()["type"]
    assert english.json()["detail"] == "the round is published already"
    assert urdu.json()["detail"] == "راؤنڈ پہلے ہی جاری ہو چکا ہے"


def test_a_refusals_message_stays_a_plain_string_in_the_language_it_was_raised_in(
    evening: Club,
) -> None:
    """``message`` is a ``str`` (code compares and logs it), said when the refusal is raised."""
    from django.utils import translation

    from competition import services as competition
    from competition.errors import NotNow

    director = evening.users["director"]
    for language, words in (("pa", "ਰਾਊਂਡ ਪਹਿਲਾਂ ਹੀ ਜਾਰੀ ਹੋ ਚੁੱਕਾ ਹੈ"), ("en", "the round is "
                            "published already")):  # fmt: skip
        with translation.override(language), pytest.raises(NotNow) as refused:
            competition.round_publish(actor=director, round=evening.round)
        assert type(refused.value.message) is str
        assert refused.value.message == str(refused.value) == words
        assert refused.value.code == "round_published"


def test_every_refusals_title_is_marked_for_translation() -> None:
    from api import problems
    from competition import refusals

    for refusal in refusals.REFUSALS:
        assert refusal.words in problems.TITLES, refusal.words


# --- no English left on the phone pages ------------------------------------------------------


class _Visible(HTMLParser):
    """The text a person sees or hears on a page: its text (not scripts or styles), and the
    attributes a screen reader says."""

    SAID = ("aria-label", "data-announce", "title", "placeholder", "alt")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        if tag == "option":  # the switch names each language in itself: English is English
            self._skip += 1
        self.parts.extend(v for k, v in attrs if k in self.SAID and v)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "option"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def _english_words() -> set[str]:
    """The words of the English catalog, as a page would show them (placeholders and tags
    left out), three letters or more."""
    words: set[str] = set()
    for entry in polib.pofile(str(ROOT / "locale/en/LC_MESSAGES/django.po")):
        for text in (entry.msgid, entry.msgid_plural or ""):
            plain = KEPT.sub(" ", text)
            words |= {w.lower() for w in re.findall(r"[A-Za-z]{3,}", plain)}
    return words


def _names(club: Club) -> set[str]:
    """The words of every name the evening has (teams, players, the tournament, the club,
    its stage, accounts): a page shows them as they are, in any language."""
    texts = [club.tournament.name, "Jalandhar Seep", club.stage.name]
    texts += list(Team.objects.filter(tournament=club.tournament).values_list("name", flat=True))
    texts += list(Player.objects.filter(pk__in=_player_ids(club)).values_list("name", flat=True))
    texts += [u for u in club.users if u not in ("director", "scorekeeper", "outsider")]
    return {w.lower() for t in texts for w in re.findall(r"[A-Za-z]+", t)}


#: words a translated page keeps: the brand, the API's own name, the name of the account
#: signed in on the recorder's phone ("Sign out scorekeeper", in its language), and the keys
#: of a keyboard as they are printed on it (the card grid's help: Home, End, Space, Enter),
#: and the names of file formats (the tournament page's "Results as CSV", a club's ".ics")
KEPT_WORDS = {"seep", "api", "scorekeeper", "home", "end", "space", "enter", "csv", "ics"}


def _english_left(page: str, allowed: set[str]) -> list[str]:
    reader = _Visible()
    reader.feed(page)
    english = _english_words()
    # an address is no words: a link's random key once read "WhEn" on a Bengali card
    shown = re.sub(r"https?://\S+|/(?:l|tc)/[\w.-]+/?", " ", " ".join(reader.parts))
    seen = re.findall(r"[A-Za-z]{3,}", shown)
    return sorted({w for w in seen if w.lower() in english and w.lower() not in allowed})


def _phone(language: str) -> CommittingClient:
    """A phone whose person chose ``language`` with the switch."""
    phone = CommittingClient()
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return phone


def _phone_pages(club: Club, language: str) -> list[tuple[str, CommittingClient, str]]:
    """The phone pages of an evening, each as (name, the phone, its address), on phones in
    ``language``: the team link's list, a score match's entry form, its confirmation, the
    seat choice, the seat page, and the recorder's page before the start and at the bid."""
    score = club.matches[0]
    entering = _phone(language)
    entering.get(_link(club, score.team0))
    answering = _phone(language)
    answering.get(_link(club, score.team1))
    entering.post(
        f"/keep/{score.pk}/enter/",
        {"expected_seq": Match.objects.get(pk=score.pk).last_seq, "client_id": "deal-one-entry",
         "points_a": "60", "points_b": "40", "sweeps_a": "1", "sweeps_b": "0"},
    )  # fmt: skip
    digital = club.digital
    choosing = _phone(language)
    choosing.get(_link(club, digital.team0))
    seated = _phone(language)
    seated.get(_link(club, digital.team1))
    seated.post(f"/play/{digital.pk}/seat/", {"seat": "1"})
    table = match_create(
        tournament=club.tournament, team0=score.team0, team1=score.team1, mode="table"
    )
    table.scorekeepers.add(club.users["scorekeeper"])
    waiting = match_create(
        tournament=club.tournament, team0=score.team0, team1=score.team1, mode="table"
    )
    waiting.scorekeepers.add(club.users["scorekeeper"])
    recording = _phone(language)
    recording.force_login(club.users["scorekeeper"])
    recording.post(
        f"/record/{table.pk}/start/",
        {"expected_seq": 0, "client_id": "start-the-table-match", "first_dealer": "0"},
    )
    return [
        ("keep-index", entering, "/keep/"),
        ("keep-entered", entering, f"/keep/{score.pk}/"),
        ("keep-confirm", answering, f"/keep/{score.pk}/"),
        ("seat-choose", choosing, f"/play/{digital.pk}/"),
        ("seat", seated, f"/play/{digital.pk}/"),
        ("record-start", recording, f"/record/{waiting.pk}/"),
        ("record-bid", recording, f"/record/{table.pk}/"),
        ("sign-in", _phone(language), "/login/"),
        ("tournaments", _phone(language), "/"),
        ("not-found", _phone(language), "/m/999999/"),
    ]


def test_the_scan_finds_english_on_an_english_page(evening: Club) -> None:
    """(the scan below proves something: on the English pages it finds English)"""
    allowed = _names(evening) | KEPT_WORDS
    for name, phone, path in _phone_pages(evening, "en"):
        page = phone.get(path).content.decode()
        assert len(_english_left(page, allowed)) > 5, name


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_phone_pages_show_no_english_outside_names_and_numbers(
    evening: Club, language: str
) -> None:
    allowed = _names(evening) | KEPT_WORDS
    for name, phone, path in _phone_pages(evening, language):
        answer = phone.get(path)
        assert answer.status_code == (404 if name == "not-found" else 200), name
        page = answer.content.decode()
        assert _html_tag(page)[0] == language
        assert not _english_left(page, allowed), (name, language, _english_left(page, allowed))


def test_a_club_made_over_the_api_keeps_the_language_it_was_given(evening: Club) -> None:
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(evening.users["director"])
    made = api.post("/api/v1/clubs/", {"name": "Amritsar Seep", "language": "pa"}, format="json")
    assert made.status_code == 201 and made.json()["language"] == "pa"
    assert ClubRow.objects.get(pk=made.json()["id"]).language == "pa"
    plain = api.post("/api/v1/clubs/", {"name": "Dhaka Seep"}, format="json")
    assert plain.status_code == 201 and plain.json()["language"] == "en"


def test_the_live_part_is_kept_and_tagged_per_language(
    evening: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tournament's live part is rendered once per version and kept for every viewer: of
    one language, not of whichever rendered it first; and its ETag differs by language, so a
    phone that switches is not told 304 with the other language's part."""
    from django.contrib.auth.models import AnonymousUser
    from django.core.cache import cache
    from django.test import RequestFactory
    from django.utils import translation

    from web.views import common

    cache.clear()
    monkeypatch.setattr(
        common, "render_to_string", lambda *a, **k: f"<p>{translation.get_language()}</p>"
    )
    shown: dict[str, set[str]] = {}
    for language in ("hi", "en", "hi", "ur"):
        with translation.override(language):
            html, version = common.live_part(evening.tournament)
            shown.setdefault(language, set()).add(html)
    assert shown == {"hi": {"<p>hi</p>"}, "en": {"<p>en</p>"}, "ur": {"<p>ur</p>"}}
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    tags = set()
    for language in ("hi", "en"):
        with translation.override(language):
            tags.add(common.etag_of(request, version))
    assert len(tags) == 2


def test_a_hindi_phone_hears_its_codes_refused_and_taken_in_hindi(desk: CommittingClient) -> None:
    """One phone a table: a wrong code, the phone's own team's code, then the other team's
    code, on a phone whose person chose Hindi; each answer in Hindi (docs/glossary.md)."""
    _t, match, one, own, theirs = table(desk)
    one.cookies[settings.LANGUAGE_COOKIE_NAME] = "hi"
    assert enter(one, match, 60).status_code == 302
    wrong = next(c for c in ("000 000", "000 001", "000 002") if c not in (own, theirs))
    refused = one.post(
        f"/keep/{match.pk}/code/",
        command(match, entry=1, code=wrong),
        headers={"Accept": "application/json"},
    )
    assert refused.status_code == 403 and refused.json()["code"] == "wrong_code"
    assert "यह दूसरी टीम का कोड नहीं है" in refused.json()["message"]
    assert "4 और कोशिशें बाक़ी हैं" in refused.json()["message"]
    mine = by_code(one, match, own)
    assert mine.status_code == 403
    assert "यह आपकी अपनी टीम का कोड है" in html.unescape(mine.content.decode())
    assert by_code(one, match, theirs).status_code == 302
    page = html.unescape(one.get(f"/keep/{match.pk}/").content.decode())
    assert f"डील 1 की पुष्टि {match.team1.name} ने अपने कोड से की।" in page


def test_a_send_that_crossed_the_other_teams_is_told_in_the_phones_language(
    desk: CommittingClient,
) -> None:
    """Both teams send deal 1 at once: the phone whose send came second is told so in its own
    language (the words are only said then, so the page scan never meets them)."""
    t, _round = published_evening(desk)
    match = Match.objects.filter(tournament=t).order_by("pk").first()
    assert match is not None
    first, second = (team_phone(link_of(desk, t, team)) for team in (match.team0, match.team1))
    second.cookies[settings.LANGUAGE_COOKIE_NAME] = "hi"
    head = command(match)["expected_seq"]  # both pages show the same head
    sent = {"sweeps_a": 0, "sweeps_b": 0, "points_a": 60, "points_b": 40, "expected_seq": head}
    json_only = {"Accept": "application/json"}
    assert first.post(f"/keep/{match.pk}/enter/", {**sent, "client_id": "1" * 32},
                      headers=json_only).json()["ok"]  # fmt: skip
    crossed = second.post(
        f"/keep/{match.pk}/enter/", {**sent, "client_id": "2" * 32}, headers=json_only
    ).json()
    assert crossed["moved"] is True
    said = crossed["message"]
    assert f"{match.team0.name} ने ठीक आपके साथ ही डील 1 दर्ज की।" in said
    assert "उन्होंने आपके जैसे ही अंक दर्ज किए" in said
    assert "same moment" not in said


# --- no English left on the public pages -----------------------------------------------------


def _public_pages(club: Club) -> list[tuple[str, str]]:
    """The public pages of an evening, each as (name, address): the tournament page, its live
    part, a match sheet with a deal entered, the printable pairings and standings, and the
    club's page (made public, with a season) and a member's."""
    row = ClubRow.objects.get(pk=club.tournament.club_id)
    ClubSeasons.objects.update_or_create(club=row, defaults={"public": True})
    today = date.today()
    Season.objects.create(
        club=row, name="Basant", starts_on=today - timedelta(days=30),
        ends_on=today + timedelta(days=30), best=2,
    )  # fmt: skip
    score = club.matches[0]
    entering = CommittingClient()
    entering.get(_link(club, score.team0))
    entering.post(
        f"/keep/{score.pk}/enter/",
        {"expected_seq": Match.objects.get(pk=score.pk).last_seq, "client_id": "public-entry",
         "points_a": "60", "points_b": "40", "sweeps_a": "1", "sweeps_b": "0"},
    )  # fmt: skip
    slug = club.tournament.slug
    return [
        ("tournament", f"/t/{slug}/"),
        ("tournament-live", f"/t/{slug}/live/"),
        ("match-sheet", f"/m/{score.pk}/"),
        ("print", f"/t/{slug}/print/"),
        ("club", f"/c/{row.slug}/"),
        ("member", f"/c/{row.slug}/m/{_player_ids(club)[0]}/"),
    ]


def test_the_scan_finds_english_on_the_english_public_pages(evening: Club) -> None:
    """(the scan below proves something on the public pages too)"""
    allowed = _names(evening) | KEPT_WORDS
    for name, path in _public_pages(evening):
        page = _phone("en").get(path).content.decode()
        assert len(_english_left(page, allowed)) > 5, name


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_public_pages_show_no_english_outside_names_and_numbers(
    evening: Club, language: str
) -> None:
    allowed = _names(evening) | KEPT_WORDS
    left: dict[str, list[str]] = {}
    for name, path in _public_pages(evening):
        answer = _phone(language).get(path)
        assert answer.status_code == 200, name
        page = answer.content.decode()
        if name != "tournament-live":  # a part of a page, without <html>
            assert _html_tag(page)[0] == language
        if found := _english_left(page, allowed):
            left[name] = found
    assert not left, (language, left)


@pytest.mark.parametrize("language", ["en", "ur"])
def test_the_tournament_pages_first_poll_is_answered_not_modified_in_its_language(
    evening: Club, language: str
) -> None:
    """(the page's own version names its language, as the live part's ETag does, so the
    first poll costs nothing; a phone that switches language is sent the part again)"""
    phone = _phone(language)
    path = f"/t/{evening.tournament.slug}/"
    found = re.search(r'data-etag="([^"]+)"', phone.get(path).content.decode())
    assert found is not None
    etag = html.unescape(found.group(1))
    assert phone.get(f"{path}live/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    other = _phone("hi" if language == "ur" else "bn")
    assert other.get(f"{path}live/", HTTP_IF_NONE_MATCH=etag).status_code == 200


def _board_and_wall(club: Club, language: str) -> list[tuple[str, CommittingClient, str]]:
    """The director's board (its live part: the page around it is the desk's) with a deal
    awaiting confirmation and a disputed one, and the wall screen and its panels, each as
    (name, the browser in ``language``, its address)."""
    from tournaments import matchlog
    from tournaments.services import match_append_event

    from .test_board import enter

    awaiting, disputed = club.matches
    if not Match.objects.get(pk=awaiting.pk).last_seq > 1:  # once for the evening
        enter(club, awaiting)
        enter(club, disputed)
        disputed.refresh_from_db()
        match_append_event(
            match=disputed,
            expected_seq=disputed.last_seq,
            kind=matchlog.Kind.DEAL_REJECTED,
            payload={"entry": 1, "reason": "45", "points": [45, 55], "sweeps": [[], []]},
            actor=club.users[club.player_of(disputed, 1)],
        )
    director = _phone(language)
    director.force_login(club.users["director"])
    slug = club.tournament.slug
    return [
        ("board-live", director, f"/desk/{slug}/board/live/"),
        ("wall", _phone(language), f"/t/{slug}/wall/"),
        ("wall-live", _phone(language), f"/t/{slug}/wall/live/"),
    ]


def test_the_scan_finds_english_on_the_english_board_and_wall(evening: Club) -> None:
    """(the scan below proves something on the board and the wall too)"""
    allowed = _names(evening) | KEPT_WORDS
    for name, browser, path in _board_and_wall(evening, "en"):
        page = browser.get(path).content.decode()
        assert len(_english_left(page, allowed)) > 5, name


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_board_and_the_wall_show_no_english_outside_names_and_numbers(
    evening: Club, language: str
) -> None:
    allowed = _names(evening) | KEPT_WORDS
    left: dict[str, list[str]] = {}
    for name, browser, path in _board_and_wall(evening, language):
        answer = browser.get(path)
        assert answer.status_code == 200, name
        page = answer.content.decode()
        if name == "wall":
            assert _html_tag(page) == (language, "rtl" if language == "ur" else "ltr")
        if name == "board-live":  # what needs the director, a table's entries, its versions
            assert 'data-state="disputed"' in page and 'data-state="awaiting"' in page
        if found := _english_left(page, allowed):
            left[name] = found
    assert not left, (language, left)


# --- no English left on the desk's team, club, season and account pages ----------------------


def _desk_pages(
    club: Club, language: str, monkeypatch: pytest.MonkeyPatch
) -> list[tuple[str, Any, int]]:
    """The desk's pages of teams, links, cards, a club, its members and seasons, and the
    account pages, each as (name, its answer, the status it should have), seen in
    ``language`` by the evening's director (signed in under a name that is no English word),
    a member and a visitor. Pages shown after a change show its message too. A "confirm-"
    page is the desk's confirmation step: of it, only what these views ask (its title, what
    the change does, its button) is scanned, by ``_scanned``."""
    from django.contrib.auth import get_user_model

    from web.views.desk import board as desk_board

    director = club.users["director"]
    get_user_model().objects.filter(pk=director.pk).update(username="mukhiya")
    row = ClubRow.objects.get(pk=club.tournament.club_id)
    row.directors.add(director)
    slug, team = club.tournament.slug, club.matches[0].team0
    member = Player.objects.filter(pk__in=_player_ids(club)).order_by("pk").first()
    assert member is not None
    # the board's live part is the board's own (tests of the board scan it)
    monkeypatch.setattr(desk_board, "_part", lambda request, t, version: "")
    desk = _phone(language)
    desk.force_login(director)
    today = date.today()
    season = {"name": "Basant", "starts_on": today.isoformat(),
              "ends_on": (today + timedelta(days=60)).isoformat(), "rule": "places",
              "points": "10, 6, 4"}  # fmt: skip
    pages: list[tuple[str, Any, int]] = [
        ("team", desk.get(f"/desk/{slug}/teams/{team.pk}/"), 200),
        ("team-link", desk.get(f"/desk/{slug}/teams/{team.pk}/link/"), 200),
        ("confirm-new-link", desk.post(f"/desk/{slug}/teams/{team.pk}/link/reissue/"), 200),
        ("confirm-withdraw", desk.post(f"/desk/{slug}/teams/act/", {"withdraw": team.pk}), 200),
        ("confirm-seat-release",
         desk.post(f"/desk/{slug}/matches/{club.digital.pk}/seats/release/", {"seat": "0"}), 200),
        ("cards", desk.get(f"/desk/{slug}/cards/"), 200),
        ("round-cards", desk.get(f"/desk/{slug}/rounds/{club.round.pk}/cards/"), 200),
        ("board", desk.get(f"/desk/{slug}/board/"), 200),
        ("members-added",
         desk.post(f"/clubs/{row.slug}/members/new/", {"name": "Gulab Singh"}, follow=True), 200),
        ("member", desk.get(f"/clubs/{row.slug}/members/{member.pk}/"), 200),
        ("season-refused",
         desk.post(f"/clubs/{row.slug}/seasons/new/", {**season, "points": "das"}), 422),
        ("seasons-made", desk.post(f"/clubs/{row.slug}/seasons/new/", season, follow=True), 200),
        ("member-erase", desk.get(f"/c/{row.slug}/m/{member.pk}/erase/"), 200),
        ("password-change", desk.get("/password/"), 200),
    ]  # fmt: skip
    newcomer = Player.objects.get(club=row, name="Gulab Singh")
    pages.append(("no-account", desk.get(f"/clubs/{row.slug}/members/{newcomer.pk}/"), 200))
    invited = desk.post(f"/clubs/{row.slug}/members/{newcomer.pk}/invite/")
    pages.append(("invite-desk", invited, 200))
    found = re.search(r'id="invite-url" type="text" readonly value="([^"]+)"',
                      invited.content.decode())  # fmt: skip
    assert found is not None
    invitee = _phone(language)
    invitee.get(found.group(1).removeprefix("http://testserver"))
    pages.append(("invite", invitee.get("/invite/"), 200))
    pages.append(("invite-closed", _phone(language).get("/invite/"), 410))
    return pages


def _scanned(name: str, page: str) -> str:
    """The part of a desk page whose words these views give (all of it but on the
    confirmation step, whose frame is the tournament desk's)."""
    if not name.startswith("confirm-"):
        return page
    return " ".join(re.findall(r"<h1>.*?</h1>|<ul>.*?</ul>|<button[^>]*>.*?</button>", page, re.S))


def _desk_allowed(club: Club) -> set[str]:
    return _names(club) | KEPT_WORDS | {"mukhiya", "gulab", "singh", "basant", "json"}


def test_the_scan_finds_english_on_the_english_desk_pages(
    evening: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(the scan below proves something on the desk's pages too)"""
    allowed = _desk_allowed(evening)
    for name, answer, _status in _desk_pages(evening, "en", monkeypatch):
        page = _scanned(name, answer.content.decode())
        assert len(_english_left(page, allowed)) > 5, name


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_desks_team_club_season_and_account_pages_show_no_english(
    evening: Club, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A team's page, its link, the cards, the live board's page, the club's members, a
    member's desk page, seasons (refused and made), a member's erasure, the password change,
    and the invitation (the director's, the member's, a closed one), in each language: the
    messages of a change and the forms' own labels included."""
    allowed = _desk_allowed(evening)
    left: dict[str, list[str]] = {}
    for name, answer, status in _desk_pages(evening, language, monkeypatch):
        assert answer.status_code == status, name
        page = answer.content.decode()
        assert _html_tag(page)[0] == language, name
        if found := _english_left(_scanned(name, page), allowed):
            left[name] = found
    assert not left, (language, left)


# --- no English left on the desk's evening pages ---------------------------------------------

#: the words of the director's account name, shown in the header ("Sign out director", in the
#: page's language) as it was typed, and the names of the example line the teams' bulk
#: registration gives in its help ("Aces: Asha & Bilal": names are never translated)
DIRECTOR = {"director", "aces", "asha", "bilal"}


def _director(club: Club, language: str) -> CommittingClient:
    """The director, signed in, on a browser whose person chose ``language``."""
    desk = _phone(language)
    desk.force_login(club.users["director"])
    return desk


def _evening_desk_pages(club: Club) -> list[tuple[str, str, dict[str, str] | None]]:
    """The desk's evening pages of an evening, each as (name, address, what to post or None):
    the desk's home, a new evening, the tournament's desk, a new stage and a pending stage's
    form, the published round, a score match with a deal entered, the cut of a knockout that
    waits for the stage before, and the confirmation asked before a stage is removed."""
    director = club.users["director"]
    knockout = competition.stage_create(
        actor=director, tournament=club.tournament, name="Antim Daur",
        format="single_elimination", entry="top", entry_count=2, seeding="standings",
        mode="score",
    )  # fmt: skip
    score = club.matches[0]
    entering = CommittingClient()
    entering.get(_link(club, score.team0))
    entering.post(
        f"/keep/{score.pk}/enter/",
        {"expected_seq": Match.objects.get(pk=score.pk).last_seq, "client_id": "desk-entry",
         "points_a": "60", "points_b": "40", "sweeps_a": "1", "sweeps_b": "0"},
    )  # fmt: skip
    slug = club.tournament.slug
    return [
        ("desk-home", "/desk/", None),
        ("new-evening", "/desk/new/", None),
        ("desk", f"/desk/{slug}/", None),
        ("stage-new", f"/desk/{slug}/stages/new/", None),
        ("stage-edit", f"/desk/{slug}/stages/{knockout.pk}/edit/", None),
        ("round", f"/desk/{slug}/rounds/{club.round.pk}/", None),
        ("match", f"/desk/{slug}/matches/{score.pk}/", None),
        ("cut-waiting", f"/desk/{slug}/stages/{knockout.pk}/cut/", None),
        ("remove-stage", f"/desk/{slug}/stages/{knockout.pk}/remove/", {}),
    ]


def _tied_cut_pages() -> tuple[set[str], list[tuple[str, Callable[[], str]]]]:
    """A Swiss whose two losers tie across the knockout's cut (tests/competition's), its
    names made no English words: the words of its names, and its pages as (name, what
    gives its address, taking a step first where one is needed): the desk with the tie
    waiting, the cut page with its forms, then, the lot drawn, the cut decided and the
    knockout's draft bracket, with the standings that decided who is in."""
    cut = tied_cut("lang-cut")
    t = cut.club.tournament
    Tournament.objects.filter(pk=t.pk).update(name="Basant Kup")
    Stage.objects.filter(pk=cut.swiss.pk).update(name="Pehla Daur")
    Stage.objects.filter(pk=cut.knockout.pk).update(name="Antim Daur")
    for i, (team, name) in enumerate(zip(cut.club.teams, ["Sher", "Baaz", "Chakor", "Hiran"],
                                         strict=True)):  # fmt: skip
        Team.objects.filter(pk=team.pk).update(name=name)
        Player.objects.filter(pk=team.first_player_id).update(name=f"Ravi {i}")
        Player.objects.filter(pk=team.second_player_id).update(name=f"Meera {i}")
    organizer = cut.club.organizer
    cut_page = f"/desk/{t.slug}/stages/{cut.knockout.pk}/cut/"

    def decided() -> str:
        competition.cut_draw_lot(actor=organizer, stage=cut.knockout, tie=cut.key)
        competition.stage_start(actor=organizer, stage=cut.knockout)
        return cut_page

    def bracket() -> str:
        first = Round.objects.filter(stage=cut.knockout).order_by("number").first()
        assert first is not None and first.status == Round.Status.DRAFT
        return f"/desk/{t.slug}/rounds/{first.pk}/"

    names = {"basant", "kup", "pehla", "antim", "daur", "sher", "baaz", "chakor", "hiran",
             "ravi", "meera", *re.findall(r"[a-z]+", organizer.get_username())}  # fmt: skip
    return names, [
        ("desk-tied", lambda: f"/desk/{t.slug}/"),
        ("cut-tied", lambda: cut_page),
        ("cut-decided", decided),
        ("bracket-draft", bracket),
    ]


def _desk_english(
    desk: CommittingClient, path: str, post: dict[str, str] | None, allowed: set[str]
) -> tuple[str, list[str]]:
    """Return a desk page (got, or posted ``post``) and the English words left on it."""
    answer = desk.get(path) if post is None else desk.post(path, post)
    assert answer.status_code == 200, (path, answer.status_code)
    page = answer.content.decode()
    return page, _english_left(page, allowed)


def test_the_scan_finds_english_on_the_english_evening_desk_pages(evening: Club) -> None:
    """(the scan below proves something on the desk's pages too)"""
    allowed = _names(evening) | KEPT_WORDS | DIRECTOR
    desk = _director(evening, "en")
    for name, path, post in _evening_desk_pages(evening):
        _page, found = _desk_english(desk, path, post, allowed)
        assert len(found) > 5, name


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_desks_evening_pages_show_no_english_outside_names_and_numbers(
    evening: Club, language: str
) -> None:
    allowed = _names(evening) | KEPT_WORDS | DIRECTOR
    desk = _director(evening, language)
    left: dict[str, list[str]] = {}
    for name, path, post in _evening_desk_pages(evening):
        page, found = _desk_english(desk, path, post, allowed)
        assert _html_tag(page) == (language, "rtl" if language == "ur" else "ltr"), name
        if found:
            left[name] = found
    assert not left, (language, left)


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_a_tie_at_the_cut_and_its_decision_show_no_english_but_in_english(
    db: None, language: str
) -> None:
    """The desk with a tie waiting at the knockout's cut, the cut page with its forms, the
    cut decided by a drawn lot and the knockout's draft bracket: in English the scan finds
    English on each, in every other language none."""
    names, pages = _tied_cut_pages()
    desk = _phone(language)
    desk.force_login(Tournament.objects.get(name="Basant Kup").organizer)
    for name, address in pages:
        page, found = _desk_english(desk, address(), None, names | KEPT_WORDS | DIRECTOR)
        assert _html_tag(page)[0] == language, name
        if language == "en":
            assert len(found) > 5, name
        else:
            assert not found, (name, language, found)
