import Foundation
import TestSupport
import Testing

@testable import Stapler

/// What only a paginator's deliverer touches (a transformed list's transformer) is checked in debug
/// builds: a use that overlaps another is a broken rule, and traps.
@Suite("State only the deliverer uses")
struct DelivererOwnedTests {
    @Test("uses one after another, from different threads, see each other's writes")
    func usesInTurn() {
        let owned = DelivererOwned(0)
        let queues = (0..<4).map { DispatchQueue(label: "deliverer \($0)") }
        for round in 0..<100 {
            queues[round % queues.count].sync { owned.use { $0 += 1 } }
        }
        #expect(owned.use { $0 } == 100)
    }

    @Test("a use inside a use traps, naming the rule, when uses are checked")
    func nestedUseTraps() async {
        guard DelivererOwned<Int>.checksUses else { return }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let owned = DelivererOwned(0)
            owned.use { _ in owned.use { $0 += 1 } }
        }
        let standardError = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(standardError.contains("only the paginator's deliverer may use it, one delivery at a time"))
    }
}
