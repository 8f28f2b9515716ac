// The layers of the optimistic edits whose mutations run, above whatever rows the engine shows (pages, a
// refresh's list, a reload): the engine keeps them in its state, every publication carries the layers
// current when it was made, and the deliverer replays them over the publication's rows with no lock held
// (a layer runs user code: an identity, a `modify` closure), then publishes the keyed difference from the
// rows shown before. So a base change that lands while mutations run is shown with the layers on it, in
// the same update, and removing one layer replays the others over the current rows, never over a copy
// taken when the edit started.

/// One pending optimistic edit, as the overlay replays it.
@usableFromInline
struct OverlayLayer<Item: Sendable>: Sendable {
    /// What the edit is, for ``Paginator/pendingEdits``.
    @usableFromInline let edit: PendingEdit<Item>
    /// The rows with the edit applied over them; pure, and run with no lock held.
    @usableFromInline let apply: @Sendable (PagedItems<Item>) -> PagedItems<Item>
    /// What the server's answer changes in the server's rows.
    @usableFromInline let fold: @Sendable (PagedItems<Item>, Item?) -> OverlayFold<Item>

    @usableFromInline
    init(
        edit: PendingEdit<Item>, apply: @escaping @Sendable (PagedItems<Item>) -> PagedItems<Item>,
        fold: @escaping @Sendable (PagedItems<Item>, Item?) -> OverlayFold<Item>
    ) {
        self.edit = edit
        self.apply = apply
        self.fold = fold
    }

    /// Whether the edit may change how many rows are shown.
    @inlinable
    var changesCount: Bool { edit.kind == .insert || edit.kind == .remove }
}

/// What a confirmed edit's answer changes in the server's rows: an edit of one row (by its index in the
/// rows the fold was planned on), and the identity the answer gave a row shown with another (a temporary
/// identity replaced by the server's), so the change shows as an update in place.
@usableFromInline
struct OverlayFold<Item: Sendable>: Sendable {
    @usableFromInline
    enum RowEdit: Sendable {
        case insert(Item, at: Int)
        case replace(at: Int, with: Item)
        case remove(at: Int)
    }

    @usableFromInline var edit: RowEdit?
    /// The answer's identity, then the identity the row was shown with.
    @usableFromInline var renamed: (new: ItemIdentity, old: ItemIdentity)?

    @usableFromInline
    init(edit: RowEdit? = nil, renamed: (new: ItemIdentity, old: ItemIdentity)? = nil) {
        self.edit = edit
        self.renamed = renamed
    }
}

/// The pending layers, in the order their edits started, and what the next publication reports about the
/// one that settled.
@usableFromInline
struct OptimisticOverlay<Item: Sendable>: Sendable {
    /// The keyed difference of two lists of rows, by identity, an identity found in the table counting as
    /// the one it maps to.
    @usableFromInline typealias Difference =
        @Sendable (PagedItems<Item>, PagedItems<Item>, [ItemIdentity: ItemIdentity]) -> ItemsDifference

    /// What an overlay holds.
    @usableFromInline
    struct Fields: Sendable {
        @usableFromInline var layers: [OverlayLayer<Item>] = []
        @usableFromInline var nextSerial: UInt64 = 1
        @usableFromInline var difference: Difference?
        @usableFromInline var renamed: [ItemIdentity: ItemIdentity] = [:]
        @usableFromInline var failure: MutationFailure<Item>?

        @inlinable
        init() {}
    }

    /// The fields, behind one reference that every publication shares until an edit changes them, and
    /// `nil` until the first optimistic edit: a paginator that never makes one copies a `nil` into each
    /// publication, where five fields (an array, a dictionary, a closure) would be copied and released
    /// through the runtime's generic witnesses on every page.
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let fields: Fields

        @inlinable
        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    @usableFromInline var storage: Storage?

    @inlinable
    init() {}

    /// The fields, read.
    @inlinable
    var fields: Fields {
        get { storage?.fields ?? Fields() }
        set { storage = Storage(newValue) }
    }

    /// The pending layers, oldest first: each is applied over the ones before it.
    @inlinable
    var layers: [OverlayLayer<Item>] {
        get { storage?.fields.layers ?? [] }
        set { fields.layers = newValue }
    }
    /// The serial the next edit gets.
    @inlinable
    var nextSerial: UInt64 {
        get { storage?.fields.nextSerial ?? 1 }
        set { fields.nextSerial = newValue }
    }
    /// The difference of the rows shown, by the items' identity: set by the first optimistic edit.
    @inlinable
    var difference: Difference? {
        get { storage?.fields.difference }
        set { fields.difference = newValue }
    }
    /// For the publication of a confirmed insertion alone: the server's identity of the row, mapped to the
    /// temporary one it was shown with.
    @inlinable
    var renamed: [ItemIdentity: ItemIdentity] {
        get { storage?.fields.renamed ?? [:] }
        set { fields.renamed = newValue }
    }
    /// For the publication of a reverted edit alone: the failure to report.
    @inlinable
    var failure: MutationFailure<Item>? {
        get { storage?.fields.failure }
        set { fields.failure = newValue }
    }

    /// Whether the rows shown are the rows of the publication: no layer is pending, and no identity
    /// changed.
    @inlinable
    var isInert: Bool {
        guard let fields = storage?.fields else { return true }
        return fields.layers.isEmpty && fields.renamed.isEmpty
    }

    /// Whether the rows shown may differ in number from the publication's (indices do not carry over).
    @inlinable
    var changesCount: Bool {
        guard let fields = storage?.fields else { return false }
        return !fields.renamed.isEmpty || fields.layers.contains { $0.changesCount }
    }

    /// The pending edits, in the order they started.
    @usableFromInline
    var pending: [PendingEdit<Item>] { layers.map(\.edit) }

    /// Whether `other` has the same pending edits.
    @usableFromInline
    func hasSamePending(as other: OptimisticOverlay) -> Bool {
        layers.map(\.edit.serial) == other.layers.map(\.edit.serial)
    }

    /// The layer of the edit with `serial`, if it is pending.
    @usableFromInline
    func layer(_ serial: UInt64) -> OverlayLayer<Item>? {
        layers.first { $0.edit.serial == serial }
    }

    /// The rows shown over `base`: every pending layer applied over it, oldest first.
    ///
    /// It runs user code: call it with no lock held.
    @usableFromInline
    func apply(to base: PagedItems<Item>) -> PagedItems<Item> {
        layers.reduce(base) { rows, layer in layer.apply(rows) }
    }
}

extension PagedItems {
    /// These items with row `index` replaced by `item`, in its page.
    @usableFromInline
    func replacing(at index: Int, with item: Item) -> PagedItems {
        let (page, rows, start) = locate(item: index)
        var edited = rows
        edited[index - start] = item
        return replacingPage(at: page, with: edited)
    }

    /// These items without row `index`; its page stays, maybe empty.
    @usableFromInline
    func removing(at index: Int) -> PagedItems {
        let (page, rows, start) = locate(item: index)
        var edited = rows
        edited.remove(at: index - start)
        return replacingPage(at: page, with: edited)
    }

    /// These items with `item` inserted at `index` (in `0...count`), in the page that holds the index (the
    /// last page at the end); unchanged when there is no page to hold it.
    @usableFromInline
    func inserting(_ item: Item, at index: Int) -> PagedItems {
        guard pageCount > 0 else { return self }
        let holder: (page: Int, items: ContiguousArray<Item>, start: Int)
        if index < count {
            holder = locate(item: index)
        } else {
            let last = page(at: pageCount - 1)
            holder = (pageCount - 1, last.items, last.start)
        }
        var edited = holder.items
        edited.insert(item, at: index - holder.start)
        return replacingPage(at: holder.page, with: edited)
    }
}

extension ItemsChange {
    /// `difference` as the simplest change that says the same: one range of updates, insertions (appended
    /// at the end) or removals, `nil` for no change, else the difference itself.
    @usableFromInline
    init?(simplifying difference: ItemsDifference, oldCount: Int, newCount: Int) {
        let (removals, insertions, moves, updates) =
            (difference.removals, difference.insertions, difference.moves, difference.updates)
        func run(_ indices: [Int]) -> Range<Int>? {
            guard let first = indices.first, let last = indices.last, last - first + 1 == indices.count else {
                return nil
            }
            return first..<last + 1
        }
        switch (removals.isEmpty, insertions.isEmpty, moves.isEmpty, updates.isEmpty) {
        case (true, true, true, true):
            return nil
        case (true, true, true, false):
            guard let range = run(updates) else { self = .difference(difference); return }
            self = .updated(range)
        case (true, false, true, true):
            guard let range = run(insertions) else { self = .difference(difference); return }
            self = range.upperBound == newCount && range.lowerBound == oldCount ? .appended(range) : .inserted(range)
        case (false, true, true, true):
            guard let range = run(removals) else { self = .difference(difference); return }
            self = .removed(range)
        default:
            self = .difference(difference)
        }
    }
}
