import Reactive

// Lists derived from a paginator (transformed lists) publish in step with it. The deliverer hands each
// publication to every derived list before it stores it, and stores the lists' values in the same
// published value (`PublicationChange.derived`), which their properties project too. So an observer of
// the paginator that reads a derived list, or of a derived list that reads the paginator, reads the same
// publication's values. Everything runs on the deliverer (on the delivery scheduler, when there is one),
// one publication at a time.

extension PagingEngine {
    /// A list derived from the engine's publications, as the deliverer keeps it.
    @usableFromInline
    struct DerivedRegistration: Sendable {
        /// The list's id: its place in ``PublicationChange/derived``.
        @usableFromInline let id: Int
        /// The serial of the publication the list was made from.
        @usableFromInline let baseSerial: UInt64
        /// The list's value for a publication (given with the items before its items change); `nil` once
        /// the list is gone (the deliverer then forgets it).
        @usableFromInline let update: @Sendable (Publication, PagedItems<Item>) -> (any AnyObject & Sendable)?
        /// The list's value caught up with a publication later than the one it was made from, in one change.
        @usableFromInline let catchUp: @Sendable (Publication) -> (any AnyObject & Sendable)?

        @inlinable
        init(
            id: Int, baseSerial: UInt64,
            update: @escaping @Sendable (Publication, PagedItems<Item>) -> (any AnyObject & Sendable)?,
            catchUp: @escaping @Sendable (Publication) -> (any AnyObject & Sendable)?
        ) {
            self.id = id
            self.baseSerial = baseSerial
            self.update = update
            self.catchUp = catchUp
        }
    }

    /// The derived lists the deliverer hands each publication to.
    @usableFromInline
    final class DerivedLists: Sendable {
        /// How many lists are registered, so that a paginator with none takes no lock for them; written
        /// and read by the deliverer only (an atomic word, so the checker sees no race).
        @usableFromInline let count = AtomicWord()
        // Guarded by its own lock; used by the deliverer only, one publication at a time.
        @usableFromInline let lists = LockedState<[DerivedRegistration]>([])

        @inlinable
        init() {}

        /// Each list's value for `publication` (whose items were `previousItems` before its change);
        /// forgets the lists that are gone.
        @inlinable
        func deliver(_ publication: Publication, previousItems: PagedItems<Item>) -> [DerivedValue] {
            guard count.relaxedLoad() != 0 else { return [] }
            let registered = lists.withLock { $0 }
            var values: [DerivedValue] = []
            var gone: [Int] = []
            for (index, list) in registered.enumerated() {
                if let value = list.update(publication, previousItems) {
                    values.append(DerivedValue(id: list.id, value: value))
                } else {
                    gone.append(index)
                }
            }
            guard !gone.isEmpty else { return values }
            // Only the deliverer changes the lists, so the indices are still those it iterated.
            let count = lists.withLock { lists in
                for index in gone.reversed() { lists.remove(at: index) }
                return lists.count
            }
            self.count.relaxedStore(count)
            return values
        }

        /// Adds `registration`; the deliverer calls it in the registration's turn.
        ///
        /// - Returns: The list's value caught up with `current` (the publication the paginator shows), if
        ///   it was made from an earlier one.
        @usableFromInline
        func register(_ registration: DerivedRegistration, current: Publication) -> DerivedValue? {
            let count = lists.withLock { lists in
                lists.append(registration)
                return lists.count
            }
            self.count.relaxedStore(count)
            guard registration.baseSerial != current.serial, let value = registration.catchUp(current) else {
                return nil
            }
            return DerivedValue(id: registration.id, value: value)
        }
    }

    /// Registers a derived list, made from the paginator's current publication by `make` with no lock held
    /// (it may call user code).
    ///
    /// The list joins the deliveries in its turn in the delivery queue: when no delivery is running, at
    /// once, on this thread (or on the delivery scheduler, when there is one); otherwise after the
    /// deliveries queued before it. If a publication was delivered between the one it was made from and
    /// its turn, it catches up with the paginator in one change then.
    ///
    /// - Parameter make: Makes the list's state from a publication and its id, and returns its handlers.
    @usableFromInline
    func registerDerived(
        _ make: (Publication, Int) -> (
            update: @Sendable (Publication, PagedItems<Item>) -> (any AnyObject & Sendable)?,
            catchUp: @Sendable (Publication) -> (any AnyObject & Sendable)?
        )
    ) {
        let base = publication.value.current
        let id = state.withLock { state in
            defer { state.nextDerivedID += 1 }
            return state.nextDerivedID
        }
        let (update, catchUp) = make(base, id)
        let registration = DerivedRegistration(id: id, baseSerial: base.serial, update: update, catchUp: catchUp)
        var drain: SignalDrain?
        state.withLock { state in
            // Before the first staging nothing was ever delivered: the list joins at once, made from the
            // initial publication, so this unspecialised call never makes the deliverer's observer.
            guard state.isDelivererAttached else {
                _ = derivedLists.register(registration, current: base)
                return
            }
            stage(.register(registration), in: &state, drain: &drain)
        }
        if let drain = drain.take() { run(drain) }
        resumeSettledIfQuiescent()
    }
}
