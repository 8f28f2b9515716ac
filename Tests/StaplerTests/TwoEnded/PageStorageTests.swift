import TestSupport
import Testing

@testable import Stapler

@Suite("Structure-sharing page storage")
struct PageStorageTests {
    /// One random operation on the storage, mirrored on arrays of pages.
    enum Operation: CaseIterable {
        case append, prepend, dropFirst, dropLast, replace, keepSnapshot
    }

    @Test("random appends, prepends, drops and page edits match an array of pages, and kept snapshots never change")
    func randomOperations() {
        var random = SplitMix(seed: 7)
        for round in 0..<200 {
            var items = PagedItems<Int>()
            var pages: [[Int]] = []
            var kept: [(PagedItems<Int>, [Int])] = []
            var next = 0
            for _ in 0..<Int(random.next() % 120) {
                let page = (0..<Int(random.next() % 5)).map { _ in
                    defer { next += 1 }
                    return next
                }
                switch Operation.allCases.randomElement(using: &random)! {
                case .append:
                    items = items.appending(ContiguousArray(page))
                    pages.append(page)
                case .prepend:
                    items = items.prepending(ContiguousArray(page))
                    pages.insert(page, at: 0)
                case .dropFirst where !pages.isEmpty:
                    items = items.droppingFirstPage()
                    pages.removeFirst()
                case .dropLast where !pages.isEmpty:
                    items = items.droppingLastPage()
                    pages.removeLast()
                case .replace where !pages.isEmpty:
                    let index = Int(random.next() % UInt64(pages.count))
                    items = items.replacingPage(at: index, with: ContiguousArray(page))
                    pages[index] = page
                case .keepSnapshot:
                    kept.append((items, pages.flatMap { $0 }))
                default:
                    break
                }
                items.checkInvariants()
                let flat = pages.flatMap { $0 }
                #expect(Array(items) == flat, "round \(round)")
                #expect(items.pageCount == pages.count && items.count == flat.count)
                if let index = flat.indices.randomElement(using: &random) {
                    #expect(items[index] == flat[index], "round \(round): index \(index)")
                }
            }
            for (snapshot, expected) in kept {
                #expect(Array(snapshot) == expected, "round \(round): a kept snapshot changed")
            }
        }
    }

    @Test("an edit of one page of a long list copies one path of the tree, not the pages")
    func editSharesPages() {
        var items = PagedItems<Int>()
        for page in 0..<1_000 { items = items.appending(ContiguousArray(page * 10..<page * 10 + 10)) }
        let edited = items.replacingPage(at: 500, with: [-1])
        func address(_ items: PagedItems<Int>, _ page: Int) -> UnsafeRawPointer? {
            items.items(ofPage: page).withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        let flattened = items.movingChainsIntoTree()
        for page in [0, 499, 501, 999] { #expect(address(edited, page) == address(flattened, page)) }
        #expect(edited[5_000] == -1 && edited.count == 9_991 && items.count == 10_000)
        #expect(flattened.body!.height <= 3, "1,000 pages of a 16-way tree are 3 levels deep")
    }
}
