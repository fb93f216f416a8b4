#!/usr/bin/env bash
# The grid cut into slabs over the GPUs of one host, measured in one call of under 5 minutes on a machine
# of 2 or 4 (or 8) NVIDIA GPUs, the single-GPU baseline in the same call (docs/SCALING.md says what to
# expect and why):
#   - links: planes between every two GPUs through page-locked host memory and device to device;
#   - bits: gpu-optimized cut over 2 and all GPUs, gpu-basic and gpu-temporal over all (in one process and
#     on MPI ranks), write the --dump and --traces bytes of one GPU (256^3, receivers on and next to cuts);
#   - strong scaling: the default scenario at 1024^3, gpu-optimized, on 1, 2, 4, ... GPUs, in one process
#     and with mpirun -np N (halos through shared memory, and as messages), ROUNDS times alternating;
#   - weak scaling: 1024 x 1024 x (1024 N) on N GPUs against 1024^3 on one;
#   - a grid larger than one card (2048^3, 103 GB of fields; LARGE="n1 n2 n3" overrides), every card's
#     share cut into slabs within the kernels' 32-bit indices, timed (its bits were checked on the smaller
#     grid above, and with several slabs per card);
#   - the exchange's share of a step: each slab's profiled kernel time against the step's wall time.
# Here:   scripts/gpu_bench.sh pack           (iso3dfd built with MPI into .gpu/)
# There:  scripts/gpu_scaling.sh              (summary.txt and scaling-logs.tar.gz into $OUT, default ./out;
#                                             the logs are written to $WORK, default /tmp/iso3dfd-scaling)
# Environment: BIT_STAGES (the stages of the bits check; empty: none), STEPS (timed steps at 1024^3, default 200), ROUNDS (of the strong-scaling runs, default 1),
# LARGE_LIMIT (seconds the large grid's run may take, set-up included, default 300), BUDGET (seconds after which the weak-scaling and
# large-grid runs are skipped, default 200), RUN_LIMIT (seconds one run may take, default 120), LARGE (the
# large grid), HALO_PATHS (the strong-scaling runs' ways of passing halos: process, shared, messages; default
# all three), WEAK (0 skips weak scaling); for a trial elsewhere, GPUS (device selectors, e.g. "0:0 0:0" on PoCL), N (the
# strong-scaling cube's edge, default 1024), BITS (the bits cube's, 256) and ISO3DFD (the binary).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="${OUT:-$root/out}"; mkdir -p "$dest"
out="${WORK:-/tmp/iso3dfd-scaling}"; rm -rf "$out"; mkdir -p "$out"  # what comes back is two files in $dest
steps="${STEPS:-200}"
budget="${BUDGET:-200}"
limit="${RUN_LIMIT:-120}"
edge="${N:-1024}"
bits="${BITS:-256}"
gb() { "$root/scripts/gpu_bench.sh" "$@"; }  # the environment: NVIDIA's ICD, libraries, caches, MPI
summary="$dest/summary.txt"
: > "$summary"
note() { echo "$*" | tee -a "$summary"; }
# The logs come back however the call ends (its time limit sends TERM first where the command is run
# under `timeout`).
pack_logs() { tar czf "$dest/scaling-logs.tar.gz" -C "$out" . 2>/dev/null; }
trap 'pack_logs; exit 124' TERM INT

# ---- The machine: its GPUs (NVIDIA's, selected explicitly: PoCL is registered too), links, MPI.
{ nvidia-smi -L; nvidia-smi topo -m; nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv; df -h /dev/shm /tmp; free -g; } > "$out/env.log" 2>&1
gb mpi-check >> "$out/env.log" 2>&1 || note "MPI: mpi-check failed (env.log); the mpirun runs below will fail too"
grep -q 'single copy: none' "$out/env.log" && export OMPI_MCA_btl_vader_single_copy_mechanism=none
gb iso3dfd devices > "$out/devices.log" 2>&1
if [ -n "${GPUS:-}" ]; then
  read -r -a gpus <<< "$GPUS"
else
  mapfile -t gpus < <(awk '/^\[[0-9]+:[0-9]+\]/ {sel = substr($1, 2, length($1) - 2)}
                            /type +: GPU, vendor NVIDIA/ {print sel}' "$out/devices.log")
fi
count=${#gpus[@]}
if [ "$count" -lt 2 ]; then
  note "scaling: ${count} NVIDIA GPU(s) found (devices.log); at least 2 are needed"
  tar czf "$dest/scaling-logs.tar.gz" -C "$out" .
  exit 1
fi
memory=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits 2>/dev/null | head -1)  # MiB
name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
memory="${memory:-0}"; name="${name:-device (no nvidia-smi)}"
list() { local IFS=,; echo "${gpus[*]:0:$1}"; }  # the first N GPUs as a device list
counts=(); for g in 2 4 8; do [ "$g" -le "$count" ] && counts+=("$g"); done
note "machine: $count x $name (${memory} MiB each); GPUs ${gpus[*]}; $(grep -m1 'mpirun (Open MPI)' "$out/env.log")"
gb iso3dfd devices --links > "$out/links.log" 2>&1
note "links (GB/s, from -> to, read write host-path device-copy):"
awk '/^Links/ {on = 1; next} on && /^  [0-9]+:[0-9]+/ {print "  " $0}' "$out/links.log" | tee -a "$summary"

# run LOG PREFIX ARGS...: iso3dfd ARGS (through `gb mpirun N` when PREFIX is a rank count, else alone),
# its output kept in LOG; a run past RUN_LIMIT seconds is ended, so that one hang does not eat the call.
run() {
  local log="$out/$1" ranks="$2"; shift 2
  echo "==== ${ranks:+mpirun -np $ranks }iso3dfd $*" > "$log"
  if [ -n "$ranks" ]; then timeout "$limit" "$root/scripts/gpu_bench.sh" mpirun "$ranks" "$@" >> "$log" 2>&1
  else timeout "$limit" "$root/scripts/gpu_bench.sh" iso3dfd "$@" >> "$log" 2>&1; fi
  local status=$?
  [ "$status" -eq 124 ] && echo "==== ended after ${limit} s (RUN_LIMIT)" >> "$log"
  return "$status"
}
mpts() { awk '/^throughput/ {print $3; exit}' "$out/$1"; }
# The largest share of a step that a slab's GPU did not compute (100 - its kernels' share), in %.
idle() { awk '/kernels [0-9.]+ ms\/step \(/ {k = $0; sub(/.*kernels [0-9.]+ ms\/step \(/, "", k); sub(/ %.*/, "", k);
              if (100 - k > m) m = 100 - k} END {printf "%.1f", m}' "$out/$1"; }
# The largest share of a step in which a slab's GPU had finished and its ghost planes were still coming
# in (the exchange that computation did not hide; the rest of the idle share is launches and the host), in %.
waited() { awk '/waiting for ghost planes [0-9.]+ ms\/step \(/ {w = $0; sub(/.*waiting for ghost planes [0-9.]+ ms\/step \(/, "", w);
                sub(/ %.*/, "", w); if (w + 0 > m) m = w + 0} END {printf "%.2f", m}' "$out/$1"; }

# verdict LOG: whether the cut run (LOG) wrote one GPU's files; its files are removed.
verdict() {
  if [ ! -s "$out/one.npy" ] || [ ! -s "$out/cut.npy" ]; then echo "no files (see $1)"
  elif cmp -s "$out/one.npy" "$out/cut.npy" && cmp -s "$out/one.csv" "$out/cut.csv"; then echo same
  else echo DIFFERENT; fi
  rm -f "$out/cut.npy" "$out/cut.csv"
}

# ---- Bits: every way of cutting gives one GPU's files.
note "bits (${bits}^3, 40 steps, default scenario, receivers on and next to the cuts; cmp of --dump and --traces):"
receivers=""
for q in 1 2 3; do  # the cuts of 2 and 4 slabs at a quarter, a half and three quarters of z
  k=$((bits * q / 4)); receivers+=" --receiver $((bits / 2)),$((bits * q / 5)),$((k - 1)) --receiver $((bits / 2)),$((bits * q / 5)),$k"
done
for stage in ${BIT_STAGES-gpu-optimized gpu-basic gpu-temporal}; do
  base="run $bits $bits $bits 40 --stage $stage $receivers"
  run "bits-$stage-1.log" "" $base --device "${gpus[0]}" --dump "$out/one.npy" --traces "$out/one.csv"
  cuts=("$count"); [ "$stage" = gpu-optimized ] && cuts=("${counts[@]}")  # the other stages on all GPUs only
  for g in "${cuts[@]}"; do
    for how in process ranks; do
      log="bits-$stage-$g-$how.log"
      if [ "$how" = process ]; then run "$log" "" $base --device "$(list "$g")" --dump "$out/cut.npy" --traces "$out/cut.csv"
      else run "$log" "$g" $base --device "$(list "$g")" --dump "$out/cut.npy" --traces "$out/cut.csv"; fi
      note "  $stage on $g GPUs ($how): $(verdict "$log")"
    done
  done
  if [ "$stage" = gpu-optimized ]; then  # three slabs on every card, as a grid past the kernels' indices runs
    several=""; for g in "${gpus[@]}"; do several+="${several:+,}$g,$g,$g"; done
    run "bits-$stage-3-per-card.log" "" $base --device "$several" --dump "$out/cut.npy" --traces "$out/cut.csv"
    note "  $stage in 3 slabs on each of $count GPUs (process): $(verdict "bits-$stage-3-per-card.log")"
  fi
  rm -f "$out/one.npy" "$out/one.csv"
done

# ---- Strong scaling at 1024^3, and the exchange's share of a step: ROUNDS rounds, the kinds of run
# alternating, medians. Ranks pass halos through a shared-memory window (the default on one host) and,
# for comparison, as messages (--rank-halos messages, the path between hosts).
rounds="${ROUNDS:-1}"
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{v[NR] = $1} END {if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
declare -A got idles waits
kinds=(1); for g in "${counts[@]}"; do for h in ${HALO_PATHS-process shared messages}; do kinds+=("$g-$h"); done; done
for r in $(seq 1 "$rounds"); do
  for kind in "${kinds[@]}"; do
    log="strong-$kind-$r.log"; g="${kind%%-*}"
    case "$kind" in
      1) run "$log" "" run "$edge" "$edge" "$edge" "$steps" --stage gpu-optimized --device "${gpus[0]}" ;;
      *-process) run "$log" "" run "$edge" "$edge" "$edge" "$steps" --stage gpu-optimized --device "$(list "$g")" ;;
      *-shared) run "$log" "$g" run "$edge" "$edge" "$edge" "$steps" --stage gpu-optimized --device "$(list "$g")" ;;
      *-messages) run "$log" "$g" run "$edge" "$edge" "$edge" "$steps" --stage gpu-optimized --device "$(list "$g")" --rank-halos messages ;;
    esac
    got[$kind]+=" $(mpts "$log")"; idles[$kind]+=" $(idle "$log")"; waits[$kind]+=" $(waited "$log")"
    note "  (round $r) $kind: $(mpts "$log") Mpts/s, idle $(idle "$log") %, waiting $(waited "$log") %"
  done
done
one=$(echo "${got[1]}" | median)
note "strong scaling, ${edge}^3 gpu-optimized, $steps steps, median of $rounds (Mpts/s; speed-up; efficiency; largest idle share of a slab's step; of it, waiting for ghost planes):"
note "  1 GPU: $one (runs:${got[1]})"
for kind in "${kinds[@]:1}"; do
  g="${kind%%-*}"; m=$(echo "${got[$kind]}" | median)
  what="${kind#*-}"; [ "$what" = process ] && what="in one process" || what="$g MPI ranks, halos ${what/shared/through shared memory}"; what="${what/messages/as messages}"
  note "  $g GPUs, $what: $m; $(awk -v a="$m" -v b="$one" -v n="$g" 'BEGIN {if (b > 0) printf "%.2fx; %.1f %%", a / b, 100 * a / b / n}'); idle $(echo "${idles[$kind]}" | median) %; waiting $(echo "${waits[$kind]}" | median) % (runs:${got[$kind]})"
done

# ---- Weak scaling: 1024 x 1024 x 1024N on N GPUs.
note "weak scaling, $edge x $edge x ${edge}N on N GPUs (per-GPU Mpts/s against one GPU's $one):"
for g in "${counts[@]}"; do
  [ "${WEAK:-1}" = 0 ] && { note "  skipped (WEAK=0)"; break; }
  if [ "$SECONDS" -gt "$budget" ]; then note "  $g GPUs: skipped (past the ${budget} s budget)"; continue; fi
  for how in process ranks; do
    [ "$how" = ranks ] && [ "$g" != "$count" ] && continue  # mpirun at the full count only
    log="weak-$g-$how.log"
    if [ "$how" = process ]; then run "$log" "" run "$edge" "$edge" $((edge * g)) "$((steps / 2))" --stage gpu-optimized --device "$(list "$g")"
    else run "$log" "$g" run "$edge" "$edge" $((edge * g)) "$((steps / 2))" --stage gpu-optimized --device "$(list "$g")"; fi
    got=$(mpts "$log")
    note "  $g GPUs ($how): $got, $(awk -v a="$got" -v b="$one" -v n="$g" 'BEGIN {if (b > 0) printf "%.0f per GPU, %.1f %%", a / n, 100 * a / b / n}'); idle $(idle "$log") %; waiting $(waited "$log") %"
  done
done

# ---- A grid larger than one card (2048^3 by default, 103 GB of fields): each card's share is cut into as
# many slabs as keep a slab's padded grid under the kernels' 2^31-cell indices (3 per card on two).
LARGE="${LARGE:-2048 2048 2048}"
read -r l1 l2 l3 <<< "$LARGE"
gib=$(awk -v a="$l1" -v b="$l2" -v c="$l3" 'BEGIN {printf "%.0f", 12 * (a + 16) * (b + 16) * (c + 16) / 2^30}')
if [ "$SECONDS" -gt "$budget" ]; then
  note "large grid $l1 x $l2 x $l3: skipped (past the ${budget} s budget)"
else
  limit="${LARGE_LIMIT:-300}" run large.log "" run "$l1" "$l2" "$l3" 20 --stage gpu-optimized --device "$(list "$count")" \
      --receiver $((l1 / 2)),$((l2 / 2)),$((l3 / 2 - 1)) --receiver $((l1 / 2)),$((l2 / 2)),$((l3 / 2)) --traces "$out/large.csv"
  finite=$(awk -F, 'NR > 1 {for (i = 2; i <= NF; ++i) if ($i + 0 != $i + 0 || $i ~ /nan|inf/) bad = 1} END {print bad ? "NOT FINITE" : "finite"}' "$out/large.csv" 2>/dev/null)
  fits=$(awk -v g="$gib" -v m="$memory" 'BEGIN {print ((g * 1024 > m) ? "more than one card holds" : "one card would hold it, its 32-bit indices not")}')
  note "large grid $l1 x $l2 x $l3 (${gib} GiB of device memory, ${memory} MiB per card: $fits) on $count GPUs: $(mpts large.log) Mpts/s, idle $(idle large.log) %, waiting $(waited large.log) %, traces ${finite:-missing}"
fi
rm -f "$out"/*.npy
pack_logs
note "logs: scaling-logs.tar.gz (elapsed ${SECONDS} s)"
echo; echo "==== summary"; cat "$summary"
