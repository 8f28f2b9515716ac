import Reactive
import Stapler
import StaplerTesting
import TestSupport
import Testing

@Suite("Test kit: scrolling and snapshots")
struct ScrollDriverTests {
    @Test("P69: scroll(to: 300) over placeholders asks for every page on the way, in order, each awaited")
    func P69_scrollRequestsEveryPage() async throws {
        let server = RowsServer(rows: 1_000)
        let paginator = server.paginator(placeholders: .jumping(threshold: 100))
        let shown = try await paginator.settledRows(advancing: server.scheduler) { try await $0.scroll(to: 300) }
        #expect(server.requested.value == Array(stride(from: 0, through: 300, by: 20)))
        #expect(shown.items == Array(0..<320))
    }

    @Test("P69: fling(to: 900) from 300 jumps there once, asking for no page between")
    func P69_flingJumps() async throws {
        let server = RowsServer(rows: 1_000)
        let paginator = server.paginator(placeholders: .jumping(threshold: 100))
        var before = 0
        let shown = try await paginator.settledRows(advancing: server.scheduler) { driver in
            try await driver.scroll(to: 300)
            before = server.requested.value.count
            try await driver.fling(to: 900)
        }
        let after = Array(server.requested.value.dropFirst(before))
        #expect(after.allSatisfy { !(340...860).contains($0) }, "\(after)")
        #expect(after.first == 900)
        #expect(shown.items.contains(900))
    }

    @Test("P69: opened at 500 without placeholders, scroll(to: 0) prepends 25 pages and ends on item 0")
    func P69_scrollToTheTrueTop() async throws {
        let server = RowsServer(rows: 1_000)
        let paginator = server.paginator(initialKey: 500)
        var top: Int?
        let shown = try await paginator.settledRows(advancing: server.scheduler) { driver in
            try await driver.scroll(to: 0)
            top = driver.paginator.items.value[driver.row]
        }
        #expect(top == 0)
        #expect(server.requested.value.filter { $0 < 500 }.count == 25)
        #expect(shown.items.first == 0)
    }

    @Test("P69: scroll(.down, while:) stops on the first row that fails, with its page and at most one more")
    func P69_scrollWhile() async throws {
        let server = RowsServer(rows: 1_000)
        let paginator = server.paginator()
        let shown = try await paginator.settledRows(advancing: server.scheduler) {
            try await $0.scroll(.down, while: { $0 < 45 })
        }
        #expect(shown.items.contains(45))
        #expect(shown.items.count <= 80)
        let all = try await paginator.settledRows(advancing: server.scheduler) {
            try await $0.scroll(.down, while: { _ in true })
        }
        #expect(all.items == Array(0..<1_000))
    }

    @Test("P69: scroll(to: 500) in a list of 100 without placeholders loads to the end, then throws scrolledPastEnd")
    func P69_scrolledPastEnd() async throws {
        let server = RowsServer(rows: 100)
        let paginator = server.paginator()
        await #expect(throws: TestKitError.scrolledPastEnd(requested: 500, count: 100)) {
            _ = try await paginator.settledRows(advancing: server.scheduler) { try await $0.scroll(to: 500) }
        }
        #expect(paginator.items.value.count == 100)
    }

    @Test("P70: key 40 fails twice then succeeds: retry(max: 3) shows rows 0-59 after 3 requests for it")
    func P70_retryRecovers() async throws {
        let server = RowsServer(rows: 1_000)
        server.failing.value = [40: 2]
        let paginator = server.paginator()
        let shown = try await paginator.settledRows(onError: .retry(max: 3), advancing: server.scheduler) {
            try await $0.scroll(to: 45)
        }
        #expect(shown.items == Array(0..<60))
        #expect(server.requested.value.filter { $0 == 40 }.count == 3)
    }

    @Test("P70: key 40 always fails: retry(max: 3) throws retriesExhausted after exactly 4 requests")
    func P70_retriesExhausted() async throws {
        let server = RowsServer(rows: 1_000)
        server.failing.value = [40: .max]
        let paginator = server.paginator()
        await #expect(
            throws: TestKitError.retriesExhausted(
                direction: .append, key: "40", attempts: 4, lastError: String(describing: RowsError.unavailable))
        ) {
            _ = try await paginator.settledRows(onError: .retry(max: 3), advancing: server.scheduler) {
                try await $0.scroll(to: 45)
            }
        }
        #expect(server.requested.value.filter { $0 == 40 }.count == 4)
    }

    @Test("P70: returnShown gives the rows so far with the failure; throw rethrows it after one request")
    func P70_returnShownAndThrow() async throws {
        let server = RowsServer(rows: 1_000)
        server.failing.value = [40: .max]
        let paginator = server.paginator()
        let shown = try await paginator.settledRows(onError: .returnShown, advancing: server.scheduler) {
            try await $0.scroll(to: 45)
        }
        #expect(shown.items == Array(0..<40))
        #expect(shown.failures == [.append(key: 40, RowsError.unavailable)])

        let other = RowsServer(rows: 1_000)
        other.failing.value = [40: .max]
        let thrower = other.paginator()
        await #expect(
            throws: TestKitError.loadFailed(
                direction: .append, key: "40", underlying: String(describing: RowsError.unavailable))
        ) {
            _ = try await thrower.settledRows(advancing: other.scheduler) { try await $0.scroll(to: 45) }
        }
        #expect(other.requested.value.filter { $0 == 40 }.count == 1)
    }

    @Test("P71: the kit asks for what a list view would: the same requests as preloading each row by hand")
    func P71_sameRequestsAsByHand() async throws {
        let kit = RowsServer(rows: 300)
        _ = try await kit.paginator().settledRows(advancing: kit.scheduler) { try await $0.scroll(to: 150) }

        let hand = RowsServer(rows: 300)
        let paginator = hand.paginator()
        started { paginator.refresh() }
        hand.scheduler.run()
        for row in 1...150 {
            paginator.preload(index: row)
            hand.scheduler.run()
        }
        #expect(kit.requested.value == hand.requested.value)
    }

    @Test("P71: after a snapshot, releasing the paginator frees it, and its source's run has ended")
    func P71_nothingLeftBehind() async throws {
        let server = RowsServer(rows: 300)
        weak var released: RowsServer.RowsPaginator?
        do {
            let paginator = server.paginator()
            released = paginator
            _ = try await paginator.settledRows(advancing: server.scheduler) { try await $0.scroll(to: 50) }
        }
        #expect(released == nil)
        #expect(server.scheduler.pendingCount == 0)
    }

    @Test("P71: 50 testers run concurrently, each with its own scheduler, and all pass", arguments: 0..<50)
    func P71_concurrentTesters(seed: Int) async throws {
        let server = RowsServer(rows: 200 + seed)
        let shown = try await server.paginator().settledRows(advancing: server.scheduler) {
            try await $0.scroll(.down, while: { _ in true })
        }
        #expect(shown.items == Array(0..<200 + seed))
    }
}
