import Reactive
import Stapler
import TestSupport
import Testing

@Suite("Overlapping optimistic edits")
struct OverlappingEditTests {
    @Test("P58: two likes of one row; the first fails: the second is replayed on the server's value")
    func P58_firstFailsSecondConfirms() {
        let server = PostServer()
        let (paginator, mirror) = loadedPosts(10, server: server)
        let mutations = Mutations()
        let log = OutcomeLog()
        paginator.optimistic(.modify(id: 7) { $0.likes += 1 }, mutations, key: 1, log: log)
        #expect(paginator.post(7)?.likes == 11)
        paginator.optimistic(.modify(id: 7) { $0.likes += 1 }, mutations, key: 2, log: log)
        #expect(paginator.post(7)?.likes == 12)
        mutations.requests[0].fail(.unavailable)
        #expect(paginator.post(7)?.likes == 11, "E2 replayed on 10: neither 10 nor 12")
        mutations.requests[1].succeed(Post(7, likes: 11))
        #expect(paginator.post(7)?.likes == 11)
        #expect(paginator.pendingEdits.value.isEmpty)
        #expect(mirror.changes == [.updated(7..<8), .updated(7..<8), .updated(7..<8)], "the echo changes nothing")
        #expect(log.values == ["reverted unavailable", "confirmed 7"])
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P58: the second echo first: the first edit is replayed on it, then its failure leaves the echo")
    func P58_secondConfirmsFirstFails() {
        let server = PostServer()
        let (paginator, mirror) = loadedPosts(10, server: server)
        let mutations = Mutations()
        let log = OutcomeLog()
        paginator.optimistic(.modify(id: 7) { $0.likes += 1 }, mutations, key: 1, log: log)
        paginator.optimistic(.modify(id: 7) { $0.likes += 1 }, mutations, key: 2, log: log)
        mutations.requests[1].succeed(Post(7, likes: 11))
        #expect(paginator.post(7)?.likes == 12, "E1 replayed on the base 11")
        mutations.requests[0].fail(.unavailable)
        #expect(paginator.post(7)?.likes == 11)
        #expect(paginator.pendingEdits.value.isEmpty)
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P58: a toggle and its undo: a refresh after the first echo does not flash the row back")
    func P58_toggleNoFlash() {
        let server = PostServer()
        let (paginator, mirror) = loadedPosts(10, server: server)
        let mutations = Mutations()
        let log = OutcomeLog()
        paginator.optimistic(.modify(id: 7) { $0.done = true }, mutations, key: 1, log: log)
        paginator.optimistic(.modify(id: 7) { $0.done = false }, mutations, key: 2, log: log)
        #expect(paginator.post(7)?.done == false)
        mutations.requests[0].succeed(Post(7, done: true))
        #expect(paginator.post(7)?.done == false)
        let shown = paginator.items.signal.map { $0.first { $0.id == 7 }?.done }.record()
        paginator.refresh()
        serve(server.last, ids: 0..<10, changed: [7: Post(7, done: true)])
        #expect(paginator.post(7)?.done == false, "E2 stays over the refresh")
        mutations.requests[1].succeed(Post(7, done: false))
        #expect(paginator.post(7)?.done == false)
        #expect(!shown.values.contains(true), "the row never flashes back: \(shown.values)")
        #expect(paginator.pendingEdits.value.isEmpty)
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P58: once every edit has settled, the rows are the server's answers alone")
    func P58_settledRowsAreServerRows() {
        let server = PostServer()
        let (paginator, mirror) = loadedPosts(10, server: server)
        let mutations = Mutations()
        let log = OutcomeLog()
        for key in 0..<5 {
            paginator.optimistic(.modify(id: 7) { $0.likes += 1 }, mutations, key: key, log: log)
        }
        paginator.optimistic(.remove(id: 3), mutations, key: 5, log: log)
        paginator.optimistic(.insert(Post(-1), at: .index(2)), mutations, key: 6, log: log)
        #expect(paginator.post(7)?.likes == 15)
        for index in [3, 0, 6, 4, 1, 5, 2] {
            if index.isMultiple(of: 2) {
                mutations.requests[index].fail(.timeout)
            } else {
                mutations.requests[index].succeed(index == 5 ? nil : Post(7, likes: 10 + index))
            }
        }
        #expect(paginator.post(7)?.likes == 11, "the last echo applied wins (E1's, after E3's)")
        #expect(paginator.items.value.map(\.id) == Array(0..<10).filter { $0 != 3 })
        #expect(paginator.pendingEdits.value.isEmpty)
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }
}

/// A counter row whose server copies carry a version.
struct Counter: Identifiable, Versioned, Equatable, Sendable {
    let id: Int
    var likes: Int
    var version: Int
}

/// An offset response of counters.
struct CountersPage: PaginatedResponse {
    let items: [Counter]
    let total: Int
}

@Suite("Versioned optimistic edits")
struct VersionedEditTests {
    @Test("P58: an answer older than the row a refresh brought does not overwrite it")
    func P58_olderAnswerKeepsNewerRow() {
        let server = ManualServer<Int, CountersPage, ServerError>()
        let paginator = Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) },
            options: PagingOptions(pageSize: 10, deduplication: .byID))
        paginator.refresh()
        server.last?.succeed(CountersPage(items: (0..<10).map { Counter(id: $0, likes: 10, version: 2) }, total: 10))
        let mirror = Mirror(paginator)
        let mutations = ManualServer<Int, Counter?, ServerError>()
        paginator.optimistic(.modify(id: 7) { $0.likes += 1 }, mutation: mutations.producer(1))
        #expect(paginator.items.value[7] == Counter(id: 7, likes: 11, version: 2))
        paginator.refresh()
        var rows = (0..<10).map { Counter(id: $0, likes: 10, version: 2) }
        rows[7] = Counter(id: 7, likes: 12, version: 4)
        server.last?.succeed(CountersPage(items: rows, total: 10))
        #expect(paginator.items.value[7] == Counter(id: 7, likes: 13, version: 4), "the edit over version 4")
        mutations.last?.succeed(Counter(id: 7, likes: 11, version: 3))
        #expect(paginator.items.value[7] == Counter(id: 7, likes: 12, version: 4), "the row keeps version 4")
        #expect(paginator.pendingEdits.value.isEmpty)
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }
}
