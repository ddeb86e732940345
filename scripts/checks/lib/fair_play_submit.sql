-- check_fair_play.sh: every run of `staged` (k, id, user_id, body) submitted through submit_run in
-- order, each as its runner (request.jwt.claims, as PostgREST sets them), each in its own
-- subtransaction; what submit_run answered goes to `results` (state: ok or the SQLSTATE, message,
-- milliseconds).
do $$
declare
  r record;
  t0 timestamptz;
begin
  for r in select * from staged order by k loop
    perform set_config('request.jwt.claims', json_build_object('sub', r.user_id, 'role', 'authenticated')::text, true);
    t0 := clock_timestamp();
    begin
      perform public.submit_run(r.body);
      insert into results values (r.k, r.id, 'ok', null, extract(epoch from clock_timestamp() - t0) * 1000);
    exception when others then
      insert into results values (r.k, r.id, sqlstate, sqlerrm, extract(epoch from clock_timestamp() - t0) * 1000);
    end;
  end loop;
end
$$;
