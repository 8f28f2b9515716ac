#!/usr/bin/env bash
# Hazard audit: every hazard of the reliability catalogue (HAZARDS.md: R1-R16 for the reactive core,
# P1-P19 for paging) must have at least one test whose display name starts with its ID
# (`@Test("R1: ...")`), and every hazard whose catalogue row asks for a stress run must also have a
# stress test among them (a display name that speaks of threads, races, racers, concurrent writers,
# readers or senders, a barrier, or concurrent tasks). Prints the coverage table; exits 1 if anything is
# missing.
#
# Usage: scripts/check-hazards.sh [tests directory]   (default: Tests)
# The catalogue itself lives outside the repository; its IDs are listed below. When HAZARDS_FILE (or
# ../shared/HAZARDS.md, or /work/shared/HAZARDS.md) exists, the script also checks that the list below
# still matches the catalogue's IDs.
set -euo pipefail
cd "$(dirname "$0")/.."
tests_dir="${1:-Tests}"

# ID | stress run asked for by the catalogue (yes/no) | the hazard in a few words
catalogue='R1|yes|recursive send from an observer into the same signal
R2|yes|setting a property from its own observer, A-B-A feedback
R3|no|terminal event or deinit during delivery
R4|yes|events after a terminal event, double terminals
R5|yes|delivery after dispose() returned
R6|yes|serialised delivery with concurrent senders
R7|yes|observers added or removed during delivery
R8|yes|lifetimes and leaks
R9|yes|disposal exactly once, dispose during start
R10|yes|gap between reading and subscribing (Property.producer)
R11|yes|atomic read-modify-write
R12|yes|derived properties stay consistent
R13|yes|Action: one execution, atomic check-and-start
R14|no|scheduler hops and the TestScheduler
R15|yes|async bridges: cancellation both ways, buffering
R16|yes|user code called under an internal lock (ABBA)
R17|yes|derived state re-sending equal values feeds back forever
R18|yes|follow-up producer started after the run was disposed
R19|yes|startWithSignal with an unobserved, unkept signal skips the work
R20|yes|property fed by a source that ended never completes
R21|yes|binding to a temporary derived property freezes when it is released
P1|yes|duplicate concurrent next-page loads
P2|yes|refresh while a next page is in flight (stale append)
P3|yes|stale query results (A-B, A-B-A)
P4|no|offset drift (inserts, deletes)
P5|no|over-reported total, empty page before the end
P6|no|short and long pages
P7|no|total shrinks, grows, is negative
P8|no|repeated or cyclic cursor
P9|no|first-page vs later-page errors
P10|no|retry semantics, no automatic retry
P11|no|cancelling requests in flight
P12|no|producer sends no page, two pages, page then error
P13|no|synchronous completion and reentrancy from observers
P14|yes|notifications on threads, changes matching snapshots
P15|no|memory growth and O(n) copies
P16|yes|releasing the paginator with work in flight
P17|no|preload() and argument edge cases, programmer-error traps
P18|no|dedup edge cases
P19|no|initial load and refresh overlapping'

# The display names that start with hazard IDs: `@Test("R1: ...")`, or a name on the line after `@Test(`.
# A name may start with several IDs ("P2, P3: ..."); each counts.
names=$(find "$tests_dir" -name '*.swift' -print0 | xargs -0 awk '
    function emit(text,   name, ids, n, i) {
        if (match(text, /^"[RP][0-9]+([,\/ ]+[RP][0-9]+)*[: ]/) == 0) return
        name = substr(text, 2)
        sub(/".*$/, "", name)
        ids = substr(text, 2, RLENGTH - 2)
        n = split(ids, parts, /[,\/ ]+/)
        for (i = 1; i <= n; i++) if (parts[i] != "") print parts[i] "\t" FILENAME "\t" name
    }
    pending { pending = 0; line = $0; sub(/^[ \t]*/, "", line); emit(line) }
    /@Test\($/ { pending = 1; next }
    /@Test\("/ { line = $0; sub(/^.*@Test\(/, "", line); emit(line) }
')

stress_words='thread|race|racing|racer|concurren|barrier|tasks|writers|readers|senders|while [A-Z] sends'

# Cross-check the list above with the catalogue when it is at hand.
for candidate in "${HAZARDS_FILE:-}" ../shared/HAZARDS.md /work/shared/HAZARDS.md; do
    if [ -n "$candidate" ] && [ -f "$candidate" ]; then
        listed=$(printf '%s\n' "$catalogue" | cut -d'|' -f1 | sort)
        found=$(grep -oE '^\| \*\*[RP][0-9]+\*\*' "$candidate" | grep -oE '[RP][0-9]+' | sort -u)
        if [ "$listed" != "$found" ]; then
            echo "check-hazards: the IDs listed in this script differ from $candidate" >&2
            diff <(echo "$listed") <(echo "$found") >&2 || true
            exit 1
        fi
        break
    fi
done

missing=0
covered=0
total=0
printf '%-4s | %-5s | %-6s | %-6s | %s\n' "ID" "tests" "stress" "status" "hazard"
printf -- '-----|-------|--------|--------|------------------------------------------------\n'
while IFS='|' read -r id wants_stress title; do
    total=$((total + 1))
    rows=$(printf '%s\n' "$names" | awk -F'\t' -v id="$id" '$1 == id' || true)
    count=0
    [ -n "$rows" ] && count=$(printf '%s\n' "$rows" | wc -l | tr -d ' ')
    stress=0
    if [ -n "$rows" ]; then
        stress=$(printf '%s\n' "$rows" | cut -f3 | grep -ciE "$stress_words" || true)
    fi
    status="ok"
    if [ "$count" -eq 0 ]; then
        status="NONE"
    elif [ "$wants_stress" = "yes" ] && [ "$stress" -eq 0 ]; then
        status="STRESS"
    fi
    stress_cell="$stress"
    [ "$wants_stress" = "no" ] && stress_cell="-"
    if [ "$status" = "ok" ]; then covered=$((covered + 1)); else missing=$((missing + 1)); fi
    printf '%-4s | %5s | %6s | %-6s | %s\n' "$id" "$count" "$stress_cell" "$status" "$title"
done <<< "$catalogue"

echo
echo "hazards covered: $covered/$total (stress: tests whose name speaks of threads, races, concurrent writers, readers or senders, a barrier or tasks)"
if [ "$missing" -ne 0 ]; then
    echo "check-hazards: $missing hazard(s) without a test (NONE) or without the stress test the catalogue asks for (STRESS)" >&2
    exit 1
fi
