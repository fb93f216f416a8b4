#!/usr/bin/env bash
# gpu-half and the absorbing layer's cost on a GPU, in one call of at most about eight minutes, through
# `scripts/gpu_bench.sh half` (which sets up the environment and calls this with ISO, DEVICE and OUT):
#   1. verify: gpu-half in its four storage forms on a 67-wide (unaligned rows) and a 64-wide grid, every
#      tuning candidate of gpu-half on the 64-wide one (cp.async needs aligned rows), inside NaN guards;
#   2. the analytic check (receivers 100, 200, 300 m from a Ricker source) of gpu-optimized and gpu-half;
#   3. gpu-half against gpu-optimized at 512³ in one bench (reflecting boundary, then the default layer),
#      and gpu-half's plain storage (8 B per point-step);
#   4. the layer's cost: gpu-optimized and gpu-half (the layer's own passes, and folded: fold_layer=1) at
#      512³, the default layer against --boundary reflecting, three rounds alternating (iso3dfd run, medians);
#   5. every OpenCL stage at 256³, 512³ and 1024³ (iso3dfd bench, scenario oneapi);
#   6. the tuning sweep of gpu-half at 512³ and 256³ (the shipped database's large and medium classes):
#      its "shipped entry" lines go to OUT/tuning-entries.json, ready for resources/tuning/tuning.json.
# OUT/summary.txt is the compact summary printed at the end, OUT/tuning-entries.json the entries, and
# OUT/half-logs.tar.gz every log and JSON file (a device call brings back at most eight files).
# HALF_N, HALF_SMALL and HALF_SIZES (default 512, 256 and 256,512,1024) make a trial of the script on a
# small machine possible.
set -uo pipefail
iso="$1"; device="$2"; out="$3"
n="${HALF_N:-512}"; small="${HALF_SMALL:-256}"; sizes="${HALF_SIZES:-256,512,1024}"
mkdir -p "$out"
step() {  # step LOG ARGS...: runs iso3dfd ARGS, appends its output to OUT/LOG
  local log="$1"; shift
  echo "==== iso3dfd $*" | tee -a "$out/$log"
  "$iso" "$@" 2>&1 | tee -a "$out/$log"
}
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$out/nvidia-smi.txt" 2>&1 || true
step devices.log devices --bandwidth

# 1. verify
for storage in 0 1 2 3; do
  for n1 in 67 64; do
    step verify.log verify "$n1" 45 29 40 --stage gpu-half --param storage=$storage --device "$device" \
         --boundary absorbing --receiver 3,22,14 --receiver 60,40,25
  done
done
step verify.log verify 64 45 29 40 --stage gpu-half --candidates --device "$device" --boundary absorbing \
     --receiver 3,22,14 --receiver 60,40,25
step verify.log verify 67 45 29 400 --stage gpu-optimized,gpu-half --device "$device"

# 2. the analytic check
step analytic.log verify --analytic --stage gpu-optimized,gpu-half --device "$device"
step analytic.log verify --analytic --stage gpu-half --param storage=2 --device "$device"

# 3. gpu-half against gpu-optimized, same card, same run
step compare.log bench "$n" "$n" "$n" 40 --stages gpu-optimized,gpu-half --boundary reflecting --device "$device" \
     --json "$out/compare-reflecting.json"
step compare.log bench "$n" "$n" "$n" 40 --stages gpu-optimized,gpu-half --device "$device" --json "$out/compare-layer.json"
step compare.log bench "$n" "$n" "$n" 40 --stages gpu-half --param storage=2 --boundary reflecting --device "$device" \
     --json "$out/compare-plain.json"

# 4. the layer's cost, alternating: gpu-optimized and gpu-half with the layer's own passes and folded
for round in 1 2 3; do
  for run in gpu-optimized:fold_layer=0 gpu-optimized:fold_layer=1 gpu-half:fold_layer=0 gpu-half:fold_layer=1; do
    stage="${run%%:*}"; param="${run#*:}"
    for boundary in reflecting absorbing; do
      echo "== round $round $stage($param) $boundary" >> "$out/layer.log"
      "$iso" run "$n" "$n" "$n" 200 --stage "$stage" --param "$param" --boundary "$boundary" --device "$device" 2>&1 \
        | grep -E 'throughput|parameters' >> "$out/layer.log"
    done
  done
done

# 5. every OpenCL stage at three sizes
step bench.log bench "$n" "$n" "$n" 20 --scenario oneapi \
     --stages gpu-basic,gpu-linear,gpu-private-z,gpu-private-x,gpu-slm,gpu-optimized,gpu-half,gpu-temporal \
     --sizes "$sizes" --device "$device" --json "$out/bench.json"
# 6. tuning (the user's database of this run, copied to OUT; the shipped entries collected)
for t in "$n" "$small"; do step tune.log tune "$t" "$t" "$t" --stage gpu-half --device "$device"; done
grep '^shipped entry: ' "$out/tune.log" | sed 's/^shipped entry: //' > "$out/tuning-entries.json"

cp "${ISO3DFD_CACHE_DIR:-/tmp/iso3dfd-cache}"/tuning.json "$out/user-tuning.json" 2>/dev/null

python3 - "$out" "$(( $(date +%s) - start ))" "$n" "$sizes" <<'PY' | tee "$out/summary.txt"
import json, re, statistics, sys
out, seconds, n, sizes = sys.argv[1], sys.argv[2], sys.argv[3], [int(x) for x in sys.argv[4].split(",")]
def read(name):
    try: return open(f"{out}/{name}").read()
    except OSError: return ""
def rows(name):
    try: return json.load(open(f"{out}/{name}"))["rows"]
    except (OSError, ValueError, KeyError): return []
print(f"== gpu-half summary ({seconds} s)")
# The device measured: the listed one whose name the analytic check's rows give (PoCL is listed too).
measured = re.search(r"^gpu-\S+\s+(.+?)\s{2,}", read("analytic.log"), re.M)
devices = re.findall(r"^\[\S+\] (.+)$((?:\n(?!\[).*)*)", read("devices.log"), re.M)
dev = next((d for d in devices if measured and d[0].startswith(measured.group(1))), devices[0] if devices else None)
bw = re.search(r"([\d.]+) GB/s", dev[1]) if dev else None
print("device:", dev[0] if dev else "?", "| copy bandwidth:", bw.group(1) + " GB/s" if bw else "?")
v = read("verify.log")
print(f"verify: {len(re.findall(r' ok ', v))} ok, {len(re.findall(r'FAIL', v))} FAIL, "
      f"{len(re.findall(r'skipped', v))} skipped, {len(re.findall(r'error:', v)) - v.count('error: the largest')} errors")
section = ""
for line in v.splitlines():
    if line.startswith("===="): section = line; continue
    # A row: stage (14 characters), device (26), then max|diff|, error, at, traces, tolerance, guards, result.
    if line.startswith("gpu-half ") and "storage=" in line and "--candidates" not in section:
        f = line[42:].split()
        storage = [p for p in f if p.startswith("storage=")][0]
        print(f"   gpu-half {storage} {section.split()[3]}-wide: error {f[1]} (step {f[2]}), traces {f[3]}, {f[6]}")
for line in read("analytic.log").splitlines():
    if line.startswith("gpu-"): print("analytic:", re.sub(r"\s+", " ", line)[:150])
for e in read("tuning-entries.json").splitlines(): print("shipped entry:", e)
def rate(rs, stage, pred=lambda r: True):
    m = [r.get("mpts") for r in rs if r.get("stage") == stage and pred(r)]
    return m[0] if m else None
for name, label in (("compare-reflecting.json", "reflecting"), ("compare-layer.json", "default layer")):
    rs = rows(name)
    o, h = rate(rs, "gpu-optimized"), rate(rs, "gpu-half")
    if o and h: print(f"{n}^3 {label}: gpu-optimized {o/1e3:.1f} Gpts/s, gpu-half {h/1e3:.1f} Gpts/s: {h/o:.2f}x")
p = rate(rows("compare-plain.json"), "gpu-half")
if p: print(f"{n}^3 reflecting: gpu-half plain storage (8 B/pt) {p/1e3:.1f} Gpts/s")
layer, stage, boundary = {}, None, None
for line in read("layer.log").splitlines():
    m = re.match(r"== round \d+ (\S+) (\S+)", line)
    if m: stage, boundary = m.groups(); continue
    m = re.search(r"throughput\s*:\s*([\d.]+)", line)
    if m: layer.setdefault((stage, boundary), []).append(float(m.group(1)))
for s in sorted({k[0] for k in layer}):
    a, r = layer.get((s, "absorbing")), layer.get((s, "reflecting"))
    if a and r:
        print(f"layer cost {n}^3 {s}: {statistics.median(a)/1e3:.1f} / {statistics.median(r)/1e3:.1f} Gpts/s "
              f"= {statistics.median(a)/statistics.median(r)*100:.1f} % (absorbing / reflecting, medians of {len(a)})")
table = {}
for r in rows("bench.json"):
    table.setdefault(r.get("stage"), {})[r.get("n1")] = r.get("mpts")
if table:
    print("all stages (Gpts/s, oneapi): stage " + " ".join(str(z) for z in sizes))
    for s, by in table.items():
        print("  %-14s %s" % (s, " ".join(f"{(by.get(z) or 0)/1e3:7.1f}" for z in sizes)))
PY
# At most eight files come back from a device call: everything but the summary and the entries goes in one archive.
(cd "$out" && tar czf half-logs.tar.gz --remove-files -- *.log nvidia-smi.txt compare-*.json bench.json user-tuning.json 2>/dev/null)
