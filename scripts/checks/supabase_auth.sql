-- Supabase's auth.uid() on plain PostgreSQL (the checks' throwaway servers, the workflow's PostGIS
-- service): the signed-in user is the `sub` of the request's JWT claims, which PostgREST puts in
-- the setting request.jwt.claims (older versions: request.jwt.claim.sub). The body is Supabase's
-- own definition. A Supabase project has this function already: never apply this file there
-- (the game's migrations never create `auth` themselves). Safe to apply twice.
create schema if not exists auth;
create or replace function auth.uid() returns uuid
  language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;
-- Every role may call it (on Supabase the API's roles and `postgres`, which applies migrations,
-- may; here the night's own role too).
grant usage on schema auth to public;
grant execute on function auth.uid() to public;
