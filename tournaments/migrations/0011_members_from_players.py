"""Every existing tournament joins a club of its organizer's; the players of its teams become
that club's members, one row per person wherever the history allows it.

Clubs. Each organizer of an existing tournament gets one club, "<username>'s club" (its slug
made from the user name, unique), which they direct; all their tournaments join it. The clubs
are made in the order of each organizer's first tournament, and take the deployment's
TIME_ZONE (the one time zone the pages have shown so far; UTC if it is not an IANA name).

Members. Until now every team registration made new Player rows, so one person who played
three tournaments is three rows. Each row a team uses becomes a member of the club of that
team's tournament:

1. A row used in tournaments of two clubs (or more) is copied, so that each club has its own
   row: the first club keeps the row, each other club gets a copy (same name, account and
   contact) and its teams point at the copy.
2. Within one club, rows of the same name (case and spacing ignored: " asha  RAO" is
   "Asha Rao") and the same account (``user``; two rows with none count as the same) are one
   person, and are merged into the row with the lowest id: the teams are repointed to it and
   the other rows deleted. Except where the merge would seat one member twice in one team, or
   in two teams of one tournament: two "Asha" in one tournament are two people, and stay two
   rows. Rows are taken in id order, each merged into the first kept row whose tournaments it
   shares none of (so the outcome is deterministic, and the kept row is the lowest id).
   Why: a member is one row, so a rename shows everywhere and a typed name finds the person
   (``tournaments.clubs.members_named``), and the roster does not list one person per
   tournament played. Same name with different accounts are different people and stay apart.
3. Players used by no team are left with no club (club NULL).

What else holds Player ids. Only the teams point at Player rows (no other foreign key). A match
log's ``match_started`` event records the seats' ``players`` (Player ids) and ``users``
(account ids), and snapshots fold them into their state; receipts name the teams, not the
players. Events are append-only and hash-chained, so they are not rewritten: a log keeps the
player ids it was written with, which after this migration may name a deleted (merged) row,
or, for a copied row, the first club's row. Nothing reads a row back from those ids: who sits
where is decided by ``users``, which no merge or copy changes (merged rows share their
account), and pages show seats from the teams. ``verify_match`` recomputes the chain and
replays the log, reading no player rows, so every match verifies as before (tested on the
demo: tests/tournaments/test_member_migration.py).

Reversed: the tournaments and members leave their clubs and the clubs are deleted (0010's
reverse then drops the columns). Merged rows stay merged and copies stay copies (each with
its teams): nothing records which rows were one before, and the data is valid either way.
"""

import zoneinfo
from collections import defaultdict

from django.conf import settings
from django.db import migrations
from django.db.models import Min
from django.utils.text import slugify

SLOTS = ("first_player_id", "second_player_id")


def name_key(name):
    """Names compared case and spacing ignored (as ``tournaments.clubs.name_key``: copied
    here so this migration keeps its meaning whatever the module becomes)."""
    return " ".join(name.split()).casefold()


def free_slug(base, taken):
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    taken.add(slug)
    return slug


def first_fit(row_ids, plays_in):
    """Return {row id: the row it merges into} for one person's rows in one club.

    ``row_ids`` in id order; ``plays_in[row]`` the tournaments the row plays in. Each row
    joins the first kept row whose tournaments (its own and those merged into it so far) it
    shares none of, or is kept. A row's teams are all in its tournaments, so a shared
    tournament is also what a shared team would be.
    """
    kept = []  # [row id, the tournaments it plays in]
    merged_into = {}
    for row_id in row_ids:
        for keeper in kept:
            if not keeper[1] & plays_in[row_id]:
                merged_into[row_id] = keeper[0]
                keeper[1] |= plays_in[row_id]
                break
        else:
            kept.append([row_id, set(plays_in[row_id])])
    return merged_into


def make_clubs(apps):
    """Give each organizer of a tournament without a club one club, which they direct."""
    Club = apps.get_model("tournaments", "Club")
    Tournament = apps.get_model("tournaments", "Tournament")
    User = Tournament._meta.get_field("organizer").related_model
    time_zone = settings.TIME_ZONE if settings.TIME_ZONE in zoneinfo.available_timezones() else "UTC"
    taken = set(Club.objects.values_list("slug", flat=True))
    organizers = (
        Tournament.objects.filter(club__isnull=True)
        .values("organizer")
        .annotate(first=Min("id"))
        .order_by("first")
    )
    for row in organizers:
        organizer = User.objects.get(pk=row["organizer"])
        username = getattr(organizer, "username", "") or f"user {organizer.pk}"
        club = Club.objects.create(
            name=f"{username}'s club"[:200],
            slug=free_slug(slugify(username)[:90].strip("-") or "club", taken),
            time_zone=time_zone,
        )
        club.directors.add(organizer)
        Tournament.objects.filter(organizer=organizer, club__isnull=True).update(club=club)


def make_members(apps):
    """Copy rows shared by clubs, merge each club's rows of one person, set their clubs."""
    Player = apps.get_model("tournaments", "Player")
    Team = apps.get_model("tournaments", "Team")
    teams = [
        {"id": id_, "tournament": tournament, "club": club, SLOTS[0]: first, SLOTS[1]: second}
        for id_, tournament, club, first, second in Team.objects.filter(
            tournament__club__isnull=False
        )
        .order_by("id")
        .values_list("id", "tournament_id", "tournament__club_id", *SLOTS)
    ]
    before = {team["id"]: tuple(team[slot] for slot in SLOTS) for team in teams}
    rows = {row.pk: row for row in Player.objects.filter(pk__in={t[s] for t in teams for s in SLOTS})}

    # 1. One row per club: a row used by two clubs' teams is copied for each club after the first.
    uses = defaultdict(lambda: defaultdict(list))  # row id -> club id -> [(team, slot)]
    for team in teams:
        for slot in SLOTS:
            uses[team[slot]][team["club"]].append((team, slot))
    club_of = {}  # member row id -> its club id
    for row_id in sorted(uses):
        first, *others = sorted(uses[row_id])
        club_of[row_id] = first
        original = rows[row_id]
        for club_id in others:
            copy = Player.objects.create(
                name=original.name, user_id=original.user_id, contact=original.contact,
                club_id=club_id,
            )
            rows[copy.pk], club_of[copy.pk] = copy, club_id
            for team, slot in uses[row_id][club_id]:
                team[slot] = copy.pk

    # 2. In each club, one row per person: same name and account, unless it seats them twice.
    plays_in = defaultdict(set)  # row id -> the tournaments it plays in
    for team in teams:
        for slot in SLOTS:
            plays_in[team[slot]].add(team["tournament"])
    people = defaultdict(list)  # (club, name, account) -> row ids, in id order
    for row_id in sorted(club_of):
        row = rows[row_id]
        people[(club_of[row_id], name_key(row.name), row.user_id)].append(row_id)
    merged_into = {}
    for row_ids in people.values():
        merged_into.update(first_fit(row_ids, plays_in))
    for team in teams:
        for slot in SLOTS:
            team[slot] = merged_into.get(team[slot], team[slot])
        after = tuple(team[slot] for slot in SLOTS)
        if after != before[team["id"]]:
            Team.objects.filter(pk=team["id"]).update(**dict(zip(SLOTS, after)))
    Player.objects.filter(pk__in=list(merged_into)).delete()

    # 3. The members join their clubs; rows of no team keep no club.
    members = defaultdict(list)
    for row_id, club_id in club_of.items():
        if row_id not in merged_into:
            members[club_id].append(row_id)
    for club_id, row_ids in members.items():
        Player.objects.filter(pk__in=row_ids).update(club_id=club_id)


def forward(apps, schema_editor):
    make_clubs(apps)
    make_members(apps)


def backward(apps, schema_editor):
    Club = apps.get_model("tournaments", "Club")
    apps.get_model("tournaments", "Tournament").objects.update(club=None)
    apps.get_model("tournaments", "Player").objects.update(club=None)
    Club.directors.through.objects.all().delete()
    Club.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0010_clubs")]

    operations = [migrations.RunPython(forward, backward)]
