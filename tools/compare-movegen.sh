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
