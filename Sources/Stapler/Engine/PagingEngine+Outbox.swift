import Reactive

extension PagingEngine {
    /// The engine's deliveries not yet made, whether a thread is making them, and the published values.
    @usableFromInline
    struct Outbox {
        @usableFromInline var deliveries = FIFOQueue<Delivery>()
        @usableFromInline var isFlushing = false
        /// The latest staged publication: what every published value holds now.
        @usableFromInline var published: Publication
        /// The box of ``copyForDerivedLists()``, made the first time.
        @usableFromInline var derivedListsBox: PublicationBox<Item, Query, Metadata, Failure>?
        /// Emptied boxes, to fill with the next publications (at most ``spareBoxLimit``).
        @usableFromInline var spareBoxes: [PublicationBox<Item, Query, Metadata, Failure>] = []
        /// The published values made so far, by ``PublishedSlot``.
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

        @inlinable
        init(query: Query) {
            published = .initial(query: query)
            values = Array(repeating: nil, count: PublishedSlot.allCases.count)
        }

        /// A box holding `publication`: an emptied one if there is one.
        @inlinable
        mutating func boxed(_ publication: consuming Publication) -> PublicationBox<Item, Query, Metadata, Failure> {
            guard let spare = spareBoxes.popLast() else { return PublicationBox(consume publication) }
            spare.fill(consume publication)
            return spare
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

    /// What the flusher delivers: a publication to every property and signal, or a first-page outcome
    /// to the action that waits for it.
    @usableFromInline
    enum Delivery {
        case publication(PublicationBox<Item, Query, Metadata, Failure>)
        case outcome(@Sendable () -> Void)
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
        // The publication the last one staged replaced, and once emptied (with no lock held), its box, handed
        // back to the outbox in the next critical section.
        var retired: PublicationBox<Item, Query, Metadata, Failure>?
        var emptied: PublicationBox<Item, Query, Metadata, Failure>?
        // The lists derived from the publication just staged, and that publication, when there are any.
        var derived: [(id: Int, list: DerivedList)] = []
        var current: PublicationBox<Item, Query, Metadata, Failure>?
        while true {
            var step = outbox.withLock { box -> FlushStep in
                if let emptied = emptied.take() {
                    box.recycle(emptied)
                }
                switch box.deliveries.popFirst() {
                case nil:
                    box.isFlushing = false
                    swap(&notifications, &box.spareNotifications)
                    return .done
                case .publication(let next)?:
                    if identity != nil,
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
            if case .compare(let next) = step, let identity {
                // The flusher's own until it is staged: changed in place with no lock held.
                let (old, new) = (next.publication.previousItems, next.publication.snapshot.items)
                if !old.isEmpty {
                    next.publication.itemsChange = .difference(ItemsDifference(from: old, to: new, by: identity))
                }
                if let row = next.publication.anchorRow {
                    next.publication.anchor = ItemsAnchor(from: row, in: old, to: new, by: identity)
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
                return
            }
        }
    }

    /// Stages the publication in `next` into every published value and publishes it; returns `next`, holding
    /// the publication it replaced.
    ///
    /// The new publication is moved out of its box first: the stagers then read both publications from
    /// this critical section's own storage, which a call cannot change, so nothing is copied for them (read
    /// in place from a box, each would be copied before each call, through its value witnesses).
    @inlinable
    func stage(
        _ next: PublicationBox<Item, Query, Metadata, Failure>, into box: inout Outbox,
        _ notifications: inout [StagedNotification]
    ) -> PublicationBox<Item, Query, Metadata, Failure> {
        let publication = next.take()
        for stage in box.stagers {
            if let notification = stage(publication, box.published) {
                notifications.append(notification)
            }
        }
        // The replaced publication moves into the box, and the new one into its place: two moves, no copy.
        withUnsafeMutablePointer(to: &box.published) { published in
            next.address.moveInitialize(from: published, count: 1)
            published.initialize(to: publication)
        }
        next.isFilled = true
        box.publishedSerial &+= 1
        return next
    }

    @usableFromInline
    enum FlushStep {
        case notify
        /// Compare the publication the flusher took, then stage it.
        case compare(PublicationBox<Item, Query, Metadata, Failure>)
        case report(@Sendable () -> Void)
        case done
    }
}
