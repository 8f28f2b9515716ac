import Foundation

/// What a run of the demo does, as the command line says.
struct DemoOptions: Sendable {
    /// Items per page; `nil` means the default: 10 for the simulation, and for `--url` the URL's own
    /// page-size parameter or the size of the first page.
    var pageSize: Int?
    /// How many items the simulated backend holds.
    var itemCount = 64
    /// How many messages the simulated chat holds.
    var messageCount = 45
    /// How many products the long list of the memory-bound, relaunch and jump scenes holds.
    var longItemCount = 120
    /// The `maxPages` the command line gave; ``maxPages`` is the one the scenes use.
    var requestedMaxPages: Int?
    /// Where the relaunch scene saves its list (and leaves it); `nil`: a temporary file, removed after.
    var saveTo: URL?
    /// A saved list to restore: the run is the relaunch scene's second launch alone, from this file.
    var restoreFrom: URL?
    /// The chance that a simulated request fails, from 0 to 1.
    var failureRate = 0.1
    /// The mean latency of the simulated backend.
    var latency: Duration = .milliseconds(120)
    /// The seed of every random choice of the simulation.
    var seed: UInt64 = 42
    /// How fast the simulation plays: 1 is real time, 0 as fast as possible.
    var speed = 1.0
    /// The API to page instead of the simulation.
    var url: URL?
    /// The wire format of `url`; `nil` detects it from the first response.
    var format: WireFormat?
    /// How long the `--url` run waits for a page: the paginator's `loadTimeout` (and the time-out of the
    /// request that detects the format, made before the paginator exists).
    var timeout: Duration = .seconds(10)
    /// How many retries in a row one page gets before the run gives up: the simulated user's taps on
    /// Retry in the shop and the chat; the `maxRetries` of the paginator's `AutoRetry` in the scene whose
    /// server hangs and in the `--url` run.
    var retries = 8
    /// Whether to print the id of every loaded item at the end.
    var printIDs = false
    /// With `--url`, the SQLite file a mediator fills from the API (limit/offset), the list shown from it.
    var storePath: String?
    /// Whether the `--url` run drops items whose id it already has (`Deduplication.by(\.id)`).
    var deduplicates = false
    /// Whether the `--url` run edits rows by id while its pages load (`--edit-rows`).
    var editsRows = false
    /// Whether to print the help and exit.
    var showsHelp = false

    /// The page size of the simulation.
    var simulatedPageSize: Int { pageSize ?? 10 }

    /// How many rows the screen of the long-list scenes shows.
    static let screenRows = 8

    /// The `prefetchDistance` of the long-list scenes' paginators: at least the screen's height, because
    /// a memory bound keeps only the rows that close to the row last passed to `preload(index:)` (the
    /// bottom row of the screen going down, the top row going up), and the rest of the screen must stay.
    var boundedPrefetchDistance: Int { max(simulatedPageSize / 2, Self.screenRows) }

    /// The `maxPages` of the paginators of the memory-bound and relaunch scenes: `--max-pages`, else 4
    /// (or the fewest the page size allows, if more).
    var maxPages: Int { requestedMaxPages ?? max(4, fewestMaxPages) }

    /// The fewest pages a long-list scene's bound may keep: a page and the kept rows on both sides.
    var fewestMaxPages: Int {
        let rows = simulatedPageSize + 2 * boundedPrefetchDistance
        return (rows + simulatedPageSize - 1) / simulatedPageSize
    }
}

/// A command line the demo cannot run.
struct OptionsError: Error, CustomStringConvertible {
    let description: String
}

extension DemoOptions {
    /// Parses the arguments after the program name; `--flag value` and `--flag=value` both work.
    static func parse(_ arguments: [String]) throws(OptionsError) -> DemoOptions {
        var options = DemoOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(OptionsError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst() else { throw OptionsError(description: "\(name) needs a value") }
                return next
            }
            switch name {
            case "-h", "--help": options.showsHelp = true
            case "--print-ids": options.printIDs = true
            case "--dedup": options.deduplicates = true
            case "--edit-rows": options.editsRows = true
            case "--page-size": options.pageSize = try integer(value(), for: name, atLeast: 1)
            case "--items": options.itemCount = try integer(value(), for: name, atLeast: 0)
            case "--messages": options.messageCount = try integer(value(), for: name, atLeast: 0)
            case "--long-items": options.longItemCount = try integer(value(), for: name, atLeast: 0)
            case "--max-pages": options.requestedMaxPages = try integer(value(), for: name, atLeast: 2)
            case "--save-to": options.saveTo = URL(fileURLWithPath: try value())
            case "--restore-from": options.restoreFrom = URL(fileURLWithPath: try value())
            case "--failure-rate": options.failureRate = try number(value(), for: name, in: 0...1)
            case "--latency": options.latency = .milliseconds(try integer(value(), for: name, atLeast: 0))
            case "--seed":
                let text = try value()
                guard let seed = UInt64(text) else { throw OptionsError(description: "\(name) needs a whole number") }
                options.seed = seed
            case "--speed": options.speed = try number(value(), for: name, in: 0...1000)
            case "--url":
                let text = try value()
                guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                    scheme == "http" || scheme == "https", url.host != nil
                else { throw OptionsError(description: "\(name) needs an http or https URL, got \(text)") }
                options.url = url
            case "--format":
                let text = try value()
                if text == "auto" {
                    options.format = nil
                } else {
                    guard let format = WireFormat(rawValue: text) else {
                        let names = (["auto"] + WireFormat.allCases.map(\.rawValue)).joined(separator: ", ")
                        throw OptionsError(description: "\(name) must be one of \(names), got \(text)")
                    }
                    options.format = format
                }
            case "--timeout":
                let seconds = try number(value(), for: name, in: 0.001...3600)
                options.timeout = .milliseconds(Int((seconds * 1000).rounded()))
            case "--retries": options.retries = try integer(value(), for: name, atLeast: 0)
            case "--store": options.storePath = try value()
            default:
                throw OptionsError(description: "unknown argument \(argument)")
            }
        }
        if let maxPages = options.requestedMaxPages, maxPages < options.fewestMaxPages {
            throw OptionsError(
                description: "--max-pages \(maxPages) cannot keep a page of \(options.simulatedPageSize) and "
                    + "\(options.boundedPrefetchDistance) rows on each side of the row shown: it needs at least "
                    + "\(options.fewestMaxPages)")
        }
        if options.url != nil, options.saveTo != nil || options.restoreFrom != nil {
            throw OptionsError(description: "--save-to and --restore-from belong to the simulation, not to --url")
        }
        return options
    }

    private static func integer(_ text: String, for name: String, atLeast minimum: Int) throws(OptionsError) -> Int {
        guard let value = Int(text), value >= minimum else {
            throw OptionsError(description: "\(name) needs a whole number of at least \(minimum), got \(text)")
        }
        return value
    }

    private static func number(_ text: String, for name: String, in range: ClosedRange<Double>) throws(OptionsError)
        -> Double
    {
        guard let value = Double(text), range.contains(value) else {
            throw OptionsError(
                description: "\(name) needs a number from \(range.lowerBound) to \(range.upperBound), got \(text)")
        }
        return value
    }

    /// The text of `--help`.
    static let help = """
        USAGE: swift run Demo [options]

        Pages a list through Stapler's Paginator and logs every change of every paginator property as it
        happens: the items (each change with its kind and range: appended, inserted, removed, updated, a
        difference), pages, total, state, the load state of each direction (loadStates), the next-page
        indicator and the errors. With no arguments it plays a scripted session against a simulated
        backend (no network): initial load, scrolling that preloads pages, a failed page and a retry, a
        pull-to-refresh while a page loads, a search, and the end of the list; then a chat that opens at
        its newest message and pages older ones at the top, a message deleted and one edited while a
        page loads, a pull to refresh that reloads every loaded page, live messages added at the bottom
        as local rows (insert(contentsOf:at: .bottom)) and, after the connection drops and returns, a
        catch-up of the newest pages (catchUp(at: .bottom)); then a news feed whose server
        hangs on a page: the paginator's load timeout fails it (timedOut) and its automatic retry, with
        a seeded jittered backoff, asks for it again; then a long list with a memory bound (maxPages),
        scrolled to its end and back: pages are dropped at the far end (logged as "dropped") and reload
        with their keys when the user scrolls back, and every product must appear once each way, in
        order; then a relaunch: the app saves its list to a file as JSON (savedState, JSONEncoder), the
        system ends it, and the next launch shows the list from the file with 0 requests
        (Paginator(restoring:)), then revalidates it around the row last shown; then a jump: the long
        list shown at full length with a placeholder for every row not loaded (placeholders: .jumping,
        slots), where the user drags the scroll bar to the middle and on: the page under the finger
        loads directly (a preload farther than jumpThreshold, one page, from the loaded rows), no page in
        between is requested, and the loads in flight it makes useless are superseded (their requests
        disposed, logged as "cancelled") and never applied. With --url it pages a real HTTP API.

        SIMULATION (the default)
          --items N           items on the simulated server (default 64)
          --messages N        messages in the simulated chat (default 45)
          --page-size N       items per page (default 10)
          --failure-rate R    chance from 0 to 1 that a request fails (default 0.1); besides, the third
                              page always fails once and the fifth is slow
          --latency MS        mean response time in milliseconds (default 120)
          --seed N            random seed: the same seed plays the same session, line for line (default 42)
          --speed X           playback speed: 2 is twice as fast, 0 as fast as possible (default 1)

        LONG LIST, RELAUNCH AND JUMP (the last three scenes of the simulation)
          --long-items N      products in the long list (default 120); the jump is skipped in a list
                              too short for it (the middle at least two pages down, and four fifths
                              of the list two pages below the middle's page)
          --max-pages N       the paginator's maxPages, the most pages it keeps (default 4, or more for
                              small pages); the demo's prefetchDistance is the screen's 8 rows (or half
                              a page, if more), and the bound must hold a page and that many rows on
                              each side of the row shown
          --save-to FILE      the relaunch saves its list to FILE (JSON) and leaves it there (default:
                              a temporary file, removed at the end)
          --restore-from FILE play the relaunch's second launch alone: restore the list saved in FILE
                              by an earlier run with --save-to, log the requests it took (0), revalidate
                              it and scroll to the top; a file that does not restore (missing, not JSON,
                              another version, a list that does not hold together) is logged as
                              "restore failed" with its RestoreError, and the list opens afresh. Use the
                              same --seed, --long-items and --page-size as the run that saved it

        HTTP API (--url)
          --url URL           page this API through URLSession; a URL that names a page in the middle
                              (offset=, page=, cursor=) loads that page first, then pages up to the top
                              (when the format names the page before: `previous`, rel="prev") and down
                              to the bottom
          --format F          limit-offset   {count, next, previous, results} with ?limit=&offset=
                              page-number    the same envelope with ?page= (Django REST Framework)
                              cursor         {next, previous, results}, following the `next` and
                                             `previous` URLs
                              link-header    a JSON array and a `Link: <...>; rel="next"` header, and
                                             rel="prev" (GitHub)
                              auto           detected from the first response (the default)
          --page-size N       items per page (default: the URL's limit, page_size or per_page parameter,
                              else the size of the first page)
          --timeout S         seconds the paginator waits for a page before its load fails as timed
                              out (PagingPolicy's loadTimeout; it disposes the request, and its
                              automatic retry asks again), also the time-out of the first request
                              that detects the format (default 10)
          --print-ids         at the end, print the id of every loaded item, in order, one per line, on
                              standard output; the log then goes to standard error
          --store FILE        (limit/offset APIs) page into the SQLite file FILE through a mediator and
                              show the list from it; with the server down, the list opens from FILE
          --dedup             drop an item whose id the list already has (Deduplication.by(\\.id)): the
                              repeats offset and page-number pages bring when rows are inserted above
          --max-pages N       keep at most N pages (maxPages; raised to the fewest that hold a page and
                              the rows kept around the row shown): going down drops pages at the top,
                              going up drops them at the bottom, and scrolling back reloads them; with
                              --print-ids, the ids printed are those the walk saw go by, top to bottom
          --edit-rows         while each page loads, edit two loaded rows by id (replace, modify): local
                              edits that must keep every item in place

        BOTH
          --retries N         how many retries in a row one page gets before the run gives up (default 8):
                              in the simulated shop and chat the user taps Retry; in the scene whose
                              server hangs and with --url nobody taps it: N is the maxRetries of the
                              paginator's AutoRetry, which asks again by itself after a backoff
                              (jittered, doubling; 0 turns automatic retry off). The format detection
                              of --url, before any paginator exists, asks again up to N times itself
          -h, --help          show this help

        EXIT STATUS
          0  every item was loaded and every invariant held
          1  an invariant broke (a duplicate or stale item, an illegal state transition)
          2  bad arguments
          3  the run gave up: a page still failed after --retries retries (or cannot be retried)

        EXAMPLES
          swift run Demo
          swift run Demo --failure-rate 0.5 --seed 7
          swift run Demo --long-items 400 --max-pages 3
          swift run Demo --speed 0 --save-to /tmp/list.json && swift run Demo --restore-from /tmp/list.json
          swift run Demo --url 'https://api.github.com/repos/apple/swift/contributors?per_page=30'
        """
}
