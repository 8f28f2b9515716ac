import Reactive

extension Paginator {
    /// The list shown, to save and restore with
    /// ``init(restoring:source:options:revalidate:)``;
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
    ///   - options: As for a new paginator (``init(source:query:initialKey:options:)``), checked the same
    ///     way; with a deduplication, the identities of the restored items are rebuilt, and with a query
    ///     cache, the restored list is the saved query's list.
    ///   - revalidate: The refresh to start once the list is shown, if any.
    /// - Throws: ``RestoreError/wrongPageModel(saved:source:)`` when `source` uses another page model,
    ///   or the error of a saved list that does not hold together. Nothing is requested then.
    public convenience init(
        restoring saved: PagingSavedState<Item, Key, Query, Metadata>,
        source: PageSource<Item, Key, Query, Metadata, Failure>,
        options: PagingOptions<Item, Key>,
        revalidate: RefreshMode<Key>? = nil
    ) throws(RestoreError) {
        guard saved.model == source.model else {
            throw .wrongPageModel(saved: saved.model.rawValue, source: source.model.rawValue)
        }
        try saved.validate()
        self.init(source: source, query: saved.query, initialKey: saved.openingKey, options: options)
        let identities = engine.identities.map { SavedIdentities(of: saved, by: $0.erased) }
        engine.send { $0.restore(saved, identities: identities) }
        if let revalidate { refresh(revalidate) }
    }

    /// Creates a paginator that shows a saved list at once, with default options but the page size; see
    /// ``init(restoring:source:options:revalidate:)``.
    ///
    /// - Parameters:
    ///   - saved: A list taken from ``savedState``.
    ///   - source: The source to page on with; it must use the page model the list was loaded with.
    ///   - pageSize: How many items to ask for per page, as for a new paginator.
    ///   - revalidate: The refresh to start once the list is shown, if any.
    /// - Throws: As ``init(restoring:source:options:revalidate:)``.
    public convenience init(
        restoring saved: PagingSavedState<Item, Key, Query, Metadata>,
        source: PageSource<Item, Key, Query, Metadata, Failure>,
        pageSize: Int? = nil,
        revalidate: RefreshMode<Key>? = nil
    ) throws(RestoreError) {
        try self.init(
            restoring: saved, source: source, options: PagingOptions(pageSize: pageSize), revalidate: revalidate)
    }
}
