import Reactive
import Stapler
import TestSupport
import Testing

/// A server whose pages and keys the test writes by hand: keys are cursors (plain integers here).
typealias CursorServer = ManualServer<Int, Page<Int, Int, Void>, ServerError>

/// A paginator over a hand-scripted cursor server, opened at `initialKey`.
func cursorPaginator(
    _ server: CursorServer, initialKey: Int? = nil
) -> Paginator<Int, Int, Void, Void, ServerError> {
    Paginator(
        source: PageSource(firstKey: 0) { request in server.producer(request.key) }, pageSize: 10,
        initialKey: initialKey)
}

/// Answers `request` with `items`, the previous cursor `previous` and the next cursor `next`.
func answer(_ request: CursorServer.Request?, _ items: Range<Int>, previous: Int? = nil, next: Int?) {
    request?.succeed(Page(items: Array(items), previousKey: previous, nextKey: next))
}

@Suite("Refresh modes")
struct RefreshModeTests {
    /// A cursor list of three pages 0..<10, 10..<20, 20..<30 (cursors 0, 10, 20), the bottom open.
    func threePages(_ server: CursorServer) -> Paginator<Int, Int, Void, Void, ServerError> {
        let paginator = cursorPaginator(server)
        paginator.refresh()
        answer(server.last, 0..<10, next: 10)
        paginator.loadNextPage()
        answer(server.last, 10..<20, next: 20)
        paginator.loadNextPage()
        answer(server.last, 20..<30, next: 30)
        return paginator
    }

    @Test("P26: reloadAll reloads each page in turn with the fresh page's next key, and commits once")
    func P26_reloadAll() {
        let server = CursorServer()
        let paginator = threePages(server)
        let mirror = Mirror(paginator)
        let updates = paginator.updates.record()
        paginator.refresh(.reloadAll)
        #expect(server.keys.suffix(1) == [0])
        // The server added two items at the head: the fresh chain's cursors move.
        answer(server.last, -2..<8, next: 8)
        #expect(server.keys.suffix(2) == [0, 8], "the fresh page's next key, not the old 10")
        #expect(server.pending.count == 1, "one request at a time")
        #expect(updates.values.isEmpty, "the old rows stay until the last page is in")
        answer(server.last, 8..<18, next: 18)
        answer(server.last, 18..<28, next: 28)
        #expect(server.requests.count == 6, "as many pages as were shown")
        #expect(updates.values.count == 1)
        #expect(Array(paginator.items.value) == Array(-2..<28))
        #expect(paginator.pages.value == 3 && !paginator.isEndReached.value)
        paginator.loadNextPage()
        #expect(server.keys.last == 28)
        #expect(mirror.failures.isEmpty)
    }

    @Test("P26: a failed page keeps the rows, and retry resumes at that page with its fresh key")
    func P26_failureResumes() {
        let server = CursorServer()
        let paginator = threePages(server)
        paginator.refresh(.reloadAll)
        answer(server.last, -2..<8, next: 8)
        server.last?.fail(.timeout)
        #expect(Array(paginator.items.value) == Array(0..<30))
        #expect(paginator.loadStates.value.refresh == .failed(.source(.timeout)))
        paginator.retry()
        #expect(server.keys.suffix(3) == [0, 8, 8], "the failed page again, not page 1")
        answer(server.last, 8..<18, next: 18)
        answer(server.last, 18..<28, next: nil)
        #expect(Array(paginator.items.value) == Array(-2..<28))
        #expect(paginator.isEndReached.value)
    }

    @Test("P26: a fresh chain that ends early commits fewer pages; a repeated key fails; a restart supersedes")
    func P26_earlyEndRepeatAndSupersede() {
        let server = CursorServer()
        let paginator = threePages(server)
        paginator.refresh(.reloadAll)
        answer(server.last, 0..<10, next: 10)
        answer(server.last, 10..<15, next: nil)
        #expect(paginator.pages.value == 2 && paginator.isEndReached.value)
        #expect(Array(paginator.items.value) == Array(0..<15))

        let server2 = CursorServer()
        let looping = threePages(server2)
        looping.refresh(.reloadAll)
        answer(server2.last, 0..<10, next: 10)
        answer(server2.last, 10..<20, next: 10)
        #expect(looping.loadStates.value.refresh == .failed(.repeatedKey))
        #expect(Array(looping.items.value) == Array(0..<30), "rows unchanged")

        let server3 = CursorServer()
        let superseded = threePages(server3)
        superseded.refresh(.reloadAll)
        answer(server3.last, 0..<10, next: 10)
        let second = server3.last
        superseded.refresh(.restart)
        #expect(second?.disposeCount == 1)
        answer(second, 100..<110, next: 110)
        #expect(Array(superseded.items.value) == Array(0..<30), "the superseded page never lands")
    }

    @Test("P26: reload-all pages answered on one thread while another restarts, pages and edits: never a mix")
    func P26_racingReloads() {
        let racers = RacingThreads(count: 2)
        defer { racers.stop() }
        for iteration in 0..<300 {
            let server = CursorServer()
            let paginator = threePages(server)
            let version = Locked(1)
            let mixes = Locked<[Set<Int>]>([])
            paginator.updates.observeValues { update in
                guard update.change == .reloaded else { return }
                let stamps = Set(update.items.map { $0 / 1_000 })
                if stamps.count > 1 { mixes.append(stamps) }
            }
            racers.race { thread in
                for step in 0..<30 {
                    if thread == 0 {
                        guard let request = server.pending.last else { continue }
                        // Every row carries the version of the server that sent it.
                        let stamp = version.value * 1_000
                        answer(request, stamp + request.key..<stamp + request.key + 10, next: request.key + 10)
                    } else {
                        switch step % 5 {
                        case 0:
                            version.increment(by: 1)
                            paginator.refresh(.reloadAll)
                        case 1: paginator.refresh(.restart)
                        case 2: paginator.loadNextPage()
                        case 3: paginator.modify(at: 0) { $0 = $0 }
                        default: paginator.refresh(.reloadAll)
                        }
                    }
                }
            }
            #expect(mixes.value.isEmpty, "iteration \(iteration): a refresh committed rows of versions \(mixes.value)")
        }
    }

    @Test("P8: a previous key that repeats a loaded key, or contradicts its page, is repeatedKey; nothing is lost")
    func P8_previousKeysThatLoop() {
        let server = CursorServer()
        let paginator = cursorPaginator(server, initialKey: 50)
        paginator.refresh()
        answer(server.last, 50..<60, previous: 50, next: 60)
        #expect(
            paginator.loadStates.value.refresh == .failed(.repeatedKey), "a first page whose previous key is its own")
        paginator.refresh()
        answer(server.last, 50..<60, previous: 60, next: 60)
        #expect(paginator.loadStates.value.refresh == .failed(.repeatedKey), "the same key above and below")
        paginator.refresh()
        answer(server.last, 50..<60, previous: 40, next: 60)
        paginator.loadPreviousPage()
        answer(server.last, 40..<50, previous: 60, next: 50)
        #expect(paginator.loadStates.value.prepend == .failed(.repeatedKey), "a previous key already used below")
        #expect(Array(paginator.items.value) == Array(50..<60))
        #expect(paginator.loadStates.value.append == .idle(endReached: false), "the other edge is unaffected")
        paginator.loadNextPage()
        #expect(server.keys.last == 60)
    }

    @Test("P26: on a two-ended list the reload starts at the page the list was opened at, goes down, then up")
    func P26_twoEnded() {
        let server = CursorServer()
        let paginator = cursorPaginator(server, initialKey: 50)
        paginator.refresh()
        answer(server.last, 50..<60, previous: 40, next: 60)
        paginator.loadPreviousPage()
        answer(server.last, 40..<50, previous: 30, next: 50)
        paginator.loadNextPage()
        answer(server.last, 60..<70, previous: 50, next: 70)
        paginator.refresh(.reloadAll)
        #expect(server.keys.last == 50)
        answer(server.last, 50..<60, previous: 40, next: 60)
        answer(server.last, 60..<70, previous: 50, next: 70)
        answer(server.last, 40..<50, previous: 30, next: 50)
        #expect(server.keys.suffix(3) == [50, 60, 40])
        #expect(Array(paginator.items.value) == Array(40..<70))
        #expect(paginator.loadStates.value.prepend == .idle(endReached: false))
    }

    @Test("P27: around a row loads the page holding it, then pages above and below, and commits once")
    func P27_refreshAround() {
        let server = RowServer()
        let paginator = rowPaginator(server, deduplication: .byID)
        paginator.refresh()
        for _ in 0..<8 {
            answer(server.last, ids: server.last!.key..<server.last!.key + 10, total: 200)
            paginator.loadNextPage()
        }
        #expect(paginator.items.value.count == 80)
        let updates = paginator.updates.record()
        paginator.refresh(.around(index: 45, minimumCount: 30))
        #expect(server.keys.last == 40, "the stored key of the page holding row 45")
        // The server deleted items 0-4: every offset now starts 5 items later.
        let shifted = { (key: Int) in key + 5..<key + 15 }
        answer(server.last, ids: shifted(40), total: 195)
        #expect(server.keys.last == 30)
        answer(server.last, ids: shifted(30), total: 195)
        #expect(server.keys.last == 50)
        answer(server.last, ids: shifted(50), total: 195)
        #expect(updates.values.count == 1)
        #expect(paginator.items.value.map(\.id) == Array(35..<65))
        #expect(updates.values.first?.anchor == ItemsAnchor(from: 45, to: 10))
    }

    @Test("P27: near the new end the window extends upwards; one page asks its own key; a gone anchor clamps")
    func P27_windowEdges() {
        let server = RowServer()
        let paginator = rowPaginator(server, deduplication: .byID)
        paginator.refresh()
        for _ in 0..<8 {
            answer(server.last, ids: server.last!.key..<server.last!.key + 10, total: 100)
            paginator.loadNextPage()
        }
        let updates = paginator.updates.record()
        paginator.refresh(.around(index: 79, minimumCount: 30))
        #expect(server.keys.last == 70)
        answer(server.last, ids: 70..<75, total: 75)
        answer(server.last, ids: 60..<70, total: 75)
        answer(server.last, ids: 50..<60, total: 75)
        answer(server.last, ids: [40, 41, 42, 43, 44, 46, 47, 48, 49], total: 75)
        #expect(server.keys.suffix(4) == [70, 60, 50, 40], "the bottom ended: the window grows upwards")
        #expect(paginator.items.value.count == 34 && paginator.isEndReached.value)
        #expect(updates.values.last?.anchor == ItemsAnchor(from: 79, to: 33), "the last surviving row")

        paginator.refresh(.around(index: 5))
        #expect(server.keys.last == 40, "row 5 is item 46, on the page of key 40")
        answer(server.last, ids: [40, 41, 42, 43, 44, 47, 48, 49], total: 75)
        #expect(paginator.items.value.count == 8, "with no minimum, the anchor's page alone")
        #expect(updates.values.last?.anchor == ItemsAnchor(from: 5, to: 5), "item 46 is gone: the next one, 47")

        let single = RowServer()
        let onePage = rowPaginator(single)
        onePage.refresh()
        answer(single.last, ids: 0..<10, total: 10)
        onePage.refresh(.around(index: 9))
        #expect(single.keys == [0, 0], "the page's own key, never the next one")
        onePage.refresh(.around(index: 10))
        #expect(single.keys == [0, 0], "an index outside the list is ignored")
    }

    @Test("P28: a refresh of items with an identity publishes moves, insertions, removals and updates")
    func P28_keyedRefresh() {
        let server = RowServer()
        let paginator = rowPaginator(server, deduplication: .byID)
        let mirror = Mirror(paginator)
        paginator.refresh()
        answer(server.last, ids: 1...5, total: 5)
        paginator.refresh()
        server.last?.succeed(RowsPage(items: [Row(5), Row(2), Row(3, "new"), Row(6)], total: 4))
        guard case .difference(let difference) = mirror.changes.last else {
            Issue.record("expected a difference, got \(String(describing: mirror.changes.last))")
            return
        }
        #expect(difference.removals == [0, 3], "ids 1 and 4")
        #expect(difference.insertions == [3], "id 6")
        #expect(difference.updates == [2], "id 3's content changed")
        #expect(difference.moves.contains(ItemsDifference.Move(from: 4, to: 0)), "id 5 moved to the top")
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }
}
