import Reactive

// The engine's one publication path. A transition that publishes makes one immutable publication and
// stages it, under the state lock, into the delivery queue: a signal whose queue-and-drain delivery is
// the order of the transitions, with one thread delivering at a time and every call an observer makes
// back into the paginator queued behind the running delivery. First-page and edge outcomes travel in the
// same queue, behind the publications they report. The thread whose staging found the queue idle runs
// the drain once it has unlocked; the deliverer (the queue's only observer) hands each publication to
// the lists derived from the paginator and then stores it as the paginator's published value, which
// every published property projects (see `PagingEngine+Published.swift`). With a delivery scheduler, the
// deliverer hops to it first: everything downstream of the queue runs there, in order.

extension PagingEngine {
    /// What the delivery queue carries, in the order of the transitions that made them.
    @usableFromInline
    enum Delivery: Sendable {
        /// A publication to store, for every property and signal of the paginator, with the one staged
        /// before it (whose items are the items before its change).
        case publication(Publication, previous: Publication)
        /// An outcome to report to the call that waits for it.
        case outcome(@Sendable () -> Void)
        /// A list derived from the paginator joining the deliveries in its turn.
        case register(DerivedRegistration)
    }

    /// The deliveries in progress, as quiescence and awaited calls see them; kept in the engine's state.
    @usableFromInline
    struct DeliveryProgress {
        /// How many drains of the delivery queue run: a staging that finds the queue idle starts one, and
        /// its thread ends it once the queue is empty.
        @usableFromInline var drains = 0
        /// The deliveries waiting for the hop to the delivery scheduler, in the queue's order.
        @usableFromInline var hopQueue = FIFOQueue<Delivery>()
        /// Whether a hop is scheduled or running: it delivers everything in ``hopQueue``, including what an
        /// observer it notifies adds, before it ends.
        @usableFromInline var isHopping = false
        /// The awaiting tasks that outcomes resolved during a running drain or hop: resumed when it ends
        /// (see ``PagingEngine/resumeAfterDelivery(_:_:)``).
        @usableFromInline var resumes: [@Sendable () -> Void] = []
        /// How many resumes a drain or hop took when it ended and has not run yet.
        @usableFromInline var resuming = 0

        @inlinable
        init() {}

        /// Whether nothing is being delivered and no resume is pending.
        @inlinable
        var isIdle: Bool { drains == 0 && !isHopping && resuming == 0 }
    }

    /// Stages the publication and the outcomes of `effects` into the delivery queue; called under the
    /// state lock, so the queue's order is the order of the transitions.
    ///
    /// - Returns: The drain to run once unlocked, if this staging found the queue idle.
    @inlinable
    func enqueue(_ effects: inout Machine.Effects, of state: inout State) -> SignalDrain? {
        var drain: SignalDrain?
        if effects.publish {
            // Rows the optimistic layers add or hide move the indices the app holds: an index is then
            // carried by identity.
            let shifted = state.overlay.changesCount || state.latestPublication.contents.overlay.changesCount
            state.changes.record(
                shifted ? .reloaded : effects.itemsChange, count: state.machine.snapshot.items.count,
                delivered: UInt64(truncatingIfNeeded: gate.deliveredSerial.relaxedLoad()))
            let publication = Publication(
                PublicationContents(
                    snapshot: state.machine.snapshot, itemsChange: effects.itemsChange, anchorRow: effects.anchor,
                    laterPageError: effects.laterPageError, appliesPage: effects.appliesPage,
                    query: state.machine.query, changesQuery: effects.changesQuery, slotsChange: effects.slotsChange,
                    previousPlaceholders: effects.previousPlaceholders ?? (0, 0), overlay: state.overlay),
                serial: state.changes.latestSerial)
            let previous = state.latestPublication
            state.latestPublication = publication
            stage(.publication(publication, previous: previous), in: &state, drain: &drain)
        }
        for (settled, outcome) in effects.firstPageOutcomes {
            for waiter in state.waiters.removeValue(forKey: settled) ?? [] {
                stage(.outcome { waiter(outcome) }, in: &state, drain: &drain)
            }
        }
        if !state.edgeWaiters.isEmpty || !state.retryWaiters.isEmpty {
            let retrying = effects.scheduleRetry?.direction
            settle(effects.prependLoads.ended, of: .prepend, retrying: retrying == .prepend, in: &state, drain: &drain)
            settle(effects.appendLoads.ended, of: .append, retrying: retrying == .append, in: &state, drain: &drain)
            if let (direction, end) = effects.abandonedRetry,
                let waiters = state.retryWaiters.removeValue(forKey: direction)
            {
                let outcome = outcome(of: end, in: direction, state)
                for waiter in waiters { stage(.outcome { waiter(outcome) }, in: &state, drain: &drain) }
            }
        }
        return drain
    }

    /// Stages `delivery`; called under the state lock.
    ///
    /// The staging that finds the queue idle returns the drain (kept in `drain`) and counts it running; any
    /// other queues behind the running drain.
    @inlinable
    func stage(_ delivery: Delivery, in state: inout State, drain: inout SignalDrain?) {
        attachDeliverer(&state)
        switch deliveries.stage(delivery) {
        case .some(let started):
            state.delivery.drains += 1
            drain = consume started
        case .none:
            break
        }
    }

    /// Makes the deliverer observe the delivery queue, unless it does; called under the state lock by each
    /// staging.
    ///
    /// It is done here rather than in the initializer because this method is specialised in the client's
    /// module: the observer calls the specialised deliverer, so a publication reaches the observers with no
    /// unspecialised generic code on the way. The first staging comes from a transition, which is
    /// specialised; a derived list registered before any is added directly (see ``registerDerived(_:)``).
    @inlinable
    func attachDeliverer(_ state: inout State) {
        guard !state.isDelivererAttached else { return }
        state.isDelivererAttached = true
        let deliverer = deliverer
        if let deliveryScheduler {
            let engine = WeakReference(self)
            deliveryQueue.observeValues { deliverer.hop($0, to: deliveryScheduler, engine: engine) }
        } else {
            deliveryQueue.observeValues { deliverer.deliver($0) }
        }
    }

    /// Runs `drain`, which delivers everything staged until the queue is empty, then ends it: the awaiting
    /// tasks its outcomes resolved are resumed now, with the queue idle, so their next calls deliver their
    /// own publications before they return.
    @inlinable
    func run(_ drain: consuming SignalDrain) {
        drain()
        // With a delivery scheduler, outcomes are reported in the hop, which resumes their tasks.
        endDelivery { progress in
            progress.drains -= 1
            return deliversInline
        }
    }

    /// Records the end of a step of delivery: `end` records it and returns whether what delivers outcomes
    /// (a drain, or with a delivery scheduler, a hop) has ended; the tasks its outcomes resolved are then
    /// resumed.
    @inlinable
    func endDelivery(_ end: (inout DeliveryProgress) -> Bool) {
        let resumes = state.withLock { state -> [@Sendable () -> Void] in
            guard end(&state.delivery), !state.delivery.resumes.isEmpty else { return [] }
            defer { state.delivery.resumes = [] }
            state.delivery.resuming += state.delivery.resumes.count
            return state.delivery.resumes
        }
        guard !resumes.isEmpty else { return }
        for resume in resumes { resume() }
        state.withLock { $0.delivery.resuming -= resumes.count }
    }

    /// Runs `resume` when the running drain or hop ends, or at once when none runs.
    ///
    /// Outcomes are reported by the deliverer (or, for whoever still waits, by the engine's release, when
    /// nothing can be delivering), so a drain running now is this thread's own, or the hop that reports
    /// the outcome. The awaiting task `resume` wakes then finds the queue idle: its next call delivers its
    /// own publication before it returns (unless another thread is delivering at that moment), so what it
    /// reads right after is up to date.
    @inlinable
    static func resumeAfterDelivery(_ state: LockedState<State>, _ resume: @escaping @Sendable () -> Void) {
        let deferred = state.withLock { state -> Bool in
            guard state.delivery.drains > 0 || state.delivery.isHopping else { return false }
            state.delivery.resumes.append(resume)
            return true
        }
        if !deferred { resume() }
    }
}

extension PagingEngine {
    /// The delivery queue's only observer: it delivers each publication, outcome and registration in the
    /// queue's order, on the thread draining the queue, or on the delivery scheduler after a hop.
    ///
    /// It holds what delivering needs, not the engine: the queue keeps it, and the engine keeps the queue.
    @usableFromInline
    struct Deliverer: Sendable {
        @usableFromInline let state: LockedState<State>
        /// The input of the published value every property projects.
        @usableFromInline let publication: PropertyInput<PublicationChange<Item, Query, Metadata, Failure>>
        @usableFromInline let identities: ItemIdentities<Item>?
        @usableFromInline let gate: PagingGate
        @usableFromInline let derived: DerivedLists

        @inlinable
        init(
            state: LockedState<State>,
            publication: PropertyInput<PublicationChange<Item, Query, Metadata, Failure>>,
            identities: ItemIdentities<Item>?, gate: PagingGate, derived: DerivedLists
        ) {
            self.state = state
            self.publication = publication
            self.identities = identities
            self.gate = gate
            self.derived = derived
        }

        /// Delivers `delivery`.
        ///
        /// A publication whose items were replaced by a refresh is published with the keyed difference of
        /// the two lists when items have an identity: it is worked out here, with no lock held (the identity
        /// is user code), before anyone sees the publication. The derived lists publish first, then the
        /// paginator's published value changes, which notifies every property's observers.
        @inlinable
        func deliver(_ delivery: Delivery) {
            switch delivery {
            case .publication(let made, let previous):
                var previousItems = previous.contents.snapshot.items
                var publication = made
                if !made.contents.overlay.isInert || !previous.contents.overlay.isInert {
                    // Optimistic layers were shown or are: the rows delivered before are the base for the change.
                    previousItems = self.publication.value.current.contents.snapshot.items
                    publication = Self.overlaid(made, shownBefore: previousItems, by: identities)
                } else if let identities, publication.contents.needsKeyedDifference(previousItems: previousItems) {
                    publication = Self.keyed(publication, previousItems: previousItems, by: identities)
                } else if made.contents.overlay.difference != nil,
                    publication.contents.snapshot.items.isIdentical(to: previousItems)
                {
                    // After the last optimistic layer settled, the rows delivered are equal to the server's
                    // but may be another copy: keep showing that one while the server's rows do not change.
                    publication = Self.keepingDelivered(publication, self.publication.value.current)
                }
                gate.recordDelivered(
                    leadingCount: publication.contents.snapshot.leadingCount,
                    listSerial: publication.contents.snapshot.listSerial,
                    serial: publication.serial)
                let values = derived.deliver(publication, previousItems: previousItems)
                // The value replaced goes with no lock held: releasing a publication can run user code (an
                // item's or the metadata's `deinit`), which may read the paginator.
                // The publication shown before is `previous`, or the copy of it the keyed difference made.
                let replaced = self.publication.replace {
                    PublicationChange(previous: $0.current, current: publication, derived: values)
                }
                withExtendedLifetime(replaced) {}
            case .outcome(let report):
                report()
            case .register(let registration):
                guard let caughtUp = derived.register(registration, current: self.publication.value.current) else {
                    return
                }
                let replaced = self.publication.replace { change in
                    PublicationChange(
                        previous: change.current, current: change.current,
                        derived: change.derived.filter { $0.id != caughtUp.id } + [caughtUp], caughtUpList: caughtUp.id)
                }
                withExtendedLifetime(replaced) {}
            }
        }

        /// `publication` with its items change worked out from the items' identities.
        @usableFromInline
        static func keyed(
            _ publication: Publication, previousItems old: PagedItems<Item>, by identities: ItemIdentities<Item>
        ) -> Publication {
            let new = publication.contents.snapshot.items
            let change = old.isEmpty ? publication.contents.itemsChange : .difference(identities.difference(old, new))
            let anchor = publication.contents.anchorRow.map { identities.anchor($0, old, new) }
            return Publication(
                publication.contents.with(itemsChange: change, anchor: anchor), serial: publication.serial)
        }

        /// Queues `delivery` for the hop to `scheduler`, and schedules the hop unless one is scheduled or
        /// running; a hop that finds the paginator released delivers nothing.
        ///
        /// The hop delivers everything queued for it, in order, before it ends, so a call an observer makes
        /// back into the paginator from the delivery scheduler is delivered in the same hop, as it would be
        /// with no scheduler.
        @inlinable
        func hop(_ delivery: Delivery, to scheduler: any Scheduler, engine: WeakReference<PagingEngine>) {
            let schedules = state.withLock { state -> Bool in
                state.delivery.hopQueue.append(delivery)
                guard !state.delivery.isHopping else { return false }
                state.delivery.isHopping = true
                return true
            }
            guard schedules else { return }
            // Weakly: work waiting on the scheduler must not keep a released paginator's engine (and so its
            // loads in flight) alive.
            scheduler.schedule { [self] in
                guard let engine = engine.object else { return }
                while let next = engine.nextHopDelivery() { deliver(next) }
                engine.resumeSettledIfQuiescent()
            }
        }
    }
}

extension PagingEngine {
    /// The next delivery queued for the running hop, or `nil` when none is left: the hop then ends, and the
    /// tasks its outcomes resolved are resumed.
    @inlinable
    func nextHopDelivery() -> Delivery? {
        var next: Delivery?
        endDelivery { progress in
            next = progress.hopQueue.popFirst()
            if next == nil { progress.isHopping = false }
            return next == nil
        }
        return next
    }
}
