import Reactive
import Stapler

/// The in-process server of the default run: `GET /products?offset=&limit=&category=` with seeded
/// latency, seeded failures at `--failure-rate`, and two scripted faults that make the story.
///
/// Scripted faults, on the unfiltered list only and on the first attempt only: the page at
/// `failingOffset` answers 503, and the page at `slowOffset` takes `slowLatency` (long enough for the
/// user to pull to refresh while it loads).
///
/// Each request draws its latency and its failure from the seeded generator in the order the
/// requests are made; the scripted session makes them in the same order for the same seed, so the
/// whole run repeats exactly.
final class SimulatedBackend: Sendable {
    struct Faults: Sendable {
        var failingOffset: Int?
        var slowOffset: Int?
        var slowLatency: Duration
    }

    /// What the server saw, for the summary.
    struct Statistics: Sendable {
        var requests = 0
        var answered = 0
        var failed = 0
        var cancelled = 0
        /// The offset of every request, in order.
        var offsets: [Int] = []
    }

    private struct State {
        var random: SplitMix
        var attempts: [String: Int] = [:]
        var statistics = Statistics()
    }

    let catalog: SimulatedCatalog
    private let simulation: Simulation
    private let log: Log
    private let latency: Duration
    private let failureRate: Double
    private let faults: Faults
    // Guarded by its own lock.
    private let state: LockedState<State>

    init(
        catalog: SimulatedCatalog, simulation: Simulation, log: Log, latency: Duration, failureRate: Double,
        faults: Faults, random: SplitMix
    ) {
        self.catalog = catalog
        self.simulation = simulation
        self.log = log
        self.latency = latency
        self.failureRate = failureRate
        self.faults = faults
        state = LockedState(State(random: random))
    }

    /// The page source of the paginator: the library's offset + total model over this server.
    var source: PageSource<Product, Int, Category?, ProductsPage, ServerError> {
        .offset { [self] offset, size, query in
            products(offset: offset, limit: size, category: query)
        }
    }

    var statistics: Statistics {
        state.withLock { $0.statistics }
    }

    /// One request: it answers after its latency on the simulation's clock, unless disposed first.
    func products(offset: Int, limit: Int, category: Category?) -> SignalProducer<ProductsPage, ServerError> {
        SignalProducer { [self] observer, lifetime in
            // The paginator calls its source on the thread that asked for the page: in the
            // simulation that is always the main thread, where the simulation runs.
            MainActor.assumeIsolated {
                let path = "/products?offset=\(offset)&limit=\(limit)" + (category.map { "&category=\($0)" } ?? "")
                let plan = plan(offset: offset, category: category)
                log.write(.server, "request", "GET \(path)")
                let ticket = simulation.schedule(after: plan.latency) { [self] in
                    let after = "after \(Log.milliseconds(plan.latency))"
                    if let error = plan.error {
                        state.withLock { $0.statistics.failed += 1 }
                        log.write(.server, "response", "\(error) \(after)" + (plan.note.map { " (\($0))" } ?? ""))
                        observer.send(error: error)
                    } else {
                        let all = catalog.products(for: category)
                        let items = Array(all.dropFirst(offset).prefix(limit))
                        state.withLock { $0.statistics.answered += 1 }
                        log.write(
                            .server, "response",
                            "200 OK \(after): \(items.count) of \(all.count) products"
                                + (plan.note.map { " (\($0))" } ?? ""))
                        observer.send(value: ProductsPage(items: items, total: all.count))
                        observer.sendCompleted()
                    }
                }
                lifetime.observeEnded { [self] in
                    MainActor.assumeIsolated {
                        guard simulation.cancel(ticket) else { return }
                        state.withLock { $0.statistics.cancelled += 1 }
                        log.write(.server, "cancelled", "GET \(path): the paginator disposed the request")
                    }
                }
            }
        }
    }

    private struct Plan {
        var latency: Duration
        var error: ServerError?
        var note: String?
    }

    /// Draws the latency and the failure of a request, and applies the scripted faults.
    private func plan(offset: Int, category: Category?) -> Plan {
        state.withLock { state in
            state.statistics.requests += 1
            state.statistics.offsets.append(offset)
            let key = "\(category.map(\.rawValue) ?? "*")@\(offset)"
            state.attempts[key, default: 0] += 1
            let firstAttempt = state.attempts[key] == 1
            let factor = 0.5 + state.random.nextUnit()
            let fails = state.random.nextUnit() < failureRate
            var plan = Plan(latency: latency * factor)
            if fails {
                plan.error = ServerError(status: 500, reason: "Internal Server Error")
                plan.note = "random failure"
            }
            if category == nil, firstAttempt, offset == faults.failingOffset {
                plan.error = ServerError(status: 503, reason: "Service Unavailable")
                plan.note = "scripted: this page fails once"
            }
            if category == nil, firstAttempt, offset == faults.slowOffset {
                plan.latency = faults.slowLatency
                plan.note = "scripted: a slow page" + (plan.error == nil ? "" : ", and a random failure")
            }
            return plan
        }
    }
}
