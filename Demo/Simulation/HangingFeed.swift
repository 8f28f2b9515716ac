import Reactive
import Stapler

/// A headline of the simulated news feed: the item type of the scene whose server hangs.
struct Headline: ListItem {
    let id: Int
}

/// One response of the simulated `GET /feed?offset=&limit=`: a page of headlines and the total.
struct HeadlinesPage: PaginatedResponse {
    let items: [Headline]
    let total: Int
}

/// The in-process news feed of the scene whose server hangs: `GET /feed?offset=&limit=`.
///
/// It has seeded latency and seeded failures at `--failure-rate`, and one scripted fault: the first
/// request for the page at `hangingOffset` never answers. Only the paginator's `loadTimeout` ends it
/// (the paginator disposes it), and its automatic retry asks for the page again, which answers.
///
/// Like ``SimulatedBackend``, it draws its randomness in the order of the requests, so the same seed
/// plays the same scene.
final class HangingFeed: Sendable {
    /// What the server saw, for the summary.
    struct Statistics: Sendable {
        var requests = 0
        var answered = 0
        var failed = 0
        /// Requests that never answered and that the paginator disposed.
        var hung = 0
    }

    private struct State {
        var random: SplitMix
        var hangingAttempted = false
        var statistics = Statistics()
    }

    /// The ids of the feed, in order.
    let ids: [Int]
    private let hangingOffset: Int
    private let simulation: Simulation
    private let log: Log
    private let latency: Duration
    private let failureRate: Double
    // Guarded by its own lock.
    private let state: LockedState<State>

    /// Creates a feed of `count` headlines, ids 1...count, whose page at `hangingOffset` hangs once.
    init(
        count: Int, hangingOffset: Int, simulation: Simulation, log: Log, latency: Duration, failureRate: Double,
        random: SplitMix
    ) {
        ids = (0..<count).map { $0 + 1 }
        self.hangingOffset = hangingOffset
        self.simulation = simulation
        self.log = log
        self.latency = latency
        self.failureRate = failureRate
        state = LockedState(State(random: random))
    }

    /// The page source of the feed's paginator: the library's offset + total model.
    var source: PageSource<Headline, Int, Void, HeadlinesPage, ServerError> {
        .offset { [self] offset, size, _ in
            headlines(offset: offset, limit: size)
        }
    }

    /// What the server saw so far.
    var statistics: Statistics {
        state.withLock { $0.statistics }
    }

    /// One request: it answers after its latency on the simulation's clock, or never when it hangs;
    /// either way the paginator may dispose it first.
    func headlines(offset: Int, limit: Int) -> SignalProducer<HeadlinesPage, ServerError> {
        SignalProducer { [self] observer, lifetime in
            // The paginator calls its source on the thread that asked for the page (or whose timer
            // fired): in the simulation that is always the main thread, where the simulation runs.
            MainActor.assumeIsolated {
                let path = "/feed?offset=\(offset)&limit=\(limit)"
                let (delay, fails, hangs) = draw(offset: offset)
                if hangs {
                    log.write(.server, "request", "GET \(path) (scripted: the server hangs and never answers)")
                    lifetime.observeEnded { [self] in
                        state.withLock { $0.statistics.hung += 1 }
                        log.write(.server, "disposed", "GET \(path): the paginator gave up on the hanging request")
                    }
                    return
                }
                log.write(.server, "request", "GET \(path)")
                let ticket = simulation.schedule(after: delay) { [self] in
                    let after = "after \(Log.milliseconds(delay))"
                    if fails {
                        let error = ServerError(status: 500, reason: "Internal Server Error")
                        state.withLock { $0.statistics.failed += 1 }
                        log.write(.server, "response", "\(error) \(after) (random failure)")
                        observer.send(error: error)
                        return
                    }
                    let items = ids.dropFirst(offset).prefix(limit).map { Headline(id: $0) }
                    state.withLock { $0.statistics.answered += 1 }
                    log.write(.server, "response", "200 OK \(after): \(items.count) of \(ids.count) headlines")
                    observer.send(value: HeadlinesPage(items: items, total: ids.count))
                    observer.sendCompleted()
                }
                lifetime.observeEnded { [self] in
                    MainActor.assumeIsolated {
                        guard simulation.cancel(ticket) else { return }
                        log.write(.server, "cancelled", "GET \(path): the paginator disposed the request")
                    }
                }
            }
        }
    }

    /// Draws the latency and the failure of a request; the first request for the hanging page hangs.
    private func draw(offset: Int) -> (latency: Duration, fails: Bool, hangs: Bool) {
        state.withLock { state in
            state.statistics.requests += 1
            let factor = 0.5 + state.random.nextUnit()
            let fails = state.random.nextUnit() < failureRate
            let hangs = offset == hangingOffset && !state.hangingAttempted
            if hangs { state.hangingAttempted = true }
            return (latency * factor, fails, hangs)
        }
    }
}
