#!/usr/bin/env bash
# How many short commands a second the engine answers through a pipe: N `legal count` on positions
# whose hand holds two tiles, piped into the release binary, output to /dev/null. MODE=pairs (the
# default) sends a `position <line>` before each `legal count`, as a shell test of many positions
# does; MODE=count sends each of the six positions once, then N/6 `legal count`. Prints, per run,
# the time and the rate of `legal count` commands, then the median over the runs.
#
#   tools/protocol-rate.sh                  N=100000 RUNS=5 MODE=pairs, engine target/release/zatre
#   N=20000 RUNS=3 MODE=count ENGINE=/tmp/old/zatre tools/protocol-rate.sh
#
# The input is kept in $INPUT (default /tmp/zatre-protocol-rate-<N>.txt), so that another engine
# can be timed on the same lines. Build first: cargo build --release.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
n=${N:-100000}
runs=${RUNS:-5}
engine=${ENGINE:-$root/target/release/zatre}
mode=${MODE:-pairs}
input=${INPUT:-/tmp/zatre-protocol-rate-$mode-$n.txt}

# Two-tile hands of seeded openings, as position lines the engine prints itself.
openings=(
  "+123 1@h8,2@h9,3@h10 +45"
  "+123 1@h8,2@h9,3@h10 +45 4@i10,5@i11 +16"
  "+256 2@h8,5@h9,6@h10 +13"
  "+344 3@h8,4@i8,4@j8 +26"
  "+111 1@h8,1@h9,1@h10 +66"
  "+456 4@h8,5@h9,6@i9 +12"
)
lines=$(for o in "${openings[@]}"; do printf 'position startpos moves %s\nposition\n' "$o"; done \
  | "$engine" | sed -n 's/^= variant=/variant=/p')
count=$(printf '%s\n' "$lines" | wc -l)
[ "$count" -eq ${#openings[@]} ] || { echo "expected ${#openings[@]} position lines, got $count" >&2; exit 1; }
case $mode in
  pairs) printf '%s\n' "$lines" | awk -v n="$n" '{ p[NR] = $0 }
           END { for (i = 0; i < n; i++) printf "position %s\nlegal count\n", p[i % NR + 1] }' > "$input" ;;
  count) printf '%s\n' "$lines" | awk -v n="$n" '{ p[NR] = $0 }
           END { for (k = 1; k <= NR; k++) { printf "position %s\n", p[k]; for (i = 0; i < n / NR; i++) print "legal count" } }' > "$input" ;;
  *) echo "MODE is pairs or count, not $mode" >&2; exit 1 ;;
esac

times=()
for run in $(seq 1 "$runs"); do
  start=$(date +%s.%N)
  "$engine" < "$input" > /dev/null
  end=$(date +%s.%N)
  t=$(echo "$end - $start" | bc -l)
  times+=("$t")
  printf 'run %d: %.3f s, %.0f legal count/s\n' "$run" "$t" "$(echo "$n / $t" | bc -l)"
done
median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
printf 'median of %d runs (%s): %.3f s for %d legal count: %.0f legal count/s\n' \
  "$runs" "$mode" "$median" "$n" "$(echo "$n / $median" | bc -l)"
