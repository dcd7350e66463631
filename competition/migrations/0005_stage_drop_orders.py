"""A stage records the drop orders its double-elimination bracket was drawn with.

The rows already there get "fewest_possible", the rule every bracket was drawn with until
now: a bracket is read again from its seeds whenever a result comes in, so one drawn before
the measured table must keep its orders. A stage drawn from now on records "measured".
"""

from django.db import migrations, models

CHOICES = [
    ("fewest_possible", "per round, the fewest possible rematches"),
    ("measured", "the table measured by the rematches that happen"),
]
HELP = (
    "Double elimination: the losers' bracket drop orders its bracket was drawn with (set when "
    "drawn; docs/competition.md)."
)


class Migration(migrations.Migration):
    dependencies = [
        ("competition", "0004_stage_review_draw"),
    ]

    operations = [
        # the existing rows take the default of the AddField: the old rule
        migrations.AddField(
            model_name="stage",
            name="drop_orders",
            field=models.CharField(
                choices=CHOICES, default="fewest_possible", help_text=HELP, max_length=16
            ),
        ),
        # new rows: the measured table
        migrations.AlterField(
            model_name="stage",
            name="drop_orders",
            field=models.CharField(
                choices=CHOICES, default="measured", help_text=HELP, max_length=16
            ),
        ),
    ]
