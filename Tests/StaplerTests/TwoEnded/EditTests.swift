import Dispatch
import Reactive
import Stapler
import TestSupport
import Testing

/// A row with an identity and content that edits change.
struct Row: Identifiable, Equatable, Sendable {
    let id: Int
    var title: String

    init(_ id: Int, _ title: String = "") {
        self.id = id
        self.title = title
    }
}

/// An offset response of rows.
struct RowsPage: PaginatedResponse {
    let items: [Row]
    let total: Int
}

typealias RowServer = ManualServer<Int, RowsPage, ServerError>

/// A paginator of rows over an offset server.
func rowPaginator(
    _ server: RowServer, pageSize: Int = 10, deduplication: Deduplication<Row>? = nil
) -> Paginator<Row, Int, Void, RowsPage, ServerError> {
    Paginator(
        source: .offset { offset, size, _ in server.producer(offset, size: size) },
        options: PagingOptions(pageSize: pageSize, deduplication: deduplication))
}

/// Answers `request` with rows `ids`, of a list of `total`.
func answer(_ request: RowServer.Request?, ids: some Sequence<Int>, total: Int = 1_000, title: String = "") {
    request?.succeed(RowsPage(items: ids.map { Row($0, title) }, total: total))
}

@Suite("Local edits")
struct EditTests {
    @Test("P24: edits apply at once while a page is in flight, and the page lands on the edited list")
    func P24_editsWhileLoading() {
        let server = RowServer()
        let paginator = rowPaginator(server)
        let mirror = Mirror(paginator)
        paginator.refresh()
        answer(server.last, ids: 0..<10)
        paginator.loadNextPage()
        answer(server.last, ids: 10..<20)
        paginator.loadNextPage()
        let append = server.last
        #expect(paginator.modify(id: 3) { $0.title = "x" } == .applied)
        #expect(mirror.changes.last == .updated(3..<4))
        #expect(paginator.remove(id: 5) == .applied)
        #expect(mirror.changes.last == .removed(5..<6))
        #expect(paginator.items.value.count == 19)
        #expect(paginator.insert(Row(-1, "L"), at: 0) == .applied)
        #expect(mirror.changes.last == .inserted(0..<1))
        #expect(paginator.items.value.count == 20)
        let updates = paginator.updates.record()
        answer(append, ids: 20..<30)
        #expect(updates.values.map(\.previous.count) == [20])
        #expect(mirror.changes.last == .appended(20..<30))
        let items = paginator.items.value
        #expect(items[0] == Row(-1, "L") && items[4] == Row(3, "x"))
        #expect(!items.contains { $0.id == 5 })
        #expect(paginator.remove(at: 40) == .outOfRange)
        #expect(mirror.changes.count == 6, "an edit out of range publishes nothing")
        paginator.refresh()
        #expect(paginator.modify(id: 7) { $0.title = "mine" } == .applied, "edits apply during a refresh")
        #expect(paginator.items.value.first { $0.id == 7 }?.title == "mine")
        answer(server.last, ids: 0..<10, title: "server")
        #expect(paginator.items.value.first { $0.id == 7 }?.title == "server", "a refresh replaces local edits")
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P24: an edit out of range or of an unknown id changes nothing; an edit before any page is notLoaded")
    func P24_outcomes() {
        let server = RowServer()
        let paginator = rowPaginator(server)
        #expect(paginator.insert(Row(1), at: 0) == .notLoaded)
        #expect(paginator.remove(id: 1) == .notFound)
        paginator.refresh()
        answer(server.last, ids: 0..<3)
        #expect(paginator.insert(Row(9), at: 4) == .outOfRange)
        #expect(paginator.replace(at: 3, with: Row(9)) == .outOfRange)
        #expect(paginator.modify(at: 3) { $0.title = "x" } == .outOfRange)
        #expect(paginator.replace(id: 42, with: Row(9)) == .notFound)
        #expect(paginator.insert(Row(9), at: 3) == .applied, "inserting at the end is in range")
        #expect(paginator.items.value.map(\.id) == [0, 1, 2, 9])
    }

    @Test("P24: a negative edit index traps, naming the parameter")
    func P24_negativeIndexTraps() async {
        await #expect(processExitsWith: .failure) {
            let paginator = rowPaginator(RowServer())
            paginator.remove(at: -1)
        }
    }

    @Test("P24: 4 threads edit by id while 2 threads answer appends and prepends: the mirror matches, edits stay")
    func P24_racingEdits() {
        let racers = RacingThreads(count: 6)
        defer { racers.stop() }
        for iteration in 0..<100 {
            let server = RowServer()
            let paginator = Paginator(
                source: .offset { offset, size, _ in server.producer(offset, size: size) }, pageSize: 10,
                initialKey: 500)
            let mirror = Mirror(paginator)
            paginator.refresh()
            answer(server.last, ids: 500..<510)
            let lastEdits = Locked<[Int: String]>([:])
            racers.race { thread in
                for step in 0..<40 {
                    if thread < 2 {
                        if step % 2 == 0 { paginator.loadNextPage() } else { paginator.loadPreviousPage() }
                        if let request = server.pending.first {
                            answer(request, ids: request.key..<request.key + request.size)
                        }
                    } else {
                        let id = 500 + (thread - 2) + 4 * (step % 3)
                        let title = "\(thread)-\(step)"
                        if paginator.modify(id: id, { $0.title = title }) == .applied {
                            lastEdits.withLock { $0[id] = title }
                        }
                    }
                }
            }
            let items = paginator.items.value
            for (id, title) in lastEdits.value {
                #expect(items.first { $0.id == id }?.title == title, "iteration \(iteration): edit of \(id) lost")
            }
            #expect(mirror.failures.isEmpty, "iteration \(iteration): \(mirror.failures.prefix(2))")
        }
    }

    @Test("P25: removals never move the next offset; an emptied page does not end the list; removed ids stay seen")
    func P25_editsKeepKeysAndEnds() {
        let server = RowServer()
        let paginator = rowPaginator(server, deduplication: .byID)
        paginator.refresh()
        answer(server.last, ids: 0..<10, total: 100)
        paginator.loadNextPage()
        answer(server.last, ids: 10..<20, total: 100)
        for id in 10..<20 { #expect(paginator.remove(id: id) == .applied) }
        #expect(paginator.items.value.map(\.id) == Array(0..<10))
        #expect(!paginator.isEndReached.value, "a page emptied by edits is still a page")
        paginator.loadNextPage()
        #expect(server.keys.last == 20, "the next offset counts what the server sent")
        answer(server.last, ids: 18..<28, total: 102)
        #expect(paginator.items.value.map(\.id) == Array(0..<10) + Array(20..<28), "removed ids stay removed")
        paginator.loadNextPage()
        #expect(server.keys.last == 30)
        #expect(paginator.insert(Row(500, "local"), at: paginator.items.value.count) == .applied)
        answer(server.last, ids: [30, 500, 31], total: 102)
        let copies = paginator.items.value.filter { $0.id == 500 }
        #expect(copies == [Row(500, "local")], "a local insert is the first copy; the server's is dropped")
    }

    @Test("P25: without deduplication a server copy of a local insert is kept beside it")
    func P25_noDeduplication() {
        let server = RowServer()
        let paginator = rowPaginator(server)
        paginator.refresh()
        answer(server.last, ids: 0..<10, total: 100)
        paginator.insert(Row(500, "local"), at: 10)
        paginator.loadNextPage()
        answer(server.last, ids: [500, 11], total: 100)
        #expect(paginator.items.value.filter { $0.id == 500 }.count == 2)
    }
}
