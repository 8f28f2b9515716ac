import Reactive

extension PagingEngine {
    /// What an edit does, decided against a snapshot of the items: an edit to make, or an outcome
    /// without one.
    @usableFromInline
    enum EditPlan {
        case edit(Machine.Edit.Kind)
        case done(EditOutcome)
    }

    /// A snapshot an app was given: the serial of its publication and its items.
    @usableFromInline
    typealias SeenItems = (serial: UInt64, items: PagedItems<Item>)

    /// Plans an edit against the current items and applies it if they did not change meanwhile;
    /// otherwise plans again.
    ///
    /// `plan` runs with no lock held (it may call user code: an identity, a `modify` closure), so the
    /// machine applies the edit only if the items are still those it was planned against.
    @inlinable
    func edit(_ plan: (PagedItems<Item>) -> EditPlan) -> EditOutcome {
        while true {
            let items = state.withLock { $0.machine.snapshot.items }
            switch plan(items) {
            case .done(let outcome): return outcome
            case .edit(let kind):
                if let outcome = apply(kind, expected: items) { return outcome }
            }
        }
    }

    /// Plans an edit of row `row` of the snapshot the caller was given (`seen`; the observers' latest when
    /// `nil`), carried to the current items, and applies it as ``edit(_:)`` does.
    ///
    /// The row is followed through the changes published since (``PublishedChanges``); across a list
    /// replaced since (a refresh), by its identity when items have one. A row gone by then changes
    /// nothing: ``EditOutcome/rowGone``. With `insertion`, `row` is a position in `0...count` of the seen
    /// items: before the row that was there, or after the last row (which must not be gone either).
    ///
    /// - Parameters:
    ///   - row: A row of the seen items, or with `insertion` a position in `0...count`.
    ///   - insertion: Whether `row` is a position to insert at.
    ///   - seen: The snapshot the caller was given; the observers' latest when `nil`.
    ///   - plan: Plans the edit against the current items and the row's (or position's) index in them.
    /// - Returns: What the edit did.
    @inlinable
    func edit(
        at row: Int, insertion: Bool, seen: SeenItems? = nil, _ plan: (PagedItems<Item>, Int) -> EditPlan
    ) -> EditOutcome {
        let (serial, seenItems) = seen ?? { ($0.serial, $0.contents.snapshot.items) }(publication.value.current)
        guard row < seenItems.count || (insertion && row == seenItems.count) else {
            let hasRows = state.withLock { $0.machine.hasList && $0.machine.snapshot.items.pageCount > 0 }
            return hasRows ? .outOfRange : .notLoaded
        }
        // The row the index names: for an insertion at the end, the last row, which it follows. Its
        // identity is computed with no lock held (it is user code).
        let after = row == seenItems.count
        let anchor = after ? row - 1 : row
        let anchorIdentity = anchor >= 0 ? identities.map { $0.erased(seenItems[anchor]) } : nil
        while true {
            let (items, place) = state.withLock { state -> (PagedItems<Item>, PublishedChanges.Place) in
                // An insertion into a list that showed no rows goes at the top of the list as it is.
                guard anchor >= 0 else { return (state.machine.snapshot.items, .row(0)) }
                var place = state.changes.place(of: anchor, at: serial)
                // Rows that pending optimistic edits add or hide shift the indices shown from the machine's:
                // the row is then found by its identity.
                if place == .unknown || state.overlay.changesCount {
                    place = anchorIdentity.flatMap { state.machine.index(ofIdentity: $0) }.map { .row($0) } ?? .gone
                }
                if after, case .row(let index) = place { place = .row(index + 1) }
                return (state.machine.snapshot.items, place)
            }
            guard case .row(let index) = place else { return .rowGone }
            switch plan(items, index) {
            case .done(let outcome): return outcome
            case .edit(let kind):
                if let outcome = apply(kind, expected: items) { return outcome }
            }
        }
    }

    /// Applies `kind` if the items are still `expected`.
    ///
    /// - Returns: What the edit did, or `nil` when the items changed since (plan it again).
    @inlinable
    func apply(_ kind: Machine.Edit.Kind, expected items: PagedItems<Item>) -> EditOutcome? {
        var identity: ItemIdentity?
        var rowIdentities: [ItemIdentity]?
        if let identities {
            switch kind {
            case .insert(let item, _), .replace(_, let item): identity = identities.erased(item)
            case .insertRows(let rows, _): rowIdentities = identities.erasedIdentities(rows)
            case .remove: break
            }
        }
        let edit = Machine.Edit(kind, identity: identity, rowIdentities: rowIdentities, expected: items)
        var outcome: EditOutcome?
        send { $0.receiveEdit(edit, outcome: &outcome) }
        return outcome
    }
}
