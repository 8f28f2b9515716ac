import Reactive

extension Paginator {
    /// A transformed view of this paginator: its rows go through `transform`, and every change of the
    /// paginator becomes one change of the view, in transformed indices.
    ///
    /// ```swift
    /// let list = paginator.transformed(by: ListTransform<Message, Message>()
    ///     .map { MessageRow($0) }
    ///     .separators { before, after in
    ///         guard let after, before?.day != after.day else { return nil }
    ///         return .dayHeader(after.day)
    ///     })
    /// list.updates.observeValues { update in update.apply(to: &rows) }
    /// ```
    ///
    /// The view is made from the paginator's latest published snapshot, transformed once here (on the
    /// calling thread), then kept up to date by the paginator's deliveries. A page that adds no
    /// transformed row (a filter removed all of it) makes the view load the next page in that direction
    /// by itself, up to the policy's `noProgressLimit` pages in a row (3 when it has none), since no new
    /// row would prompt the list to ask.
    ///
    /// - Parameter transform: The steps to apply.
    /// - Returns: The view; it keeps the paginator alive.
    /// - Complexity: O(items) now; then O(page) per page added at either end, O(row) per edit,
    ///   O(items) per refresh difference.
    public func transformed<Output: Sendable>(by transform: ListTransform<Item, Output>) -> TransformedList<Output> {
        var made: (TransformedListCore<Output>, Property<TransformedItems<Output>>)?
        let limit = engine.policy.noProgressLimit ?? PagingPolicy.duplicatePageLimit
        engine.registerDerived { base in
            let transformer = ListTransformer(transform)
            _ = transformer.apply(Self.transformInput(base.snapshot, previous: PagedItems(), change: .reloaded))
            let (property, writer) = PropertyWriter.make(transformer.output)
            let core = TransformedListCore(transformer: transformer, itemsWriter: writer)
            made = (core, property)
            return { [weak core, weak self] publication, notifications in
                guard let core else { return false }
                let input = Self.transformInput(
                    publication.snapshot, previous: publication.previousItems, change: publication.itemsChange)
                let update = core.transformer.apply(input).update
                // Rows between the header and the footer that the publication added (all of them for a reload).
                let added =
                    update.map {
                        $0.change == .reloaded
                            ? $0.items.contentCount : $0.items.contentCount - $0.previous.contentCount
                    } ?? 0
                if let update {
                    if let staged = core.itemsWriter.stage(update.items) { notifications.append(staged) }
                    if let staged = core.updatesWriter.stage(update) { notifications.append(staged) }
                }
                if let self { self.loadPastEmptyPages(publication, added: added, core: core, limit: limit) }
                return true
            }
        }
        guard let (core, property) = made else { preconditionFailure("Paginator: the transformed list was not made") }
        return TransformedList(
            core: core, items: property,
            preload: { [self] row in
                // With placeholders, the paginator takes slot indices: the item's slot is after those before it.
                let before = engine.outbox.withLock { $0.published.snapshot.placeholdersBefore }
                self.preload(index: row + before)
            },
            probe: self)
    }

    /// Loads the next page in the direction of a page that added no transformed row (`added` is how
    /// many rows the publication added between the header and the footer), up to `limit` pages in a row.
    private func loadPastEmptyPages<Output>(
        _ publication: PagingPublication<Item, Query, Metadata, Failure>, added: Int,
        core: TransformedListCore<Output>, limit: Int
    ) {
        guard publication.appliesPage, let change = publication.itemsChange else { return }
        let snapshot = publication.snapshot
        let previousPages = publication.previousItems.pageCount
        let inserted = max(added, 0)
        switch change {
        case .appended, .reloaded:
            if case .reloaded = change { core.emptyPages = (0, 0) }
            core.emptyPages.append = inserted > 0 ? 0 : core.emptyPages.append + 1
            if inserted == 0, !snapshot.items.isEmpty, core.emptyPages.append <= limit, !snapshot.isEndReached,
                case .idle(endReached: false) = snapshot.loadStates.append
            {
                _ = loadNextPage()
            }
        case .inserted(let rows) where rows.lowerBound == 0 && snapshot.items.pageCount > previousPages:
            core.emptyPages.prepend = inserted > 0 ? 0 : core.emptyPages.prepend + 1
            if inserted == 0, core.emptyPages.prepend <= limit,
                case .idle(endReached: false) = snapshot.loadStates.prepend
            {
                _ = loadPreviousPage()
            }
        case .difference:
            core.emptyPages = (0, 0)
        default:
            break
        }
    }

    /// A transformed view of this paginator, with the transform built from the identity one.
    ///
    /// ```swift
    /// let list = paginator.transformed { $0.filter { !$0.isHidden }.map(MessageRow.init) }
    /// ```
    ///
    /// - Parameter build: Chains the steps onto `ListTransform<Item, Item>()`.
    /// - Returns: The view; see ``transformed(by:)``.
    @inlinable
    public func transformed<Output: Sendable>(
        _ build: (ListTransform<Item, Item>) -> ListTransform<Item, Output>
    ) -> TransformedList<Output> {
        transformed(by: build(ListTransform()))
    }

    /// What the transformer reads of a publication.
    private static func transformInput(
        _ snapshot: PagingSnapshot<Item, Metadata, Failure>, previous: PagedItems<Item>, change: ItemsChange?
    ) -> TransformInput<Item> {
        let states = snapshot.loadStates
        let isEmpty = snapshot.items.isEmpty
        let top: LoadState<Failure> =
            switch states.refresh {
            case .loading, .failed: states.refresh
            case .idle: states.prepend
            }
        return TransformInput(
            previous: previous, items: snapshot.items, change: change, top: states.prepend.isEndReached,
            bottom: snapshot.isEndReached, header: ListEdge(top, isListEmpty: isEmpty),
            footer: ListEdge(states.append, isListEmpty: isEmpty))
    }
}

extension ListEdge {
    /// The edge state of a direction's load state.
    init<Failure>(_ state: LoadState<Failure>, isListEmpty: Bool) {
        let status: Status =
            switch state {
            case .idle(let ended): ended ? .ended : .idle
            case .loading: .loading
            case .failed: .failed
            }
        self.init(status: status, isListEmpty: isListEmpty)
    }
}
