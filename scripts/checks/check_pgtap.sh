#!/usr/bin/env bash
# The apps' SQL promises, tested the way Supabase projects test theirs (`supabase test db`):
# pgTAP test files run by pg_prove against a database built from the migration files themselves
# (no build, no dist/ needed):
#
#   - a throwaway server (scripts/checks/lib/pg.sh) with Supabase's client roles (anon,
#     authenticated, service_role) and its default privileges (every new table and function in
#     public granted to all three: the migrations' revokes and policies are what protects);
#   - one database holding the three apps, as the nightly's live database does: the game's
#     tables (territory_schema.sql), auth.uid() (supabase_auth.sql) and the game's migrations;
#     the cities' migrations; the quiz app's own daily_challenges table (daily_challenges_app.sql)
#     and the quiz's migration. Each folder in name order, every migration applied twice;
#   - pg_prove over Tests/SQL/, a folder per target that owns migrations (TerritoryGame,
#     CitiesSchema, DailyChallenges); each test file runs in a transaction it rolls back.
# pg_prove's summary (`Files=…, Tests=…`, `Result: PASS`) closes the output.
set -euo pipefail
cd "$(dirname "$0")/../.."

PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
TESTS=${PGTAP_TESTS:-Tests/SQL}
if [ ! -x "$PGBIN/postgres" ] || ! command -v pg_prove >/dev/null || [ ! -f /usr/share/postgresql/15/extension/pgtap.control ]; then
  bash scripts/setup.sh --test
fi
command -v pg_prove >/dev/null || { echo "check_pgtap: pg_prove is missing (libtap-parser-sourcehandler-pgtap-perl)"; exit 1; }

source scripts/checks/lib/pg.sh
pg_start check_pgtap C timezone=UTC

# Supabase's client roles (cluster-wide) and default privileges.
pg_sql postgres "do \$\$ begin
  if not exists (select from pg_roles where rolname = 'anon') then create role anon nologin noinherit; end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then create role authenticated nologin noinherit; end if;
  if not exists (select from pg_roles where rolname = 'service_role') then create role service_role nologin noinherit bypassrls; end if;
end \$\$"
pg_sql postgres "create database apps"
APPS=("${PSQL[@]}" -d apps)
pg_sql apps "grant usage on schema public to anon, authenticated, service_role;
  alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
  alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
  alter default privileges in schema public grant all on sequences to anon, authenticated, service_role"

# The apps, from their migration files.
"${APPS[@]}" -f scripts/checks/territory_schema.sql -f scripts/checks/supabase_auth.sql -f scripts/checks/daily_challenges_app.sql
migrations=()
for dir in Sources/TerritoryGame/Migrations Sources/CitiesSchema/Migrations Sources/DailyChallenges/Migrations; do
  mapfile -t -O ${#migrations[@]} migrations < <(ls "$dir"/*.sql | LC_ALL=C sort)
done
for pass in 1 2; do for m in "${migrations[@]}"; do "${APPS[@]}" -f "$m" >/dev/null; done; done
pg_sql apps "create extension pgtap"
echo "PostgreSQL $(pg_sql apps 'show server_version'), pgTAP $(pg_sql apps 'select pgtap_version()'): ${#migrations[@]} migrations applied twice"

# pg_prove connects as postgres over the socket; each file sets the role it tests.
cd "$TESTS"
pg_prove -h "$SOCK" -U postgres -d apps --ext .sql -r .
