import TestSupport
import Testing

@testable import Stapler

@Suite("Keyed difference")
struct KeyedDifferenceTests {
    /// An item with an identity and a version.
    struct Versioned: Equatable, Sendable {
        let id: Int
        let version: Int
    }

    func difference(_ old: [Versioned], _ new: [Versioned]) -> ItemsDifference {
        ItemsDifference(from: PagedItems(old), to: PagedItems(new), by: { AnyHashable($0.id) })
    }

    @Test("P28: repeated identities never trap, and the change turns the old list into the new")
    func P28_duplicates() {
        let old = [Versioned(id: 1, version: 0), Versioned(id: 2, version: 0)]
        let new = [Versioned(id: 1, version: 0), Versioned(id: 1, version: 0), Versioned(id: 2, version: 0)]
        let change = ItemsChange.difference(difference(old, new))
        #expect(Mirror<Versioned>.apply(change, to: old, giving: new) == new)
    }

    @Test("P28: 10,000 random pairs with repeats, shuffles and edits: the change applies, and is no longer than both")
    func P28_randomPairs() {
        var random = SplitMix(seed: 28)
        for pair in 0..<10_000 {
            let old = (0..<Int(random.next() % 12)).map { _ in
                Versioned(id: Int(random.next() % 20), version: Int(random.next() % 2))
            }
            var new = old.shuffled(using: &random).filter { _ in random.next() % 4 != 0 }
            for _ in 0..<Int(random.next() % 4) {
                new.insert(
                    Versioned(id: Int(random.next() % 20), version: Int(random.next() % 2)),
                    at: Int(random.next() % UInt64(new.count + 1)))
            }
            let computed = difference(old, new)
            let applied = Mirror<Versioned>.apply(.difference(computed), to: old, giving: new)
            #expect(applied == new, "pair \(pair): \(old) -> \(new) by \(computed)")
            #expect(computed.operationCount <= old.count + new.count, "pair \(pair)")
            if applied != new { break }
        }
    }

    @Test("P28: reversing 10,000 items moves all but one and keeps the work linear in comparisons")
    func P28_reversal() {
        let old = (0..<10_000).map { Versioned(id: $0, version: 0) }
        let computed = difference(old, old.reversed())
        #expect(computed.moves.count == 9_999 && computed.removals.isEmpty && computed.insertions.isEmpty)
        #expect(Mirror<Versioned>.apply(.difference(computed), to: old, giving: old.reversed()) == old.reversed())
    }
}
