do $geodata$ begin
  if to_regclass('geodata.quarantined_runs') is null then
    perform pg_advisory_xact_lock(-790371977963413880);
    if to_regnamespace('geodata') is null then
      create schema geodata;
      revoke all on schema geodata from public;
    end if;
    create table if not exists geodata.quarantined_runs (
      run_id uuid primary key,
      reason text not null,
      judged_at timestamptz not null
    );
  end if;
end $geodata$;
create temporary table if not exists judged_runs (id uuid primary key, user_id uuid not null, started_at timestamptz not null,
  ended_at timestamptz not null, distance_m double precision, duration_s double precision, valid_loop boolean,
  path geometry(linestring, 4326), loop_polygon geometry(polygon, 4326)) on commit delete rows;
alter table judged_runs alter column path set storage external, alter column loop_polygon set storage external;
select set_config('default_toast_compression', 'lz4', false) from pg_settings
 where name = 'default_toast_compression' and 'lz4' = any(enumvals);
create temporary table if not exists judged_cells (hex_id text primary key, owner_user_id uuid not null, last_run_id uuid not null,
  claimed_at timestamptz not null, cell geometry(polygon, 4326)) on commit delete rows;