import Dispatch
import Reactive
import Stapler
import TestSupport
import Testing

@Suite("Two-ended list: prepend, append and refresh")
struct TwoEndedListTests {
    typealias States = LoadStates<ServerError>

    @Test("P20: one load per direction, prepend and append together, a refresh disposes both")
    func P20_directionsInFlight() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, initialKey: 100)
        let mirror = Mirror(paginator)
        paginator.refresh()
        #expect(server.keys == [100])
        answer(server.last, total: 200)
        #expect(Array(paginator.items.value) == Array(100..<110))
        for _ in 0..<3 { paginator.loadNextPage() }
        #expect(server.keys == [100, 110])
        for _ in 0..<3 { paginator.loadPreviousPage() }
        #expect(server.keys == [100, 110, 90])
        let (append, prepend) = (server.requests[1], server.requests[2])
        answer(prepend, total: 200, on: DispatchQueue(label: "X"))
        answer(append, total: 200, on: DispatchQueue(label: "Y"))
        #expect(Array(paginator.items.value) == Array(90..<120))
        #expect(mirror.changes == [.reloaded, .inserted(0..<10), .appended(20..<30)])
        paginator.loadNextPage()
        paginator.loadPreviousPage()
        let (append2, prepend2) = (server.requests[3], server.requests[4])
        #expect([append2.key, prepend2.key] == [120, 80])
        paginator.refresh()
        #expect(append2.disposeCount == 1 && prepend2.disposeCount == 1)
        #expect(server.last?.key == 100, "a restart reloads the opening key")
        paginator.loadNextPage()
        paginator.loadPreviousPage()
        paginator.preload(index: 0)
        #expect(server.requests.count == 6, "no edge load during a refresh")
        answer(append2, total: 200)
        answer(prepend2, total: 200)
        #expect(Array(paginator.items.value) == Array(90..<120), "late answers of disposed loads never land")
        answer(server.last, total: 200)
        #expect(Array(paginator.items.value) == Array(100..<110))
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P20: 8 threads load both ends, refresh and preload while 4 answer: one load per direction, ids unique")
    func P20_racingDirections() {
        let racers = RacingThreads(count: 12)
        defer { racers.stop() }
        for iteration in 0..<300 {
            let server = TwoEndedServer()
            let paginator = offsetPaginator(server, initialKey: 500)
            let mirror = Mirror(paginator)
            paginator.refresh()
            answer(server.last, total: 1_000)
            racers.race { thread in
                for step in 0..<30 {
                    if thread < 4 {
                        guard let request = server.pending.randomElement() else { continue }
                        answer(request, total: 1_000)
                    } else {
                        switch (thread + step) % 8 {
                        case 0: paginator.refresh()
                        case 1, 2: paginator.loadPreviousPage()
                        case 3, 4: paginator.loadNextPage()
                        default: paginator.preload(index: (thread * step) % max(1, paginator.items.value.count))
                        }
                    }
                }
            }
            while let request = server.pending.first { answer(request, total: 1_000) }
            let items = Array(paginator.items.value)
            #expect(Set(items).count == items.count, "iteration \(iteration): duplicates")
            #expect(items == Array((items.first ?? 0)..<(items.first ?? 0) + items.count), "iteration \(iteration)")
            #expect(mirror.failures.isEmpty, "iteration \(iteration): \(mirror.failures.prefix(2))")
        }
    }

    @Test("P21: a prepend inserts 0..<n, preload pages both edges of a short list, leadingCount tracks the shift")
    func P21_prependShiftsIndices() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, pageSize: 5, initialKey: 100, prefetchDistance: 3)
        let mirror = Mirror(paginator)
        paginator.refresh()
        server.last?.succeed(page(100, 2, total: 200))
        paginator.preload(index: 0)
        #expect(server.keys == [100, 95, 102], "a row near both edges of a short list loads both")
        answer(server.requests[1], total: 200)
        #expect(mirror.changes.last == .inserted(0..<5))
        #expect(paginator.items.value[5] == 100)
        #expect(paginator.snapshot.value.leadingCount == 5)
        answer(server.requests[2], total: 200)
        paginator.preload(index: 4)
        #expect(server.requests.count == 3, "4 > prefetch distance 3")
        paginator.preload(index: 3)
        #expect(server.keys.last == 90)
        #expect(mirror.failures.isEmpty, "\(mirror.failures)")
    }

    @Test("P21: an index from a snapshot the user interface still shows is moved by the rows prepended since")
    func P21_laggingIndices() {
        let server = TwoEndedServer()
        let scheduler = TestScheduler()
        let paginator = offsetPaginator(server, initialKey: 100, prefetchDistance: 3, deliveringOn: scheduler)
        paginator.refresh()
        scheduler.run()
        answer(server.last, total: 200)
        scheduler.run()
        paginator.preload(index: 3)
        #expect(server.keys == [100, 90])
        answer(server.last, total: 200)
        scheduler.run()
        paginator.preload(index: 3)
        #expect(server.keys == [100, 90, 80])
        answer(server.last, total: 200)
        // Not delivered yet: the user interface still shows 90..<110, where row 2 is item 92.
        paginator.preload(index: 2)
        #expect(server.keys == [100, 90, 80], "item 92 is 12 rows below the real top: no prepend")
        scheduler.run()
        paginator.preload(index: 2)
        #expect(server.keys == [100, 90, 80, 70], "now row 2 is item 82")
    }

    @Test("P21: 2 threads answer prepends and appends while a third preloads rows of the last delivered snapshot")
    func P21_racingPreloads() {
        let racers = RacingThreads(count: 3)
        defer { racers.stop() }
        for iteration in 0..<300 {
            let server = TwoEndedServer()
            let paginator = offsetPaginator(server, pageSize: 5, initialKey: 500, prefetchDistance: 2)
            let mirror = Mirror(paginator)
            let shown = Locked(PagedItems<Int>())
            paginator.items.producer.startWithValues { shown.value = $0 }
            let tooFar = Locked<[String]>([])
            paginator.refresh()
            answer(server.last, total: 1_000)
            racers.race { thread in
                for step in 0..<40 {
                    if thread < 2 {
                        if let request = server.pending.first { answer(request, total: 1_000) }
                    } else {
                        let rows = shown.value
                        guard !rows.isEmpty else { continue }
                        let row = (step * 7) % rows.count
                        let before = server.requests.count
                        paginator.preload(index: row)
                        let made = server.requests.dropFirst(before).filter { $0.key < rows[row] }
                        // A prepend is asked only for a row within the distance of the top it was shown under.
                        if !made.isEmpty && row > 2 {
                            tooFar.append("row \(row) of \(rows.count) asked \(made.map(\.key))")
                        }
                    }
                }
            }
            #expect(tooFar.value.isEmpty, "iteration \(iteration): \(tooFar.value.prefix(2))")
            #expect(mirror.failures.isEmpty, "iteration \(iteration): \(mirror.failures.prefix(2))")
        }
    }

    @Test("P22: the first page opens each edge on its own; edges wait for it; a restart reloads the opening key")
    func P22_openingAtAKey() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, initialKey: 50)
        let states = paginator.loadStates.recordValues()
        paginator.refresh()
        paginator.loadPreviousPage()
        paginator.loadNextPage()
        paginator.preload(index: 0)
        #expect(server.keys == [50], "edges wait for the first page")
        answer(server.last, total: 100)
        #expect(
            states.value.last
                == States(
                    refresh: .idle(endReached: false), prepend: .idle(endReached: false),
                    append: .idle(endReached: false)))
        paginator.loadPreviousPage()
        answer(server.last, total: 100)
        paginator.loadPreviousPage()
        answer(server.last, total: 100)
        #expect(paginator.items.value.first == 30)
        paginator.refresh()
        #expect(server.keys.last == 50, "a restart requests the opening key, not the top page's")
    }

    @Test("P22: a chat opens at its newest page: the bottom is ended, older pages load at the top")
    func P22_chatOpensAtNewest() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, initialKey: 90)
        paginator.refresh()
        answer(server.last, total: 100)
        #expect(paginator.loadStates.value.append == .idle(endReached: true))
        for _ in 0..<5 { paginator.loadNextPage() }
        #expect(server.keys == [90])
        paginator.loadPreviousPage()
        #expect(server.keys == [90, 80])
    }

    @Test("P22: an empty first page is noData and ends both edges")
    func P22_emptyFirstPage() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, initialKey: 50)
        paginator.refresh()
        server.last?.succeed(Response(items: [], total: 100))
        #expect(paginator.state.value == .noData)
        #expect(paginator.loadStates.value.prepend.isEndReached && paginator.loadStates.value.append.isEndReached)
        for _ in 0..<5 {
            paginator.loadNextPage()
            paginator.loadPreviousPage()
        }
        #expect(server.requests.count == 1)
    }

    @Test("P22: a top page with no previous key ends the top only")
    func P22_topEndsAlone() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server)
        paginator.refresh()
        answer(server.last, total: 100)
        #expect(paginator.loadStates.value.prepend == .idle(endReached: true))
        #expect(paginator.loadStates.value.append == .idle(endReached: false))
    }

    @Test("P23: while a refresh failure stands, edge loads and their failures never announce the state again")
    func P23_stateAnnouncedOnce() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server, initialKey: 50)
        paginator.refresh()
        answer(server.last, total: 200)
        let states = paginator.state.signal.record()
        paginator.refresh()
        server.last?.fail(.unavailable)
        paginator.loadNextPage()
        answer(server.last, total: 200)
        paginator.loadPreviousPage()
        server.last?.fail(.timeout)
        paginator.remove(at: 0)
        #expect(states.values.map(\.name) == ["refreshing", "errorRefreshing"])
        #expect(illegalMoves([.data] + states.values).isEmpty)
    }

    @Test("P23: a failed refresh keeps the rows and both edges page the shown list; retry re-runs the refresh alone")
    func P23_failedRefreshOverRows() {
        let server = ManualServer<Int, Response, ServerError>()
        let paginator = Paginator(
            source: .offset { offset, size, query in server.producer(offset + (query == "B" ? 10_000 : 0), size: size)
            },
            pageSize: 10, query: "A", initialKey: 50)
        paginator.refresh()
        answer(server.last, total: 200)
        paginator.loadPreviousPage()
        answer(server.last, total: 200)
        paginator.loadNextPage()
        answer(server.last, total: 200)
        #expect(Array(paginator.items.value) == Array(40..<70))
        paginator.refresh(query: "B")
        server.last?.fail(.unavailable)
        #expect(Array(paginator.items.value) == Array(40..<70))
        #expect(
            paginator.loadStates.value
                == States(
                    refresh: .failed(.source(.unavailable)), prepend: .idle(endReached: false),
                    append: .idle(endReached: false)))
        paginator.loadNextPage()
        #expect(server.keys.last == 70, "query A's next page")
        paginator.loadPreviousPage()
        #expect(server.keys.last == 30)
        let (append, prepend) = (server.requests[4], server.requests[5])
        append.fail(.timeout)
        #expect(paginator.loadStates.value.append == .failed(.source(.timeout)))
        answer(prepend, total: 200)
        #expect(Array(paginator.items.value) == Array(30..<70))
        let before = server.requests.count
        for _ in 0..<10 { paginator.preload(index: paginator.items.value.count - 1) }
        #expect(server.requests.count == before, "a failed edge ignores preload")
        paginator.loadPreviousPage()
        #expect(server.keys.last == 20)
        paginator.retry()
        #expect(server.requests.count == before + 2, "exactly one request: the refresh")
        #expect(server.keys.last == 10_050, "the refresh with query B")
    }
}
