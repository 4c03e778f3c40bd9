#!/usr/bin/env bash
# The compositor's instruction-set builds against each other on the bench scenes, interleaved:
# in every round each scene is drawn once by each build (`bench composite --instruction-set`),
# so the ratios hold when the machine's speed drifts (as compare.sh does against the peers).
#
#   scripts/compare-instruction-sets.sh [--rounds R] [--frames N] [--warmup N]
#       [--sets "avx2 x86-64-v2 baseline"] [--scenes "DIR/a.json DIR/b.json"] [--bin BIN] [-- ARG...]
#
# Scenes: default ../shared/bench/scenes/*.json plus docs/compositor/extra_scenes.py's (written to
# a temporary folder). ARGs go to `bench composite` (default: --filter bilinear). Each run is
# pinned to one CPU (PEERS_CPU, default 1) when taskset exists. Prints per scene the median ms of
# each set and, for each set after the first, the median over rounds of its per-round ratio to
# the first set; and whether every set drew the same frames (the bench's checksum).
set -euo pipefail
HERE=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=5 FRAMES=60 WARMUP=10 SETS="avx2 x86-64-v2 baseline" SCENES="" BIN="$HERE/.build/release/kiosk-carousel"
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) ROUNDS=$2; shift 2 ;;
    --frames) FRAMES=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --sets) SETS=$2; shift 2 ;;
    --scenes) SCENES=$2; shift 2 ;;
    --bin) BIN=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "compare-instruction-sets.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
ARGS=("$@"); [ ${#ARGS[@]} -gt 0 ] || ARGS=(--filter bilinear)
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
if [ -z "$SCENES" ]; then
  python3 "$HERE/docs/compositor/extra_scenes.py" "$TMP/extra" >/dev/null
  SCENES="$(ls "$HERE"/../shared/bench/scenes/*.json | tr '\n' ' ') $(ls "$TMP"/extra/*.json | tr '\n' ' ')"
fi
PIN=""; command -v taskset >/dev/null && PIN="taskset -c ${PEERS_CPU:-1}"
RAW=$TMP/raw
for r in $(seq 1 "$ROUNDS"); do
  for f in $SCENES; do
    for set in $SETS; do
      line=$($PIN "$BIN" bench composite "${ARGS[@]}" --instruction-set "$set" "$f" --frames "$FRAMES" --warmup "$WARMUP" 2>/dev/null \
             | grep -E '^RESULT' | tail -1) || true
      # RESULT engine scene build median min mean frames checksum ...
      if [ -n "$line" ]; then echo "$set $(basename "$f" .json) $r $(echo "$line" | awk '{print $5, $9}')" >> "$RAW"
      else echo "$set $(basename "$f" .json) $r NA NA" >> "$RAW"; fi
    done
  done
done
python3 - "$RAW" "$SETS" <<'PY'
import sys, statistics as st, collections
raw, sets = sys.argv[1], sys.argv[2].split()
ms, sums, order = collections.defaultdict(dict), collections.defaultdict(set), []
for s, sc, r, v, c in (l.split() for l in open(raw)):
    if sc not in order: order.append(sc)
    if v != 'NA': ms[(s, sc)][r] = float(v); sums[sc].add(c)
head = "scene".ljust(14) + "".join(f"{s + ' ms':>16}" for s in sets) + "".join(f"{s + '/' + sets[0]:>22}" for s in sets[1:])
print(head + "  frames")
worst = {}
for sc in order:
    line = f"{sc:<14}" + "".join(f"{(st.median(ms[(s, sc)].values()) if ms[(s, sc)] else float('nan')):>16.3f}" for s in sets)
    for s in sets[1:]:
        rs = [ms[(s, sc)][r] / ms[(sets[0], sc)][r] for r in ms[(s, sc)] if r in ms[(sets[0], sc)]]
        q = st.median(rs) if rs else float('nan')
        worst[s] = max(worst.get(s, 0), q)
        line += f"{q:>22.3f}"
    print(line + ("  same" if len(sums[sc]) == 1 else f"  DIFFER {sorted(sums[sc])}"))
print("worst ratio: " + ", ".join(f"{s}/{sets[0]} {worst[s]:.3f}" for s in sets[1:]))
PY
