import Reactive

extension Paginator {
    /// One publication of this paginator, as the lists made from it receive it.
    @usableFromInline typealias Publication = PagingPublication<PublicationContents<Item, Query, Metadata, Failure>>

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
    @inlinable
    public func transformed<Output: Sendable>(by transform: ListTransform<Item, Output>) -> TransformedList<Output> {
        var made: (core: TransformedListCore<Output>, id: Int, initial: TransformedPublication<Output>)?
        let limit = engine.policy.noProgressLimit ?? PagingPolicy.duplicatePageLimit
        engine.registerDerived { base, id in
            let transformer = ListTransformer(transform)
            _ = transformer.apply(
                Self.transformInput(base.contents.snapshot, previous: PagedItems(), change: .reloaded))
            let core = TransformedListCore(transformer: transformer)
            made = (
                core, id, TransformedPublication(items: transformer.output, update: nil, source: base.contents.snapshot)
            )
            let update: @Sendable (Publication, PagedItems<Item>) -> (any AnyObject & Sendable)? = {
                [weak core, weak self] publication, previousItems in
                guard let core else { return nil }
                let (value, added) = Self.transform(
                    publication.contents.snapshot, previous: previousItems, change: publication.contents.itemsChange,
                    on: core)
                if let self {
                    self.loadPastEmptyPages(
                        publication, previousPages: previousItems.pageCount, added: added, core: core, limit: limit)
                }
                return value
            }
            // A list made from an earlier publication than the one shown when it joins is transformed again
            // from the rows shown, in one reload.
            let catchUp: @Sendable (Publication) -> (any AnyObject & Sendable)? = { [weak core] publication in
                guard let core else { return nil }
                let (value, _) = Self.transform(
                    publication.contents.snapshot, previous: base.contents.snapshot.items, change: .reloaded, on: core)
                return value
            }
            return (update, catchUp)
        }
        guard let (core, id, initial) = made else {
            preconditionFailure("Paginator: the transformed list was not made")
        }
        // The list's value is its entry in the paginator's published value; until its first publication,
        // the rows it was made with. Its projection keeps `core` (and so the transforming) alive.
        let value: @Sendable (PublicationChange<Item, Query, Metadata, Failure>) -> TransformedPublication<Output> = {
            change in
            withExtendedLifetime(core) {}
            guard let box = change.derivedValue(id) else { return initial }
            return unsafeDowncast(box, to: TransformedPublication<Output>.self)
        }
        let state = engine.publication.projection(value) { change in
            guard change.caughtUpList == nil || change.caughtUpList == id, let box = change.derivedValue(id) else {
                return nil
            }
            let published = unsafeDowncast(box, to: TransformedPublication<Output>.self)
            return published.update == nil ? nil : published
        }
        // Made here, in inlinable code, so that delivering the list's changes runs code compiled for `Output`.
        let items = state.projection({ $0.items }, changes: { $0.items })
        let (lifetime, token) = Lifetime.make()
        let updates = state.signal.compactMap { $0.update }.take(during: lifetime)
        return makeTransformedList(
            core: core, state: state, items: items, updates: updates, lifetimeToken: token,
            preload: { [self] row in
                // With placeholders, the paginator takes slot indices: the item's slot is after those before it.
                self.preload(index: row + engine.publication.value.current.contents.snapshot.placeholdersBefore)
            })
    }

    /// The transformed list of `core` and `state`, whose `preload` reaches this paginator, and whose
    /// `settled()` waits on it.
    @usableFromInline
    func makeTransformedList<Output>(
        core: TransformedListCore<Output>, state: Property<TransformedPublication<Output>>,
        items: Property<TransformedItems<Output>>, updates: Signal<TransformedUpdate<Output>, Never>,
        lifetimeToken: Lifetime.Token, preload: @escaping @Sendable (Int) -> Void
    ) -> TransformedList<Output> {
        TransformedList(
            core: core, state: state, items: items, updates: updates, lifetimeToken: lifetimeToken, preload: preload,
            probe: self)
    }

    /// Transforms a publication's change of the rows.
    ///
    /// - Returns: The list's value for the publication (with no update if its rows did not change), and how
    ///   many rows the publication added between the header and the footer (all of them for a reload).
    @inlinable
    static func transform<Output>(
        _ snapshot: PagingSnapshot<Item, Metadata, Failure>, previous: PagedItems<Item>, change: ItemsChange?,
        on core: TransformedListCore<Output>
    ) -> (TransformedPublication<Output>, added: Int) {
        let input = transformInput(snapshot, previous: previous, change: change)
        let (update, output) = core.work.use { work in (work.transformer.apply(input).update, work.transformer.output) }
        guard let update else {
            return (TransformedPublication(items: output, update: nil, source: snapshot), 0)
        }
        let added =
            update.change == .reloaded
            ? update.items.contentCount : update.items.contentCount - update.previous.contentCount
        return (TransformedPublication(items: update.items, update: update, source: snapshot), added)
    }

    /// Loads the next page in the direction of a page that added no transformed row (`added` is how
    /// many rows the publication added between the header and the footer), up to `limit` pages in a row.
    @inlinable
    func loadPastEmptyPages<Output>(
        _ publication: Publication, previousPages: Int,
        added: Int,
        core: TransformedListCore<Output>, limit: Int
    ) {
        guard publication.contents.appliesPage, let change = publication.contents.itemsChange else { return }
        let snapshot = publication.contents.snapshot
        let inserted = max(added, 0)
        // Counted in the list's own state, then acted on with it let go of.
        let load = core.work.use { work -> PageDirection? in
            switch change {
            case .appended, .reloaded:
                if case .reloaded = change { work.emptyPages = (0, 0) }
                work.emptyPages.append = inserted > 0 ? 0 : work.emptyPages.append + 1
                guard inserted == 0, !snapshot.items.isEmpty, work.emptyPages.append <= limit, !snapshot.isEndReached,
                    case .idle(endReached: false) = snapshot.loadStates.append
                else { return nil }
                return .append
            case .inserted(let rows) where rows.lowerBound == 0 && snapshot.items.pageCount > previousPages:
                work.emptyPages.prepend = inserted > 0 ? 0 : work.emptyPages.prepend + 1
                guard inserted == 0, work.emptyPages.prepend <= limit,
                    case .idle(endReached: false) = snapshot.loadStates.prepend
                else { return nil }
                return .prepend
            case .difference:
                work.emptyPages = (0, 0)
                return nil
            default:
                return nil
            }
        }
        switch load {
        case .append: _ = loadNextPage()
        case .prepend: _ = loadPreviousPage()
        default: break
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
    @inlinable
    static func transformInput(
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
    @inlinable
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
