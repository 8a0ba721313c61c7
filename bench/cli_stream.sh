#!/usr/bin/env bash
# The command line at data scale: bloomlab build and query beside dcso's
# `bloom` (Debian golang-github-dcso-bloom-cli) in one run, on the same files.
#   bench/cli_stream.sh BLOOMLAB WORKDIR [RUNS]
# Makes WORKDIR/items.txt (10,000,000 lines of 16 hex digits, 170 MB) and
# WORKDIR/queries.txt (1,000,000 lines: every other one a member), then times
# each command RUNS times (default 3) with /usr/bin/time: wall seconds and
# peak resident memory. Prints a Markdown table of the medians, then the
# raw runs.
set -euo pipefail

bloomlab=${1:?usage: cli_stream.sh BLOOMLAB WORKDIR [RUNS]}
work=${2:?usage: cli_stream.sh BLOOMLAB WORKDIR [RUNS]}
runs=${3:-3}
n=10000000
queries=1000000
command -v bloom >/dev/null || { echo "bloom not found: scripts/deps.sh bench installs it" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not found: scripts/deps.sh bench installs it" >&2; exit 1; }
mkdir -p "$work"

# The lists, made once: seeded, so every run reads the same bytes.
if [ ! -s "$work/items.txt" ] || [ "$(wc -l <"$work/items.txt")" -ne $n ]; then
  /usr/bin/python3 - "$work" $n $queries <<'EOF'
import random, sys
work, n, q = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(20261201)
def lines(count):
    h = rng.randbytes(8 * count).hex()
    return [h[i:i + 16] for i in range(0, len(h), 16)]
items = lines(n)
with open(work + "/items.txt", "w") as f:
    f.write("\n".join(items) + "\n")
others = lines(q // 2)
mixed = [x for pair in zip(items[: q // 2], others) for x in pair]
with open(work + "/queries.txt", "w") as f:
    f.write("\n".join(mixed) + "\n")
EOF
fi
items="$work/items.txt"
qs="$work/queries.txt"

# One timed command: "seconds peak_kB" appended to $work/times-<name>.
declare -a names=()
timed() {
  local name=$1; shift
  [ -n "${seen[$name]:-}" ] || { names+=("$name"); seen[$name]=1; }
  /usr/bin/time -f "%e %M" -o "$work/time.tmp" "$@"
  cat "$work/time.tmp" >>"$work/times-$name"
}
declare -A seen=() lines=()
rm -f "$work"/times-*

for ((r = 1; r <= runs; r++)); do
  rm -f "$work/peer.bloom"
  timed "bloom create + insert (n=10M, 1%)" bash -c \
    "bloom create -n $n -p 0.01 '$work/peer.bloom' && bloom insert '$work/peer.bloom' <'$items'"
  lines["bloom create + insert (n=10M, 1%)"]=$n
  timed "bloomlab build --kind blocked --n 10M --p 1%" \
    "$bloomlab" build "$items" --kind blocked --n $n --p 0.01 -o "$work/blocked.blf" >/dev/null
  lines["bloomlab build --kind blocked --n 10M --p 1%"]=$n
  timed "bloomlab build --kind blocked --p 1% (n counted: two passes)" \
    "$bloomlab" build "$items" --kind blocked --p 0.01 -o "$work/blocked-counted.blf" >/dev/null
  lines["bloomlab build --kind blocked --p 1% (n counted: two passes)"]=$n
  timed "bloomlab build --kind classic --n 10M --p 1%" \
    "$bloomlab" build "$items" --n $n --p 0.01 -o "$work/classic.blf" >/dev/null
  lines["bloomlab build --kind classic --n 10M --p 1%"]=$n
  timed "bloom check (prints the maybes)" bash -c "bloom check '$work/peer.bloom' <'$qs' >'$work/out-peer.txt'"
  lines["bloom check (prints the maybes)"]=$queries
  timed "bloomlab query blocked --only maybe" \
    bash -c "'$bloomlab' query '$work/blocked.blf' - --only maybe <'$qs' >'$work/out-blocked.txt'; [ \$? -le 1 ]"
  lines["bloomlab query blocked --only maybe"]=$queries
  timed "bloomlab query blocked (every answer)" \
    bash -c "'$bloomlab' query '$work/blocked.blf' - <'$qs' >'$work/out-all.txt'; [ \$? -le 1 ]"
  lines["bloomlab query blocked (every answer)"]=$queries
  timed "bloomlab query classic --only maybe" \
    bash -c "'$bloomlab' query '$work/classic.blf' - --only maybe <'$qs' >'$work/out-classic.txt'; [ \$? -le 1 ]"
  lines["bloomlab query classic --only maybe"]=$queries
done

echo "Files: $(wc -c <"$items") bytes, $n lines; $(wc -c <"$qs") bytes, $queries query lines (half members)."
echo "Filter files: bloom $(stat -c %s "$work/peer.bloom") bytes; blocked $(stat -c %s "$work/blocked.blf") bytes;" \
  "classic $(stat -c %s "$work/classic.blf") bytes."
echo "Maybes printed: bloom $(wc -l <"$work/out-peer.txt"), bloomlab blocked $(wc -l <"$work/out-blocked.txt")," \
  "classic $(wc -l <"$work/out-classic.txt") (of $queries; $((queries / 2)) members)."
echo
echo "| command | median s | lines/s | peak RSS MB |"
echo "|---|---:|---:|---:|"
for name in "${names[@]}"; do
  read -r secs kb < <(sort -n "$work/times-$name" | awk -v m=$(((runs + 1) / 2)) 'NR == m')
  peak=$(sort -n -k2 "$work/times-$name" | tail -1 | awk '{print $2}')
  echo "| $name | $secs | $(awk -v l="${lines[$name]}" -v s="$secs" 'BEGIN { printf "%.2fM", (s > 0 ? l / s / 1e6 : 0) }') |" \
    "$(awk -v k="$peak" 'BEGIN { printf "%.0f", k * 1024 / 1e6 }') |"
done
echo
echo "Raw runs (seconds, peak kB):"
for name in "${names[@]}"; do
  echo "  $name: $(tr '\n' ';' <"$work/times-$name")"
done
uptime
