"""Formats the benchmark's raw records (bench/run.sh) as tables of medians."""
import sys, statistics
from collections import defaultdict

stages_path, totals_path = sys.argv[1], sys.argv[2]
stage = defaultdict(lambda: {"secs": [], "cpu": [], "peak": [], "summary": ""})
order = []
for line in open(stages_path, encoding="utf-8"):
    run, target, binary, secs, peak, summary, cpu = (line.rstrip("\n").split("\t") + [""] * 7)[:7]
    if not run.startswith("bench-"):
        continue
    scale = run.split("-")[1]
    key = (scale, binary, target)
    if key not in stage:
        order.append(key)
    stage[key]["secs"].append(float(secs))
    stage[key]["cpu"].append(float(cpu or 0))
    stage[key]["peak"].append(float(peak) / 1024)
    stage[key]["summary"] = summary

totals = defaultdict(list)
sizes = []
for line in open(totals_path, encoding="utf-8"):
    parts = line.rstrip("\n").split("\t")
    if parts[1] == "size":
        sizes.append((parts[0], parts[2], int(parts[3])))
    else:
        totals[(parts[0], parts[1])].append(float(parts[2]))

runs = max((len(v["secs"]) for v in stage.values()), default=0)
print(f"Benchmark: medians of {runs} runs from a clean build/, after the Swift build")
print()
print(f"{'scale':6} {'stage':17} {'output':36} {'wall s':>7} {'cpu s':>7} {'peak MB':>8}  summary")
for key in order:
    scale, binary, target = key
    v = stage[key]
    print(f"{scale:6} {binary:17} {target:36} {statistics.median(v['secs']):7.3f} {statistics.median(v['cpu']):7.3f} {statistics.median(v['peak']):8.1f}  {v['summary'][:110]}")
print()
for (scale, what), vals in totals.items():
    print(f"{scale:6} {what:45} median {statistics.median(vals):7.3f} s  (runs: {', '.join(f'{x:.3f}' for x in vals)})")
print()
for scale, path, size in sizes:
    print(f"{scale:6} {path:45} {size / 1e6:8.2f} MB")
