#!/usr/bin/env bash
# Compares the move generator of the working tree with a base commit (default a94242f, the last
# commit before the largest-size bound), side by side in one run: builds both benches, then runs
# each criterion group of benches/movegen.rs alternately, base then working tree, ROUNDS times,
# and prints per benchmark the median time of each and the ratio base/new (above 1: the working
# tree is faster).
#
#   tools/compare-movegen.sh [GROUP ...]      groups: legal_count perft2 next hand3 hand4 hand5
#                                             hand6 hand9 seeded_size seeded_rules
#                                             (default: every group)
#   BASE=<commit> ROUNDS=<n> tools/compare-movegen.sh legal_count
#   tools/compare-movegen.sh seeded_size seeded_rules
#   RUNS=<n> tools/compare-movegen.sh --processes [CORPUS]
#
# --processes times the release binaries instead (`cargo build --release --bin zatre` in the
# base's copy and the working tree; BASE_BIN and NEW_BIN name other binaries): every position of
# CORPUS (default tests/golden/seeded-hands.txt) in its own process (`position`, `legal count`),
# RUNS times each (default 5), base and new alternating, the least CPU time of each (`perf stat -e
# task-clock`, so the load of a shared machine stretches it less than wall-clock time), with the
# process start; then the whole corpus in one process, best of RUNS. It prints one line per
# position (base ms, new ms, moves, line number), the positions slower than the base by more
# than 10% and 0.3 ms, the sums by hand size and by must_place/forced_double, and the slowest.
#
# seeded_size and seeded_rules time the corpus of seeded hands (tests/golden/seeded-hands.txt)
# by hand size (3 to 11 tiles) and by the rules that decide the generation (must_place and
# forced_double); hand3 ... hand9 the older corpus of middle hands (tests/golden/middle-hands.txt).
#
# The base is exported with `git archive` into $BASE_DIR (default /tmp/zatre-base-<commit>), so no
# worktree is added, and gets the working tree's bench file and both corpora, so that both
# measure the same positions. A base older than Position::extensions (ce2fdf3) cannot build the
# `next` group: the block between the bench's `// BEGIN next` and `// END next` lines is then left
# out of its copy, and the report marks that group's base time as missing. On a shared machine
# only the ratios of one run mean anything. Criterion's "change" lines (percentages against the
# last saved run) are ignored.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
base=${BASE:-a94242f}
rounds=${ROUNDS:-3}
base_dir=${BASE_DIR:-/tmp/zatre-base-$base}

if [ "${1:-}" = --processes ]; then
  corpus=${2:-$root/tests/golden/seeded-hands.txt}
  runs=${RUNS:-5}
  if [ -z "${BASE_BIN:-}" ]; then
    [ -d "$base_dir" ] || { mkdir -p "$base_dir"; git -C "$root" archive "$base" | tar -x -C "$base_dir"; }
    (cd "$base_dir" && cargo build --release --bin zatre -q)
    BASE_BIN=$base_dir/target/release/zatre
  fi
  if [ -z "${NEW_BIN:-}" ]; then
    (cd "$root" && cargo build --release --bin zatre -q)
    NEW_BIN=$root/target/release/zatre
  fi
  out=$(mktemp -d)
  cpu() { perf stat -x, -e task-clock "$1" < "$2" 2>&1 >/dev/null | awk -F, '/task-clock/ { print $1 }'; }
  least() { sort -g | head -1; }
  n=0
  grep -v '^#' "$corpus" | while read -r _ count line; do
    n=$((n + 1))
    printf 'position %s\nlegal count\n' "$line" > "$out/in"
    for r in $(seq "$runs"); do
      echo "b $(cpu "$BASE_BIN" "$out/in")" >> "$out/t"
      echo "w $(cpu "$NEW_BIN" "$out/in")" >> "$out/t"
    done
    b=$(awk '$1 == "b" { print $2 }' "$out/t" | least)
    w=$(awk '$1 == "w" { print $2 }' "$out/t" | least)
    rm "$out/t"
    tiles=$(echo "$line" | sed 's/.* hands=\([^ ]*\).*/\1/' | tr '/' '\n' | sed -n "$(echo "$line" | sed 's/.* tomove=\([0-9]*\).*/\1/')p" | tr -d '\n' | wc -c)
    rules=$(echo "$line" | sed 's/.* must_place=\([a-z]*\) forced_double=\([a-z]*\).*/\1_\2/')
    echo "$b $w $count $n $tiles $rules"
  done > "$out/rows"
  grep -v '^#' "$corpus" | cut -d' ' -f3- | awk '{ print "position " $0; print "legal count" }' > "$out/all"
  for r in $(seq "$runs"); do
    echo "b $(cpu "$BASE_BIN" "$out/all")" >> "$out/whole"
    echo "w $(cpu "$NEW_BIN" "$out/all")" >> "$out/whole"
  done
  echo "each position in its own process: least CPU time of $runs runs (ms, with the process start); base $base"
  echo "base_ms new_ms moves line tiles rules"
  cat "$out/rows"
  echo "slower than the base by more than 10% and 0.3 ms:"
  awk '$2 > $1 * 1.1 && $2 - $1 > 0.3' "$out/rows"
  awk '{ b[$5 " tiles"] += $1; w[$5 " tiles"] += $2; k[$5 " tiles"]++; b[$6] += $1; w[$6] += $2; k[$6]++; B += $1; W += $2; K++ }
       END { for (g in b) printf "sum %-20s %5d positions  base %9.1f  new %9.1f  ratio %5.2f\n", g, k[g], b[g], w[g], b[g] / w[g]
             printf "sum %-20s %5d positions  base %9.1f  new %9.1f  ratio %5.2f\n", "all", K, B, W, B / W }' "$out/rows" | sort -V
  sort -k2 -g "$out/rows" | tail -1 | awk '{ printf "slowest: line %s (%s moves): base %s ms, new %s ms\n", $4, $3, $1, $2 }'
  b=$(awk '$1 == "b" { print $2 }' "$out/whole" | least)
  w=$(awk '$1 == "w" { print $2 }' "$out/whole" | least)
  awk -v b="$b" -v w="$w" -v k="$(grep -vc '^#' "$corpus")" \
    'BEGIN { printf "the whole corpus (%d positions) in one process: base %.1f ms, new %.1f ms, ratio %.2f\n", k, b, w, b / w }'
  rm -r "$out"
  exit 0
fi
groups=("$@")
[ ${#groups[@]} -eq 0 ] && groups=(legal_count perft2 next hand3 hand4 hand5 hand6 hand9 seeded_size seeded_rules)

if [ ! -d "$base_dir" ]; then
  mkdir -p "$base_dir"
  git -C "$root" archive "$base" | tar -x -C "$base_dir"
fi
# The base gets the working tree's bench file and corpora, so that both measure the same positions.
cp "$root/benches/movegen.rs" "$base_dir/benches/movegen.rs"
mkdir -p "$base_dir/tests/golden"
cp "$root/tests/golden/middle-hands.txt" "$root/tests/golden/seeded-hands.txt" "$base_dir/tests/golden/"
if ! (cd "$base_dir" && cargo bench --bench movegen --no-run -q 2>/dev/null); then
  echo "the base cannot build the bench's next group: measured without it" >&2
  awk '/^\/\/ BEGIN next/ { skip = 1 } !skip { print } /^\/\/ END next/ { skip = 0 }' "$root/benches/movegen.rs" \
    | sed 's/, next);/);/' > "$base_dir/benches/movegen.rs"
  (cd "$base_dir" && cargo bench --bench movegen --no-run -q 2>/dev/null)
fi
(cd "$root" && cargo bench --bench movegen --no-run -q 2>/dev/null)

out=$(mktemp -d)
for group in "${groups[@]}"; do
  for round in $(seq 1 "$rounds"); do
    for side in base new; do
      dir=$root
      [ $side = base ] && dir=$base_dir
      (cd "$dir" && cargo bench -q --bench movegen -- "$group" --noplot --warm-up-time 1 --measurement-time 2 2>/dev/null) \
        | awk -v side=$side -v round=$round '
            /^[a-z_0-9]+\/[^ ]+/ { name = $1 }
            /time:/ && !/%/ { sub(/.*\[/, ""); split($0, f, " "); v = f[3]; u = f[4];
                      m = (u == "ns") ? 1e-3 : (u == "µs" || u == "us") ? 1 : (u == "ms") ? 1e3 : 1e6;
                      printf "%s %s %s %.6f\n", name, side, round, v * m }' >> "$out/times"
    done
  done
done
echo "median over $rounds rounds (µs); ratio = base / new"
awk '{ t[$1" "$2] = t[$1" "$2] " " $4 } END { for (k in t) print k t[k] }' "$out/times" | sort | awk '
  function median(s,   a, n, i, j, x) { n = split(s, a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
                                       return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  { name = $1; side = $2; $1 = ""; $2 = ""; m[name, side] = median($0); names[name] = 1 }
  END { for (n in names) if ((n, "base") in m) printf "%-36s base %12.2f  new %12.2f  ratio %6.2f\n", n, m[n, "base"], m[n, "new"], m[n, "base"] / m[n, "new"]
                           else printf "%-36s base %12s  new %12.2f  (not in the base)\n", n, "-", m[n, "new"] }' | sort
rm -r "$out"
