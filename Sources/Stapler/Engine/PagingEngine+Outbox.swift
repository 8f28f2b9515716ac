import Reactive

extension PagingEngine {
    /// The engine's deliveries not yet made, whether a thread is making them, and the published values.
    @usableFromInline
    struct Outbox {
        @usableFromInline var deliveries = FIFOQueue<Delivery>()
        @usableFromInline var isFlushing = false
        /// The box of the latest staged publication, which every published value holds now.
        ///
        /// Staging swaps boxes, so a publication stays at one address from the moment it is enqueued until
        /// it is retired.
        @usableFromInline var publishedBox: PublicationBox<Item, Query, Metadata, Failure>
        /// The box of ``copyForDerivedLists()``, made the first time.
        @usableFromInline var derivedListsBox: PublicationBox<Item, Query, Metadata, Failure>?
        /// Emptied boxes, to fill with the next publications (at most ``spareBoxLimit``).
        @usableFromInline var spareBoxes: [PublicationBox<Item, Query, Metadata, Failure>] = []
        /// The published values made so far, by ``PublishedProperty``.
        @usableFromInline var values: [AnyObject?]
        /// What stages each value made so far.
        @usableFromInline var stagers: [Stager] = []
        /// What completes each signal made so far.
        @usableFromInline var completions: [@Sendable () -> Void] = []
        /// The flusher's notification buffer, kept between flushes so staging does not allocate.
        @usableFromInline var spareNotifications: [StagedNotification] = []
        /// The lists derived from this paginator (transformed lists), by registration id; see
        /// ``PagingEngine/DerivedList``.
        @usableFromInline var derived: [(id: Int, list: DerivedList)] = []
        @usableFromInline var nextDerivedID = 0
        /// Increases with every staged publication.
        @usableFromInline var publishedSerial: UInt64 = 0
        /// The awaiting tasks that outcomes reported during the running flush resolved: the flusher
        /// resumes them once it has let go of its role (see ``PagingEngine/resumeAfterDelivery(_:_:)``).
        @usableFromInline var resumes: [@Sendable () -> Void] = []
        /// How many resumes a flusher took when it let go of its role and has not run yet.
        @usableFromInline var resuming = 0

        @inlinable
        init(query: Query) {
            publishedBox = PublicationBox(.initial(query: query))
            values = Array(repeating: nil, count: PublishedProperty.allCases.count)
        }

        /// The latest staged publication, read in place.
        @inlinable
        var published: Publication {
            unsafeAddress { UnsafePointer(publishedBox.address) }
        }

        /// An empty box to fill with the next publication: an emptied one if there is one.
        @inlinable
        mutating func emptyBox() -> PublicationBox<Item, Query, Metadata, Failure> {
            spareBoxes.popLast() ?? PublicationBox()
        }

        /// A copy of the latest staged publication, for the flusher to hand to the lists derived from this
        /// paginator with no lock held; in a box of its own, which only the flusher uses.
        @inlinable
        mutating func copyForDerivedLists() -> PublicationBox<Item, Query, Metadata, Failure> {
            guard let box = derivedListsBox else {
                let made = PublicationBox(published)
                derivedListsBox = made
                return made
            }
            box.fill(published)
            return box
        }

        /// Keeps the emptied `box` for a later publication, unless enough are kept already.
        @inlinable
        mutating func recycle(_ box: PublicationBox<Item, Query, Metadata, Failure>) {
            if spareBoxes.count < Self.spareBoxLimit {
                spareBoxes.append(box)
            }
        }

        /// How many emptied boxes the outbox keeps: a burst of publications queued faster than they are
        /// delivered allocates boxes, and all but these few go when it is over.
        @inlinable
        static var spareBoxLimit: Int { 4 }
    }

    /// What the flusher delivers: a publication to every property and signal, or an outcome to the call
    /// that waits for it.
    @usableFromInline
    enum Delivery {
        case publication(PublicationBox<Item, Query, Metadata, Failure>)
        case outcome(@Sendable () -> Void)
    }

    /// Queues the publication and the first-page outcomes of `effects`; called under the state lock.
    ///
    /// The publication takes the previous items out of `effects` (moved, not copied: a copy of so large a
    /// generic value goes through its value witnesses).
    ///
    /// - Returns: Whether anything was queued.
    @inlinable
    func enqueue(_ effects: inout Machine.Effects, of state: inout State) -> Bool {
        outbox.withLock { box -> Bool in
            let queued = box.deliveries.count
            if effects.publish {
                var previousItems = PagedItems<Item>()
                swap(&previousItems, &effects.previousItems)
                // Made in its box: one made first and then moved in cost a bitwise copy more.
                let target = box.emptyBox()
                target.fill(
                    Publication(
                        snapshot: PagingSnapshot(fieldwise: state.machine.snapshot), itemsChange: effects.itemsChange,
                        previousItems: consume previousItems,
                        anchorRow: effects.anchor, laterPageError: effects.laterPageError,
                        appliesPage: effects.appliesPage, query: state.machine.query,
                        changesQuery: effects.changesQuery, slotsChange: effects.slotsChange,
                        previousPlaceholders: effects.previousPlaceholders ?? (0, 0)))
                box.deliveries.append(.publication(target))
                state.changes.record(
                    target.publication.itemsChange, count: state.machine.snapshot.items.count,
                    delivered: box.publishedSerial)
            }
            for (settled, outcome) in effects.firstPageOutcomes {
                for waiter in state.waiters.removeValue(forKey: settled) ?? [] {
                    box.deliveries.append(.outcome { waiter(outcome) })
                }
            }
            if !state.edgeWaiters.isEmpty || !state.retryWaiters.isEmpty {
                let retrying = effects.scheduleRetry?.direction
                settle(effects.prependLoads.ended, of: .prepend, retrying: retrying == .prepend, in: &state, into: &box)
                settle(effects.appendLoads.ended, of: .append, retrying: retrying == .append, in: &state, into: &box)
                if let (direction, end) = effects.abandonedRetry,
                    let waiters = state.retryWaiters.removeValue(forKey: direction)
                {
                    let outcome = outcome(of: end, in: direction, state)
                    for waiter in waiters { box.deliveries.append(.outcome { waiter(outcome) }) }
                }
            }
            return box.deliveries.count != queued
        }
    }

    /// Delivers everything in the outbox, in order, unless another flush is already doing it.
    ///
    /// Each publication is staged into every published value and its notifications run before the next
    /// one is staged. A flush that finds another one running (on another thread, or further up this
    /// thread's stack, when an observer calls back) returns at once: the running flush delivers what it
    /// enqueued. What the outbox lets go of (the publication it replaces) is released after
    /// unlocking, since releasing items or metadata can run user code.
    ///
    /// A refresh that replaced rows with rows is published as the keyed difference of the two lists when
    /// items have an identity: the flusher computes it after taking the publication off the queue and
    /// before staging it, with no lock held (the identity is user code); only the flusher stages, so the
    /// order of publications stays the order of the transitions.
    ///
    /// An outcome is reported in its turn, after the notifications of the publications before it: a
    /// completion handler runs there, as an observer does. An awaiting task is resumed only once the
    /// flusher has let go of its role, with the outbox empty (see ``resumeAfterDelivery(_:_:)``): resumed
    /// earlier, on its own thread, the task's next call would find a flush running and return before its
    /// publication was delivered.
    @inlinable
    func flush() {
        var notifications: [StagedNotification] = []
        // Whether this call is the flusher: claimed in the first critical section, which also takes the
        // first delivery (a flush that stages one publication locks the outbox twice, not three times).
        var claimed = false
        // The publication the last one staged replaced, and once emptied (with no lock held), its box, handed
        // back to the outbox in the next critical section.
        var retired: PublicationBox<Item, Query, Metadata, Failure>?
        var emptied: PublicationBox<Item, Query, Metadata, Failure>?
        // The lists derived from the publication just staged, and that publication, when there are any.
        var derived: [(id: Int, list: DerivedList)] = []
        var current: PublicationBox<Item, Query, Metadata, Failure>?
        // The awaiting tasks to resume once this flusher has let go of its role.
        var resumes: [@Sendable () -> Void] = []
        while true {
            var step = outbox.withLock { box -> FlushStep in
                if !claimed {
                    // Another flush is delivering (on another thread, or further up this stack).
                    guard !box.isFlushing else { return .done }
                    box.isFlushing = true
                    claimed = true
                    swap(&notifications, &box.spareNotifications)
                }
                if let emptied = emptied.take() {
                    box.recycle(emptied)
                }
                switch box.deliveries.popFirst() {
                case nil:
                    box.isFlushing = false
                    swap(&notifications, &box.spareNotifications)
                    if !box.resumes.isEmpty {
                        swap(&resumes, &box.resumes)
                        box.resuming += resumes.count
                    }
                    return .done
                case .publication(let next)?:
                    if identities != nil,
                        next.publication.anchorRow != nil
                            || (next.publication.itemsChange == .reloaded
                                && !next.publication.previousItems.isEmpty)
                    {
                        return .compare(next)
                    }
                    retired = stage(next, into: &box, &notifications)
                    if !box.derived.isEmpty { (derived, current) = (box.derived, box.copyForDerivedLists()) }
                    return .notify
                case .outcome(let report)?:
                    return .report(report)
                }
            }
            if case .compare(let next) = step, let identities {
                // The flusher's own until it is staged: changed in place with no lock held.
                let (old, new) = (next.publication.previousItems, next.publication.snapshot.items)
                if !old.isEmpty {
                    next.publication.itemsChange = .difference(identities.difference(old, new))
                }
                if let row = next.publication.anchorRow {
                    next.publication.anchor = identities.anchor(row, old, new)
                }
                retired = outbox.withLock { box in
                    defer {
                        if !box.derived.isEmpty { (derived, current) = (box.derived, box.copyForDerivedLists()) }
                    }
                    return stage(next, into: &box, &notifications)
                }
                step = .notify
            }
            switch step {
            case .notify, .compare:
                if let box = retired.take() {
                    box.empty()
                    emptied = box
                }
                if let copy = current.take() {
                    deliverDerived(copy.take(), to: derived)
                    derived.removeAll()
                }
                for notification in notifications { notification() }
                notifications.removeAll(keepingCapacity: true)
            case .report(let report):
                report()
            case .done:
                if !resumes.isEmpty {
                    for resume in resumes { resume() }
                    outbox.withLock { $0.resuming -= resumes.count }
                }
                if claimed { resumeSettledIfQuiescent() }
                return
            }
        }
    }

    /// Stages the publication in `next` into every published value and publishes it: `next` becomes the
    /// published box, and the box it replaced is returned, still holding the replaced publication.
    ///
    /// Nothing is moved or copied: the stagers read both publications in place, through pointers (handed a
    /// publication read from a box as a value, each call would copy it first, through its value witnesses),
    /// and publishing swaps two box references. Both boxes stay filled and unchanged while the stagers run:
    /// the caller holds the outbox's lock and is the flusher.
    @inlinable
    func stage(
        _ next: PublicationBox<Item, Query, Metadata, Failure>, into box: inout Outbox,
        _ notifications: inout [StagedNotification]
    ) -> PublicationBox<Item, Query, Metadata, Failure> {
        let (publication, previous) = (UnsafePointer(next.address), UnsafePointer(box.publishedBox.address))
        box.stagers.withUnsafeBufferPointer { stagers in
            for stage in stagers {
                if let notification = stage(publication, previous) {
                    notifications.append(notification)
                }
            }
        }
        let replaced = box.publishedBox
        box.publishedBox = next
        box.publishedSerial &+= 1
        gate.recordDelivered(
            leadingCount: next.publication.snapshot.leadingCount, listSerial: next.publication.snapshot.listSerial)
        return replaced
    }

    @usableFromInline
    enum FlushStep {
        case notify
        /// Compare the publication the flusher took, then stage it.
        case compare(PublicationBox<Item, Query, Metadata, Failure>)
        case report(@Sendable () -> Void)
        /// Everything is delivered and the flusher has let go of its role, or another flush is delivering.
        case done
    }
}
