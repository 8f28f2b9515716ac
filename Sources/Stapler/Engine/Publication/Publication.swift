/// One published change of a paginator: the snapshot, with the items change and the edge error that came
/// with it, made once by the transition that caused it and never changed.
///
/// It travels by reference, from the transition that made it through the engine's delivery queue to the
/// published value that every property of the paginator reads (see ``PublicationChange``); nothing copies
/// it along the way.
///
/// The class is generic over its contents alone, and its fields are read through them
/// (`publication.contents.snapshot`). A class's `deinit` runs unspecialised:
/// releasing a field whose type is built from the class's generic arguments (a snapshot of `Item`,
/// `Metadata` and `Failure`) looks that type up at run time, on every publication, where the contents'
/// type is the class's own argument and needs no look-up.
@usableFromInline
final class PagingPublication<Contents: Sendable>: Sendable {
    /// What the publication holds.
    @usableFromInline let contents: Contents
    /// The publication's place in the order the engine made its publications: 0 for the initial one, then
    /// one more for each (see ``PublishedChanges``).
    @usableFromInline let serial: UInt64

    @inlinable
    init(_ contents: consuming Contents, serial: UInt64) {
        self.contents = contents
        self.serial = serial
    }
}

/// What one publication of a paginator holds.
@usableFromInline
struct PublicationContents<Item: Sendable, Query: Sendable, Metadata: Sendable, Failure: Error>: Sendable {
    @usableFromInline let snapshot: PagingSnapshot<Item, Metadata, Failure>
    /// How the items changed, if they did: from the items of the publication delivered before this one
    /// (``PublicationChange/previousItems``).
    @usableFromInline let itemsChange: ItemsChange?
    /// The row of the items before the change a refresh around a row was anchored at.
    @usableFromInline let anchorRow: Int?
    /// Where the anchor row went, once the keyed difference worked it out.
    @usableFromInline let anchor: ItemsAnchor?
    /// The error of an edge page that failed, if one did.
    @usableFromInline let laterPageError: PagingError<Failure>?
    /// Whether the transition applied a page.
    @usableFromInline let appliesPage: Bool
    /// The query of the current generation.
    @usableFromInline let query: Query
    /// Whether the transition changed the query.
    @usableFromInline let changesQuery: Bool
    /// How the slots changed, and the placeholder counts before the change.
    @usableFromInline let slotsChange: ItemsChange?
    @usableFromInline let previousPlaceholders: (before: Int, after: Int)
    /// The optimistic layers pending when the publication was made, which the deliverer replays over
    /// ``snapshot``'s rows before anyone sees them (see `OptimisticOverlay.swift`).
    @usableFromInline let overlay: OptimisticOverlay<Item>

    @inlinable
    init(
        snapshot: PagingSnapshot<Item, Metadata, Failure>, itemsChange: ItemsChange?, anchorRow: Int? = nil,
        anchor: ItemsAnchor? = nil, laterPageError: PagingError<Failure>?, appliesPage: Bool,
        query: Query, changesQuery: Bool, slotsChange: ItemsChange? = nil,
        previousPlaceholders: (before: Int, after: Int) = (0, 0), overlay: OptimisticOverlay<Item> = .init()
    ) {
        self.snapshot = snapshot
        self.itemsChange = itemsChange
        self.anchorRow = anchorRow
        self.anchor = anchor
        self.laterPageError = laterPageError
        self.appliesPage = appliesPage
        self.query = query
        self.changesQuery = changesQuery
        self.slotsChange = slotsChange
        self.previousPlaceholders = previousPlaceholders
        self.overlay = overlay
    }

    /// The contents of the publication of a paginator that has done nothing yet.
    @inlinable
    static func initial(query: Query) -> PublicationContents {
        PublicationContents(
            snapshot: .initial, itemsChange: nil, laterPageError: nil, appliesPage: false, query: query,
            changesQuery: false)
    }

    /// Whether the items change is worked out from the items' identities before it is published (the
    /// items before it being `previousItems`): a refresh that replaced rows with rows, or one anchored at a
    /// row.
    @inlinable
    func needsKeyedDifference(previousItems: PagedItems<Item>) -> Bool {
        anchorRow != nil || (itemsChange == .reloaded && !previousItems.isEmpty)
    }

    /// These contents with the items change and the anchor the keyed difference worked out.
    @inlinable
    func with(itemsChange: ItemsChange?, anchor: ItemsAnchor?) -> PublicationContents {
        PublicationContents(
            snapshot: snapshot, itemsChange: itemsChange, anchorRow: anchorRow, anchor: anchor,
            laterPageError: laterPageError, appliesPage: appliesPage, query: query, changesQuery: changesQuery,
            slotsChange: slotsChange, previousPlaceholders: previousPlaceholders, overlay: overlay)
    }

    /// These contents with the rows shown, their change, anchor and slots change worked out over the
    /// optimistic layers.
    @usableFromInline
    func with(
        snapshot: PagingSnapshot<Item, Metadata, Failure>, itemsChange: ItemsChange?, anchor: ItemsAnchor?,
        slotsChange: ItemsChange?
    ) -> PublicationContents {
        PublicationContents(
            snapshot: snapshot, itemsChange: itemsChange, anchorRow: anchorRow, anchor: anchor,
            laterPageError: laterPageError, appliesPage: appliesPage, query: query, changesQuery: changesQuery,
            slotsChange: slotsChange, previousPlaceholders: previousPlaceholders, overlay: overlay)
    }
}

/// The paginator's published value: the publication its properties show, the one before it, and the
/// values of the lists derived from the paginator (transformed lists) for it.
///
/// Every published property of a paginator, and of each list derived from it, is a projection of this
/// one value (see ``PagingEngine/property(_:_:skippingSnapshots:)``): its value reads ``current`` (or its
/// list's entry in ``derived``), and its signal sends a change when the property's skip rule finds that
/// ``current`` differs from ``previous``. So while any observer is notified of a publication, every
/// property of the paginator and of its derived lists holds that publication's values.
@usableFromInline
struct PublicationChange<Item: Sendable, Query: Sendable, Metadata: Sendable, Failure: Error>: Sendable {
    @usableFromInline typealias Publication = PagingPublication<PublicationContents<Item, Query, Metadata, Failure>>

    /// The publication shown before ``current``.
    @usableFromInline let previous: Publication
    /// The publication shown.
    @usableFromInline let current: Publication
    /// The value of each derived list for ``current``, by the list's id.
    @usableFromInline let derived: [DerivedValue]
    /// The derived list whose value alone changed, when one did (a list that joined caught up with
    /// ``current``): the paginator's own properties and signals, and the other lists', notify nobody.
    @usableFromInline let caughtUpList: Int?

    @inlinable
    init(
        previous: Publication, current: Publication, derived: [DerivedValue] = [],
        caughtUpList: Int? = nil
    ) {
        self.previous = previous
        self.current = current
        self.derived = derived
        self.caughtUpList = caughtUpList
    }

    /// The items before ``current``'s change: the items of ``previous``, the publication delivered before
    /// it.
    @inlinable
    var previousItems: PagedItems<Item> { previous.contents.snapshot.items }

    /// Whether only a derived list's value changed.
    @inlinable
    var isDerivedOnly: Bool { caughtUpList != nil }

    /// The slots change with the slots before and after it, if the slots changed.
    @inlinable
    var slotsUpdate: SlotsUpdate<Item>? {
        current.contents.slotsChange.map {
            SlotsUpdate(
                previous: PagedSlots(
                    items: previousItems, placeholdersBefore: current.contents.previousPlaceholders.before,
                    placeholdersAfter: current.contents.previousPlaceholders.after),
                slots: current.contents.snapshot.slots, change: $0)
        }
    }

    /// The items change with the snapshots before and after it, if the items changed.
    @inlinable
    var itemsUpdate: ItemsUpdate<Item, Metadata>? {
        current.contents.itemsChange.map {
            ItemsUpdate(
                previous: previousItems, items: current.contents.snapshot.items, change: $0,
                metadata: current.contents.snapshot.metadata,
                anchor: current.contents.anchor)
        }
    }

    /// The value of the derived list `id`, if it has one for ``current``.
    @inlinable
    func derivedValue(_ id: Int) -> (any AnyObject & Sendable)? {
        derived.first { $0.id == id }?.value
    }
}

/// The value of one derived list for one publication.
@usableFromInline
struct DerivedValue: Sendable {
    /// The list's id, given when it was registered.
    @usableFromInline let id: Int
    /// The list's value, in a box of the list's own type.
    @usableFromInline let value: any AnyObject & Sendable

    @inlinable
    init(id: Int, value: any AnyObject & Sendable) {
        self.id = id
        self.value = value
    }
}
