"""Make tournaments_matchevent append-only in the database itself.

Triggers refuse every UPDATE and DELETE of an event (and, on PostgreSQL, TRUNCATE of the
table), whoever asks: the ORM, the admin, a shell or raw SQL. Mistakes are fixed by
appending compensating events. Both backends raise an integrity error (SQLite's RAISE(ABORT)
is SQLITE_CONSTRAINT; PostgreSQL's SQLSTATE 23SE1 is in class 23), so the application sees
django.db.IntegrityError on either, with a message starting "match events are append-only".

Beware on SQLite: Django alters a table there by copying it into a new one, which drops its
triggers. A later migration that changes tournaments_matchevent must install these triggers
again (tests/tournaments/test_append_only.py fails if they are missing).
"""

from django.db import migrations

TABLE = "tournaments_matchevent"

SQLITE_INSTALL = [
    f"""
    CREATE TRIGGER {TABLE}_no_update BEFORE UPDATE ON {TABLE}
    BEGIN
        SELECT RAISE(ABORT, 'match events are append-only');
    END
    """,
    f"""
    CREATE TRIGGER {TABLE}_no_delete BEFORE DELETE ON {TABLE}
    BEGIN
        SELECT RAISE(ABORT, 'match events are append-only');
    END
    """,
]
SQLITE_REMOVE = [
    f"DROP TRIGGER IF EXISTS {TABLE}_no_update",
    f"DROP TRIGGER IF EXISTS {TABLE}_no_delete",
]

POSTGRESQL_INSTALL = [
    f"""
    CREATE FUNCTION {TABLE}_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION USING
            ERRCODE = '23SE1',
            MESSAGE = 'match events are append-only: ' || TG_OP || ' on ' || TG_TABLE_NAME
                || ' is refused',
            HINT = 'Fix a mistake by appending a compensating event.';
    END
    $$
    """,
    f"""
    CREATE TRIGGER {TABLE}_no_update_or_delete BEFORE UPDATE OR DELETE ON {TABLE}
    FOR EACH ROW EXECUTE FUNCTION {TABLE}_refuse()
    """,
    f"""
    CREATE TRIGGER {TABLE}_no_truncate BEFORE TRUNCATE ON {TABLE}
    FOR EACH STATEMENT EXECUTE FUNCTION {TABLE}_refuse()
    """,
]
POSTGRESQL_REMOVE = [
    f"DROP TRIGGER IF EXISTS {TABLE}_no_truncate ON {TABLE}",
    f"DROP TRIGGER IF EXISTS {TABLE}_no_update_or_delete ON {TABLE}",
    f"DROP FUNCTION IF EXISTS {TABLE}_refuse()",
]

STATEMENTS = {
    "sqlite": (SQLITE_INSTALL, SQLITE_REMOVE),
    "postgresql": (POSTGRESQL_INSTALL, POSTGRESQL_REMOVE),
}


def _statements(schema_editor, which):
    vendor = schema_editor.connection.vendor
    if vendor not in STATEMENTS:
        raise NotImplementedError(
            f"the append-only triggers of {TABLE} are written for SQLite and PostgreSQL, "
            f"not {vendor}"
        )
    return STATEMENTS[vendor][which]


def install(apps, schema_editor):
    for sql in _statements(schema_editor, 0):
        # params=None: the SQL is run as written, with no %-placeholder processing.
        schema_editor.execute(sql, params=None)


def remove(apps, schema_editor):
    for sql in _statements(schema_editor, 1):
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(install, remove),
    ]
