"""A tournament's CSV files on its page: a stage's standings, the results a row a match and the
deals a row a deal: linked beside the tables, seen by whoever sees the page (else 404), UTF-8
with a byte-order mark (Devanagari names survive Excel), formulas written as text, no card."""

from __future__ import annotations

import csv
import io
import random
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competition import exports
from scoring.models import DealResult
from tests.scoring.helpers import committed
from tournaments.models import Match, Player, Team

from ..competition.helpers import Club as CupClub
from ..competition.helpers import make_club as make_cup

DEVANAGARI = "नमस्ते & Co #1"
URDU = 'شیر, "دل"'
FORMULA = '=HYPERLINK("http://evil.example","win")'
#: a card as the engine writes it (10D, QS...): never in a file
CARD = re.compile(r"\b(?:10|[2-9JQKA])[SHDC]\b")


def read(response: Any) -> list[list[str]]:
    """Return a CSV answer's rows, checking what every file is: UTF-8 with its mark, CRLF."""
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="')
    body: bytes = response.content
    assert body.startswith(b"\xef\xbb\xbf")
    text = body.decode("utf-8-sig")
    assert "\n" not in text.replace("\r\n", "")  # every line ends in CRLF (no name holds one)
    return list(csv.reader(io.StringIO(text, newline="")))


@pytest.fixture
def cup(db: None) -> CupClub:
    """A published round robin of four teams, digital (so its deals were dealt from real
    cards), round 1 played; teams named in Devanagari, Urdu, and as a formula."""
    cup = make_cup(4, slug="csv-cup")
    for team, name in zip(cup.teams, (DEVANAGARI, URDU, FORMULA), strict=False):
        Team.objects.filter(pk=team.pk).update(name=name)
    cup.tournament.published = True
    cup.tournament.save(update_fields=["published"])
    stage = cup.start(cup.stage(format="round_robin", mode="digital"))
    round_ = cup.pair(stage)
    cup.publish(round_)
    with committed():
        cup.play(round_, random.Random(5))
    return cup


def test_the_page_links_each_file_beside_its_table(cup: CupClub, client: Any) -> None:
    slug = cup.tournament.slug
    stage = cup.tournament.stages.get()
    page = client.get(f"/t/{slug}/").content.decode()
    for path in (f"/t/{slug}/stages/{stage.pk}/standings.csv", f"/t/{slug}/matches.csv",
                 f"/t/{slug}/deals.csv"):  # fmt: skip
        assert f'href="{path}"' in page, path


def test_the_standings_are_a_row_a_team_with_names_intact_and_formulas_as_text(
    cup: CupClub, client: Any
) -> None:
    stage = cup.tournament.stages.get()
    rows = read(client.get(f"/t/{cup.tournament.slug}/stages/{stage.pk}/standings.csv"))
    header, body = rows[0], rows[1:]
    assert header[: len(exports.STANDINGS_HEADER)] == exports.STANDINGS_HEADER
    assert len(body) == 4
    names = {row[2] for row in body}
    assert {DEVANAGARI, URDU, "'" + FORMULA, "Team 04"} == names
    assert sorted(int(row[1]) for row in body)[0] == 1
    assert sum(int(row[4]) for row in body) == 4  # each team played its one match


def test_the_results_are_a_row_a_match_with_its_score(cup: CupClub, client: Any) -> None:
    rows = read(client.get(f"/t/{cup.tournament.slug}/matches.csv"))
    header, body = rows[0], rows[1:]
    assert header == exports.MATCHES_HEADER
    matches = Match.objects.filter(tournament=cup.tournament).select_related("result")
    assert sorted(int(r[0]) for r in body) == sorted(m.pk for m in matches)
    for row in body:
        m = matches.get(pk=int(row[0]))
        line = dict(zip(header, row, strict=True))
        assert (line["stage"], line["round"]) == ("stage 1", "round 1")
        assert line["team a"] in (m.team0.name, "'" + m.team0.name)
        assert (int(line["bazzis a"]), int(line["bazzis b"])) == m.result.bazzis
        assert int(line["running difference"]) == m.result.difference  # a number, even < 0
        assert line["status"] == "finished" and line["winner"]


def test_the_deals_are_a_row_a_recorded_deal_and_never_a_card(cup: CupClub, client: Any) -> None:
    rows = read(client.get(f"/t/{cup.tournament.slug}/deals.csv"))
    header, body = rows[0], rows[1:]
    assert header == exports.DEALS_HEADER
    recorded = DealResult.objects.filter(match__tournament=cup.tournament)
    assert len(body) == recorded.count() > 0
    for row in body:
        line = dict(zip(header, row, strict=True))
        deal = recorded.get(match_id=int(line["match"]), deal=int(line["deal"]))
        assert (int(line["card points a"]), int(line["card points b"])) == (
            deal.points0, deal.points1)  # fmt: skip
        assert int(line["sweep points a"]) == sum(deal.sweeps0)
        assert int(line["running difference"]) == deal.running_difference
    assert not CARD.search("\n".join(",".join(r[6:]) for r in body))  # from the deal on
    dealer = body[0][header.index("dealer")]  # renamed as a formula: written as text
    Player.objects.filter(name=dealer).update(name="-1 + @me")
    again = read(client.get(f"/t/{cup.tournament.slug}/deals.csv"))[1:]
    assert again[0][header.index("dealer")] == "'-1 + @me"


def test_a_private_tournament_s_files_are_not_found_by_a_stranger(
    cup: CupClub, client: Any, django_user_model: Any
) -> None:
    cup.tournament.published = False
    cup.tournament.save(update_fields=["published"])
    slug = cup.tournament.slug
    stage = cup.tournament.stages.get()
    paths = [f"/t/{slug}/stages/{stage.pk}/standings.csv", f"/t/{slug}/matches.csv",
             f"/t/{slug}/deals.csv"]  # fmt: skip
    for path in paths:
        assert client.get(path).status_code == 404, path
    client.force_login(django_user_model.objects.create_user("stranger"))
    for path in paths:
        assert client.get(path).status_code == 404, path
    client.force_login(cup.organizer)
    for path in paths:
        read(client.get(path))


def test_a_stage_of_another_tournament_is_not_found(cup: CupClub, client: Any) -> None:
    other = make_cup(2, slug="other-cup")
    stage = other.stage(format="round_robin")
    assert (
        client.get(f"/t/{cup.tournament.slug}/stages/{stage.pk}/standings.csv").status_code == 404
    )


@given(
    st.lists(
        st.text(alphabet="=+-@\t\r\n,\"'aनشی😀 ", max_size=20) | st.text(max_size=20), max_size=5
    )
)
def test_no_text_cell_starts_a_formula_and_every_text_reads_back(texts: list[str]) -> None:
    table = exports.Table("t", ["text"], [[t] for t in texts] + [[-3], [None]])
    rows = list(csv.reader(io.StringIO(table.text().removeprefix(exports.BOM), newline="")))
    cells = [r[0] if r else "" for r in rows[1:]]
    assert cells[-2:] == ["-3", ""]
    for text, written in zip(texts, cells, strict=False):
        if text[:1] in ("=", "+", "-", "@", "\t", "\r"):  # what a spreadsheet runs
            assert written == "'" + text
        else:
            assert written == text
