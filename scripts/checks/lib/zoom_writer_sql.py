"""check_zoom: one concurrent writer's SQL, 20 transactions upserting 12 of CELLS (sorted, so
overlapping writers cannot deadlock) as RUNNER's through RUN. Usage: zoom_writer_sql.py CELLS RUNNER RUN W
An odd W defers the coarse cells' pass to territory_zoom_flush() (territory.zoom_defer), an even one
gets it in its upsert's statement, as every writer does today.
"""
import random, sys
cells = open(sys.argv[1]).read().split()
rng = random.Random(int(sys.argv[4]))
for k in range(20):
    pick = sorted(rng.sample(cells, 12))
    print("begin; set local role service_role;")
    if int(sys.argv[4]) % 2: print("select set_config('territory.zoom_defer', 'on', true);")
    print("insert into territory_hex (hex_id, owner_user_id, last_run_id, claimed_at) values " + ",".join(
        f"('{c}', '{sys.argv[2]}', '{sys.argv[3]}', '2026-11-27 0{sys.argv[4]}:00:{k:02d}+00')" for c in pick)
        + " on conflict (hex_id) do update set owner_user_id = excluded.owner_user_id, last_run_id = excluded.last_run_id, claimed_at = excluded.claimed_at;")
    if int(sys.argv[4]) % 2: print("select territory_zoom_flush();")
    print("commit;")
