"""The snapshot's state stored as the canonical JSON text its digest binds, not as jsonb.

Every append rewrites the snapshot, and PostgreSQL parsed the state's JSON into jsonb on
each (about a tenth of the server's work of an append, by perf), for a value the database
never looks into: the store reads it back whole, proves it by its digest and decodes it in
Python. Stored as text it is the exact string the digest is taken over, so a read proves
it without encoding it again. Existing rows are rewritten as canonical JSON (sorted keys, no
spaces, UTF-8 as is: ``tournaments.chain.canonical_json``), so their digests still prove.

On PostgreSQL the append's functions take and return the state as text: the read's result
columns and the write's and the try's arguments change, so they are dropped and created
again (0006, 0008: the same bodies); the column keeps lz4 compression.
"""

import importlib
import json

from django.db import migrations, models

APPEND_FUNCTIONS = importlib.import_module("tournaments.migrations.0006_append_functions")
ONE_TRIP = importlib.import_module("tournaments.migrations.0008_append_in_one_trip")

WRITE_SIGNATURE = (
    "tournaments_append_write(bigint, jsonb, varchar, integer, varchar, varchar, {}, "
    "timestamptz)"
)
TRY_SIGNATURE = (
    "tournaments_append_try(bigint, integer, text, text, text, boolean, integer, varchar, "
    "varchar, jsonb, varchar, integer, varchar, varchar, {}, timestamptz)"
)


def _as_text(sql: str) -> str:
    changed = sql.replace("p_state jsonb", "p_state text").replace("s_state jsonb", "s_state text")
    assert changed != sql
    return changed


def _functions(state_type: str) -> list[str]:
    """The three functions' definitions, the state typed ``state_type``."""
    if state_type == "jsonb":
        return [ONE_TRIP.READ, APPEND_FUNCTIONS.WRITE, ONE_TRIP.TRY]
    return [_as_text(ONE_TRIP.READ), _as_text(APPEND_FUNCTIONS.WRITE), _as_text(ONE_TRIP.TRY)]


def _drop(state_type: str) -> list[str]:
    return [
        f"DROP FUNCTION IF EXISTS {TRY_SIGNATURE.format(state_type)}",
        f"DROP FUNCTION IF EXISTS {WRITE_SIGNATURE.format(state_type)}",
        f"DROP FUNCTION IF EXISTS {ONE_TRIP.READ_SIGNATURE}",
    ]


def drop_jsonb_functions(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for sql in _drop("jsonb"):
            schema_editor.execute(sql, params=None)


def create_jsonb_functions(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for sql in _drop("text") + _functions("jsonb") + [APPEND_FUNCTIONS.LZ4]:
            schema_editor.execute(sql, params=None)


def create_text_functions(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for sql in _functions("text") + [APPEND_FUNCTIONS.LZ4]:
            schema_editor.execute(sql, params=None)


def canonical_states(apps, schema_editor):
    """Rewrite each stored state as canonical JSON (the column's type changed its text)."""
    snapshot = apps.get_model("tournaments", "MatchSnapshot")
    rows = snapshot.objects.using(schema_editor.connection.alias)
    for match_id, state in rows.values_list("match_id", "state").iterator():
        try:
            text = json.dumps(
                json.loads(state), sort_keys=True, separators=(",", ":"), ensure_ascii=False
            )
        except ValueError:
            continue  # not JSON: it does not prove, and is rebuilt from the log when read
        if text != state:
            rows.filter(match_id=match_id).update(state=text)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_append_in_one_trip"),
    ]

    operations = [
        migrations.RunPython(drop_jsonb_functions, create_jsonb_functions),
        migrations.AlterField(
            model_name="matchsnapshot",
            name="state",
            field=models.TextField(
                help_text="The state's canonical JSON: the very text the digest binds."
            ),
        ),
        migrations.RunPython(create_text_functions, migrations.RunPython.noop),
        # last: an ALTER TABLE (the compression) cannot follow an UPDATE in one transaction
        migrations.RunPython(canonical_states, migrations.RunPython.noop),
    ]
