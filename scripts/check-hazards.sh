#!/usr/bin/env bash
# Hazard audit: every hazard of the reliability catalogue (its first file: R1-R16 for the reactive core,
# P1-P19 for paging; its second: the hazards of the two-ended engine and what builds on it, R17-R21 and
# P20-P43; its third: the offline-first store, optimistic edits, freshness and the test kit, R22 and
# P44-P72) must have at least one test whose display name starts with its ID
# (`@Test("R1: ...")`), and every hazard whose catalogue row asks for a stress run must also have a
# stress test among them (a display name that speaks of threads, races, racers, concurrent writers,
# readers or senders, a barrier, or concurrent tasks). Prints the coverage table; exits 1 if anything is
# missing.
#
# IDs of the three files are listed below. Those whose feature has not landed yet are `pending`: shown in the
# table and in the summary as having no test yet, not counted as missing (a test written before its
# feature would have nothing to test). When the feature lands, remove its IDs from `pending`; from then on
# a missing test fails the audit.
#
# Usage: scripts/check-hazards.sh [tests directory]   (default: Tests)
# The catalogue itself lives outside the repository, in three files; its IDs are listed below. When the
# catalogue is at hand (its folder in HAZARDS_DIR), the script also checks that every ID of its files is
# listed, and that every ID listed exists in one of them.
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
P19|no|initial load and refresh overlapping
P20|yes|prepend, append and refresh in flight together
P21|yes|a prepend shifts every index; preload at both edges
P22|no|opening the list at any key
P23|no|per-direction load states, a failed refresh over rows
P24|yes|local edits while loads are in flight
P25|no|edits never move keys, ends or the dedup set
P26|yes|a refresh that reloads every loaded page
P27|no|a refresh around a row
P28|no|a keyed difference for refreshes
P29|yes|bounded memory: which pages to drop
P30|no|reloading dropped pages, also for offset+total APIs
P31|yes|placeholders: a full-length list with empty slots
P32|yes|jumping far into placeholders
P33|no|encoding the loaded state
P34|yes|starting from a restored state, then revalidating
P35|no|map and filter of the paged list
P36|no|separators, headers and footers
P37|yes|the async surface and its outcomes
P38|yes|an Observable main-actor model for SwiftUI
P39|yes|a load timeout
P40|no|a cap on pages that add nothing
P41|yes|opt-in automatic retry with backoff and jitter
P42|no|clearing at once on a query change
P43|yes|a per-query cache of the last N page lists
R22|yes|a debounce that starves under a steady stream
P44|yes|rows inserted or deleted above the viewport: offset pages repeat, skip and jump
P45|yes|invalidation storms from per-row writes
P46|yes|combined load states say done before the store rows land, or hide the offline list
P47|yes|a page read before a concurrent write is appended after it
P48|yes|the first local read races the first remote refresh: an empty flash, or an empty list forever
P49|yes|mediator requests: duplicates, storms, and edge loads from an old generation
P50|no|skipping the launch refresh by age: the wrong clock, or a stale cache that never refreshes
P51|yes|mediator appends stop after the UI leaves and comes back
P52|yes|remote keys out of step with rows
P53|yes|a corrupt, locked, read-only or full SQLite file, or a schema from another version
P54|yes|two lists over one store disagree after one write
P55|no|stored rows that no longer decode after an app update
P56|yes|an optimistic edit that vanishes when a page or a refresh lands, or doubles when the server answers
P57|no|a rollback after failure that writes back a stale snapshot
P58|yes|two overlapping optimistic edits of one row, and one of them fails
P59|no|optimistic edits lost across a relaunch, or replayed twice
P60|no|an optimistic insert into a sorted, paged list
P61|yes|refetch policies for the loaded pages
P62|yes|revalidation on foreground and reconnect: storms, duplicates, and lists nobody sees
P63|yes|polling while hidden, and polls that overlap each other or a user refresh
P64|yes|offline: loads stuck loading with no request, error loops, or no resume
P65|yes|evicting an unobserved list on a timer races a new observer
P66|yes|loading several pages up front: keys that ignore the larger first load, and partial failures
P67|yes|idle detected too early: a stale idle state ends the test before the work
P68|no|fakes that never exercise what breaks: prepend, placeholders, asynchronous delivery, changing data
P69|no|scroll and fling simulation that does not behave like a list view
P70|no|error recovery in snapshot tests: retry loops and swallowed errors
P71|yes|a test helper that changes what it tests, hangs, or leaks
P72|yes|an in-memory store that differs from SQLite'

# Hazards whose feature has not landed: optimistic edits persisted in a store and placed by a store list's
# order (P59, P60), and freshness's triggers and offline pause (P62-P64). The offline-first store and its
# mediator (P44-P55, P72), optimistic edits as layers (P56-P58), the refetch policies (P61), cache
# lifetimes (P65), several pages up front (P66), the test kit (P67-P71) and the reactive core's bounded
# debounce (R22) have landed.
pending="P59 P60 P62 P63 P64"

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

# Cross-check the list above with the catalogue when it is at hand: HAZARDS_DIR names a directory of
# Markdown files whose table rows start with a bold hazard ID.
for directory in "${HAZARDS_DIR:-}"; do
    if [ -n "$directory" ] && [ -d "$directory" ]; then
        ids_of() { grep -ohE '^\| \*\*[RP][0-9]+\*\*' "$@" | grep -oE '[RP][0-9]+' | sort -u; }
        listed=$(printf '%s\n' "$catalogue" | cut -d'|' -f1 | sort)
        known=$(ids_of "$directory"/*.md)
        unlisted=$(comm -23 <(echo "$known") <(echo "$listed"))
        unknown=$(comm -23 <(echo "$listed") <(echo "$known"))
        if [ -n "$unlisted" ] || [ -n "$unknown" ]; then
            [ -n "$unlisted" ] && echo "check-hazards: catalogue IDs not listed in this script: $unlisted" >&2
            [ -n "$unknown" ] && echo "check-hazards: IDs listed here that no catalogue file has: $unknown" >&2
            exit 1
        fi
        break
    fi
done

missing=0
covered=0
total=0
waiting=""
printf '%-4s | %-5s | %-6s | %-7s | %s\n' "ID" "tests" "stress" "status" "hazard"
printf -- '-----|-------|--------|---------|------------------------------------------------\n'
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
    if [[ " $pending " == *" $id "* ]]; then
        status="pending"
        [ "$count" -eq 0 ] && waiting="$waiting $id"
    elif [ "$count" -eq 0 ]; then
        status="NONE"
    elif [ "$wants_stress" = "yes" ] && [ "$stress" -eq 0 ]; then
        status="STRESS"
    fi
    stress_cell="$stress"
    [ "$wants_stress" = "no" ] && stress_cell="-"
    if [ "$status" = "ok" ]; then
        covered=$((covered + 1))
    elif [ "$status" != "pending" ]; then
        missing=$((missing + 1))
    fi
    printf '%-4s | %5s | %6s | %-7s | %s\n' "$id" "$count" "$stress_cell" "$status" "$title"
done <<< "$catalogue"

echo
landed=$((total - $(wc -w <<< "$pending")))
echo "hazards covered: $covered/$landed whose feature has landed, of $total in the catalogue (stress: tests whose name speaks of threads, races, concurrent writers, readers or senders, a barrier or tasks)"
[ -n "$waiting" ] && echo "no test yet, their feature has not landed (pending):$waiting"
if [ "$missing" -ne 0 ]; then
    echo "check-hazards: $missing hazard(s) without a test (NONE) or without the stress test the catalogue asks for (STRESS)" >&2
    exit 1
fi
