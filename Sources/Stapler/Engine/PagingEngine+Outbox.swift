import Reactive

extension PagingEngine {
    /// The engine's deliveries not yet made, whether a thread is making them, and the published values.
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
    }

    /// What the flusher delivers: a publication to every property and signal, or a first-page outcome
    /// to the action that waits for it.
    @usableFromInline
    enum Delivery {
        case publication(Publication)
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
        var retired: Publication?
        // The lists derived from the publication just staged, and that publication, when there are any.
        var derived: [(id: Int, list: DerivedList)] = []
        var current: Publication?
        // The publication to compare before staging; kept out of `FlushStep` so that the common steps
        // move no publication around.
        var comparing: Publication?
        while true {
            var step = outbox.withLock { box -> FlushStep in
                // Switched over as it comes off the queue, so the publication is moved out, not copied.
                switch box.deliveries.popFirst() {
                case nil:
                    box.isFlushing = false
                    swap(&notifications, &box.spareNotifications)
                    return .done
                case .publication(let publication)?:
                    if identity != nil,
                        publication.anchorRow != nil
                            || (publication.itemsChange == .reloaded && !publication.previousItems.isEmpty)
                    {
                        comparing = consume publication
                        return .compare
                    }
                    retired = stage(consume publication, into: &box, &notifications)
                    if !box.derived.isEmpty { (derived, current) = (box.derived, box.published) }
                    return .notify
                case .outcome(let report)?:
                    return .report(report)
                }
            }
            if case .compare = step, var publication = comparing.take(), let identity {
                let (old, new) = (publication.previousItems, publication.snapshot.items)
                if !old.isEmpty {
                    publication.itemsChange = .difference(ItemsDifference(from: old, to: new, by: identity))
                }
                if let row = publication.anchorRow {
                    publication.anchor = ItemsAnchor(from: row, in: old, to: new, by: identity)
                }
                retired = outbox.withLock { box in
                    defer { if !box.derived.isEmpty { (derived, current) = (box.derived, box.published) } }
                    return stage(publication, into: &box, &notifications)
                }
                step = .notify
            }
            switch step {
            case .notify, .compare:
                withExtendedLifetime(retired) {}
                retired = nil
                if let published = current.take() {
                    deliverDerived(published, to: derived)
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

    /// Stages `publication` into every published value; returns the publication it replaces.
    @inlinable
    func stage(
        _ publication: consuming Publication, into box: inout Outbox, _ notifications: inout [StagedNotification]
    ) -> Publication {
        var publication = publication
        for stage in box.stagers {
            if let notification = stage(publication, box.published) {
                notifications.append(notification)
            }
        }
        swap(&box.published, &publication)
        box.publishedSerial &+= 1
        return publication
    }

    @usableFromInline
    enum FlushStep {
        case notify
        /// Compare the publication the flusher took, then stage it.
        case compare
        case report(@Sendable () -> Void)
        case done
    }
}
