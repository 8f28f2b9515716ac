/// What a list over a store publishes with each page: the data version its rows were read at.
public struct StoreListMetadata: Hashable, Sendable {
    /// The data version of the read that produced the latest applied page (or the latest window
    /// reload): every row the list shows belongs to one version no older than this one's predecessor
    /// commits that touched the collection.
    public let version: UInt64

    /// Metadata of a read at `version`.
    public init(version: UInt64) {
        self.version = version
    }
}

/// One page of a list over a store, as the engine takes it: the rows, the keys either side, the count.
typealias StoreListPage<Row: StoreRow> = Page<Row, StorePosition, StoreListMetadata>

/// The reads a list over a store makes: a page by keyset, and the shown window, each in one read
/// transaction of the store.
///
/// After each read the store looks for other connections' commits (``LocalStore/noticeExternalCommits()``),
/// so one that landed after the read reaches the list before the rows read are offered to it, and the
/// version check discards them.
struct StoreListReads<Row: StoreRow>: Sendable {
    let store: any LocalStore<Row>
    let collection: StoreCollection<Row>
    let localizedOrder: StoreLocalizedOrder
    let pageSize: Int
    /// Whether the server may have more beyond an edge (a list with a mediator): then an edge where the
    /// store's rows end keeps its key, and asking beyond it asks the mediator.
    var opensEdge: (@Sendable (StoreEdge) -> Bool)? = nil

    /// Whether the edge stays open where the store's rows end.
    func opens(_ edge: StoreEdge) -> Bool { opensEdge?(edge) ?? false }

    /// The page at `position`: up to a page of rows from there, with keys that are the sort tuples of
    /// its first and last rows, and no key on a side where the collection ended.
    ///
    /// One more row than the page is read on the side it grows to, so an end is known at once.
    func page(at position: StorePosition) throws -> StoreListPage<Row> {
        let name = collection.name
        let limit = pageSize
        defer { store.noticeExternalCommits() }
        return try store.read { reader in
            let read = try reader.page(of: name, position, limit: limit + 1)
            let count = try reader.count(of: name)
            var entries = read.entries
            let more = entries.count > limit
            let growsUp: Bool
            switch position {
            case .first, .after: growsUp = false
            case .last, .before: growsUp = true
            }
            if more {
                if growsUp { entries.removeFirst() } else { entries.removeLast() }
            }
            var page = StoreListPage<Row>(
                items: entries.map(\.row),
                previousKey: entries.first.flatMap { first in
                    (position == .first || (growsUp && !more)) && !opens(.before) ? nil : .before(first.cursor)
                },
                nextKey: entries.last.flatMap { last in
                    (position == .last || (!growsUp && !more)) && !opens(.after) ? nil : .after(last.cursor)
                },
                total: count, metadata: StoreListMetadata(version: read.version))
            if position == .first { page.itemsBefore = 0 }
            if position == .last { page.itemsBefore = count - entries.count }
            return page
        }
    }

    /// The rows of the window the list shows, read at one version, cut into pages.
    ///
    /// - Parameters:
    ///   - top: The sort tuple of the first row shown, or `nil` when the window starts at the collection's
    ///     start (then rows inserted above show).
    ///   - bottom: The sort tuple of the last row shown, or `nil` when it ends at the collection's end.
    ///   - extendingUp: Rows to read above `top` too (the extent of a top page being loaded).
    ///   - extendingDown: Rows to read below `bottom` too.
    /// - Returns: The pages, in order, each with the key it is loaded with, and the version.
    ///   A window whose rows all left the collection opens again at the collection's start.
    /// - Throws: What the store's read throws.
    func window(
        top: StoreCursor?, bottom: StoreCursor?, extendingUp: Int, extendingDown: Int
    ) throws -> (pages: [(key: StorePosition, page: StoreListPage<Row>)], version: UInt64) {
        let name = collection.name
        let chunk = max(pageSize, 64)
        defer { store.noticeExternalCommits() }
        return try store.read { reader in
            let version = try reader.version()
            let count = try reader.count(of: name)
            // Where the window starts: after the row before it (or at the start).
            var start = StorePosition.first
            var topEnded = top == nil
            if let top {
                let above = try reader.page(of: name, .before(top), limit: extendingUp + 1).entries
                if above.count > extendingUp {
                    start = .after(above[0].cursor)
                } else if extendingUp > 0 {
                    topEnded = true
                }
            }
            var rows: [StoreEntry<Row>] = []
            var beyond = 0
            var bottomEnded = false
            var position = start
            reading: while true {
                let entries = try reader.page(of: name, position, limit: chunk).entries
                for entry in entries {
                    if let bottom, compare(entry.cursor, bottom) > 0 {
                        guard beyond < extendingDown else { break reading }
                        beyond += 1
                    }
                    rows.append(entry)
                }
                guard let last = entries.last, entries.count == chunk else {
                    bottomEnded = bottom == nil || extendingDown > 0
                    break
                }
                position = .after(last.cursor)
            }
            if rows.isEmpty, !(topEnded && bottomEnded), count > 0 {
                // Every row shown left: the list opens again at the start.
                let first = try reader.page(of: name, .first, limit: pageSize + 1).entries
                rows = Array(first.prefix(pageSize))
                topEnded = true
                bottomEnded = first.count <= pageSize
                start = .first
            }
            return (
                pages(
                    of: rows, start: start, topEnded: topEnded, bottomEnded: bottomEnded, count: count,
                    version: version), version
            )
        }
    }

    /// `rows` cut into pages of the page size (one empty page when there is none).
    private func pages(
        of rows: [StoreEntry<Row>], start: StorePosition, topEnded: Bool, bottomEnded: Bool, count: Int,
        version: UInt64
    ) -> [(key: StorePosition, page: StoreListPage<Row>)] {
        let metadata = StoreListMetadata(version: version)
        guard !rows.isEmpty else {
            return [(start, StoreListPage(items: [], nextKey: nil, total: count, metadata: metadata))]
        }
        var pages: [(key: StorePosition, page: StoreListPage<Row>)] = []
        var key = topEnded ? StorePosition.first : start
        var index = 0
        while index < rows.count {
            let slice = rows[index..<min(index + pageSize, rows.count)]
            let isFirst = index == 0
            let isLast = slice.endIndex == rows.count
            var page = StoreListPage<Row>(
                items: slice.map(\.row),
                previousKey: isFirst && topEnded && !opens(.before) ? nil : .before(slice.first!.cursor),
                nextKey: isLast && bottomEnded && !opens(.after) ? nil : .after(slice.last!.cursor), total: count,
                metadata: metadata)
            if topEnded { page.itemsBefore = index }
            pages.append((key, page))
            key = .after(slice.last!.cursor)
            index = slice.endIndex
        }
        return pages
    }

    /// -1, 0 or 1 as `left` sorts before, with or after `right` in the collection.
    func compare(_ left: StoreCursor, _ right: StoreCursor) -> Int {
        collection.compare(left.bytes, right.bytes, localized: localizedOrder)
    }

    /// The sort tuple of a row shown, as the collection places it (`nil` if it no longer matches: then
    /// its position is unknown, which only a row edited locally can be).
    func cursor(of row: Row) -> StoreCursor? {
        collection.placement(of: row)
    }
}
