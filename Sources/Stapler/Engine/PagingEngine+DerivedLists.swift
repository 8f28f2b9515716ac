import Reactive

// Lists derived from a paginator (transformed lists) publish in step with it. The flusher, after staging
// a publication into the paginator's own values and before running their notifications, hands it to
// each derived list with no lock held; the list computes and stages its own values and returns their
// notifications, which run first. So an observer of the paginator that reads a derived list reads the
// same publication's derived values, and a derived list's observers never hear a publication older
// than the paginator's latest delivered one. Everything runs on the flusher (on the delivery
// scheduler, when there is one), one publication at a time.

extension PagingEngine {
    /// A list derived from the engine's publications.
    ///
    /// The flusher calls it for each publication it staged, with no lock held. It appends the notifications to run before the paginator's own, and
    /// returns `false` once the list is gone (the engine then forgets it).
    @usableFromInline
    typealias DerivedList = @Sendable (_ publication: Publication, _ notifications: inout [StagedNotification]) -> Bool

    /// Registers a derived list, made from the latest staged publication.
    ///
    /// `make` runs with no lock held (it may call user code). When no delivery is running, the caller
    /// takes the flusher's place while it makes the list, so that no publication is staged meanwhile,
    /// then delivers what was enqueued in the meantime (on the delivery scheduler, if there is one). When
    /// another thread is delivering, `make` runs again if a publication was staged while it ran, so that
    /// the list starts from the publication before the first one it receives (after many attempts under
    /// an endless stream of publications it is registered as it is, and catches up with the next one).
    ///
    /// - Parameter make: Makes the list's state from a publication and returns its handler.
    func registerDerived(_ make: (Publication) -> DerivedList) {
        for attempt in 0..<100 {
            let (base, serial, claimed) = outbox.withLock { box in
                defer { box.isFlushing = true }
                return (box.published, box.publishedSerial, !box.isFlushing)
            }
            let list = make(base)
            let (registered, pending) = outbox.withLock { box -> (Bool, Bool) in
                if claimed { box.isFlushing = false }
                guard claimed || box.publishedSerial == serial || attempt == 99 else { return (false, false) }
                box.derived.append((box.nextDerivedID, list))
                box.nextDerivedID += 1
                return (true, claimed && !box.deliveries.isEmpty)
            }
            if pending {
                // What was enqueued while this thread held the flusher's place found it taken: deliver it now.
                if let deliveryScheduler {
                    deliveryScheduler.schedule { [weak self] in self?.flush() }
                } else {
                    flush()
                }
            }
            // Holding the flusher's place kept a caller of `settled()` waiting: it checks again now.
            if claimed && !pending { resumeSettledIfQuiescent() }
            if registered { return }
        }
    }

    /// Hands `publication` to each derived list, then runs their notifications; forgets the lists that
    /// are gone.
    @usableFromInline
    func deliverDerived(_ publication: Publication, to lists: [(id: Int, list: DerivedList)]) {
        var notifications: [StagedNotification] = []
        var gone: [Int] = []
        for (id, list) in lists where !list(publication, &notifications) { gone.append(id) }
        if !gone.isEmpty { outbox.withLock { box in box.derived.removeAll { gone.contains($0.id) } } }
        for notification in notifications { notification() }
    }
}
