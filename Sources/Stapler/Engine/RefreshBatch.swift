import Reactive

/// The requests of a reload of every shown page in parallel, run as one load: at most `maxConcurrent` at
/// once, the next one started as each page comes in, and one outcome once every page is in (or at the
/// first failure, which disposes the others).
///
/// A page counts on its request's first value, and that request is then disposed; a request that completes
/// with no value is ``PagingError/noPage``. Disposing the batch disposes every request still running, and
/// it reports nothing after that.
@usableFromInline
final class RefreshBatch<Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error>:
    Disposable, @unchecked Sendable
{
    @usableFromInline typealias Loaded = Page<Item, Key, Metadata>

    /// How the batch ended.
    @usableFromInline
    enum Outcome: Sendable {
        /// Every page, in the order of the requests.
        case loaded([Loaded])
        /// A request failed; `arrived` are the pages that came in before it from the first request on,
        /// with no request missing between them.
        case failed(PagingError<Failure>, arrived: [Loaded])
        case interrupted
    }

    @usableFromInline
    struct State {
        @usableFromInline var pages: [Loaded?]
        @usableFromInline var runs: [(any Disposable)?]
        @usableFromInline var next = 0
        @usableFromInline var running = 0
        @usableFromInline var ended = false

        @inlinable
        init(count: Int) {
            pages = Array(repeating: nil, count: count)
            runs = Array(repeating: nil, count: count)
        }
    }

    // Guarded by `state`'s lock; the other properties are immutable.
    @usableFromInline let state: LockedState<State>
    @usableFromInline let requests: [PageRequest<Key, Query>]
    @usableFromInline let maxConcurrent: Int
    @usableFromInline let source: PageSource<Item, Key, Query, Metadata, Failure>
    @usableFromInline let report: @Sendable (Outcome) -> Void

    @inlinable
    init(
        _ requests: [PageRequest<Key, Query>], maxConcurrent: Int,
        source: PageSource<Item, Key, Query, Metadata, Failure>, report: @escaping @Sendable (Outcome) -> Void
    ) {
        self.requests = requests
        self.maxConcurrent = maxConcurrent
        self.source = source
        self.report = report
        state = LockedState(State(count: requests.count))
    }

    /// Starts the first `maxConcurrent` of `requests` on `source`; `report` hears the outcome once, with no
    /// lock held.
    @inlinable
    static func start(
        _ requests: [PageRequest<Key, Query>], maxConcurrent: Int,
        of source: PageSource<Item, Key, Query, Metadata, Failure>,
        report: @escaping @Sendable (Outcome) -> Void
    ) -> RefreshBatch {
        let batch = RefreshBatch(requests, maxConcurrent: maxConcurrent, source: source, report: report)
        batch.startMore()
        return batch
    }

    @inlinable
    var isDisposed: Bool { state.withLock { $0.ended } }

    @inlinable
    func dispose() {
        let runs = state.withLock { state -> [(any Disposable)?] in
            state.ended = true
            defer { state.runs = [] }
            return state.runs
        }
        for run in runs { run?.dispose() }
    }

    /// Starts requests while fewer than `maxConcurrent` run and some are left; the source is called with no
    /// lock held (it may answer at once, on this thread).
    @inlinable
    func startMore() {
        while let index = state.withLock({ state -> Int? in
            guard !state.ended, state.next < requests.count, state.running < maxConcurrent else { return nil }
            defer {
                state.next += 1
                state.running += 1
            }
            return state.next
        }) {
            let sink = PageSink<Item, Key, Metadata, Failure>(
                receiver: { [self] event, _ in receive(event, at: index) }, ticket: 0)
            let run = source.start(requests[index], sink)
            let answered = state.withLock { state -> Bool in
                guard !state.ended, state.pages[index] == nil else { return true }
                state.runs[index] = run
                return false
            }
            if answered { run.dispose() }
        }
    }

    /// The pages in from the first request on, up to the first one missing.
    @inlinable
    static func arrived(_ pages: [Loaded?]) -> [Loaded] {
        Array(pages.prefix { $0 != nil }.lazy.compactMap { $0 })
    }

    /// Takes the first event of request `index`.
    @inlinable
    func receive(_ event: Signal<Loaded, PagingError<Failure>>.Event, at index: Int) {
        let (disposing, outcome) = state.withLock { state -> ([(any Disposable)?], Outcome?) in
            guard !state.ended, index < state.pages.count, state.pages[index] == nil else { return ([], nil) }
            let failure: Outcome
            switch event {
            case .value(let page):
                state.pages[index] = page
                state.running -= 1
                defer { state.runs[index] = nil }
                guard state.pages.allSatisfy({ $0 != nil }) else { return ([state.runs[index]], nil) }
                state.ended = true
                return ([state.runs[index]], .loaded(state.pages.map { $0! }))
            case .failed(let error): failure = .failed(error, arrived: Self.arrived(state.pages))
            case .completed: failure = .failed(.noPage, arrived: Self.arrived(state.pages))
            case .interrupted: failure = .interrupted
            }
            state.ended = true
            defer { state.runs = [] }
            return (state.runs, failure)
        }
        for run in disposing { run?.dispose() }
        if let outcome {
            report(outcome)
        } else if case .value = event {
            startMore()
        }
    }
}

extension PagingEngine {
    /// Turns the outcome of the reload of every shown page in parallel with `ticket` into a machine input;
    /// the pages' identities are worked out here, with no lock held (the identity is user code).
    @inlinable
    func receiveBatch(_ outcome: RefreshBatch<Item, Key, Query, Metadata, Failure>.Outcome, from ticket: UInt64) {
        switch outcome {
        case .loaded(let pages):
            let loaded = pages.map { page in
                (page: page, identities: identities.map { $0.erasedIdentities(page.items) })
            }
            send { $0.receiveBatchLoaded(ticket: ticket, pages: loaded) }
        case .failed(let error, let arrived) where !arrived.isEmpty:
            let loaded = arrived.map { page in
                (page: page, identities: identities.map { $0.erasedIdentities(page.items) })
            }
            send { $0.receiveBatchFailed(ticket: ticket, arrived: loaded, error: error) }
        case .failed(let error, _):
            send { $0.receiveFailed(ticket: ticket, error: error) }
        case .interrupted:
            send { $0.receiveInterrupted(ticket: ticket) }
        }
    }
}
