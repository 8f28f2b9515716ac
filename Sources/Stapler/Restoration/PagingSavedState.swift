/// The loaded list of a paginator, to keep (on disk, in a cache) and show again with no request.
///
/// It holds what the list needs to go on paging where it stood: each page's items and keys, the key
/// each edge asks for next (or that the edge was reached), the keys of pages a memory bound dropped,
/// the query, the total and the latest metadata, and the row last shown. Loads in flight and errors
/// are not part of it: a direction that was loading or had failed is saved idle, with the key it asks
/// for. Deduplication identities are rebuilt from the saved items when the list is restored.
///
/// Take it from ``Paginator/savedState``; encode it with any `Encoder` (it is `Codable` when `Item`
/// and `Key` are, and `Query` and `Metadata` are `Codable` or `Void`); decode it through
/// ``decode(_:)``, so that any bytes give a saved list or a ``RestoreError``; give it back to
/// ``Paginator/init(restoring:source:options:revalidate:)``.
///
/// ```swift
/// typealias SavedRows = PagingSavedState<Row, Int, Void, Response>
/// let data = try JSONEncoder().encode(paginator.savedState)
/// let saved = try SavedRows.decode { try JSONDecoder().decode(SavedRows.self, from: data) }
/// let restored = try Paginator(restoring: saved, source: .offset(load: api.rows), pageSize: 20)
/// ```
public struct PagingSavedState<Item: Sendable, Key: Hashable & Sendable, Query: Sendable, Metadata: Sendable>:
    Sendable
{
    /// The version of the encoded form this library writes; it reads this version only.
    public static var formatVersion: Int { 1 }

    /// The page model of the source the list was loaded from (a list restores onto the same model).
    @usableFromInline let model: PageModelKind
    /// The query of the list.
    public let query: Query
    /// The key a restart of the list loads.
    @usableFromInline let openingKey: Key
    /// The pages, in list order (at least one).
    @usableFromInline let pages: [SavedPage<Item, Key>]
    /// What the top and the bottom ask for next.
    @usableFromInline let topEdge: SavedEdge<Key>
    @usableFromInline let bottomEdge: SavedEdge<Key>
    /// The keys of the pages a memory bound dropped above and below, nearest last, and what each edge
    /// asked for before its first drop.
    @usableFromInline let droppedAbove: [SavedPageKeys<Key>]
    @usableFromInline let droppedAboveEdge: SavedEdge<Key>
    @usableFromInline let droppedBelow: [SavedPageKeys<Key>]
    @usableFromInline let droppedBelowEdge: SavedEdge<Key>
    /// The total the latest page reported, if any.
    public let total: Int?
    /// The metadata of the latest applied page.
    public let metadata: Metadata?
    /// Whether the list's first page was empty.
    @usableFromInline let listWasEmpty: Bool
    /// Set when the bottom ended because this many pages in a row added nothing.
    @usableFromInline let stoppedWithoutProgress: Int?
    /// The row last passed to ``Paginator/preload(index:)``, as an index of the saved list, if any:
    /// a revalidation around it (``RefreshMode/around(index:minimumCount:)``) keeps the user's place.
    public let lastShownRow: Int?
    /// The position of the top page from the list's first page.
    @usableFromInline let firstPageIndex: Int
    /// The rows edits removed from the list, when deduplicating: their identities stay loaded, so a
    /// server copy of one never comes back.
    @usableFromInline let removedByEdits: [Item]

    @inlinable
    init(
        model: PageModelKind, query: Query, openingKey: Key, pages: [SavedPage<Item, Key>], topEdge: SavedEdge<Key>,
        bottomEdge: SavedEdge<Key>, droppedAbove: [SavedPageKeys<Key>], droppedAboveEdge: SavedEdge<Key>,
        droppedBelow: [SavedPageKeys<Key>], droppedBelowEdge: SavedEdge<Key>, total: Int?, metadata: Metadata?,
        listWasEmpty: Bool, stoppedWithoutProgress: Int?, accessedRow: Int?, firstPageIndex: Int,
        removedByEdits: [Item]
    ) {
        self.removedByEdits = removedByEdits
        self.model = model
        self.query = query
        self.openingKey = openingKey
        self.pages = pages
        self.topEdge = topEdge
        self.bottomEdge = bottomEdge
        self.droppedAbove = droppedAbove
        self.droppedAboveEdge = droppedAboveEdge
        self.droppedBelow = droppedBelow
        self.droppedBelowEdge = droppedBelowEdge
        self.total = total
        self.metadata = metadata
        self.listWasEmpty = listWasEmpty
        self.stoppedWithoutProgress = stoppedWithoutProgress
        lastShownRow = accessedRow
        self.firstPageIndex = firstPageIndex
    }

    /// The saved items, in list order.
    public var items: [Item] { pages.flatMap(\.items) }

    /// How many pages the saved list holds.
    public var pageCount: Int { pages.count }

    /// Runs `decode`, which reads a saved list with the app's decoder, and makes every way it can fail a
    /// ``RestoreError``.
    ///
    /// Reading a saved list starts in the app's decoder, before any code of this library runs: bytes
    /// that are not JSON at all fail there, with the decoder's own error. Run the decoder in `decode`
    /// and any bytes either decode to a saved list or throw a `RestoreError`: the one the saved list's
    /// own decoding threw, or ``RestoreError/corrupt(_:)`` with the description of any other error (the
    /// decoder's, an item's or a key's).
    ///
    /// ```swift
    /// typealias SavedRows = PagingSavedState<Row, Int, Void, Response>
    /// let saved = try SavedRows.decode { try JSONDecoder().decode(SavedRows.self, from: data) }
    /// let paginator = try Paginator(restoring: saved, source: .offset(load: api.rows), pageSize: 20)
    /// ```
    ///
    /// - Parameter decode: Decodes a saved list, for example with `JSONDecoder`; it runs once, at once.
    /// - Returns: The saved list `decode` returned.
    /// - Throws: A ``RestoreError``, never anything else.
    @inlinable
    public static func decode(_ decode: () throws -> Self) throws(RestoreError) -> Self {
        do {
            return try decode()
        } catch let error as RestoreError {
            throw error
        } catch {
            throw .corrupt(String(describing: error))
        }
    }
}

extension PagingSavedState: Equatable where Item: Equatable, Query: Equatable, Metadata: Equatable {}

/// What an edge of a saved list asks for next: a key, or nothing because that end was reached.
///
/// A key that is itself `nil` (a `Key` of `String?`) stays a key: it is not the end.
@usableFromInline
enum SavedEdge<Key: Hashable & Sendable>: Sendable, Hashable {
    case end
    case key(Key)

    @inlinable
    init(_ key: Key?) {
        self = key.map(SavedEdge.key) ?? .end
    }

    @inlinable
    var key: Key? {
        if case .key(let key) = self { return key }
        return nil
    }
}

/// The keys of one saved page, as the server sent them.
@usableFromInline
struct SavedPageKeys<Key: Hashable & Sendable>: Sendable, Hashable {
    @usableFromInline let key: Key
    @usableFromInline let previousKey: SavedEdge<Key>
    @usableFromInline let nextKey: SavedEdge<Key>
    @usableFromInline let itemsBefore: Int?

    @inlinable
    init(_ keys: PageKeys<Key>) {
        key = keys.key
        previousKey = SavedEdge(keys.previousKey)
        nextKey = SavedEdge(keys.nextKey)
        itemsBefore = keys.itemsBefore
    }

    @inlinable
    init(key: Key, previousKey: SavedEdge<Key>, nextKey: SavedEdge<Key>, itemsBefore: Int?) {
        self.key = key
        self.previousKey = previousKey
        self.nextKey = nextKey
        self.itemsBefore = itemsBefore
    }

    @inlinable
    var pageKeys: PageKeys<Key> {
        PageKeys(key: key, previousKey: previousKey.key, nextKey: nextKey.key, itemsBefore: itemsBefore)
    }
}

/// One saved page: its keys and its items.
@usableFromInline
struct SavedPage<Item: Sendable, Key: Hashable & Sendable>: Sendable {
    @usableFromInline let keys: SavedPageKeys<Key>
    @usableFromInline let items: [Item]

    @inlinable
    init(keys: SavedPageKeys<Key>, items: [Item]) {
        self.keys = keys
        self.items = items
    }
}

extension SavedPage: Equatable where Item: Equatable {}

/// Why a saved list could not be restored.
///
/// Nothing is shown and nothing is requested when it is thrown.
public enum RestoreError: Error, Sendable, Equatable {
    /// The saved form has a version this library does not read.
    case unsupportedVersion(Int)
    /// The saved form is not a saved list of these types, or not readable at all (bytes that are not
    /// JSON, read through ``PagingSavedState/decode(_:)``); the description says what did not decode,
    /// in the decoding error's own words when a decoder failed.
    case corrupt(String)
    /// The saved list holds no page.
    case noPages
    /// Page `index` does not follow the page before it: neither's keys lead to the other.
    case pagesOutOfOrder(index: Int)
    /// Two saved pages, or a page and a dropped page, have the same key, or an edge with nothing dropped
    /// beyond it asks for a key the list holds.
    case repeatedKey
    /// The saved total is negative.
    case invalidTotal(Int)
    /// An edge of the saved list does not ask for the page a memory bound dropped beyond it.
    case droppedPagesDetached
    /// An edge of the saved list, with no page dropped beyond it, asks for a key that the page at that end
    /// does not lead to: loading it would leave a gap in the list.
    case edgeDetached
    /// The list was loaded from another page model than the source it is restored onto.
    case wrongPageModel(saved: String, source: String)
}
