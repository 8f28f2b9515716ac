import Dispatch
import Reactive
import Stapler
import TestSupport
import Testing

@Suite("Async calls and their outcomes")
struct AsyncOutcomeTests {
    typealias Outcome = LoadOutcome<ServerError>

    /// A paginator at offset 0 with its first page (0..<10 of 100) loaded.
    func loadedPaginator(_ server: TwoEndedServer) -> Paginator<Int, Int, String, Response, ServerError> {
        let paginator = offsetPaginator(server)
        synchronously { paginator.refresh() }
        answer(server.last, total: 100)
        return paginator
    }

    /// Runs `call` in a task and waits until the server has `requests` requests.
    func started(
        _ server: TwoEndedServer, requests: Int, _ call: @escaping @Sendable () async -> Outcome
    ) async -> Task<Outcome, Never> {
        let task = Task { await call() }
        #expect(await eventuallyPolling { server.requests.count >= requests })
        return task
    }

    @Test("P37: a second loadNextPage while one loads is ignored at once, and the first ends loaded")
    func P37_alreadyLoading() async {
        let server = TwoEndedServer()
        let paginator = loadedPaginator(server)
        let first = await started(server, requests: 2) { await paginator.loadNextPage() }
        #expect(await paginator.loadNextPage() == .ignored(.alreadyLoading))
        #expect(server.requests.count == 2)
        answer(server.last, total: 100)
        #expect(await value(of: first) == .loaded)
    }

    @Test("P37: a refresh superseded by another ends superseded, the newer one loaded")
    func P37_superseded() async {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server)
        let first = await started(server, requests: 1) { await paginator.refresh() }
        let second = await started(server, requests: 2) { await paginator.refresh() }
        #expect(server.requests[0].disposeCount == 1)
        #expect(await value(of: first) == .superseded)
        answer(server.last, total: 100)
        #expect(await value(of: second) == .loaded)
    }

    @Test("P37: cancel() during a load ends it cancelled; a failing page ends failed; a refresh supersedes an edge")
    func P37_cancelledFailedSuperseded() async {
        let server = TwoEndedServer()
        let paginator = loadedPaginator(server)
        let next = await started(server, requests: 2) { await paginator.loadNextPage() }
        #expect(paginator.cancel() == .cancelled)
        #expect(await value(of: next) == .cancelled)
        #expect(paginator.cancel() == .ignored(.nothingToDo))
        let failing = await started(server, requests: 3) { await paginator.loadNextPage() }
        server.last?.fail(.timeout)
        #expect(await value(of: failing) == .failed(.source(.timeout)))
        #expect(await paginator.loadNextPage() == .ignored(.awaitingRetry))
        let retried = await started(server, requests: 4) { await paginator.retry() }
        #expect(server.last?.key == 10)
        let superseding = Task { synchronously { paginator.refresh() } }
        _ = await superseding.value
        #expect(await value(of: retried) == .superseded)
    }

    @Test("P37: cancelling the awaiting task returns cancelled at once; the load goes on and lands")
    func P37_taskCancellation() async {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server)
        let task = await started(server, requests: 1) { await paginator.refresh() }
        task.cancel()
        #expect(await value(of: task, polls: 1_000) == .cancelled)
        #expect(server.requests[0].disposeCount == 0, "the load is not cancelled")
        answer(server.last, total: 100)
        #expect(paginator.items.value.count == 10)
        let next = await started(server, requests: 2) { await paginator.loadNextPage() }
        answer(server.last, total: 100)
        #expect(await value(of: next) == .loaded)
    }

    @Test("P37: calls that start nothing say why, synchronously and awaited")
    func P37_ignoredReasons() async {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server)
        #expect(await paginator.loadNextPage() == .ignored(.notLoaded))
        #expect(synchronously { paginator.loadPreviousPage() } == .ignored(.notLoaded))
        #expect(await paginator.retry() == .ignored(.nothingToDo))
        synchronously { paginator.refresh() }
        #expect(synchronously { paginator.loadNextPage() } == .ignored(.refreshing))
        server.last?.succeed(page(0, 10, total: 10))
        #expect(await paginator.loadNextPage() == .ignored(.endReached))
        #expect(await paginator.loadPreviousPage() == .ignored(.endReached))
        #expect(await paginator.refresh(.around(index: 50)) == .ignored(.nothingToDo))
        #expect(server.requests.count == 1)
    }

    @Test("P37: an await started from inside a notification ends like any other")
    func P37_fromInsideANotification() async {
        let server = TwoEndedServer()
        let paginator = loadedPaginator(server)
        let outcomes = Locked<[Outcome]>([])
        paginator.updates.take(first: 1).observeValues { _ in
            Task { outcomes.append(await paginator.loadNextPage()) }
        }
        synchronously { paginator.loadNextPage() }
        answer(server.last, total: 100)
        #expect(await eventuallyPolling { server.requests.count == 3 })
        answer(server.last, total: 100)
        #expect(await eventuallyPolling { outcomes.value == [.loaded] })
    }

    @Test(
        "P37: 100 tasks call random async methods and cancel at random while other threads answer; every call returns")
    func P37_racingTasks() async {
        let server = TwoEndedServer()
        weak var weakPaginator: Paginator<Int, Int, String, Response, ServerError>?
        let returned = Locked(0)
        do {
            let paginator = offsetPaginator(server, initialKey: 500)
            weakPaginator = paginator
            let answering = Task.detached {
                for _ in 0..<2_000 {
                    if let request = server.pending.randomElement() { answer(request, total: 1_000) }
                    await Task.yield()
                }
            }
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let task = Task { () -> Outcome in
                            switch index % 5 {
                            case 0: await paginator.refresh()
                            case 1: await paginator.loadNextPage()
                            case 2: await paginator.loadPreviousPage()
                            case 3: await paginator.retry()
                            default: await paginator.refresh(.reloadAll)
                            }
                        }
                        if index % 3 == 0 { task.cancel() }
                        if await value(of: task) != nil { returned.increment(by: 1) }
                    }
                }
                group.addTask { paginator.cancel() }
            }
            answering.cancel()
            _ = await answering.value
            while let request = server.pending.first { answer(request, total: 1_000) }
        }
        #expect(returned.value == 100)
        #expect(weakPaginator == nil)
    }
}

@Suite("Async calls of the facade")
struct FacadeAsyncTests {
    @Test("P37: the facade's refresh and next page await their outcomes; a failed next page is asked again")
    func P37_facadeOutcomes() async {
        let server = OffsetServer()
        let stapler = makeStapler(server: server)
        let refresh = Task { await stapler.refresh() }
        #expect(await eventuallyPolling { server.requests.count == 1 })
        server.last?.succeed(page(0, 10, total: 30))
        #expect(await value(of: refresh) == .loaded)
        let next = Task { await stapler.loadNextPage() }
        #expect(await eventuallyPolling { server.requests.count == 2 })
        server.last?.fail(.timeout)
        #expect(await value(of: next) == .failed(.source(.timeout)))
        let again = Task { await stapler.loadNextPage() }
        #expect(await eventuallyPolling { server.requests.count == 3 })
        #expect(server.keys == [0, 10, 10], "the failed page again")
        server.last?.succeed(page(10, 10, total: 30))
        #expect(await value(of: again) == .loaded)
    }
}
