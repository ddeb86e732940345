-- daily_challenges: one quiz question per day (CONTRACTS §6).
-- Written by geo-challenges. Safe to apply more than once: it creates the table if it is
-- missing and adds the constraints a table created earlier lacks. A table that already
-- breaks one (two rows on one date, a row without exactly one type, an answer that is not
-- an ISO code) is refused with the dates listed, and nothing is changed. No begin/commit:
-- the Supabase CLI runs a migration file in a transaction; each statement here is atomic.

create table if not exists public.daily_challenges (
  id uuid primary key default gen_random_uuid(),
  date date not null,
  is_guess_country boolean default false,  -- clue: silhouette; answer: country name
  is_guess_capital boolean default false,  -- clue: country name + flag; answer: capital
  is_guess_flag    boolean default false,  -- clue: flag emoji; answer: country name
  answer text not null,                    -- ISO 3166-1 alpha-2
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

do $geo$
declare
  bad text;
begin
  if not exists (select 1 from pg_constraint
                 where conrelid = 'public.daily_challenges'::regclass and conname = 'daily_challenges_date_key') then
    select string_agg(d::text || ' (' || n || ' rows)', ', ' order by d) into bad
      from (select date as d, count(*) as n from public.daily_challenges group by date having count(*) > 1) dup;
    if bad is not null then
      raise exception 'daily_challenges has more than one row on these dates: %', bad
        using hint = 'Keep one row per date (the one players answered), delete the others, then apply this migration again. Nothing was changed.';
    end if;
    alter table public.daily_challenges add constraint daily_challenges_date_key unique (date);
  end if;
  if not exists (select 1 from pg_constraint
                 where conrelid = 'public.daily_challenges'::regclass and conname = 'daily_challenges_one_type') then
    select string_agg(date::text, ', ' order by date) into bad from public.daily_challenges
      where (coalesce(is_guess_country, false)::int + coalesce(is_guess_capital, false)::int
           + coalesce(is_guess_flag, false)::int) <> 1;
    if bad is not null then
      raise exception 'daily_challenges has rows without exactly one question type on these dates: %', bad
        using hint = 'Set exactly one of is_guess_country, is_guess_capital, is_guess_flag on each, then apply this migration again. Nothing was changed.';
    end if;
    alter table public.daily_challenges add constraint daily_challenges_one_type check (
      (coalesce(is_guess_country, false)::int
     + coalesce(is_guess_capital, false)::int
     + coalesce(is_guess_flag, false)::int) = 1);
  end if;
  if not exists (select 1 from pg_constraint
                 where conrelid = 'public.daily_challenges'::regclass and conname = 'daily_challenges_answer_iso') then
    select string_agg(date::text, ', ' order by date) into bad from public.daily_challenges where answer !~ '^[A-Z]{2}$';
    if bad is not null then
      raise exception 'daily_challenges has answers that are not ISO alpha-2 codes on these dates: %', bad
        using hint = 'Fix those answers, then apply this migration again. Nothing was changed.';
    end if;
    alter table public.daily_challenges add constraint daily_challenges_answer_iso check (answer ~ '^[A-Z]{2}$');
  end if;
end
$geo$;
