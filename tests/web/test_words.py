"""Cards are named in words, one way on every page ("Ace of spades", never "A of ♠"), and a
name written in an Indian script or in Arabic script is marked with its language, so a
screen reader reads it in the right voice."""

from __future__ import annotations

import html
import re

import pytest
from django.template import Context, Template
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import seep_core as sc
from tournaments.models import Club as ClubModel
from web import words

from .conftest import Club

RANKS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


@given(st.sampled_from(sc.ordered_deck()))
def test_every_card_is_named_in_words(code: str) -> None:
    name = words.card(code)
    rank, suit = code[:-1], code[-1]
    assert name == f"{RANKS.get(rank, rank)} of {SUITS[suit]}"
    assert not re.search(r"[♠♥♦♣]|^[AJQK] ", name)


def test_the_court_cards_and_the_ace_are_spelled_out() -> None:
    assert [words.card(c) for c in ("AS", "JH", "QD", "KC", "10D")] == [
        "Ace of spades",
        "Jack of hearts",
        "Queen of diamonds",
        "King of clubs",
        "10 of diamonds",
    ]


def letters(first: int, last: int) -> st.SearchStrategy[str]:
    """Words of the letters of one Unicode block, with spaces between."""
    block = st.characters(min_codepoint=first, max_codepoint=last, categories=["Lo"])
    return st.lists(st.text(block, min_size=1, max_size=8), min_size=1, max_size=3).map(" ".join)


def marked(text: str) -> str:
    return Template("{% load words %}{{ name|lang }}").render(Context({"name": text}))


SCRIPTS = [
    (0x0900, 0x097F, '<span lang="hi">'),
    (0x0980, 0x09FF, '<span lang="bn">'),
    (0x0A00, 0x0A7F, '<span lang="pa">'),
    (0x0600, 0x06FF, '<span lang="ur" dir="rtl">'),
]


#: rendering a template takes its time on a loaded machine: no deadline (nothing here is timed)
UNTIMED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@UNTIMED
@given(st.data(), st.sampled_from(SCRIPTS))
def test_a_name_in_another_script_is_marked_with_its_language(
    data: st.DataObject, script: tuple[int, int, str]
) -> None:
    first, last, opening = script
    name = data.draw(letters(first, last))
    assert marked(name) == f"{opening}{name}</span>"


@UNTIMED
@given(st.text(max_size=30))
def test_any_name_is_shown_whole_and_escaped_marked_or_not(name: str) -> None:
    shown = marked(name)
    inner = re.fullmatch(
        r'(?:<span lang="(hi|bn|pa|ur)"(?: dir="rtl")?>)?(.*?)(?:</span>)?', shown, re.S
    )
    assert inner is not None
    assert html.unescape(inner.group(2)) == name
    assert "<" not in inner.group(2) and ">" not in inner.group(2)
    assert (inner.group(1) is None) == (words.script_language(name) is None)


@UNTIMED
@given(st.text(st.characters(max_codepoint=0x024F), max_size=30))
def test_a_name_in_latin_letters_stays_in_the_pages_language(name: str) -> None:
    assert "<span" not in marked(name)


def test_a_latin_name_with_a_word_in_devanagari_goes_by_most_of_its_letters() -> None:
    assert words.script_language("Delhi दिल्ली Kings") is None
    assert words.script_language("दिल्ली किंग्स XI") == ("hi", "ltr")


@pytest.mark.django_db
def test_the_pages_mark_a_team_named_in_devanagari_as_hindi(club: Club) -> None:
    match = club.matches[0]
    team = match.team0
    team.name = "दिल्ली किंग्स"
    team.save()
    marked_name = '<span lang="hi">दिल्ली किंग्स</span>'
    slug = club.tournament.slug
    for who, url in (
        (None, f"/t/{slug}/"),
        (None, f"/t/{slug}/wall/"),
        (None, f"/m/{match.pk}/"),
        ("director", f"/desk/{slug}/"),
        ("scorekeeper", f"/keep/{match.pk}/"),
    ):
        text = club.client(who).get(url).content.decode()
        assert marked_name in text, url


@pytest.mark.django_db
def test_an_evening_and_a_club_named_in_another_script_are_marked_too(club: Club) -> None:
    tournament = club.tournament
    tournament.name = "शुक्रवार की शाम"  # an evening named in Hindi
    tournament.save()
    tournament.club = ClubModel.objects.create(name="لاہور سیپ کلب", slug="lahore-seep")  # Urdu
    tournament.save()
    evening = '<span lang="hi">शुक्रवार की शाम</span>'
    club_name = '<span lang="ur" dir="rtl">لاہور سیپ کلب</span>'
    slug = tournament.slug
    for who, url, marked in (
        (None, f"/t/{slug}/", evening),
        (None, f"/t/{slug}/wall/", evening),
        (None, f"/m/{club.matches[0].pk}/", evening),
        ("director", f"/desk/{slug}/", evening),
        ("director", f"/desk/{slug}/", club_name),
        ("director", f"/desk/{slug}/board/", evening),
    ):
        text = club.client(who).get(url).content.decode()
        assert marked in text, url


@pytest.mark.django_db
def test_a_name_in_urdu_beside_a_number_is_isolated_right_to_left(club: Club) -> None:
    """Without isolation "شیر 7" shows as "7 شیر": the name is a right-to-left run of its own."""
    match = club.digital
    player = match.seat_players()[0]
    player.name = "شیر"
    player.save()
    text = club.client(None).get(f"/m/{match.pk}/").content.decode()
    assert re.search(r'Cards in hand: <span lang="ur" dir="rtl">شیر</span> \d', text), text
