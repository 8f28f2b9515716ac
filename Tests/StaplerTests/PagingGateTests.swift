import Testing

@testable import Stapler

@Suite("Paging gate")
struct PagingGateTests {
    /// Every state an edge can be in: a load can start (`nil`), or the reason it cannot.
    static let edgeStates: [IgnoredReason?] = [nil] + IgnoredReason.allCases.map { $0 }

    @Test("every reason has its own code, and each fits the three bits of an edge")
    func everyReasonHasItsOwnCode() {
        let codes = Self.edgeStates.map(PagingGate.code)
        #expect(Set(codes).count == Self.edgeStates.count, "two reasons share a code: \(codes)")
        #expect(codes.allSatisfy { (0..<8).contains($0) }, "a code spills out of its 3 bits: \(codes)")
        #expect(PagingGate.code(nil) == 0, "0 means a load can start")
    }

    @Test("each edge's reason reads back for every pair of edge states, with the retry flag and counts intact")
    func everyCodeReadsBackAtEachEdge() {
        let gate = PagingGate()
        for append in Self.edgeStates {
            for prepend in Self.edgeStates {
                for canRetryNext in [false, true] {
                    gate.update(
                        append: append, prepend: prepend, canRetryNext: canRetryNext, itemCount: 300,
                        leadingCount: 100)
                    let pair = "append \(String(describing: append)), prepend \(String(describing: prepend))"
                    #expect(gate.reason(.append) == append, "\(pair)")
                    #expect(gate.reason(.prepend) == prepend, "\(pair)")
                    #expect(gate.allowsLoadNext == (append == nil), "\(pair)")
                    #expect(gate.allowsLoadPrevious == (prepend == nil), "\(pair)")
                    #expect(gate.allowsLoadNextOrRetry == (append == nil || canRetryNext), "\(pair)")
                    // 300 items, 200 of them from the list's first page: the last row is 299.
                    #expect(gate.allowsPreload(index: 299, distance: 0) == (append == nil), "\(pair)")
                    #expect(gate.allowsPreload(index: 0, distance: 0) == (prepend == nil), "\(pair)")
                    #expect(!gate.allowsPreload(index: 300, distance: 0), "\(pair): past the list")
                }
            }
        }
    }

    @Test("a count past the word's limit is saturated and lets every preload through, never a wrong code")
    func countsSaturate() {
        let gate = PagingGate()
        gate.update(append: nil, prepend: .endReached, canRetryNext: false, itemCount: .max, leadingCount: 0)
        #expect(gate.reason(.append) == nil)
        #expect(gate.reason(.prepend) == .endReached)
        #expect(gate.allowsPreload(index: PagingGate.countLimit + 10, distance: 0))
        gate.update(
            append: .alreadyLoading, prepend: nil, canRetryNext: true, itemCount: PagingGate.countLimit + 5,
            leadingCount: 3)
        #expect(gate.reason(.append) == .alreadyLoading)
        #expect(gate.reason(.prepend) == nil)
        #expect(gate.allowsLoadNextOrRetry)
    }
}
