// A libFuzzer target for the page storage (`Sources/Stapler/Storage`): the input bytes are read as a
// sequence of operations (append, prepend, drop at either end, replace a page, keep a snapshot, go back
// to a kept snapshot and build on it: snapshots share their pages, so building on an older one must not
// disturb a newer one), each applied to a `PagedItems` and to a plain array of pages; after every step
// the two must hold the same items, and every snapshot kept along the way must still hold what it held. Built with the storage's
// sources and the internal invariant checks by `scripts/fuzz.sh`.

/// Reads bytes one at a time; 0 once they run out.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    mutating func next() -> Int {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return Int(bytes[position])
    }

    var isAtEnd: Bool { position >= bytes.count }
}

/// Traps with `message` when `condition` is false: libFuzzer records the input as a crash.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("page storage fuzz: \(message())") }
}

/// The fuzz entry point: runs the operations `start` encodes and traps on the first disagreement.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPageStorage(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    var reader = ByteReader(bytes: UnsafeRawBufferPointer(start: start, count: count))
    var items = PagedItems<Int>()
    var pages: [[Int]] = []
    var kept: [(PagedItems<Int>, [[Int]])] = []
    var next = 0
    func page(_ reader: inout ByteReader) -> [Int] {
        (0..<reader.next() % 6).map { _ in
            defer { next += 1 }
            return next
        }
    }
    while !reader.isAtEnd {
        switch reader.next() % 8 {
        case 0:
            let added = page(&reader)
            items = items.appending(ContiguousArray(added))
            pages.append(added)
        case 1:
            let added = page(&reader)
            items = items.prepending(ContiguousArray(added))
            pages.insert(added, at: 0)
        case 2 where !pages.isEmpty:
            items = items.droppingFirstPage()
            pages.removeFirst()
        case 3 where !pages.isEmpty:
            items = items.droppingLastPage()
            pages.removeLast()
        case 4 where !pages.isEmpty:
            let index = reader.next() % pages.count
            let replacement = page(&reader)
            items = items.replacingPage(at: index, with: ContiguousArray(replacement))
            pages[index] = replacement
        case 5:
            kept.append((items, pages))
        case 6:
            items = items.movingChainsIntoTree()
        case 7 where !kept.isEmpty:
            (items, pages) = kept[reader.next() % kept.count]
        default:
            break
        }
        items.checkInvariants()
        let flat = pages.flatMap { $0 }
        require(items.count == flat.count && items.pageCount == pages.count, "counts \(items.count)/\(flat.count)")
        require(Array(items) == flat, "items \(Array(items)) against \(flat)")
        if !flat.isEmpty {
            let index = reader.next() % flat.count
            require(items[index] == flat[index], "item \(index)")
            let located = items.locate(item: index)
            require(located.items[index - located.start] == flat[index], "locate \(index)")
        }
    }
    for (snapshot, expected) in kept {
        require(Array(snapshot) == expected.flatMap { $0 }, "a kept snapshot changed")
    }
    return 0
}
