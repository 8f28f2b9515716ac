import Reactive
import Stapler
import StaplerTesting
import Testing

@Suite("Test kit: misuse")
struct TestKitMisuseTests {
    @Test("P68: a page size of 0 for a conformance check traps, naming pageSize")
    func zeroPageSizeTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PageSourceUnderTest<Int, Int, Void, Void, Never, Int>(firstKey: 0, pageSize: 0) { _ in .empty }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("pageSize"))
    }

    @Test("P68: a fake opened past the end of its list traps, naming openAt")
    func openAtPastTheEndTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TestPageSource(Array(0..<10), openAt: 10)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("openAt"))
    }

    @Test("P68: an injected failure that fails 0 times traps, naming times")
    func zeroTimesTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TestFailure.atRequest(1, times: 0)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("times"))
    }
}
