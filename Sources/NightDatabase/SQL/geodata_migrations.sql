create table if not exists geodata.migrations (
  name text primary key,
  sha256 text not null,
  applied_at timestamptz not null
);