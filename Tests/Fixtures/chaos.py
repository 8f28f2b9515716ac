"""The fixture server's random faults (--chaos SEED), for the soak (scripts/soak.sh).

Every request draws, from a generator seeded with SEED, whether it fails and how: a 500, 502 or 503; a
hang (nothing sent, the connection dropped after --hang seconds); a late answer (sent after --slow
seconds, past the client's time-out); a truncated body (the JSON cut in half, its length declared as
cut); a body cut in transit (the whole length declared, half sent, the connection closed); or a
malformed body (valid JSON of the wrong shape, or not JSON at all). An answer that does not fail may
still be slow (under a second). Each fault is written to standard error as `fault <kind>`, even with
--quiet, so the soak can count what the client survived.

With --insert-rows N, a request that goes further down a list than any before it (its first row is
below the first row of every request so far) first inserts 1 to N new rows at the top of the list, as
a feed that gets new posts while it is read: the offset and page-number pages after it repeat rows the
client already has, which its deduplication must drop.
"""

import random
import sys
import threading

FAULT_KINDS = ["500", "502", "503", "hang", "late", "truncated", "cut", "malformed"]

MALFORMED_BODIES = [
    b'{"results": "not a list"}',
    b'{"count": "many", "next": 7, "results": [{"id": 1}]}',
    b'[{"name": "an item without an id"}]',
    b"<html><body>502 Bad Gateway</body></html>",
    b'{"results": [{"id": {"nested": true}}]}',
    b"",
]


class Chaos:
    """Draws the fault of each request, and counts the faults drawn."""

    def __init__(self, seed, fault_rate, slow_rate=0.2):
        self.random = random.Random(seed)
        self.fault_rate = fault_rate
        self.slow_rate = slow_rate
        self.lock = threading.Lock()

    def draw(self):
        """(fault kind or None, seconds to wait before a good answer)."""
        with self.lock:
            if self.random.random() < self.fault_rate:
                return self.random.choice(FAULT_KINDS), 0.0
            delay = self.random.uniform(0.05, 0.6) if self.random.random() < self.slow_rate else 0.0
            return None, delay

    def malformed_body(self):
        with self.lock:
            return self.random.choice(MALFORMED_BODIES)

    @staticmethod
    def report(kind, detail=""):
        sys.stderr.write(f"fault {kind}{(' ' + detail) if detail else ''}\n")
        sys.stderr.flush()


class TopInserter:
    """Inserts rows at the top of a list when a request goes further down it than any before."""

    def __init__(self, most, seed):
        self.most = most
        self.random = random.Random(seed ^ 0x5EED)
        self.deepest = {}

    def before_page(self, fmt, items, start):
        """Called under the catalog's lock with the first row a request asks for; may insert rows."""
        deepest = self.deepest.get(fmt)
        self.deepest[fmt] = start if deepest is None else max(deepest, start)
        if self.most <= 0 or deepest is None or start <= deepest:
            return
        count = self.random.randint(1, self.most)
        first = max(item["id"] for item in items) + 1 if items else 1
        for new_id in range(first, first + count):
            items.insert(0, {"id": new_id, "name": f"item {new_id} (new)"})
        Chaos.report("insert", f"{count} rows at the top")
