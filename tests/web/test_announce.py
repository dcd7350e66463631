"""What the live parts say of themselves for a screen reader (web/announce.py and the parts'
templates): the sentences live.js reads from the page's live region when they change, read
here from the parts as the server sends them."""

from __future__ import annotations

import html
import re

import pytest

from .conftest import Club
from .test_keeper import answer, entry

pytestmark = pytest.mark.django_db

SENTENCE = re.compile(r'data-about="([^"]*)" data-announce="([^"]*)"')


def sentences(part: bytes) -> dict[str, str]:
    """The part's sentences by what each is about, as live.js reads them."""
    found = SENTENCE.findall(part.decode())
    return {about: " ".join(html.unescape(words).split()) for about, words in found}


def test_the_phone_page_says_the_entry_to_answer_the_dispute_and_the_end_in_words(
    club: Club,
) -> None:
    match = club.matches[0]
    team0, team1 = match.team0.name, match.team1.name
    ours, theirs = club.client(club.player_of(match, 0)), club.client(club.player_of(match, 1))
    status = f"/keep/{match.pk}/status/"
    assert sentences(theirs.get(status).content) == {"match": "Next: deal 1."}

    ours.post(f"/keep/{match.pk}/enter/", entry(match, "enter-a1", 64, 36))
    assert sentences(theirs.get(status).content) == {
        "match": f"{team0} entered deal 1: your team 36, {team0} 64. Confirm or reject."
    }
    assert sentences(ours.get(status).content) == {
        "match": f"Your team entered deal 1: your team 64, {team1} 36. Waiting for the other team."
    }

    theirs.post(f"/keep/{match.pk}/answer/", answer(match, "reject-a1", "reject", reason="40"))
    said = {"match": "Deal 1 is disputed: the director decides it."}
    assert sentences(ours.get(status).content) == sentences(theirs.get(status).content) == said


def test_the_board_says_each_table_without_how_long_it_has_waited(club: Club) -> None:
    match = club.matches[0]
    club.client(club.player_of(match, 0)).post(
        f"/keep/{match.pk}/enter/", entry(match, "enter-b1", 64, 36)
    )
    part = club.client("director").get(f"/desk/{club.tournament.slug}/board/live/").content
    said = sentences(part)
    assert len(said) == len(club.matches)  # one a table
    waiting = [words for words in said.values() if "Awaiting confirmation" in words]
    assert len(waiting) == 1 and f"{match.team0.name} v {match.team1.name}" in waiting[0]
    assert (
        f"entered by {match.team0.name}: {match.team0.name} 64, {match.team1.name} 36"
        in (waiting[0])
    )
    # the clock alone is no news: nothing said changes as the minutes pass
    assert not any(re.search(r"\bmin\b|minute|waiting for", words) for words in said.values())
