import Reactive

/// Runs a ``PagingMachine``: serialises its inputs, starts and disposes loads, and publishes snapshots.
///
/// Every input is handled under one lock; the effects run after unlocking: user code (the source's
/// load closure, observers, action callbacks) never runs under a lock.
///
/// Publications and outcomes go through one delivery queue (see `PagingEngine+Deliveries.swift`): a
/// transition stages its publication, an immutable value made once, under the state lock, so the queue's
/// order is the transitions' order; the thread whose staging found the queue idle delivers everything
/// queued, in order, once it has unlocked, and any other thread, and any call an observer makes back into
/// the paginator, queues and returns. Every published property projects the one published value the
/// deliverer stores (see `PagingEngine+Published.swift`), so while an observer is notified of a
/// publication, every property holds exactly that publication's values, whatever other threads do. The
/// machine itself (and so every method's decision) is always up to date.
///
/// The engine is specialised in the client's module (its methods are inlinable), so a paginator of
/// concrete types runs no unspecialised generic code on its hot paths.
@usableFromInline
final class PagingEngine<Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable, Failure: Error>:
    Sendable
{
    @usableFromInline typealias Machine = PagingMachine<Item, Key, Query, Metadata, Failure>
    @usableFromInline typealias Snapshot = PagingSnapshot<Item, Metadata, Failure>
    @usableFromInline typealias Waiter = @Sendable (FirstPageOutcome<Failure>) -> Void
    @usableFromInline typealias EdgeWaiter = @Sendable (LoadOutcome<Failure>) -> Void
    @usableFromInline typealias PageEvent = Signal<Page<Item, Key, Metadata>, PagingError<Failure>>.Event
    @usableFromInline typealias Publication = PagingPublication<PublicationContents<Item, Query, Metadata, Failure>>

    // Guarded by `state`'s lock. Lock order: `state`, then the delivery queue's, then the published
    // value's.
    @usableFromInline let state: LockedState<State>
    /// The delivery queue's input: publications, outcomes and registrations, staged under the state lock.
    @usableFromInline let deliveries: StagedSignalInput<Delivery>
    /// The delivery queue, which the deliverer observes from the first staging on.
    @usableFromInline let deliveryQueue: Signal<Delivery, Never>
    /// What delivers each thing the queue carries.
    @usableFromInline let deliverer: Deliverer
    /// The published value every property of the paginator projects: the current publication and the
    /// one before it.
    @usableFromInline let publication: Property<PublicationChange<Item, Query, Metadata, Failure>>
    /// Its input, which only the deliverer sets (and ``close()`` completes).
    @usableFromInline let publicationInput: PropertyInput<PublicationChange<Item, Query, Metadata, Failure>>
    /// The lists derived from the paginator, which the deliverer hands each publication to.
    @usableFromInline let derivedLists = DerivedLists()
    // Guarded by its own lock: the published properties and signals made so far, by
    // ``PublishedProperty``.
    @usableFromInline let publishedValues: LockedState<[AnyObject?]>

    @usableFromInline let source: PageSource<Item, Key, Query, Metadata, Failure>
    /// The identities items are deduplicated by, if any, typed (see ``ItemIdentities``).
    @usableFromInline let identities: ItemIdentities<Item>?
    /// The timeout, no-progress and retry policies.
    @usableFromInline let policy: PagingPolicy
    @usableFromInline let deliveryScheduler: (any Scheduler)?
    /// Whether publications are delivered on the thread that made them (no ``deliveryScheduler``): read
    /// on every transition, where binding the optional scheduler would copy and destroy an existential.
    @usableFromInline let deliversInline: Bool

    /// What the no-op-able calls may skip without taking the lock.
    @usableFromInline let gate = PagingGate()
    /// 1 while a caller of `settled()` waits, so that transitions and deliveries check for quiescence only
    /// then; stored under the state lock, read with no lock by the code that ends work.
    @usableFromInline let settleWatch = AtomicWord()
    /// Whether every `preload(index:)` takes the lock: a memory bound records the row shown, and
    /// placeholders take slot indices that the gate's row counts cannot judge.
    @usableFromInline let preloadsUnderTheLock: Bool
    /// The identity of a query in the query cache, when it is on.
    @usableFromInline let cacheKey: (@Sendable (Query) -> AnyHashable)?

    @usableFromInline
    struct State {
        @usableFromInline var machine: Machine
        /// The load of each direction started and not yet superseded or answered: its ticket and, once
        /// its start returned, its disposable.
        @usableFromInline var loads = RunningLoads()
        /// Callbacks waiting for the first page of a generation.
        @usableFromInline var waiters: [UInt64: [Waiter]] = [:]
        /// Callbacks waiting for the end of an edge load, by its ticket.
        @usableFromInline var edgeWaiters: [UInt64: [EdgeWaiter]] = [:]
        /// Callbacks waiting for the automatic retry scheduled at an edge: its load, when it starts,
        /// takes them over.
        @usableFromInline var retryWaiters: [PageDirection: [EdgeWaiter]] = [:]
        /// The timer of the automatic retry scheduled, if any.
        @usableFromInline var retryTimer: (any Disposable)?
        /// The query cache's eviction timers, by the serial of the kept list each evicts.
        @usableFromInline var evictionTimers: [UInt64: any Disposable] = [:]
        /// What every load's sink hands its events to, made by the first load that starts (see
        /// ``PagingEngine/pageReceiver(in:)``).
        @usableFromInline var pageReceiver: PageSink<Item, Key, Metadata, Failure>.Receiver?
        /// The item changes of the latest publications, by serial: what carries an index of a snapshot an
        /// app was given to the current list.
        @usableFromInline var changes = PublishedChanges()
        /// The deliveries in progress.
        @usableFromInline var delivery = DeliveryProgress()
        /// The id of the next list derived from the paginator.
        @usableFromInline var nextDerivedID = 0
        /// Whether the deliverer observes the delivery queue: from the first staging on (see
        /// ``PagingEngine/attachDeliverer(_:)``).
        @usableFromInline var isDelivererAttached = false
        /// The callers of `settled()` and `progressed()` waiting on the engine, by id.
        @usableFromInline var settleWaiters: [UInt64: SettleWaiter] = [:]
        /// The id of the latest caller of `settled()`.
        @usableFromInline var nextSettleWaiter: UInt64 = 0
        /// How many transitions the machine has run, for the tests that count what an input costs.
        @usableFromInline var transitions: UInt64 = 0
        /// The latest publication staged: the one the next publication is delivered after.
        @usableFromInline var latestPublication: Publication
        /// The optimistic edits whose mutations run, as layers over the rows the machine shows.
        @usableFromInline var overlay = OptimisticOverlay<Item>()

        @inlinable
        init(machine: Machine, initial: Publication) {
            self.machine = machine
            latestPublication = initial
        }
    }

    /// Creates an engine.
    ///
    /// - Parameters:
    ///   - source: The page model.
    ///   - pageSize: The page size of every request.
    ///   - query: The query of the first generation.
    ///   - initialKey: The key the list opens at; the source's first key when `nil`.
    ///   - identities: Deduplicates items by these identities when given, and compares the lists of a
    ///     refresh by them.
    ///   - deliveryScheduler: When set, publications and first-page outcomes run on it, in order,
    ///     instead of on the thread that caused them.
    ///   - policy: The timeout, no-progress and retry policies.
    ///   - bound: The memory bound, if any.
    ///   - queryCache: The cache of earlier queries' lists, if any, and the identity of a query in it.
    ///   - placeholders: Whether the list is shown at full length, with placeholders.
    ///   - jump: How far from the loaded rows a preload jumps, and the key of a position's page.
    ///   - initialPages: How many pages a first page loads, and how many requests of them run at once.
    init(
        source: PageSource<Item, Key, Query, Metadata, Failure>,
        pageSize: Int,
        query: Query,
        initialKey: Key? = nil,
        identities: ItemIdentities<Item>?,
        deliveryScheduler: (any Scheduler)?,
        policy: PagingPolicy = .default,
        bound: MemoryBound? = nil,
        queryCache: (configuration: QueryCache<Key>, key: @Sendable (Query) -> AnyHashable)? = nil,
        placeholders: Bool = false,
        jump: (threshold: Int, key: @Sendable (Int, Int) -> Key)? = nil,
        initialPages: (count: Int, maxConcurrent: Int) = (1, 1)
    ) {
        self.source = source
        self.identities = identities
        self.deliveryScheduler = deliveryScheduler
        deliversInline = deliveryScheduler == nil
        self.policy = policy
        preloadsUnderTheLock = bound != nil || placeholders
        cacheKey = queryCache?.key
        var machine = Machine(
            firstKey: initialKey ?? source.firstKey, pageSize: pageSize, query: query,
            noProgressLimit: policy.noProgressLimit, maxAutoRetries: policy.autoRetry?.maxRetries ?? 0, bound: bound,
            placeholders: placeholders, jump: jump)
        if let queryCache {
            machine.queryCache = Machine.CachedLists(queryCache.configuration, queryKey: queryCache.key(query))
        }
        machine.keysArePositional = source.slotKey != nil
        machine.initialPages = Machine.InitialPages(initialPages, of: source)
        let initial = Publication(.initial(query: query), serial: 0)
        state = LockedState(State(machine: machine, initial: initial))
        (publication, publicationInput) = PropertyGroup.makeProperty(
            PublicationChange(previous: initial, current: initial))
        publishedValues = LockedState(Array(repeating: nil, count: PublishedProperty.allCases.count))
        (deliveryQueue, deliveries) = StagedSignalInput<Delivery>.make()
        deliverer = Deliverer(
            state: state, publication: publicationInput, identities: identities, gate: gate, derived: derivedLists)
    }

    deinit {
        let (loads, waiters, edgeWaiters, retryTimer) = state.withLock { state in
            defer {
                state.loads = RunningLoads()
                state.waiters = [:]
                state.edgeWaiters = [:]
                state.retryWaiters = [:]
                state.retryTimer = nil
            }
            return (
                state.loads, state.waiters, Array(state.edgeWaiters.values) + Array(state.retryWaiters.values),
                state.retryTimer
            )
        }
        loads.disposeAll()
        retryTimer?.dispose()
        disposeEvictionTimers()
        // The queue's observer entry and the queue refer to each other: ending the queue lets both go, and
        // with them the deliverer and the state it holds.
        deliveries.sendCompleted()
        // Whoever still waits hears that the loads ended with the paginator.
        for waiter in waiters.values.joined() { waiter(.cancelled) }
        for waiter in edgeWaiters.joined() { waiter(.cancelled) }
    }

    // MARK: Inputs

    /// Starts a new generation in `mode`; `waiter` hears how its first page ends.
    ///
    /// - Returns: The new generation.
    @inlinable
    @discardableResult
    func refresh(_ mode: RefreshMode<Key> = .restart, query: Query?, waiter: Waiter?) -> UInt64 {
        let blanking = blanks(for: query)
        let visit = self.visit(for: query)
        return send(waiter: waiter) { $0.receiveRefresh(mode, query: query, blanking: blanking, visit: visit) }
    }

    /// Makes the machine handle an input, by calling its method in `transition`, and runs the effects;
    /// `waiter` hears how the first page of the generation the machine is in afterwards ends.
    ///
    /// The transition calls the machine's method directly: no input value is built, copied and switched
    /// over, and the effects it returns hold only flags and plain values, so a transition that does
    /// nothing costs a lock round trip and little else. Each direction's load in flight is one phase: its
    /// start returns the disposable, which is kept if the load is still current and disposed at once
    /// otherwise.
    ///
    /// - Returns: The generation the machine is in afterwards.
    @inlinable
    @discardableResult
    func send(
        waiter: Waiter? = nil, _ transition: (inout Machine) -> Machine.Effects,
        registering register: (inout State) -> Void = { _ in }
    ) -> UInt64 {
        var drain: SignalDrain?
        var disposed = RunningLoads()
        var started: (Machine.Load?, Machine.Load?) = (nil, nil)
        var startedBatch: PageBatch<Key, Query>?
        var receiver: PageSink<Item, Key, Metadata, Failure>.Receiver?
        var retryToSchedule: (direction: PageDirection, attempt: Int, serial: UInt64)?
        var retryTimer: (any Disposable)?
        var evictions: EvictionWork?
        let generation = state.withLock { state -> UInt64 in
            var effects = transition(&state.machine)
            state.transitions &+= 1
            let generation = state.machine.snapshot.generation
            if let waiter {
                state.waiters[generation, default: []].append(waiter)
            }
            // Non-escaping, like `transition`: what they capture is not boxed, so a call that does
            // nothing allocates nothing.
            register(&state)
            guard !effects.isEmpty else { return generation }
            updateGate(state.machine)
            evictions = takeEvictionWork(effects, &state)
            if effects.cancelsRetry || effects.scheduleRetry != nil {
                retryTimer = state.retryTimer
                state.retryTimer = nil
            }
            retryToSchedule = effects.scheduleRetry
            if effects.publish || effects.settlesWaiters {
                drain = enqueue(&effects, of: &state)
            }
            for direction in PageDirection.allCases {
                if let ticket = effects[loads: direction].disposes, state.loads[direction]?.ticket == ticket {
                    disposed[direction] = state.loads[direction]
                    state.loads[direction] = nil
                }
                if effects[loads: direction].starts, let load = state.machine[phase: direction].load {
                    // The machine disposes its load in flight before it starts another; a load still here
                    // would be one it no longer tracks.
                    if let replaced = state.loads[direction], replaced.ticket != disposed[direction]?.ticket {
                        disposed[direction] = replaced
                    }
                    state.loads[direction] = RunningLoads.Entry(ticket: load.ticket)
                    if started.0 == nil { started.0 = load } else { started.1 = load }
                    if direction == .refresh { startedBatch = state.machine.batch(of: load) }
                    if !state.retryWaiters.isEmpty, let waiting = state.retryWaiters.removeValue(forKey: direction) {
                        state.edgeWaiters[load.ticket, default: []].append(contentsOf: waiting)
                    }
                    receiver = pageReceiver(in: &state)
                }
            }
            return generation
        }
        if let drain = drain.take() { run(drain) }
        disposed.disposeAll()
        retryTimer?.dispose()
        if let retry = retryToSchedule { scheduleRetry(retry) }
        if let evictions { run(evictions) }
        if let load = started.0, let receiver { start(load, batch: startedBatch, receiver: receiver) }
        if let load = started.1, let receiver { start(load, batch: startedBatch, receiver: receiver) }
        resumeSettledIfQuiescent()
        return generation
    }

    /// Records what the no-op-able calls may skip; called under the state lock after each transition.
    @inlinable
    func updateGate(_ machine: Machine) {
        gate.update(
            append: machine.reasonNotToLoad(.append), prepend: machine.reasonNotToLoad(.prepend),
            canRetryNext: machine.canRetryNext, itemCount: machine.snapshot.items.count,
            leadingCount: machine.snapshot.leadingCount)
    }

    /// Starts `load` and records its disposable, or disposes it at once if it was superseded meanwhile.
    ///
    /// A load is superseded or answered while it starts when a synchronous source answers inside
    /// `start`. With a load timeout, its timer starts first and goes with the load. A refresh with `batch`
    /// (several pages asked at once) runs every request of it, at most `batch.maxConcurrent` at a time.
    @inlinable
    func start(
        _ load: Machine.Load, batch: PageBatch<Key, Query>? = nil,
        receiver: @escaping PageSink<Item, Key, Metadata, Failure>.Receiver
    ) {
        let ticket = load.ticket
        let direction = load.request.direction
        if let timeout = policy.loadTimeout {
            let timer = policy.clock.schedule(after: timeout) { [weak self] in
                self?.send { $0.receiveTimedOut(ticket: ticket) }
            }
            let isCurrent = state.withLock { state -> Bool in
                guard state.loads[direction]?.ticket == ticket else { return false }
                state.loads[direction]?.timer = timer
                return true
            }
            guard isCurrent else { return timer.dispose() }
        }
        let disposable: any Disposable
        if let batch, direction == .refresh {
            disposable = RefreshBatch.start(batch.requests, maxConcurrent: batch.maxConcurrent, of: source) {
                [weak self] outcome in self?.receiveBatch(outcome, from: ticket)
            }
        } else {
            disposable = source.start(
                load.request, PageSink(receiver: receiver, ticket: ticket, firstEvent: FirstEvent()))
        }
        let isCurrent = state.withLock { state -> Bool in
            guard state.loads[direction]?.ticket == ticket else { return false }
            state.loads[direction]?.disposable = disposable
            return true
        }
        if !isCurrent {
            disposable.dispose()
        }
    }

    /// Schedules an automatic retry on the policy's clock, with no lock held (the jitter's random
    /// source is user code).
    @inlinable
    func scheduleRetry(_ retry: (direction: PageDirection, attempt: Int, serial: UInt64)) {
        guard let policy = policy.autoRetry else { return }
        let delay = policy.delay(attempt: retry.attempt)
        let timer = self.policy.clock.schedule(after: delay) { [weak self] in
            self?.send { $0.receiveAutoRetry(retry.direction, serial: retry.serial) }
        }
        let replaced = state.withLock { state -> (any Disposable)? in
            guard state.machine.scheduledRetry?.serial == retry.serial else { return timer }
            defer { state.retryTimer = timer }
            return state.retryTimer
        }
        replaced?.dispose()
    }

    /// What every load's sink hands its events to: made once, under the state lock, by the first load
    /// that starts, and kept.
    ///
    /// It is made here rather than in the initializer because this method is specialised in the
    /// client's module: the closure calls the specialised ``receive(_:from:)``, so a page reaches the
    /// machine with no unspecialised generic code on the way (a conformance of this generic class would
    /// dispatch to its unspecialised methods). It holds the engine weakly.
    @inlinable
    func pageReceiver(in state: inout State) -> PageSink<Item, Key, Metadata, Failure>.Receiver {
        if let made = state.pageReceiver { return made }
        let engine = WeakReference(self)
        let made: PageSink<Item, Key, Metadata, Failure>.Receiver = { event, ticket in
            engine.object?.receive(event, from: ticket)
        }
        state.pageReceiver = made
        return made
    }

    /// Turns an event of the load with `ticket` into a machine input.
    @inlinable
    func receive(_ event: consuming PageEvent, from ticket: UInt64) {
        switch consume event {
        case .value(let page):
            let pageIdentities = identities.map { $0.erasedIdentities(page.items) }
            send { $0.receiveLoaded(ticket: ticket, page: page, identities: pageIdentities) }
        case .failed(let error):
            send { $0.receiveFailed(ticket: ticket, error: error) }
        case .completed:
            // The load's first event (the sink drops the completion after a page): a completion with no
            // page. A superseded load's, checked here, costs one lock round trip instead of a transition.
            guard state.withLock({ $0.machine.direction(of: ticket) != nil }) else { return }
            send { $0.receiveFailed(ticket: ticket, error: .noPage) }
        case .interrupted:
            send { $0.receiveInterrupted(ticket: ticket) }
        }
    }
}
