import TestSupport

/// How a randomized store-backed session is set up: the store, a memory bound, and where the list opens.
struct StoreListConfiguration: Equatable, CustomStringConvertible {
    /// The store under the list.
    var kind: StoreKind
    /// `maxPages: 3`: pages go at the far end and scrolling back reads them again.
    var bounded: Bool
    /// The list opens at the collection's last rows (`openingAt: .last`) and pages up as well as down.
    var opensAtEnd: Bool

    /// The configuration of a seed: its three low bits choose, so every run covers all eight evenly.
    init(seed: UInt64) {
        kind = seed & 1 == 0 ? .memory : .sqliteWAL
        bounded = seed & 2 != 0
        opensAtEnd = seed & 4 != 0
    }

    var description: String {
        "\(kind)" + (bounded ? ", maxPages 3" : "") + (opensAtEnd ? ", opened at the end" : "")
    }
}

/// One write of a transaction of a randomized session.
enum StoreListWrite: Equatable, CustomStringConvertible {
    /// Writes post `id` (inserting it, or moving it when `createdAt` changed) with a fresh title.
    case upsert(id: Int, createdAt: Int?)
    /// Gives post `id` a fresh title, if it exists: an update in place.
    case rename(id: Int)
    /// Deletes post `id`.
    case delete(id: Int)

    var description: String {
        switch self {
        case .upsert(let id, let createdAt): "upsert(\(id), \(createdAt.map(String.init) ?? "nil"))"
        case .rename(let id): "rename(\(id))"
        case .delete(let id): "delete(\(id))"
        }
    }

    static func random(using generator: inout SplitMix) -> StoreListWrite {
        let id = Int.random(in: 1...StoreListSession.idRange, using: &generator)
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<5:
            // Ties and NULLs included: the order's tie-breaker and NULL rule are part of the check.
            let createdAt =
                Int.random(in: 0..<12, using: &generator) == 0 ? nil : Int.random(in: 0...400, using: &generator)
            return .upsert(id: id, createdAt: createdAt)
        case 5..<7: return .rename(id: id)
        default: return .delete(id: id)
        }
    }
}

/// One step of a randomized session over a store: writes interleaved with scrolling, local edits and
/// the passing of time.
enum StoreListOperation: Equatable, CustomStringConvertible {
    /// One transaction of writes.
    case write([StoreListWrite])
    case loadNextPage
    case loadPreviousPage
    /// `preload(index:)` at `percent` of the rows shown.
    case preload(percent: Int)
    /// A local edit of the row at `percent` of the rows shown: a new title, shown until the store's next
    /// change of the collection replaces it.
    case editLocally(percent: Int)
    /// Moves the list's scheduler on (coalesced reloads run).
    case advance(milliseconds: Int)

    var description: String {
        switch self {
        case .write(let writes): "write(\(writes))"
        case .loadNextPage: "loadNextPage"
        case .loadPreviousPage: "loadPreviousPage"
        case .preload(let percent): "preload(\(percent)%)"
        case .editLocally(let percent): "editLocally(\(percent)%)"
        case .advance(let milliseconds): "advance(\(milliseconds) ms)"
        }
    }

    static func random(using generator: inout SplitMix) -> StoreListOperation {
        switch Int.random(in: 0..<20, using: &generator) {
        case 0..<6:
            let count = Int.random(in: 1...4, using: &generator)
            return .write((0..<count).map { _ in StoreListWrite.random(using: &generator) })
        case 6..<9: return .loadNextPage
        case 9..<11: return .loadPreviousPage
        case 11..<14: return .preload(percent: Int.random(in: 0...100, using: &generator))
        case 14..<16: return .editLocally(percent: Int.random(in: 0...100, using: &generator))
        default: return .advance(milliseconds: [4, 16, 40].randomElement(using: &generator)!)
        }
    }
}
