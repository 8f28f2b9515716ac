import Reactive

/// Runs a ``PagingMachine``: serialises its inputs, starts and disposes loads, and publishes snapshots.
///
/// Every input is handled under one lock; the effects run after unlocking: user code (the source's
/// load closure, observers, action callbacks) never runs under a lock.
///
/// Notifications go through an outbox, delivered queue-and-drain like a ``Signal``: the thread that
/// finds it idle becomes the flusher and delivers every publication and first-page outcome in the order
/// of the transitions that made them; any other thread, and any call an observer makes back into the
/// paginator, enqueues and returns. A publication is staged into every published property only when its
/// turn comes, and its notifications run before the next is staged, so while an observer is notified of
/// a publication, every property holds exactly that publication's values, whatever other threads do.
/// The machine itself (and so every method's decision) is always up to date.
///
/// The engine is specialised in the client's module (its methods are inlinable), so a paginator of
/// concrete types runs no unspecialised generic code on its hot paths, except Reactive's property
/// group, which it reaches through ``PropertyWriter`` and ``SignalWriter``.
@usableFromInline
final class PagingEngine<Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error>:
    @unchecked Sendable
{
    @usableFromInline typealias Machine = PagingMachine<Item, Key, Query, Metadata, Failure>
    @usableFromInline typealias Snapshot = PagingSnapshot<Item, Metadata, Failure>
    @usableFromInline typealias Waiter = @Sendable (FirstPageOutcome<Failure>) -> Void

    // Guarded by `state`'s lock.
    @usableFromInline let state: LockedState<State>
    // Guarded by `outbox`'s lock: deliveries not yet made, and whether a thread is making them.
    // Lock order: `state`, then `outbox`, then the published properties' own locks.
    @usableFromInline let outbox = LockedState(Outbox())
    // Written only while the owner is being initialised, before the engine is shared.
    @usableFromInline var stagers: [@Sendable (Publication) -> StagedNotification?] = []

    @usableFromInline let source: PageSource<Item, Key, Query, Metadata, Failure>
    @usableFromInline let identity: (@Sendable (Item) -> AnyHashable)?
    @usableFromInline let deliveryScheduler: (any Scheduler)?

    /// What the no-op-able calls may skip without taking the lock.
    @usableFromInline let gate = PagingGate()

    @usableFromInline
    struct State {
        @usableFromInline var machine: Machine
        /// The disposables of the loads started and not yet superseded, by ticket.
        @usableFromInline var loads: [UInt64: SerialDisposable] = [:]
        /// Callbacks waiting for the first page of a generation.
        @usableFromInline var waiters: [UInt64: [Waiter]] = [:]

        @inlinable
        init(machine: Machine) {
            self.machine = machine
        }
    }

    @usableFromInline
    struct Outbox {
        @usableFromInline var deliveries = FIFOQueue<Delivery>()
        @usableFromInline var isFlushing = false

        @inlinable
        init() {}
    }

    /// What the flusher delivers: a publication to every property and signal, or a first-page outcome
    /// to the action that waits for it.
    @usableFromInline
    enum Delivery {
        case publication(Publication)
        case outcome(@Sendable () -> Void)
    }

    /// One published change: the snapshot, with the items change and the later-page error that came
    /// with it.
    @usableFromInline
    struct Publication {
        @usableFromInline let snapshot: Snapshot
        @usableFromInline let itemsUpdate: ItemsUpdate<Item, Metadata>?
        @usableFromInline let laterPageError: PagingError<Failure>?
        /// Whether the transition applied a page.
        @usableFromInline let appliesPage: Bool
        /// The query of the current generation, when the transition changed it.
        @usableFromInline let newQuery: Query?

        @inlinable
        init(
            snapshot: Snapshot, itemsUpdate: ItemsUpdate<Item, Metadata>?, laterPageError: PagingError<Failure>?,
            appliesPage: Bool, newQuery: Query?
        ) {
            self.snapshot = snapshot
            self.itemsUpdate = itemsUpdate
            self.laterPageError = laterPageError
            self.appliesPage = appliesPage
            self.newQuery = newQuery
        }
    }

    /// Creates an engine.
    ///
    /// - Parameters:
    ///   - source: The page model.
    ///   - pageSize: The page size of every request.
    ///   - query: The query of the first generation.
    ///   - identity: Deduplicates items by this identity when given.
    ///   - deliveryScheduler: When set, publications and first-page outcomes run on it, in order,
    ///     instead of on the thread that caused them.
    @usableFromInline
    init(
        source: PageSource<Item, Key, Query, Metadata, Failure>,
        pageSize: Int,
        query: Query,
        identity: (@Sendable (Item) -> AnyHashable)?,
        deliveryScheduler: (any Scheduler)?
    ) {
        self.source = source
        self.identity = identity
        self.deliveryScheduler = deliveryScheduler
        state = LockedState(State(machine: Machine(firstKey: source.firstKey, pageSize: pageSize, query: query)))
    }

    deinit {
        let loads = state.withLock { state in
            defer { state.loads = [:] }
            return state.loads.values
        }
        for load in loads { load.dispose() }
    }

    // MARK: Published values

    /// A property holding `project` of each snapshot; call only while the owner is initialising.
    ///
    /// - Parameters:
    ///   - project: Pure; runs under the outbox lock for every publication.
    ///   - isEquivalent: When given, a publication that projects an equivalent value notifies nobody.
    /// - Returns: The read-only property.
    @inlinable
    func property<Value: Sendable>(
        _ project: @escaping @Sendable (Snapshot) -> Value,
        skipping isEquivalent: (@Sendable (Value, Value) -> Bool)? = nil
    ) -> Property<Value> {
        let (property, writer) = PropertyWriter.make(project(Snapshot.initial))
        stagers.append { publication in
            let value = project(publication.snapshot)
            if let isEquivalent, isEquivalent(writer.value, value) { return nil }
            return writer.stage(value)
        }
        return property
    }

    /// A property holding `project` of each snapshot, changing only with publications for which
    /// `changes` holds (for values that cannot be compared); call only while the owner is initialising.
    ///
    /// - Returns: The read-only property.
    @inlinable
    func property<Value: Sendable>(
        _ project: @escaping @Sendable (Snapshot) -> Value,
        changingWhen changes: @escaping @Sendable (Publication) -> Bool
    ) -> Property<Value> {
        let (property, writer) = PropertyWriter.make(project(Snapshot.initial))
        stagers.append { publication in
            changes(publication) ? writer.stage(project(publication.snapshot)) : nil
        }
        return property
    }

    /// A property holding the query of the current generation; call only while the owner is initialising.
    ///
    /// - Parameter initial: The query of the first generation.
    /// - Returns: The read-only property.
    @inlinable
    func queryProperty(initial: Query) -> Property<Query> {
        let (property, writer) = PropertyWriter.make(initial)
        stagers.append { publication in
            publication.newQuery.flatMap { writer.stage($0) }
        }
        return property
    }

    /// A signal of `project` of each publication, for those that project a value.
    ///
    /// - Returns: The signal; it completes when the engine is released.
    @inlinable
    func signal<Value: Sendable>(_ project: @escaping @Sendable (Publication) -> Value?) -> Signal<Value, Never> {
        let (signal, writer) = SignalWriter<Value>.make()
        stagers.append { publication in
            project(publication).flatMap { writer.stage($0) }
        }
        completions.append { writer.complete() }
        return signal
    }

    // Written only while the owner is being initialised; run when the owner is released.
    @usableFromInline var completions: [@Sendable () -> Void] = []

    /// Completes every signal made by ``signal(_:)``.
    func completeSignals() {
        for complete in completions { complete() }
    }

    /// The latest snapshot (it may be ahead of what observers on a delivery scheduler have seen).
    var snapshot: Snapshot {
        state.withLock { $0.machine.snapshot }
    }

    // MARK: Inputs

    /// Handles `input` and runs its effects.
    @inlinable
    func send(_ input: Machine.Input) {
        send(input, waiter: nil)
    }

    /// Starts a new generation; `waiter` hears how its first page ends.
    ///
    /// - Returns: The new generation.
    @inlinable
    @discardableResult
    func refresh(query: Query?, waiter: Waiter?) -> UInt64 {
        send(.refresh(query: query), waiter: waiter)
    }

    @inlinable
    @discardableResult
    func send(_ input: Machine.Input, waiter: Waiter?) -> UInt64 {
        var delivers = false
        var cancelled: SerialDisposable?
        var started: (load: Machine.Load, disposable: SerialDisposable)?
        let generation = state.withLock { state -> UInt64 in
            let effects = state.machine.handle(input)
            let generation = state.machine.snapshot.generation
            if let waiter {
                state.waiters[generation, default: []].append(waiter)
            }
            guard !effects.isEmpty else { return generation }
            gate.update(
                canLoadNext: state.machine.canLoadNext, canRetryNext: state.machine.canRetryNext,
                itemCount: state.machine.snapshot.items.count)
            var deliveries: [Delivery] = []
            if effects.publish || effects.laterPageError != nil {
                let snapshot = state.machine.snapshot
                let update = effects.itemsChange.map {
                    ItemsUpdate(
                        previous: $0.previous, items: snapshot.items, change: $0.change, metadata: snapshot.metadata)
                }
                deliveries.append(
                    .publication(
                        Publication(
                            snapshot: snapshot, itemsUpdate: update, laterPageError: effects.laterPageError,
                            appliesPage: effects.appliesPage,
                            newQuery: effects.changesQuery ? state.machine.query : nil)))
            }
            for (settled, outcome) in effects.firstPageOutcomes {
                for waiter in state.waiters.removeValue(forKey: settled) ?? [] {
                    deliveries.append(.outcome { waiter(outcome) })
                }
            }
            if !deliveries.isEmpty {
                outbox.withLock { box in
                    for delivery in deliveries { box.deliveries.append(delivery) }
                }
                delivers = true
            }
            if let ticket = effects.cancel {
                cancelled = state.loads.removeValue(forKey: ticket)
            }
            if let load = effects.start {
                let disposable = SerialDisposable()
                state.loads[load.ticket] = disposable
                started = (load, disposable)
            }
            return generation
        }
        if delivers {
            if let deliveryScheduler {
                deliveryScheduler.schedule { [self] in flush() }
            } else {
                flush()
            }
        }
        cancelled?.dispose()
        if let (load, disposable) = started {
            disposable.inner = source.start(load.request, PageSink(engine: self, ticket: load.ticket))
        }
        return generation
    }

    /// Delivers everything in the outbox, in order, unless another flush is already doing it.
    ///
    /// Each publication is staged into every property and its notifications run before the next one is
    /// staged. A flush that finds another one running (on another thread, or further up this thread's
    /// stack, when an observer calls back) returns at once: the running flush delivers what it enqueued.
    @inlinable
    func flush() {
        let claimed = outbox.withLock { box -> Bool in
            guard !box.isFlushing else { return false }
            box.isFlushing = true
            return true
        }
        guard claimed else { return }
        while true {
            let step = outbox.withLock { box -> FlushStep? in
                guard let delivery = box.deliveries.popFirst() else {
                    box.isFlushing = false
                    return nil
                }
                switch delivery {
                case .publication(let publication):
                    var drains: [StagedNotification] = []
                    for stage in stagers {
                        if let drain = stage(publication) { drains.append(drain) }
                    }
                    return .notify(drains)
                case .outcome(let report):
                    return .report(report)
                }
            }
            switch step {
            case .notify(let drains):
                for drain in drains { drain() }
            case .report(let report):
                report()
            case nil:
                return
            }
        }
    }

    @usableFromInline
    enum FlushStep {
        case notify([StagedNotification])
        case report(@Sendable () -> Void)
    }

    /// Turns an event of the load with `ticket` into a machine input.
    @inlinable
    func receive(_ event: Signal<Page<Item, Key, Metadata>, PagingError<Failure>>.Event, from ticket: UInt64) {
        switch event {
        case .value(let page):
            let identities = identity.map { identify in page.items.map(identify) }
            send(.loaded(ticket: ticket, page: page, identities: identities))
        case .failed(let error):
            send(.failed(ticket: ticket, error: error))
        case .completed:
            send(.failed(ticket: ticket, error: .noPage))
        case .interrupted:
            send(.interrupted(ticket: ticket))
        }
    }
}
