"""A club's evenings as a calendar (RFC 5545): read back by a strict parser written here
(CRLF alone, lines of at most 75 octets, folding, escapes, the properties an event needs), its
published evenings alone, at a stable address linked from a public club's page as webcal:,
and a private club's calendar 404 to strangers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from seasons.models import ClubSeasons
from tournaments.models import Tournament
from web import calendar

from ..seasons.conftest import ClubWorld, make_club_world

pytestmark = pytest.mark.django_db

TEXT_PROPERTIES = {"SUMMARY", "LOCATION", "X-WR-CALNAME"}


@dataclass
class Component:
    name: str
    properties: list[tuple[str, dict[str, str], str]] = field(default_factory=list)
    children: list[Component] = field(default_factory=list)

    def one(self, name: str) -> tuple[dict[str, str], str]:
        found = [(params, value) for n, params, value in self.properties if n == name]
        assert len(found) == 1, f"{name} {len(found)} times in {self.name}"
        return found[0]

    def value(self, name: str) -> str:
        return self.one(name)[1]


def unescape(value: str) -> str:
    """Return a TEXT value as it reads: refuses a backslash before anything but \\ ; , n N."""
    out, i = [], 0
    while i < len(value):
        char = value[i]
        if char == "\\":
            following = value[i + 1 : i + 2]
            assert following in ("\\", ";", ",", "n", "N"), f"bad escape in {value!r}"
            out.append("\n" if following in "nN" else following)
            i += 2
            continue
        assert char not in ";,", f"unescaped {char!r} in {value!r}"
        out.append(char)
        i += 1
    return "".join(out)


def parse(body: bytes) -> Component:
    """Parse an iCalendar stream strictly: CRLF line ends only, each line at most 75 octets,
    folded lines joined, each content line NAME;PARAM=V:VALUE, components nested and closed."""
    assert body.endswith(b"\r\n")
    physical = body[:-2].split(b"\r\n")
    for line in physical:
        assert b"\r" not in line and b"\n" not in line, "a bare CR or LF"
        assert len(line) <= 75, f"{len(line)} octets: {line!r}"
        line.decode("utf-8")  # folding never split a character
    logical: list[str] = []
    for line in physical:
        text = line.decode("utf-8")
        if text.startswith((" ", "\t")):
            assert logical, "a continuation with no line before it"
            logical[-1] += text[1:]
        else:
            logical.append(text)
    stack: list[Component] = []
    root: Component | None = None
    for line in logical:
        match = re.fullmatch(r"([A-Z0-9-]+)((?:;[A-Z0-9-]+=[^;:]*)*):(.*)", line)
        assert match, f"not a content line: {line!r}"
        name, raw_params, value = match.groups()
        params = dict(p.split("=", 1) for p in raw_params.split(";")[1:])
        if name == "BEGIN":
            component = Component(value)
            if stack:
                stack[-1].children.append(component)
            else:
                assert root is None, "a second calendar"
                root = component
            stack.append(component)
        elif name == "END":
            assert stack and stack[-1].name == value, f"END:{value} closes nothing"
            stack.pop()
        else:
            assert stack, f"{name} outside a component"
            shown = unescape(value) if name in TEXT_PROPERTIES else value
            stack[-1].properties.append((name, params, shown))
    assert not stack and root is not None and root.name == "VCALENDAR"
    return root


def events(root: Component) -> list[Component]:
    assert root.value("VERSION") == "2.0" and root.value("PRODID")
    found = [c for c in root.children if c.name == "VEVENT"]
    for e in found:
        for name in ("UID", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY"):
            e.one(name)
        assert re.fullmatch(r"\d{8}T\d{6}Z", e.value("DTSTAMP"))
        params, start = e.one("DTSTART")
        assert params == {"VALUE": "DATE"} and re.fullmatch(r"\d{8}", start)
    return found


NAMES = "Friday, Seep; \\ night\nनमस्ते اردو 🂡 & ? # " + "x" * 20
text_names = st.text(alphabet=NAMES, min_size=1, max_size=120)


@given(text_names, st.lists(st.tuples(text_names, text_names), max_size=4))
def test_any_names_fold_and_escape_and_read_back_exactly(
    club: str, evenings: list[tuple[str, str]]
) -> None:
    made = datetime(2026, 1, 1, 18, tzinfo=UTC)
    listed = [
        calendar.Evening(f"evening-{n}@seep", date(2026, 1, 2) + timedelta(days=n), summary,
                         f"https://club.example/t/e-{n}/", place, made)
        for n, (summary, place) in enumerate(evenings)
    ]  # fmt: skip
    root = parse(calendar.calendar_text(club, listed).encode())
    assert root.value("X-WR-CALNAME") == club
    read = events(root)
    assert [e.value("SUMMARY") for e in read] == [s for s, _ in evenings]
    assert [e.value("LOCATION") for e in read] == [p for _, p in evenings]
    assert [e.value("URL") for e in read] == [e.url for e in listed]
    assert [e.value("DTSTART") for e in read] == [f"{e.day:%Y%m%d}" for e in listed]
    assert [e.value("DTEND") for e in read] == [
        f"{e.day + timedelta(days=1):%Y%m%d}" for e in listed
    ]


def test_a_long_devanagari_line_is_folded_between_characters() -> None:
    line = "SUMMARY:" + "नमस्ते" * 30
    folded = calendar.fold(line)
    parts = folded.encode().split(b"\r\n")
    assert len(parts) > 2 and all(len(p) <= 75 for p in parts)
    assert all(p.startswith(b" ") for p in parts[1:])
    assert folded.replace("\r\n ", "") == line


@pytest.fixture
def world(db: None) -> ClubWorld:
    world = make_club_world(name="Friday, Seep; club")
    first = world.evening(date(2026, 3, 6))
    Tournament.objects.filter(pk=first.pk).update(place="Hall 2, Karol Bagh; upstairs")
    world.evening(date(2026, 3, 13), published=False)
    world.evening(date(2026, 3, 20))
    return world


def test_a_public_club_s_calendar_holds_its_published_evenings_alone(world: ClubWorld) -> None:
    ClubSeasons.objects.create(club=world.club, public=True)
    response = Client().get(f"/c/{world.club.slug}/evenings.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    root = parse(response.content)
    assert root.value("X-WR-CALNAME") == "Friday, Seep; club"
    read = events(root)
    shown = [t for t in world.evenings if t.published]
    assert [e.value("SUMMARY") for e in read] == [t.name for t in shown]
    assert [e.value("DTSTART") for e in read] == ["20260306", "20260320"]
    assert read[0].value("LOCATION") == "Hall 2, Karol Bagh; upstairs"
    assert read[0].value("URL") == f"http://testserver/t/{shown[0].slug}/"
    assert len({e.value("UID") for e in read}) == 2
    url = f"/c/{world.club.slug}/evenings.ics"
    assert Client().get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    # the same evening keeps its UID when renamed and moved (a subscribed calendar updates it)
    Tournament.objects.filter(pk=shown[0].pk).update(name="Renamed", date=date(2026, 3, 7))
    changed = Client().get(url, HTTP_IF_NONE_MATCH=response["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != response["ETag"]
    again = events(parse(changed.content))
    assert again[0].value("UID") == read[0].value("UID")
    assert again[0].value("SUMMARY") == "Renamed"


def test_an_undated_evening_is_on_the_club_s_date_it_was_made(world: ClubWorld) -> None:
    ClubSeasons.objects.create(club=world.club, public=True)
    world.club.time_zone = "Asia/Kolkata"
    world.club.save(update_fields=["time_zone"])
    late = datetime(2026, 4, 1, 20, 0, tzinfo=UTC)  # 1:30 on 2 April in Kolkata
    Tournament.objects.filter(pk=world.evenings[2].pk).update(date=None, created_at=late)
    read = events(parse(Client().get(f"/c/{world.club.slug}/evenings.ics").content))
    assert read[-1].value("DTSTART") == "20260402"


def test_the_public_club_page_links_its_calendar_as_webcal(world: ClubWorld) -> None:
    ClubSeasons.objects.create(club=world.club, public=True)
    page = Client().get(f"/c/{world.club.slug}/").content.decode()
    assert f'href="webcal://testserver/c/{world.club.slug}/evenings.ics"' in page


def test_a_private_club_s_calendar_is_404_to_strangers_and_served_to_its_members(
    world: ClubWorld,
) -> None:
    url = f"/c/{world.club.slug}/evenings.ics"
    assert Client().get(url).status_code == 404
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("stranger"))
    assert stranger.get(url).status_code == 404
    director = Client()
    director.force_login(world.director)
    assert len(events(parse(director.get(url).content))) == 2
    page = director.get(f"/c/{world.club.slug}/").content.decode()
    assert "webcal:" not in page and f'href="{url}"' in page
