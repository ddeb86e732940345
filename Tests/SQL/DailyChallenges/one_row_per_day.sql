-- The quiz's table (20261122000000_daily_challenges_one_row_per_date.sql, CONTRACTS §6): one
-- question per date, exactly one question type per row, the answer an ISO alpha-2 code.
begin;
select plan(8);

select has_table('public', 'daily_challenges', 'the quiz has its table');
select col_is_unique('public', 'daily_challenges', array['date'], 'date is unique (daily_challenges_date_key)');

insert into public.daily_challenges (date, is_guess_flag, answer) values (date '2031-01-01', true, 'FR');
select lives_ok($$insert into public.daily_challenges (date, is_guess_capital, answer) values (date '2031-01-02', true, 'DE')$$,
  'a question on the next day is taken');
select throws_ok($$insert into public.daily_challenges (date, is_guess_country, answer) values (date '2031-01-01', true, 'IT')$$,
  '23505', null, 'a second question on one date is refused (unique_violation)');
select throws_ok($$update public.daily_challenges set date = date '2031-01-01' where date = date '2031-01-02'$$,
  '23505', null, 'moving a question onto a taken date is refused');
select throws_ok($$insert into public.daily_challenges (date, is_guess_flag, is_guess_capital, answer) values (date '2031-01-03', true, true, 'ES')$$,
  '23514', null, 'a row with two question types is refused (check_violation)');
select throws_ok($$insert into public.daily_challenges (date, answer) values (date '2031-01-04', 'ES')$$,
  '23514', null, 'a row with no question type is refused');
select throws_ok($$insert into public.daily_challenges (date, is_guess_flag, answer) values (date '2031-01-05', true, 'fr')$$,
  '23514', null, 'an answer that is not an ISO alpha-2 code is refused');

select * from finish();
rollback;
