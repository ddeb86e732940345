-- The quiz app's own table, as it made it by hand before the pipeline's migration (CONTRACTS §6):
-- the migration's columns, without its constraints (no unique date, no one-type check). Used by
-- check_challenges.sh, check_nightly.sh, check_advisor.sh and check_pgtap.sh to apply the
-- migration over it.
create table public.daily_challenges (
  id uuid primary key default gen_random_uuid(),
  date date not null,
  is_guess_country boolean default false,  -- clue: silhouette; answer: country name
  is_guess_capital boolean default false,  -- clue: country name + flag; answer: capital
  is_guess_flag    boolean default false,  -- clue: flag emoji; answer: country name
  answer text not null,                    -- ISO 3166-1 alpha-2
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
