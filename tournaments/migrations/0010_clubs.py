"""Clubs: a club, its directors and its members (``Player`` shown as "member", with a club and
a contact); a tournament's club, date and place.

Schema only: 0011 gives existing tournaments and players their clubs. Every new column is
nullable or blank, so existing rows and the tournaments the API makes without a club stay
valid. Reversed, the columns and the club table go.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0009_snapshot_state_text'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='player',
            options={'ordering': ['name', 'id'], 'verbose_name': 'member'},
        ),
        migrations.AddField(
            model_name='player',
            name='contact',
            field=models.CharField(blank=True, help_text='A phone number or e-mail, to tell two members of one name apart.', max_length=200),
        ),
        migrations.AddField(
            model_name='tournament',
            name='date',
            field=models.DateField(blank=True, help_text='The day it is played.', null=True),
        ),
        migrations.AddField(
            model_name='tournament',
            name='place',
            field=models.CharField(blank=True, help_text='Where it is played.', max_length=200),
        ),
        migrations.CreateModel(
            name='Club',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=200)),
                ('slug', models.SlugField(max_length=100, unique=True)),
                ('time_zone', models.CharField(default='UTC', help_text='The IANA time zone the club plays in (Asia/Kolkata, Europe/London).', max_length=64)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, editable=False)),
                ('directors', models.ManyToManyField(blank=True, help_text='The organizers and directors who run the club.', related_name='clubs_directed', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['name', 'id'],
            },
        ),
        migrations.AddField(
            model_name='player',
            name='club',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='members', to='tournaments.club'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='club',
            field=models.ForeignKey(blank=True, help_text='The club whose members play in it.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='tournaments', to='tournaments.club'),
        ),
    ]
