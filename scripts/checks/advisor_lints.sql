-- Supabase's Security Advisor (its linter's security rules, by their names), written as our own
-- queries over the catalogs: one row per finding, `level | name | object | detail`, ordered.
-- Read only; run it in the database the migrations were applied to (scripts/checks/check_advisor.sh).
-- The schemas Supabase manages itself are left out as the Advisor leaves them out; "the API's
-- schemas" are those of pgrst.db_schemas; "a client role" is anon or authenticated.
set search_path = pg_catalog;
with
sys(nspname) as (values ('_timescaledb_cache'), ('_timescaledb_catalog'), ('_timescaledb_config'), ('_timescaledb_internal'),
  ('auth'), ('cron'), ('extensions'), ('graphql'), ('graphql_public'), ('information_schema'), ('net'), ('pgmq'), ('pgroonga'),
  ('pgsodium'), ('pgsodium_masks'), ('pgtle'), ('pgbouncer'), ('pg_catalog'), ('pg_toast'), ('realtime'), ('repack'), ('storage'),
  ('supabase_functions'), ('supabase_migrations'), ('tiger'), ('topology'), ('vault')),
api(nspname) as (select btrim(s) from unnest(string_to_array(coalesce(current_setting('pgrst.db_schemas', true), 'public'), ',')) s),
ext_owned(objid) as (select objid from pg_depend where deptype = 'e'),
rel as (
  select c.oid, n.nspname, c.relname, c.relkind, c.relrowsecurity, c.reloptions,
         has_table_privilege('anon', c.oid, 'SELECT') or has_table_privilege('authenticated', c.oid, 'SELECT') as client_reads
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where n.nspname not in (select nspname from sys) and c.oid not in (select objid from ext_owned)),
fn as (
  select p.oid, n.nspname, p.proname, pg_get_function_identity_arguments(p.oid) as args, p.prosecdef, p.proconfig
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
   where n.nspname not in (select nspname from sys) and p.oid not in (select objid from ext_owned)),
pol as (
  select n.nspname, c.relname, c.relrowsecurity, p.polname, p.polpermissive, p.polroles,
         case p.polcmd when 'r' then 'SELECT' when 'a' then 'INSERT' when 'w' then 'UPDATE' when 'd' then 'DELETE' else 'ALL' end as cmd,
         pg_get_expr(p.polqual, p.polrelid) as qual, pg_get_expr(p.polwithcheck, p.polrelid) as with_check
    from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
   where n.nspname not in (select nspname from sys)),
lints(level, name, object, detail) as (
  -- 0013: a table the API serves, readable by a client role, without row-level security.
  select 'ERROR', 'rls_disabled_in_public', format('%I.%I', nspname, relname), 'table served by the API without row-level security'
    from rel where relkind in ('r', 'p') and not relrowsecurity and client_reads and nspname in (select nspname from api)
  union all
  -- 0010: a view a client role reads that runs with its owner's rights (row-level security of the owner).
  select 'ERROR', 'security_definer_view', format('%I.%I', nspname, relname), 'view read by a client role without security_invoker'
    from rel where relkind = 'v' and client_reads
     and not coalesce(lower(reloptions::text)::text[], '{}') && array['security_invoker=1', 'security_invoker=true', 'security_invoker=yes', 'security_invoker=on']
  union all
  -- 0011: a function whose search_path is the caller's.
  select 'WARN', 'function_search_path_mutable', format('%I.%I(%s)', nspname, proname, args), 'no search_path set'
    from fn where not exists (select from unnest(coalesce(proconfig, '{}')) c where c like 'search_path=%')
  union all
  -- 0014: an extension installed in public.
  select 'WARN', 'extension_in_public', e.extname, 'extension in schema public'
    from pg_extension e where e.extnamespace = 'public'::regnamespace and e.extname <> 'plpgsql'
  union all
  -- 0007: policies on a table whose row-level security is off (the policies do nothing).
  select 'ERROR', 'policy_exists_rls_disabled', format('%I.%I', nspname, relname), 'policies ' || string_agg(polname, ', ' order by polname) || ' but row-level security off'
    from pol where not relrowsecurity group by nspname, relname
  union all
  -- 0028, 0029: a security definer function a client role may execute.
  select 'WARN', r.role || '_security_definer_function_executable', format('%I.%I(%s)', nspname, proname, args), 'security definer, executable by ' || r.role
    from fn cross join (values ('anon'), ('authenticated')) r(role)
   where prosecdef and has_function_privilege(r.role, fn.oid, 'EXECUTE')
  union all
  -- 0023: a table the API serves to a client role, without row-level security, with a column named like a secret.
  select 'ERROR', 'sensitive_columns_exposed', format('%I.%I', rel.nspname, rel.relname), 'columns ' || string_agg(a.attname, ', ' order by a.attname)
    from rel join pg_attribute a on a.attrelid = rel.oid and a.attnum > 0 and not a.attisdropped
   where rel.relkind in ('r', 'p') and not rel.relrowsecurity and rel.client_reads and rel.nspname in (select nspname from api)
     and replace(lower(a.attname), '-', '_') = any (array['password', 'passwd', 'pwd', 'passphrase', 'secret', 'secret_key', 'private_key',
       'api_key', 'apikey', 'auth_key', 'token', 'jwt', 'access_token', 'refresh_token', 'oauth_token', 'session_token', 'bearer_token',
       'auth_code', 'session_id', 'session_key', 'session_secret', 'recovery_code', 'backup_code', 'verification_code', 'otp', 'two_factor',
       '2fa_secret', '2fa_code', 'ssn', 'social_security', 'social_security_number', 'driver_license', 'drivers_license', 'license_number',
       'passport_number', 'passport_id', 'national_id', 'tax_id', 'credit_card', 'card_number', 'cvv', 'cvc', 'cvn', 'bank_account',
       'account_number', 'routing_number', 'iban', 'swift_code', 'bic', 'health_record', 'medical_record', 'patient_id', 'insurance_number',
       'health_insurance', 'medical_insurance', 'treatment', 'mac_address', 'macaddr', 'imei', 'device_uuid', 'pgp_key', 'gpg_key', 'ssh_key',
       'certificate', 'license_key', 'activation_key', 'facial_recognition'])
   group by rel.nspname, rel.relname
  union all
  -- 0024: a permissive policy for a client role (or everyone) that lets every row be written.
  select 'WARN', 'rls_policy_always_true', format('%I.%I', nspname, relname), format('policy %s for %s always true', polname, cmd)
    from (select *, regexp_replace(lower(coalesce(qual, '')), '\s', '', 'g') as q, regexp_replace(lower(coalesce(with_check, '')), '\s', '', 'g') as w from pol) p
   where relrowsecurity and polpermissive
     and (polroles = array[0::oid] or exists (select from unnest(polroles) r where r::regrole::text in ('anon', 'authenticated')))
     and ((cmd in ('UPDATE', 'DELETE', 'ALL') and (q in ('true', '(true)', '1=1', '(1=1)') or qual is null))
          or w in ('true', '(true)', '1=1', '(1=1)')
          or (with_check is null and cmd = 'INSERT')
          or (with_check is null and cmd in ('UPDATE', 'ALL') and q in ('true', '(true)', '1=1', '(1=1)')))
  union all
  -- 0003: auth.<function>() called once per row in a policy instead of once per query.
  select 'WARN', 'auth_rls_initplan', format('%I.%I', nspname, relname), format('policy %s calls auth.<function>() per row', polname)
    from pol
   where relrowsecurity
     and ((qual ~ 'auth\.(uid|jwt|role|email)\(\)' and lower(qual) !~ 'select\s+auth\.(uid|jwt|role|email)\(\)')
       or (with_check ~ 'auth\.(uid|jwt|role|email)\(\)' and lower(with_check) !~ 'select\s+auth\.(uid|jwt|role|email)\(\)'))
)
select level, name, object, detail from lints order by level, name, object;
