-- A database set up as a Supabase project is (for the checks only; never apply to Supabase):
-- the API's roles, auth.uid() as Supabase defines it, the schema `extensions` holding the
-- extensions a project has (PostGIS, pg_trgm, unaccent, uuid-ossp, pgcrypto), the database's
-- search_path ("$user", public, extensions), Supabase's default privileges (ALL on every new
-- table, function and sequence in public to anon, authenticated and service_role), and
-- pgrst.db_schemas, the schemas PostgREST serves (the advisor's rules read it). Apply as the
-- role that applies the migrations (`postgres`) to a fresh database: psql -v db=NAME -f this.
-- btree_gist is left out on purpose: a project has it only when a migration creates it, which
-- is where it lands that the advisor looks at (extension_in_public).

-- The API's roles (cluster-wide: made once). authenticator is the role PostgREST logs in as.
do $roles$ begin
  if not exists (select from pg_roles where rolname = 'anon') then create role anon nologin noinherit; end if;
  if not exists (select from pg_roles where rolname = 'authenticated') then create role authenticated nologin noinherit; end if;
  if not exists (select from pg_roles where rolname = 'service_role') then create role service_role nologin noinherit bypassrls; end if;
  if not exists (select from pg_roles where rolname = 'authenticator') then create role authenticator noinherit login; end if;
end $roles$;
grant anon, authenticated, service_role to authenticator;

-- auth.uid() with Supabase's definition (the sub of request.jwt.claims).
\ir supabase_auth.sql
create or replace function auth.role() returns text language sql stable as $$
  select coalesce(nullif(current_setting('request.jwt.claim.role', true), ''),
                  (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role'))::text $$;
create or replace function auth.jwt() returns jsonb language sql stable as $$
  select coalesce(nullif(current_setting('request.jwt.claim', true), ''),
                  nullif(current_setting('request.jwt.claims', true), ''))::jsonb $$;
grant execute on function auth.role(), auth.jwt() to public;

-- Extensions where Supabase puts them.
create schema if not exists extensions;
grant usage on schema extensions to anon, authenticated, service_role;
create extension if not exists postgis with schema extensions;
create extension if not exists pg_trgm with schema extensions;
create extension if not exists unaccent with schema extensions;
create extension if not exists "uuid-ossp" with schema extensions;
create extension if not exists pgcrypto with schema extensions;
select format('alter database %I set search_path = "$user", public, extensions', current_database()) \gexec
select format('alter database %I set pgrst.db_schemas = %L', current_database(), 'public, graphql_public') \gexec
set search_path = "$user", public, extensions;

-- Supabase's grants on public and its default privileges for what the migrations' role makes.
grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
