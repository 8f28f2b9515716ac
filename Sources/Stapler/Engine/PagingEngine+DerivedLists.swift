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
    /// `make` runs with no lock held (it may call user code) and may run again if a publication was
    /// staged meanwhile, so that the list starts from the publication before the first one it receives;
    /// after a few attempts under a stream of publications it is registered from the one it was made
    /// from, and catches up with the next publication.
    ///
    /// - Parameter make: Makes the list's state from a publication and returns its handler.
    func registerDerived(_ make: (Publication) -> DerivedList) {
        for attempt in 0..<4 {
            let (base, serial) = outbox.withLock { ($0.published, $0.publishedSerial) }
            let list = make(base)
            let registered = outbox.withLock { box -> Bool in
                guard box.publishedSerial == serial || attempt == 3 else { return false }
                box.derived.append((box.nextDerivedID, list))
                box.nextDerivedID += 1
                return true
            }
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
