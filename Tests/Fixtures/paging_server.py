#!/usr/bin/env python3
"""A paging HTTP API for the Demo's integration test, in the four wire formats people meet.

Serves items {"id": 1..N, "name": "item N"} on 127.0.0.1, each format on its own path:

  /limit-offset/items?limit=10&offset=20   {count, next, previous, results}, as Django REST
                                           Framework's LimitOffsetPagination sends it (`previous`
                                           names the offset `limit` rows up, clamped at 0)
  /page-number/items?page=3&page_size=10   the same envelope, as its PageNumberPagination sends it
                                           (`previous` names page - 1; 404 {"detail": "Invalid
                                           page."} past the last page)
  /cursor/items?page_size=10&cursor=...    {next, previous, results}, both URLs with an opaque
                                           cursor, as its CursorPagination sends it: `next` is
                                           "the rows from here", `previous` a reverse cursor, "the
                                           rows before here", so a list opened at any row pages up
                                           without overlap
  /link-header/items?page=2&per_page=10    a bare JSON array and a `Link` header with rel="next",
                                           "last", "prev" and "first", as GitHub's REST API sends it

Every format names the page before as well as the next one, so a client that opens the list at a
page in the middle can page up to the top and down to the bottom.

Faults are injected deterministically, per path, by the index of the requested page and the attempt
at that page (so a client that retries always gets through):

  page 0, attempt 1   500 Internal Server Error
  page 0, attempt 3   503 Service Unavailable (a client that probes the format first has used
                      attempts 1 and 2: this one hits its paginator's first page)
  page 1, attempt 1   200 with a truncated, malformed JSON body
  page 2, attempt 1   a response slower than the client's time-out (--slow seconds), or with
                      --hang no response at all
  page 3, attempts 1-2  502 Bad Gateway twice in a row

With --hang SECONDS the slow response of page 2 becomes a hang: the server sends nothing at all,
neither headers nor body, sleeps SECONDS (bounded, so a handler thread never blocks forever) and
closes the connection without an answer, as a stuck backend behind a proxy does. A client needs its
own time-out to get past it.

With --chaos SEED the faults above give way to random ones on any page, and --insert-rows N inserts
rows at the top while a client pages down (see chaos.py): the soak's server.

With --no-faults every request succeeds. With --no-previous no response names the page before (no
`previous` link, no rel="prev" or rel="first"), as APIs that page one way only do.

The server binds a free port (or --port), prints "PORT <n>" on standard output, and serves until
SIGTERM, --lifetime seconds, or (with --exit-on-eof) the end of standard input: the test passes a
pipe there, so the server never outlives the test.

Standard library only: runs on any machine with python3.
"""

import argparse
import base64
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

sys.dont_write_bytecode = True  # no __pycache__ beside the fixture in the work tree
from chaos import Chaos, TopInserter  # noqa: E402 (after the line above)

FAULTS = {
    (0, 1): "500",
    (0, 3): "503",
    (1, 1): "malformed",
    (2, 1): "slow",
    (3, 1): "502",
    (3, 2): "502",
}

STATUS_TEXT = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}


class PageRequestError(Exception):
    """A request the server answers with a 4xx status and a JSON detail."""

    def __init__(self, status, detail):
        super().__init__(detail)
        self.status = status
        self.detail = detail


def integer(query, name, default, minimum):
    """The integer query parameter `name`, or `default`; a bad value is a 400."""
    values = query.get(name)
    if not values:
        return default
    try:
        value = int(values[0])
    except ValueError:
        raise PageRequestError(400, f"{name} must be an integer") from None
    if value < minimum:
        raise PageRequestError(400, f"{name} must be at least {minimum}")
    return value


def encode_cursor(position, reverse=False):
    """The opaque cursor of the rows from `position` on, or (reverse) of the rows before it."""
    text = f"{'r' if reverse else 'p'}={position}"
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_cursor(cursor):
    """(position, reverse) of a cursor made by encode_cursor; raises PageRequestError if invalid."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        text = base64.urlsafe_b64decode(padded.encode()).decode()
        if text[:2] not in ("p=", "r="):
            raise ValueError(text)
        return int(text[2:]), text[0] == "r"
    except (ValueError, UnicodeDecodeError):
        raise PageRequestError(404, "Invalid cursor") from None


class Catalog:
    """The items, the page arithmetic of each format, and the attempt counters of the faults."""

    def __init__(self, count, default_size, faults, previous=True, inserter=None):
        self.items = [{"id": n, "name": f"item {n}"} for n in range(1, count + 1)]
        self.default_size = default_size
        self.faults = faults
        self.previous = previous
        self.inserter = inserter
        self.attempts = {}
        self.lock = threading.Lock()

    def rows_from(self, fmt, start):
        """The items, after the inserter (if any) saw a request for the rows from `start`."""
        if self.inserter:
            with self.lock:
                self.inserter.before_page(fmt, self.items, start)
        return self.items

    def fault(self, fmt, page_index):
        """The fault to inject into this attempt at page `page_index` of format `fmt`, if any."""
        with self.lock:
            key = (fmt, page_index)
            self.attempts[key] = self.attempts.get(key, 0) + 1
            attempt = self.attempts[key]
        return FAULTS.get((page_index, attempt)) if self.faults else None

    def page(self, fmt, base, query):
        """(page index, status, headers, body) for one request; raises PageRequestError."""
        if fmt == "limit-offset":
            limit = integer(query, "limit", self.default_size, 1)
            offset = integer(query, "offset", 0, 0)
            items = self.rows_from(fmt, offset)
            count = len(items)
            results = items[offset : offset + limit]
            nxt = f"{base}?{urlencode({'limit': limit, 'offset': offset + limit})}" if offset + limit < count else None
            prev = f"{base}?{urlencode({'limit': limit, 'offset': max(0, offset - limit)})}" if offset > 0 else None
            body = {"count": count, "next": nxt, "previous": prev if self.previous else None, "results": results}
            return offset // limit, {}, body
        if fmt == "page-number":
            size = integer(query, "page_size", self.default_size, 1)
            page = integer(query, "page", 1, 1)
            start = (page - 1) * size
            items = self.rows_from(fmt, start)
            count = len(items)
            pages = max(1, -(-count // size))
            if page > pages:
                raise PageRequestError(404, "Invalid page.")
            results = items[start : start + size]
            nxt = f"{base}?{urlencode({'page': page + 1, 'page_size': size})}" if page < pages else None
            prev = f"{base}?{urlencode({'page': page - 1, 'page_size': size})}" if page > 1 else None
            body = {"count": count, "next": nxt, "previous": prev if self.previous else None, "results": results}
            return page - 1, {}, body
        if fmt == "cursor":
            size = integer(query, "page_size", self.default_size, 1)
            cursor = query.get("cursor")
            position, reverse = decode_cursor(cursor[0]) if cursor else (0, False)
            start = max(0, position - size) if reverse else position
            items = self.rows_from(fmt, start)
            count = len(items)
            results = items[start : min(position, start + size) if reverse else start + size]
            after = start + len(results)
            nxt = f"{base}?{urlencode({'cursor': encode_cursor(after), 'page_size': size})}" if after < count else None
            prev = (
                f"{base}?{urlencode({'cursor': encode_cursor(start, reverse=True), 'page_size': size})}"
                if start > 0
                else None
            )
            return start // size, {}, {"next": nxt, "previous": prev if self.previous else None, "results": results}
        if fmt == "link-header":
            size = integer(query, "per_page", self.default_size, 1)
            page = integer(query, "page", 1, 1)
            start = (page - 1) * size
            items = self.rows_from(fmt, start)
            count = len(items)
            results = items[start : start + size]
            last = max(1, -(-count // size))
            links = []
            if page < last:
                links.append(f'<{base}?{urlencode({"page": page + 1, "per_page": size})}>; rel="next"')
                links.append(f'<{base}?{urlencode({"page": last, "per_page": size})}>; rel="last"')
            if page > 1 and self.previous:
                links.append(f'<{base}?{urlencode({"page": page - 1, "per_page": size})}>; rel="prev"')
                links.append(f'<{base}?{urlencode({"page": 1, "per_page": size})}>; rel="first"')
            headers = {"Link": ", ".join(links)} if links else {}
            return page - 1, headers, results
        raise PageRequestError(404, "Not found.")


def make_handler(catalog, slow_seconds, quiet, hang_seconds=0.0, chaos=None):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format, *args):  # noqa: A002 (the base class's name)
            if not quiet:
                sys.stderr.write("server: " + (format % args) + "\n")

        def send_json(self, status, body, headers=None, raw=None):
            data = raw if raw is not None else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):  # noqa: N802 (the base class's name)
            try:
                parts = urlsplit(self.path)
                segments = [s for s in parts.path.split("/") if s]
                if len(segments) != 2 or segments[1] != "items":
                    raise PageRequestError(404, "Not found.")
                fmt = segments[0]
                host = self.headers.get("Host") or f"127.0.0.1:{self.server.server_address[1]}"
                base = f"http://{host}/{fmt}/items"
                index, headers, body = catalog.page(fmt, base, parse_qs(parts.query))
                if chaos:
                    self.answer_with_chaos(headers, body)
                    return
                fault = catalog.fault(fmt, index)
                if fault == "slow" and hang_seconds > 0:
                    # Never answer: wait (bounded), then drop the connection with nothing sent.
                    time.sleep(hang_seconds)
                    self.close_connection = True
                    return
                if fault == "slow":
                    time.sleep(slow_seconds)
                if fault in ("500", "502", "503"):
                    status = int(fault)
                    self.send_json(status, {"detail": f"{STATUS_TEXT[status]} (injected)"})
                elif fault == "malformed":
                    whole = json.dumps(body).encode()
                    self.send_json(200, None, headers, raw=whole[: len(whole) // 2])
                else:
                    self.send_json(200, body, headers)
            except PageRequestError as error:
                self.send_json(error.status, {"detail": error.detail})
            except (BrokenPipeError, ConnectionResetError):
                # The client gave up (a time-out): nothing to answer.
                pass

        def answer_with_chaos(self, headers, body):
            """Answers with the fault chaos draws, or with the page (perhaps slowly)."""
            fault, delay = chaos.draw()
            whole = json.dumps(body).encode()
            if fault:
                Chaos.report(fault)
            if fault == "hang":
                time.sleep(hang_seconds or 2 * slow_seconds)
                self.close_connection = True
            elif fault in ("500", "502", "503"):
                status = int(fault)
                self.send_json(status, {"detail": f"{STATUS_TEXT[status]} (injected)"})
            elif fault == "truncated":
                self.send_json(200, None, headers, raw=whole[: len(whole) // 2])
            elif fault == "malformed":
                self.send_json(200, None, headers, raw=chaos.malformed_body())
            elif fault == "cut":
                # The whole length declared, half of it sent, the connection closed.
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(whole)))
                self.end_headers()
                self.wfile.write(whole[: len(whole) // 2])
                self.wfile.flush()
                self.close_connection = True
            else:
                time.sleep(slow_seconds if fault == "late" else delay)
                self.send_json(200, body, headers)

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=47, help="how many items (ids 1..N); default 47")
    parser.add_argument("--page-size", type=int, default=20, help="page size when the request names none")
    parser.add_argument("--port", type=int, default=0, help="port to bind; default 0 (a free one)")
    parser.add_argument("--slow", type=float, default=4.0, help="seconds the slow response takes; default 4")
    parser.add_argument(
        "--hang",
        type=float,
        default=0.0,
        help="make the slow response a hang: send nothing, wait this many seconds (at most 900), then "
        "close the connection; default 0 (off)",
    )
    parser.add_argument("--no-faults", action="store_true", help="inject no faults")
    parser.add_argument("--chaos", type=int, help="random faults on every page, seeded with this number (chaos.py)")
    parser.add_argument("--fault-rate", type=float, default=0.25, help="with --chaos: the share of failed answers")
    parser.add_argument(
        "--insert-rows", type=int, default=0, help="insert up to N rows at the top as a client pages down (chaos.py)"
    )
    parser.add_argument("--no-previous", action="store_true", help="name no previous page in any response")
    parser.add_argument("--lifetime", type=float, default=600.0, help="serve at most this long; default 600 s")
    parser.add_argument("--quiet", action="store_true", help="do not log requests on standard error")
    parser.add_argument("--exit-on-eof", action="store_true", help="stop when standard input closes")
    args = parser.parse_args()

    inserter = TopInserter(args.insert_rows, args.chaos or 0) if args.insert_rows > 0 else None
    catalog = Catalog(
        args.items, args.page_size, faults=not args.no_faults, previous=not args.no_previous, inserter=inserter
    )
    chaos = Chaos(args.chaos, args.fault_rate) if args.chaos is not None else None
    hang = min(max(args.hang, 0.0), 900.0)
    handler = make_handler(catalog, args.slow, args.quiet, hang, chaos)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)

    def stop_when_stdin_closes():
        try:
            while sys.stdin.read(4096):
                pass
        finally:
            server.shutdown()

    if args.exit_on_eof:
        threading.Thread(target=stop_when_stdin_closes, daemon=True).start()
    timer = threading.Timer(args.lifetime, server.shutdown)
    timer.daemon = True
    timer.start()
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
