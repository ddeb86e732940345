# check_bad_inputs.sh: OUT — a 200 MB coordinate array: one ring of ~9.5 M positions that never closes.
import sys
with open(sys.argv[1], "w") as f:
    f.write('{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"NAME":"Atlantis","SU_A3":"ATL","SOV_A3":"ATL","ISO_A2_EH":"AD","CONTINENT":"Europe"},"geometry":{"type":"Polygon","coordinates":[[')
    chunk = ",".join(f"[{10 + i * 1e-6:.6f},{20 + i * 1e-6:.6f}]" for i in range(100000))
    for _ in range(95):
        f.write(chunk); f.write(",")
    f.write("[0,0]]]}}]}")
