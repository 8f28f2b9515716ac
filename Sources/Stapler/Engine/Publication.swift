/// One published change of a paginator: the snapshot, with the items change and the edge error that
/// came with it.
///
/// Copies of so large a generic value go through its value witnesses even in specialised code, so the
/// engine makes one copy of the snapshot per publication, in the box that keeps the publication from the
/// moment it is enqueued until it is retired: it is never moved.
@usableFromInline
struct PagingPublication<Item: Sendable, Query: Sendable, Metadata: Sendable, Failure: Error> {
    @usableFromInline let snapshot: PagingSnapshot<Item, Metadata, Failure>
    /// How the items changed, if they did.
    @usableFromInline var itemsChange: ItemsChange?
    /// The items before ``itemsChange``.
    @usableFromInline let previousItems: PagedItems<Item>
    /// The row of ``previousItems`` a refresh around a row was anchored at.
    @usableFromInline let anchorRow: Int?
    /// Where the anchor row went, once the flusher worked it out.
    @usableFromInline var anchor: ItemsAnchor?
    /// The error of an edge page that failed, if one did.
    @usableFromInline let laterPageError: PagingError<Failure>?
    /// Whether the transition applied a page.
    @usableFromInline let appliesPage: Bool
    /// The query of the current generation.
    @usableFromInline let query: Query
    /// Whether the transition changed the query.
    @usableFromInline let changesQuery: Bool
    /// How the slots changed, and the placeholder counts before the change.
    @usableFromInline var slotsChange: ItemsChange?
    @usableFromInline var previousPlaceholders = (before: 0, after: 0)

    @inlinable
    init(
        snapshot: PagingSnapshot<Item, Metadata, Failure>, itemsChange: ItemsChange?, previousItems: PagedItems<Item>,
        anchorRow: Int? = nil, laterPageError: PagingError<Failure>?, appliesPage: Bool, query: Query,
        changesQuery: Bool, slotsChange: ItemsChange? = nil, previousPlaceholders: (before: Int, after: Int) = (0, 0)
    ) {
        self.slotsChange = slotsChange
        self.previousPlaceholders = previousPlaceholders
        self.snapshot = snapshot
        self.anchorRow = anchorRow
        self.itemsChange = itemsChange
        self.previousItems = previousItems
        self.laterPageError = laterPageError
        self.appliesPage = appliesPage
        self.query = query
        self.changesQuery = changesQuery
    }

    /// The publication of a paginator that has done nothing yet.
    @inlinable
    static func initial(query: Query) -> PagingPublication {
        PagingPublication(
            snapshot: .initial, itemsChange: nil, previousItems: PagedItems(), laterPageError: nil, appliesPage: false,
            query: query, changesQuery: false)
    }

    /// The slots change with the slots before and after it, if the slots changed.
    @inlinable
    var slotsUpdate: SlotsUpdate<Item>? {
        slotsChange.map {
            SlotsUpdate(
                previous: PagedSlots(
                    items: previousItems, placeholdersBefore: previousPlaceholders.before,
                    placeholdersAfter: previousPlaceholders.after),
                slots: snapshot.slots, change: $0)
        }
    }

    /// The items change with the snapshots before and after it, if the items changed.
    @inlinable
    var itemsUpdate: ItemsUpdate<Item, Metadata>? {
        itemsChange.map {
            ItemsUpdate(
                previous: previousItems, items: snapshot.items, change: $0, metadata: snapshot.metadata, anchor: anchor)
        }
    }
}
