-- The running game's schema, as CONTRACTS §8 gives it (the tables the game's app owns; the
-- pipeline only writes rows). Used by check_territory.sh to load territory_hex.sql into.
create extension if not exists postgis;
create extension if not exists "uuid-ossp";
create table users (id uuid primary key default uuid_generate_v4(), username text not null unique,
  avatar_url text, created_at timestamptz default now());
create table runs (id uuid primary key default uuid_generate_v4(), user_id uuid references users(id),
  started_at timestamptz not null, ended_at timestamptz not null, distance_m double precision,
  duration_s double precision, valid_loop boolean default false, path geometry(linestring, 4326),
  loop_polygon geometry(polygon, 4326), created_at timestamptz default now());
create table territory_hex (hex_id text primary key, owner_user_id uuid references users(id),
  last_run_id uuid references runs(id), claimed_at timestamptz);
create index idx_territory_owner on territory_hex(owner_user_id);
create index idx_runs_user on runs(user_id);
