#!/bin/sh
# deploy/restore.sh FILE TARGET_URL: restore a deploy/backup.sh dump into an empty database.
#
# TARGET_URL names a database that exists and is empty (createdb it first): a restore never
# writes over a live database. All or nothing (one transaction). The event table's
# append-only triggers come back with the schema, after the rows. Then check the result:
#   DATABASE_URL=TARGET_URL python manage.py verify_match --all
#   DATABASE_URL=TARGET_URL python manage.py rebuild_projections --check
set -eu
file="${1:?usage: deploy/restore.sh FILE TARGET_URL}"
target="${2:?usage: deploy/restore.sh FILE TARGET_URL}"
pg_restore --exit-on-error --single-transaction --no-owner --no-privileges --dbname="$target" "$file"
echo "restore: $file restored"
