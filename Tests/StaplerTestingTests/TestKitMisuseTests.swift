import Reactive
import Stapler
import StaplerTesting
import Testing

@Suite("Test kit: misuse")
struct TestKitMisuseTests {
    @Test("P68: a page size of 0 for a conformance check traps, naming pageSize")
    func zeroPageSizeTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let source = PageSource<Int, Int, Void, Void, Never>(firstKey: 0) { _ in .empty }
            _ = PageSourceUnderTest(source: source, pageSize: 0)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("pageSize"))
    }

    @Test("P68: opening a conformance check at a position of a cursor source traps, naming openingAtPositions")
    func positionOfACursorSourceTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let server = TestPageSource(Array(0..<10))
            _ = PageSourceUnderTest(source: server.cursor(), openingAtPositions: [5], pageSize: 10)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("openingAtPositions"))
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

    @Test("P69: scrolling to a negative row traps, naming target")
    func negativeScrollTargetTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let server = TestPageSource(Array(0..<10), delivery: .synchronous)
            let paginator = Paginator(source: server.offset(), pageSize: 5, query: ())
            _ = try? await paginator.settledRows { try await $0.scroll(to: -1) }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("target"))
    }

    @Test("P70: retrying a negative number of times traps, naming retry(max:)")
    func negativeRetriesTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let server = TestPageSource(Array(0..<10), delivery: .synchronous)
            let paginator = Paginator(source: server.offset(), pageSize: 5, query: ())
            _ = try? await paginator.settledRows(onError: .retry(max: -1))
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("retry(max:)"))
    }
}
