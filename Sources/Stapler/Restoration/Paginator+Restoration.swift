import Reactive

extension Paginator {
    /// The list shown, to save and restore with
    /// ``init(restoring:source:pageSize:prefetchDistance:deduplication:deliveringOn:policy:maxPages:placeholders:jumpThreshold:revalidate:)``;
    /// `nil` until a first page shows a list.
    ///
    /// While a refresh loads, it is the list still shown (with its query), and a direction that is
    /// loading or failed is saved idle with the key it asks for.
    ///
    /// - Complexity: O(pages) under the paginator's lock, then O(items) to copy the rows out.
    public var savedState: PagingSavedState<Item, Key, Query, Metadata>? {
        let parts = engine.state.withLock { state in
            // The row last passed to `preload(index:)`, when it was a row of this list.
            state.machine.hasList
                ? PagingMachine.SavedParts(
                    state.machine, shownRow: engine.lastShownRow(inList: state.machine.snapshot.listSerial)) : nil
        }
        return parts?.savedState(model: engine.source.model)
    }

    /// Creates a paginator that shows a saved list at once, with no request, then revalidates it if
    /// asked.
    ///
    /// The restored list is published before this returns: the first value an observer gets is the
    /// restored snapshot (state `data`, or `noData` for an empty list), and each edge asks for the key it
    /// asked for when the list was saved. With a delivery scheduler it is the first publication that
    /// scheduler delivers. A revalidation is an ordinary refresh: the restored rows stay
    /// until it commits, edge loads are ignored with ``IgnoredReason/refreshing`` while it runs, and its
    /// failure keeps the restored rows with their edges usable.
    ///
    /// ```swift
    /// typealias SavedRows = PagingSavedState<Row, Int, Void, Response>
    /// let saved = try SavedRows.decode { try JSONDecoder().decode(SavedRows.self, from: data) }
    /// let paginator = try Paginator(restoring: saved, source: .offset(load: api.rows), pageSize: 20,
    ///                               revalidate: .around(index: saved.lastShownRow ?? 0, minimumCount: 40))
    /// ```
    ///
    /// - Parameters:
    ///   - saved: A list taken from ``savedState``, maybe through an encoder and a decoder (decode it
    ///     through ``PagingSavedState/decode(_:)``: any bytes then give a list or a ``RestoreError``).
    ///   - source: The source to page on with; it must use the page model the list was loaded with.
    ///   - pageSize: As for ``init(source:pageSize:query:initialKey:prefetchDistance:deduplication:deliveringOn:policy:maxPages:placeholders:jumpThreshold:)``.
    ///   - prefetchDistance: As for a new paginator.
    ///   - deduplication: As for a new paginator; the identities of the restored items are rebuilt.
    ///   - scheduler: As for a new paginator.
    ///   - policy: As for a new paginator.
    ///   - maxPages: As for a new paginator.
    ///   - placeholders: As for a new paginator.
    ///   - jumpThreshold: As for a new paginator.
    ///   - revalidate: The refresh to start once the list is shown, if any.
    /// - Throws: ``RestoreError/wrongPageModel(saved:source:)`` when `source` uses another page model,
    ///   or the error of a saved list that does not hold together. Nothing is requested then.
    public convenience init(
        restoring saved: PagingSavedState<Item, Key, Query, Metadata>,
        source: PageSource<Item, Key, Query, Metadata, Failure>,
        pageSize: Int? = nil,
        prefetchDistance: Int? = nil,
        deduplication: Deduplication<Item>? = nil,
        deliveringOn scheduler: (any Scheduler)? = nil,
        policy: PagingPolicy = .default,
        maxPages: Int? = nil,
        placeholders: Bool = false,
        jumpThreshold: Int? = nil,
        revalidate: RefreshMode<Key>? = nil
    ) throws(RestoreError) {
        guard saved.model == source.model else {
            throw .wrongPageModel(saved: saved.model.rawValue, source: source.model.rawValue)
        }
        try saved.validate()
        self.init(
            source: source, pageSize: pageSize, query: saved.query, initialKey: saved.openingKey,
            prefetchDistance: prefetchDistance, deduplication: deduplication, deliveringOn: scheduler, policy: policy,
            maxPages: maxPages, placeholders: placeholders, jumpThreshold: jumpThreshold, queryCache: nil)
        let identities = engine.identities.map { SavedIdentities(of: saved, by: $0.erased) }
        engine.send { $0.restore(saved, identities: identities) }
        if let revalidate { refresh(revalidate) }
    }
}
