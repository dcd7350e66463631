"""A tournament's slug is the site's only once it is published; until then, its club's.

The column's UNIQUE goes (an index stays, for the lookups by slug) and three partial or
composite unique indexes take its place: one published tournament a slug, one tournament a
slug in a club, one among the tournaments of no club. Every existing row had a slug of its
own, so each holds at once. Going back restores UNIQUE, which holds only while no two
tournaments share a slug (rename one first).
"""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0023_snapshot_behind_head'),
    ]

    operations = [
        migrations.AlterField(
            model_name='tournament',
            name='slug',
            field=models.SlugField(max_length=100),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.UniqueConstraint(condition=models.Q(('published', True)), fields=('slug',), name='tournament_slug_published', violation_error_code='slug_taken', violation_error_message='the address is taken: choose another'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.UniqueConstraint(fields=('club', 'slug'), name='tournament_slug_in_club', violation_error_code='slug_taken', violation_error_message='the address is taken: choose another'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.UniqueConstraint(condition=models.Q(('club__isnull', True)), fields=('slug',), name='tournament_slug_clubless', violation_error_code='slug_taken', violation_error_message='the address is taken: choose another'),
        ),
    ]
