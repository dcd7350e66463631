"""What a club learns across evenings: its rated members, its seasons and their ladders, a
member's rating and history, whether its pages are public."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from seasons.models import Season

from ._common import Strict, StrictModel


class MemberRef(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class RatingFields(serializers.Serializer[Any]):
    mu = serializers.FloatField(help_text="The rating: the estimate of the member's skill.")
    sigma = serializers.FloatField(help_text="Its uncertainty (shrinks with play).")
    conservative = serializers.FloatField(help_text="mu - 3 sigma.")
    matches = serializers.IntegerField(help_text="Rated matches.")
    last_played = serializers.DateField(allow_null=True, help_text="The evening of the last.")
    provisional = serializers.BooleanField(
        help_text="Fewer rated matches than the club's settled_after (10 unless it chose): "
        "the rating is still provisional."
    )


class RatedMemberSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(
        help_text='By the conservative estimate: members level on it share a rank ("1, 2, 2, 4").'
    )
    member = MemberRef()
    rating = RatingFields()


@extend_schema_field(serializers.ChoiceField(choices=Season.Rule.choices))
class RuleField(serializers.CharField):
    """A season's rule: read as text, so that an unknown one is refused where the season is
    saved (422 ``bad_season``), with every other value a season refuses."""


class SeasonSerializer(StrictModel):
    """A club's season: its dates, how its evenings score (``rule``, ``points``) and how many
    of each member's evenings count (``best``).

    A body of the wrong shape (not a date, not a list of whole numbers) is 400 ``invalid``; a
    value a season refuses, 422 ``bad_season`` (docs/seasons.md).
    """

    # only the shapes here: the values are the season's to refuse where it is saved
    # (``Season.clean``), so that they are 422 ``bad_season`` as documented, not 400s

    name = serializers.CharField(
        allow_blank=True, trim_whitespace=False, help_text="1 to 200 characters."
    )
    rule = RuleField(required=False)
    points = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="places: the points of the 1st, 2nd... place; wins: one number, per match "
        "won (1 to 64 whole numbers from 0 to 10,000).",
    )  # fmt: skip
    best = serializers.IntegerField(
        allow_null=True, required=False,
        help_text="Only each member's best N evenings count, 1 to 1000 (null: all).",
    )  # fmt: skip

    class Meta:
        model = Season
        fields = ["id", "club", "name", "starts_on", "ends_on", "rule", "points", "best"]
        read_only_fields = ["id", "club"]


class LadderLineSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(
        help_text="By points, then first places, then matches won: members level on all three "
        'share a rank ("1, 2, 2, 4").'
    )
    member = MemberRef()
    points = serializers.IntegerField(help_text="Of the counted evenings.")
    evenings = serializers.IntegerField(help_text="Evenings played in the season so far.")
    counted = serializers.IntegerField(help_text="Of which count (the best N).")
    wins = serializers.IntegerField(help_text="Evenings won (first places), of the counted.")
    won = serializers.IntegerField(help_text="Matches won, in the counted evenings.")


class RatingChangeSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    tournament = serializers.IntegerField()
    day = serializers.DateField(help_text="The evening's date.")
    finished_at = serializers.DateTimeField()
    partner = MemberRef()
    result = serializers.CharField(help_text="won, drew or lost")
    mu_before = serializers.FloatField(help_text="Before the match (after the drift of time away).")
    sigma_before = serializers.FloatField(help_text="Before the match.")
    mu = serializers.FloatField(help_text="After the match.")
    sigma = serializers.FloatField(help_text="After the match.")


class SeatSerializer(serializers.Serializer[Any]):
    member = MemberRef()
    rating = RatingFields(
        allow_null=True, help_text="Before the match; null when the member hides their rating."
    )


class MatchStorySerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    result = serializers.CharField(help_text="won, drew or lost")
    before = RatingFields(help_text="Before the match (after the drift of time away).")
    after = RatingFields()
    moved = serializers.FloatField(help_text="after.conservative - before.conservative.")
    expected = serializers.FloatField(
        allow_null=True,
        help_text="The member's side's chance to win by the model: "
        "Phi((sum mu - sum mu of the opponents) / sqrt(2 beta^2 + the four sigma^2)); null "
        "when one of the others hides their rating (the chance would give it away).",
    )
    actual = serializers.FloatField(help_text="1 won, 0.5 drew, 0 lost.")
    partner = SeatSerializer()
    opponents = SeatSerializer(many=True)


class EveningStorySerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    before = RatingFields(help_text="Before the evening's first rated match.")
    after = RatingFields(help_text="After its last.")
    moved = serializers.FloatField(help_text="after.conservative - before.conservative.")
    expected = serializers.FloatField(
        allow_null=True,
        help_text="The sum of the matches' expected results (null when one is not shown).",
    )
    actual = serializers.FloatField(help_text="The sum of their results.")
    matches = MatchStorySerializer(many=True)


class EveningSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    team = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)
    won = serializers.IntegerField()
    played = serializers.IntegerField()


MemberRatingSerializer = inline_serializer(
    "MemberRating",
    {
        "member": MemberRef(),
        "rating": RatingFields(allow_null=True),
        "rating_hidden": serializers.BooleanField(
            help_text="The member keeps their rating from the club's public page and API."
        ),
        "settled_after": serializers.IntegerField(
            help_text="Rated matches after which a rating is no longer provisional."
        ),
        "history": RatingChangeSerializer(many=True),
        "story": EveningStorySerializer(
            many=True, help_text="What each published evening did to the rating, latest first."
        ),
        "partnerships": inline_serializer(
            "Partnership",
            {"member": MemberRef(), "rating": RatingFields()},
            many=True,
            help_text="The pair's own rating, for partners of at least 5 matches together.",
        ),
        "partners": inline_serializer(
            "Partner",
            {
                "member": MemberRef(),
                "played": serializers.IntegerField(),
                "won": serializers.IntegerField(),
            },
            many=True,
        ),
        "evenings": EveningSerializer(many=True),
        "ladders": inline_serializer(
            "LadderPlace",
            {
                "season": serializers.IntegerField(),
                "name": serializers.CharField(),
                "rank": serializers.IntegerField(),
                "points": serializers.IntegerField(),
            },
            many=True,
        ),
    },
)


#: whether anyone may see a club's ladders, ratings and member pages
class ClubSeasonsSettings(Strict):
    """Whether anyone may see the club's ladders, ratings and member pages, and after how
    many rated matches a member's rating is settled (a PATCH changes those it names)."""

    public = serializers.BooleanField(required=False)
    settled_after = serializers.IntegerField(
        required=False,
        help_text="Rated matches after which a rating is no longer provisional: 1 to 1000 "
        "(10 unless the club chose; outside, 422 bad_season).",
    )


ClubSeasonsSettingsSerializer = ClubSeasonsSettings()


class RatingPrivacy(Strict):
    """Whether the member's rating is kept from the club's public page and API."""

    hidden = serializers.BooleanField()


RatingPrivacySerializer = RatingPrivacy()
