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
/// Published properties and signals are made on first use, under the outbox lock, from the snapshot of
/// the latest staged publication (what every property made earlier holds at that moment), so a value
/// made late is indistinguishable from one made at the start, and a publication stages only the values
/// someone asked for.
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
    @usableFromInline typealias PageEvent = Signal<Page<Item, Key, Metadata>, PagingError<Failure>>.Event
    /// Stages one published value for a publication, given the publication before it; runs under the
    /// outbox lock and must be pure.
    @usableFromInline typealias Stager =
        @Sendable (_ publication: Publication, _ previous: Publication) -> StagedNotification?

    // Guarded by `state`'s lock.
    @usableFromInline let state: LockedState<State>
    // Guarded by `outbox`'s lock: deliveries not yet made, whether a thread is making them, and the
    // published values. Lock order: `state`, then `outbox`, then the published properties' own locks.
    @usableFromInline let outbox: LockedState<Outbox>

    @usableFromInline let source: PageSource<Item, Key, Query, Metadata, Failure>
    @usableFromInline let identity: (@Sendable (Item) -> AnyHashable)?
    @usableFromInline let deliveryScheduler: (any Scheduler)?

    /// What the no-op-able calls may skip without taking the lock.
    @usableFromInline let gate = PagingGate()

    @usableFromInline
    struct State {
        @usableFromInline var machine: Machine
        /// The load started and not yet superseded or answered: its ticket and, once its start returned,
        /// its disposable. (The machine has at most one load in flight.)
        @usableFromInline var load: (ticket: UInt64, disposable: (any Disposable)?)?
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
        /// The latest staged publication: what every published value holds now.
        @usableFromInline var published: Publication
        /// The published values made so far, by ``PublishedSlot``.
        @usableFromInline var values: [AnyObject?]
        /// What stages each value made so far.
        @usableFromInline var stagers: [Stager] = []
        /// What completes each signal made so far.
        @usableFromInline var completions: [@Sendable () -> Void] = []
        /// The flusher's notification buffer, kept between flushes so staging does not allocate.
        @usableFromInline var spareNotifications: [StagedNotification] = []

        @inlinable
        init(query: Query) {
            published = Publication(
                snapshot: .initial, itemsChange: nil, previousItems: PagedItems(), reportsLaterPageError: false,
                appliesPage: false, query: query, changesQuery: false)
            values = Array(repeating: nil, count: PublishedSlot.allCases.count)
        }
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
    ///
    /// Copies of so large a generic value go through its value witnesses even in specialised code, so
    /// the engine makes one copy of the snapshot per publication and moves it from there on.
    @usableFromInline
    struct Publication {
        @usableFromInline let snapshot: Snapshot
        /// How the items changed, if they did.
        @usableFromInline let itemsChange: ItemsChange?
        /// The items before ``itemsChange``.
        @usableFromInline let previousItems: PagedItems<Item>
        /// Whether a later page failed (the state's error).
        @usableFromInline let reportsLaterPageError: Bool
        /// Whether the transition applied a page.
        @usableFromInline let appliesPage: Bool
        /// The query of the current generation.
        @usableFromInline let query: Query
        /// Whether the transition changed the query.
        @usableFromInline let changesQuery: Bool

        @inlinable
        init(
            snapshot: Snapshot, itemsChange: ItemsChange?, previousItems: PagedItems<Item>,
            reportsLaterPageError: Bool, appliesPage: Bool, query: Query, changesQuery: Bool
        ) {
            self.snapshot = snapshot
            self.itemsChange = itemsChange
            self.previousItems = previousItems
            self.reportsLaterPageError = reportsLaterPageError
            self.appliesPage = appliesPage
            self.query = query
            self.changesQuery = changesQuery
        }

        /// The items change with the snapshots before and after it, if the items changed.
        @inlinable
        var itemsUpdate: ItemsUpdate<Item, Metadata>? {
            itemsChange.map {
                ItemsUpdate(previous: previousItems, items: snapshot.items, change: $0, metadata: snapshot.metadata)
            }
        }

        /// The error of the later page that failed, if one did.
        @inlinable
        var laterPageError: PagingError<Failure>? {
            reportsLaterPageError ? snapshot.state.error : nil
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
        outbox = LockedState(Outbox(query: query))
    }

    deinit {
        let load = state.withLock { state in
            defer { state.load = nil }
            return state.load?.disposable
        }
        load?.dispose()
    }

    // MARK: Published values

    /// The published value in `slot`, made by `make` on first use.
    ///
    /// `make` runs under the outbox lock: it must make the value from the outbox's published snapshot and
    /// register its stager, and call no user code.
    @inlinable
    func published<Value: AnyObject>(_ slot: PublishedSlot, make: (inout Outbox) -> Value) -> Value {
        outbox.withLock { box in
            if let made = box.values[slot.rawValue] { return unsafeDowncast(made, to: Value.self) }
            let made = make(&box)
            box.values[slot.rawValue] = made
            return made
        }
    }

    /// The property in `slot`, holding `project` of each published snapshot.
    ///
    /// - Parameters:
    ///   - slot: Where the property is kept.
    ///   - project: Pure; runs under the outbox lock for every publication.
    ///   - isEquivalent: When given, a publication that projects an equivalent value notifies nobody. It
    ///     must be an equivalence relation (each value is compared with the previous publication's).
    /// - Returns: The read-only property.
    @inlinable
    func property<Value: Sendable>(
        _ slot: PublishedSlot,
        _ project: @escaping @Sendable (Snapshot) -> Value,
        skipping isEquivalent: (@Sendable (Value, Value) -> Bool)? = nil
    ) -> Property<Value> {
        published(slot) { box in
            let (property, writer) = PropertyWriter.make(project(box.published.snapshot))
            if let isEquivalent {
                box.stagers.append { publication, previous in
                    let value = project(publication.snapshot)
                    return isEquivalent(project(previous.snapshot), value) ? nil : writer.stage(value)
                }
            } else {
                box.stagers.append { publication, _ in writer.stage(project(publication.snapshot)) }
            }
            return property
        }
    }

    /// The property in `slot`, holding `project` of each snapshot, changing only with publications for
    /// which `changes` holds (for values that cannot be compared).
    ///
    /// - Returns: The read-only property.
    @inlinable
    func property<Value: Sendable>(
        _ slot: PublishedSlot,
        _ project: @escaping @Sendable (Snapshot) -> Value,
        changingWhen changes: @escaping @Sendable (Publication) -> Bool
    ) -> Property<Value> {
        published(slot) { box in
            let (property, writer) = PropertyWriter.make(project(box.published.snapshot))
            box.stagers.append { publication, _ in
                changes(publication) ? writer.stage(project(publication.snapshot)) : nil
            }
            return property
        }
    }

    /// The property holding the query of the current generation.
    @inlinable
    var queryProperty: Property<Query> {
        published(.query) { box in
            let (property, writer) = PropertyWriter.make(box.published.query)
            box.stagers.append { publication, _ in
                publication.changesQuery ? writer.stage(publication.query) : nil
            }
            return property
        }
    }

    /// The signal in `slot`, of `project` of each publication, for those that project a value.
    ///
    /// - Returns: The signal; it completes when the owner calls ``close()``.
    @inlinable
    func signal<Value: Sendable>(
        _ slot: PublishedSlot, _ project: @escaping @Sendable (Publication) -> Value?
    ) -> Signal<Value, Never> {
        published(slot) { box in
            let (signal, writer) = SignalWriter<Value>.make()
            box.stagers.append { publication, _ in
                project(publication).flatMap { writer.stage($0) }
            }
            box.completions.append { writer.complete() }
            return signal
        }
    }

    /// Completes every signal made by ``signal(_:_:)`` and lets go of every value made so far; the owner
    /// calls it when it is released.
    ///
    /// A property someone still holds keeps changing with the engine (the stagers hold its storage), as it
    /// did while the owner lived; one nobody holds is released, which completes its signal.
    func close() {
        let (values, completions) = outbox.withLock { box in
            defer {
                box.values = Array(repeating: nil, count: PublishedSlot.allCases.count)
                box.completions = []
            }
            return (box.values, box.completions)
        }
        for complete in completions { complete() }
        withExtendedLifetime(values) {}
    }

    // MARK: Inputs

    /// Starts a new generation; `waiter` hears how its first page ends.
    ///
    /// - Returns: The new generation.
    @inlinable
    @discardableResult
    func refresh(query: Query?, waiter: Waiter?) -> UInt64 {
        send(waiter: waiter) { $0.receiveRefresh(query: query) }
    }

    /// Makes the machine handle an input, by calling its method in `transition`, and runs the effects;
    /// `waiter` hears how the first page of the generation the machine is in afterwards ends.
    ///
    /// The transition calls the machine's method directly: no input value is built, copied and switched
    /// over, and the effects it returns hold only flags and plain values, so a transition that does
    /// nothing costs a lock round trip and little else. The load in flight is one slot, not a
    /// `SerialDisposable`: its start returns the disposable, which is kept if the load is still current
    /// and disposed at once otherwise.
    ///
    /// - Returns: The generation the machine is in afterwards.
    @inlinable
    @discardableResult
    func send(waiter: Waiter? = nil, _ transition: (inout Machine) -> Machine.Effects) -> UInt64 {
        var delivers = false
        var cancelled: (any Disposable)?
        var replaced: (any Disposable)?
        var started: Machine.Load?
        let generation = state.withLock { state -> UInt64 in
            let effects = transition(&state.machine)
            let generation = state.machine.snapshot.generation
            if let waiter {
                state.waiters[generation, default: []].append(waiter)
            }
            guard !effects.isEmpty else { return generation }
            gate.update(
                canLoadNext: state.machine.canLoadNext, canRetryNext: state.machine.canRetryNext,
                itemCount: state.machine.snapshot.items.count)
            let publishes = effects.publish
            if publishes || !effects.firstPageOutcomes.isEmpty {
                delivers = outbox.withLock { box -> Bool in
                    let queued = box.deliveries.count
                    if publishes {
                        box.deliveries.append(
                            .publication(
                                Publication(
                                    snapshot: state.machine.snapshot, itemsChange: effects.itemsChange,
                                    previousItems: effects.previousItems,
                                    reportsLaterPageError: effects.reportsLaterPageError,
                                    appliesPage: effects.appliesPage, query: state.machine.query,
                                    changesQuery: effects.changesQuery)))
                    }
                    for (settled, outcome) in effects.firstPageOutcomes {
                        for waiter in state.waiters.removeValue(forKey: settled) ?? [] {
                            box.deliveries.append(.outcome { waiter(outcome) })
                        }
                    }
                    return box.deliveries.count != queued
                }
            }
            if let ticket = effects.cancel, let load = state.load, load.ticket == ticket {
                cancelled = load.disposable
                state.load = nil
            }
            if effects.startsLoad, let load = state.machine.inFlight {
                // The machine cancels its load in flight before it starts another; a load still here
                // would be one it no longer tracks.
                replaced = state.load?.disposable
                state.load = (load.ticket, nil)
                started = load
            }
            return generation
        }
        if delivers {
            if let deliveryScheduler {
                // Weakly: work waiting on the scheduler must not keep a released paginator's engine (and so
                // its load in flight) alive; notifications of a released paginator are dropped.
                deliveryScheduler.schedule { [weak self] in self?.flush() }
            } else {
                flush()
            }
        }
        cancelled?.dispose()
        replaced?.dispose()
        if let started {
            start(started)
        }
        return generation
    }

    /// Starts `load` and records its disposable, or disposes it at once if the load was superseded or
    /// answered while it started (a synchronous source answers inside `start`).
    @inlinable
    func start(_ load: Machine.Load) {
        let ticket = load.ticket
        let disposable = source.start(load.request, PageSink(engine: self, ticket: ticket))
        let isCurrent = state.withLock { state -> Bool in
            guard state.load?.ticket == ticket else { return false }
            state.load = (ticket, disposable)
            return true
        }
        if !isCurrent {
            disposable.dispose()
        }
    }

    /// Turns an event of the load with `ticket` into a machine input.
    @inlinable
    func receive(_ event: PageEvent, from ticket: UInt64) {
        switch event {
        case .value(let page):
            let identities = identity.map { identify in page.items.map(identify) }
            send { $0.receiveLoaded(ticket: ticket, page: page, identities: identities) }
        case .failed(let error):
            send { $0.receiveFailed(ticket: ticket, error: error) }
        case .completed:
            send { $0.receiveFailed(ticket: ticket, error: .noPage) }
        case .interrupted:
            send { $0.receiveInterrupted(ticket: ticket) }
        }
    }

    /// Delivers everything in the outbox, in order, unless another flush is already doing it.
    ///
    /// Each publication is staged into every published value and its notifications run before the next
    /// one is staged. A flush that finds another one running (on another thread, or further up this
    /// thread's stack, when an observer calls back) returns at once: the running flush delivers what it
    /// enqueued. What the outbox lets go of (the publication it replaces) is released after
    /// unlocking, since releasing items or metadata can run user code.
    @inlinable
    func flush() {
        var notifications: [StagedNotification] = []
        let claimed = outbox.withLock { box -> Bool in
            guard !box.isFlushing else { return false }
            box.isFlushing = true
            swap(&notifications, &box.spareNotifications)
            return true
        }
        guard claimed else { return }
        var retired: Publication?
        while true {
            let step = outbox.withLock { box -> FlushStep in
                guard let delivery = box.deliveries.popFirst() else {
                    box.isFlushing = false
                    swap(&notifications, &box.spareNotifications)
                    return .done
                }
                switch consume delivery {
                case .publication(var publication):
                    for stage in box.stagers {
                        if let notification = stage(publication, box.published) {
                            notifications.append(notification)
                        }
                    }
                    swap(&box.published, &publication)
                    retired = consume publication
                    return .notify
                case .outcome(let report):
                    return .report(report)
                }
            }
            switch step {
            case .notify:
                withExtendedLifetime(retired) {}
                retired = nil
                for notification in notifications { notification() }
                notifications.removeAll(keepingCapacity: true)
            case .report(let report):
                report()
            case .done:
                return
            }
        }
    }

    @usableFromInline
    enum FlushStep {
        case notify
        case report(@Sendable () -> Void)
        case done
    }
}

/// The values a paginator publishes, one slot each in its engine's outbox.
@usableFromInline
enum PublishedSlot: Int, CaseIterable {
    case snapshot, state, items, pages, total, isEndReached, query, metadata, showsNextPageIndicator
    case presentation, updates, errorsAfterFirstPage
    /// The `Stapler` facade's total, 0 until a page reports one.
    case totalOrZero
}
