do $geodata$ begin
  if to_regclass('geodata.nights') is null or to_regclass('geodata.migrations') is null then
    perform pg_advisory_xact_lock(-790371977963413880);
  end if;
  if to_regnamespace('geodata') is null then
    create schema geodata;
    revoke all on schema geodata from public;
  end if;
end $geodata$;
create table if not exists geodata.nights (
  app text not null,
  started_at timestamptz not null,
  finished_at timestamptz not null,
  status text not null,
  summary text not null,
  inputs_sha256 text not null,
  pipeline_commit text not null
);