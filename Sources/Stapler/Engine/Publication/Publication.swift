/// One published change of a paginator: the snapshot, with the items change and the edge error that
/// came with it.
///
/// Copies of so large a generic value go through its value witnesses even in specialised code, so the
/// engine makes one copy of the snapshot per publication, in the box that keeps the publication from the
/// moment it is enqueued until it is retired: it is never moved. That copy, and the release of a retired
/// publication, go one stored property at a time (``PagingSnapshot/init(fieldwise:)``,
/// ``release(at:)``), so each is specialised.
@usableFromInline
struct PagingPublication<Item: Sendable, Query: Sendable, Metadata: Sendable, Failure: Error> {
    @usableFromInline var snapshot: PagingSnapshot<Item, Metadata, Failure>
    /// How the items changed, if they did.
    @usableFromInline var itemsChange: ItemsChange?
    /// The items before ``itemsChange``.
    @usableFromInline var previousItems: PagedItems<Item>
    /// The row of ``previousItems`` a refresh around a row was anchored at.
    @usableFromInline var anchorRow: Int?
    /// Where the anchor row went, once the flusher worked it out.
    @usableFromInline var anchor: ItemsAnchor?
    /// The error of an edge page that failed, if one did.
    @usableFromInline var laterPageError: PagingError<Failure>?
    /// Whether the transition applied a page.
    @usableFromInline var appliesPage: Bool
    /// The query of the current generation.
    @usableFromInline var query: Query
    /// Whether the transition changed the query.
    @usableFromInline var changesQuery: Bool
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

extension PagingPublication {
    /// How many stored properties ``release(at:)`` releases; a test holds it to the type's own count.
    @usableFromInline static var releasedPropertyCount: Int { 11 }

    /// Releases the publication at `address` one stored property at a time, leaving the memory
    /// uninitialised.
    ///
    /// Releasing the publication whole goes through its generic value witness, which works out the
    /// layout of every field from the type's metadata at run time; one property at a time, each release
    /// is the property's own, specialised: a release for each reference, nothing for the rest.
    @inlinable
    static func release(at address: UnsafeMutablePointer<PagingPublication>) {
        PagingSnapshot.releaseProperties(of: &address.pointee.snapshot)
        deinitializeInPlace(&address.pointee.itemsChange)
        deinitializeInPlace(&address.pointee.previousItems)
        deinitializeInPlace(&address.pointee.anchorRow)
        deinitializeInPlace(&address.pointee.anchor)
        deinitializeInPlace(&address.pointee.laterPageError)
        deinitializeInPlace(&address.pointee.appliesPage)
        deinitializeInPlace(&address.pointee.query)
        deinitializeInPlace(&address.pointee.changesQuery)
        deinitializeInPlace(&address.pointee.slotsChange)
        deinitializeInPlace(&address.pointee.previousPlaceholders)
    }
}

extension PagingSnapshot {
    /// Releases every stored property of `snapshot`, which is left uninitialised: only for a snapshot in
    /// memory of one's own, behind an unsafe pointer, that nothing reads or releases again (see
    /// ``init(fieldwise:)`` for why not whole).
    @inlinable
    static func releaseProperties(of snapshot: inout PagingSnapshot) {
        deinitializeInPlace(&snapshot.state)
        deinitializeInPlace(&snapshot.loadStates)
        deinitializeInPlace(&snapshot.items)
        deinitializeInPlace(&snapshot.pages)
        deinitializeInPlace(&snapshot.total)
        deinitializeInPlace(&snapshot.isEndReached)
        deinitializeInPlace(&snapshot.metadata)
        deinitializeInPlace(&snapshot.generation)
        deinitializeInPlace(&snapshot.showsNextPageIndicator)
        deinitializeInPlace(&snapshot.leadingCount)
        deinitializeInPlace(&snapshot.stopReason)
        deinitializeInPlace(&snapshot.placeholdersBefore)
        deinitializeInPlace(&snapshot.placeholdersAfter)
        deinitializeInPlace(&snapshot.isStale)
        deinitializeInPlace(&snapshot.failureSerials)
        deinitializeInPlace(&snapshot.stateFailureSerial)
        deinitializeInPlace(&snapshot.listSerial)
    }
}

/// Deinitialises the memory of `value`, which the caller must not read again, nor let anything
/// else release: the memory is the caller's own, behind an unsafe pointer.
@inlinable @inline(__always)
func deinitializeInPlace<Value>(_ value: inout Value) {
    withUnsafeMutablePointer(to: &value) { _ = $0.move() }
}
