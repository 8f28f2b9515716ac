#!/usr/bin/env bash
# Soak: the Demo's HTTP mode (`Demo --url`) against the fixture server with random faults, round after
# round, for a while. Fails unless every round delivers every item exactly once, in order, and the Demo's
# resident memory stays flat.
#
# Usage: scripts/soak.sh [seconds] [seed]     (default: 120 s, seed 1)
#
# Each round starts a fresh server (Tests/Fixtures/paging_server.py --chaos, see Tests/Fixtures/chaos.py)
# whose answers fail at random: 500, 502 and 503; hangs and late answers past the client's time-out;
# bodies truncated, cut in transit or malformed; slow answers; and rows inserted at the top while the
# client pages down (so offset and page-number pages repeat rows). The rounds cycle through the four wire
# formats, each opened at the first page and at a page in the middle (which pages up to the top, then
# down to the bottom), always with deduplication (`--dedup`) and local edits by id while pages load
# (`--edit-rows`), half of them with a memory bound of 4 pages (`--max-pages 4`: going up drops pages at
# the bottom, going down reloads them and drops pages at the top): the Demo's `--print-ids` must print the
# ids 1..N, each once, in order (with a bound, the ids the walk saw go by; the rows inserted above the top
# are never part of it), and exit 0.
#
# Memory: the Demo's VmRSS is sampled every 0.25 s. A round fails when its highest sample in the last
# quarter of the run exceeds the highest in the second quarter (after warm-up) by more than
# SOAK_RSS_MARGIN_MB (default 6 MiB: the loaded items themselves take well under 1 MiB).
#
# Every round runs, whatever the time: the script stops starting rounds once `seconds` have passed and
# at least one round of each of the 8 kinds ran. The list's length grows with the time given (25 items
# per second of a round: a round of a 2-minute soak takes about 15 s), so a long soak also means
# long-lived processes.
#
# Environment: SOAK_ITEMS (items per list, instead of the computed number), SOAK_RSS_MARGIN_MB.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

duration="${1:-120}"
seed="${2:-1}"
margin_mb="${SOAK_RSS_MARGIN_MB:-6}"
work=".build-soak"
rm -rf "$work"
mkdir -p "$work"

swift build --product Demo > "$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
demo="$(swift build --show-bin-path)/Demo"

formats=(limit-offset page-number cursor link-header)
items="${SOAK_ITEMS:-$((duration * 25 / 8))}"
[ "$items" -lt 100 ] && items=100
page=10

# The URL of a list opened at its first page, or at the page holding row `middle` (0-based).
url_of() {
    local port="$1" format="$2" opening="$3"
    local base="http://127.0.0.1:$port/$format/items"
    local middle=$((items / 2 + 5))
    local number=$((items / 2 / page + 1))
    case "$format:$opening" in
    limit-offset:start) echo "$base?limit=$page" ;;
    limit-offset:middle) echo "$base?limit=$page&offset=$middle" ;;
    page-number:start) echo "$base?page_size=$page" ;;
    page-number:middle) echo "$base?page=$number&page_size=$page" ;;
    cursor:start) echo "$base?page_size=$page" ;;
    cursor:middle)
        # The fixture's cursor of the rows from `middle` on: "p=<middle>", base64url without padding.
        echo "$base?page_size=$page&cursor=$(printf 'p=%d' "$middle" | base64 | tr '+/' '-_' | tr -d '=\n')" ;;
    link-header:start) echo "$base?per_page=$page" ;;
    link-header:middle) echo "$base?page=$number&per_page=$page" ;;
    esac
}

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || true; }

server_pid=""
demo_pid=""
cleanup() {
    [ -n "$demo_pid" ] && kill "$demo_pid" 2>/dev/null || true
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
}
trap cleanup EXIT

start=$(date +%s)
round=0
total_items=0
total_requests=0
worst_growth=0
peak_rss=0
failures=0
total_failed=0
total_inserted=0
printf '%-5s %-12s %-6s %-5s %6s %8s %6s %8s %11s %11s %9s %s\n' round format open bound items requests failed \
    inserted \
    "rss-base" "rss-end" growth result
while :; do
    elapsed=$(($(date +%s) - start))
    if [ "$round" -ge 8 ] && [ "$elapsed" -ge "$duration" ]; then break; fi
    kind=$((round % 8))
    format="${formats[$((kind % 4))]}"
    opening=$([ $((kind / 4)) -eq 0 ] && echo start || echo middle)
    # Half the rounds keep at most 4 pages: each format once bounded in the first 8 rounds (at the start
    # or in the middle), the other opening in the next 8.
    bound=$([ $(((kind + kind / 4 + round / 8) % 2)) -eq 1 ] && echo 4 || echo -)
    bound_flags=()
    [ "$bound" != - ] && bound_flags=(--max-pages "$bound")
    chaos_seed=$((seed * 1000 + round))
    prefix="$work/round-$round"

    python3 Tests/Fixtures/paging_server.py --items "$items" --page-size "$page" --chaos "$chaos_seed" \
        --insert-rows 3 --slow 1.5 --hang 2 --quiet --lifetime $((duration * 4 + 600)) \
        > "$prefix.server-out" 2> "$prefix.server-faults" &
    server_pid=$!
    port=""
    for _ in $(seq 100); do
        port=$(grep -soE '^PORT [0-9]+' "$prefix.server-out" | cut -d' ' -f2 || true)
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { echo "soak: the fixture server printed no port" >&2; exit 1; }

    url=$(url_of "$port" "$format" "$opening")
    "$demo" --url "$url" --format "$format" --print-ids --dedup --edit-rows "${bound_flags[@]}" --timeout 1 --retries 12 \
        > "$prefix.ids" 2> "$prefix.log" &
    demo_pid=$!
    : > "$prefix.rss"
    while kill -0 "$demo_pid" 2>/dev/null; do
        sample=$(rss_kib "$demo_pid")
        [ -n "$sample" ] && echo "$sample" >> "$prefix.rss"
        sleep 0.25
    done
    status=0
    wait "$demo_pid" || status=$?
    demo_pid=""
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""

    # Memory: the highest sample of the second quarter (after warm-up) against the last quarter's.
    read -r base end < <(awk '{ v[NR] = $1 } END {
        n = NR; if (n < 4) { print v[1] + 0, v[n] + 0; exit }
        q = int(n / 4); b = 0; e = 0
        for (i = q + 1; i <= 2 * q; i++) if (v[i] > b) b = v[i]
        for (i = n - q + 1; i <= n; i++) if (v[i] > e) e = v[i]
        print b, e }' "$prefix.rss")
    growth=$((end - base))
    top=$(sort -n "$prefix.rss" | tail -1)
    [ "${top:-0}" -gt "$peak_rss" ] && peak_rss=$top
    [ "$growth" -gt "$worst_growth" ] && worst_growth=$growth
    requests=$(grep -oE 'requests +[0-9]+' "$prefix.log" | grep -oE '[0-9]+' | tail -1 || echo 0)
    failed=$(grep -vc '^fault insert' "$prefix.server-faults" || true)
    inserted=$(awk '/^fault insert/ { n += $3 } END { print n + 0 }' "$prefix.server-faults")

    result=ok
    if [ "$status" -ne 0 ]; then
        result="FAILED: the Demo exited with status $status"
    elif ! diff -q <(seq 1 "$items") "$prefix.ids" > /dev/null; then
        result="FAILED: the ids are not 1..$items once each, in order ($(wc -l < "$prefix.ids") lines)"
    elif [ "$growth" -gt $((margin_mb * 1024)) ]; then
        result="FAILED: resident memory grew by $((growth / 1024)) MiB (margin $margin_mb MiB)"
    fi
    printf '%-5s %-12s %-6s %-5s %6s %8s %6s %8s %7s KiB %7s KiB %5s KiB %s\n' "$round" "$format" "$opening" \
        "$bound" "$items" "${requests:-0}" "$failed" "$inserted" "$base" "$end" "$growth" "$result"
    if [ "$result" != ok ]; then
        failures=$((failures + 1))
        echo "soak: round $round (chaos seed $chaos_seed, $url): see $prefix.log and $prefix.server-faults" >&2
    else
        rm -f "$prefix.log"
    fi
    total_items=$((total_items + items))
    total_requests=$((total_requests + ${requests:-0}))
    total_failed=$((total_failed + failed))
    total_inserted=$((total_inserted + inserted))
    round=$((round + 1))
done

elapsed=$(($(date +%s) - start))
echo
echo "soak: $round rounds in ${elapsed} s, $total_items items, $total_requests requests"
echo "soak: faults survived: $total_failed failed answers ($(cat "$work"/round-*.server-faults | grep -v '^fault insert' \
    | sed -E 's/^fault ([a-z0-9]+).*/\1/' | sort | uniq -c | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }'))," \
    "$total_inserted rows inserted at the top while paging"
echo "soak: resident memory: peak $((peak_rss / 1024)) MiB, largest growth within a round $worst_growth KiB" \
    "(margin $margin_mb MiB)"
if [ "$failures" -ne 0 ]; then
    echo "soak: $failures of $round rounds failed" >&2
    exit 1
fi
echo "soak: every round delivered every item exactly once, in order"
