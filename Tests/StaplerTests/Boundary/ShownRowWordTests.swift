import Testing

@testable import Stapler

/// The word the paging gate keeps the row last shown in: a row count and a list serial, packed.
@Suite("The row last shown, packed")
struct ShownRowWordTests {
    @Test("a count and a list serial round-trip through the word, at their extremes, and 0 is none")
    func roundTrip() {
        let counts = [0, 1, -1, 17, -4_000, Int(Int32.max), Int(Int32.min)]
        let serials: [UInt64] = [0, 1, 2, PagingGate.serialMask - 1, PagingGate.serialMask, .max]
        for count in counts {
            for serial in serials {
                let word = PagingGate.place(leadingCount: count, listSerial: serial)
                #expect(word > 0, "never 0 (none), never negative")
                let unpacked = PagingGate.unpack(word)
                #expect(unpacked?.count == count)
                #expect(unpacked?.serialBits == serial & PagingGate.serialMask)
            }
        }
        #expect(PagingGate.unpack(0) == nil)
        #expect(PagingGate.unpack(PagingGate.place(leadingCount: .max, listSerial: 3))?.count == Int(Int32.max))
    }

    @Test("a row recorded for one list is not the row last shown of another")
    func otherList() {
        let gate = PagingGate()
        #expect(gate.lastShown(inList: 1) == nil)
        gate.recordDelivered(leadingCount: 10, listSerial: 1, serial: 1)
        gate.recordShown(14)
        #expect(gate.lastShown(inList: 1) == 4, "counted from the list's first page")
        #expect(gate.lastShown(inList: 2) == nil)
        gate.recordShown(3, seen: (leadingCount: 0, listSerial: 2))
        #expect(gate.lastShown(inList: 2) == 3)
    }
}
