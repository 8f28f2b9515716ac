import Reactive
import Stapler
import TestSupport
import Testing

/// A task executor that runs its jobs only when told, on the thread that tells it: a test decides where
/// and when an awaiting task resumes.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class HeldExecutor: TaskExecutor, @unchecked Sendable {
    // Guarded by its own lock.
    private let jobs = Locked<[UnownedJob]>([])

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
    }

    /// Runs the jobs enqueued, and those they enqueue, until none is left.
    ///
    /// - Returns: How many ran.
    @discardableResult
    func runAll() -> Int {
        var ran = 0
        while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            job.runSynchronously(on: asUnownedTaskExecutor())
            ran += 1
        }
        return ran
    }
}

@Suite("Awaited calls return after what they report is visible")
struct AwaitVisibilityTests {
    typealias Outcome = LoadOutcome<ServerError>

    @Test(
        "P37: an awaited refresh resumes its task once delivery is over: its next edit is delivered before it returns")
    func P37_resumesAfterDelivery() async {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) else { return }
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server)
        let executor = HeldExecutor()
        let resumedWhileDelivering = Locked(0)
        paginator.updates.observeValues { update in
            switch update.change {
            case .reloaded:
                // A publication queued behind the refresh's outcome: delivery goes on after the outcome.
                paginator.replace(at: 0, with: -1)
            case .updated:
                // A task resumed by the outcome would run here, in the middle of the delivery.
                resumedWhileDelivering.increment(by: executor.runAll())
            default:
                break
            }
        }
        let task = Task(executorPreference: executor) { () -> (Outcome, Int?, Int) in
            let outcome = await paginator.refresh()
            paginator.insert(1_000, at: paginator.items.value.count)
            return (outcome, paginator.items.value.last, paginator.items.value.count)
        }
        executor.runAll()
        #expect(server.requests.count == 1)
        answer(server.last, total: 100)
        executor.runAll()
        let (outcome, last, count) = await task.value
        #expect(outcome == .loaded)
        #expect(resumedWhileDelivering.value == 0, "the task resumed while the page's delivery was still running")
        #expect(last == 1_000 && count == 11, "the insert made right after the await was not visible")
        #expect(paginator.items.value.first == -1)
    }

    @Test("P37: 2,000 runs on real threads: an edit right after an awaited load reads back at once")
    func P37_noStaleReadAfterAwait() async {
        var stale: [String] = []
        for run in 0..<stressRounds(2_000) {
            let paginator = Paginator(
                source: .offset { (offset, size, _: Void) async throws(ServerError) in page(offset, size, total: 100) },
                pageSize: 10)
            guard await paginator.refresh() == .loaded else {
                stale.append("run \(run): the refresh did not load")
                continue
            }
            paginator.insert(-1, at: paginator.items.value.count)
            if paginator.items.value.last != -1 { stale.append("run \(run): insert after refresh") }
            guard await paginator.loadNextPage() == .loaded else {
                stale.append("run \(run): the next page did not load")
                continue
            }
            let last = paginator.items.value.count - 1
            paginator.replace(at: last, with: -2)
            if paginator.items.value.last != -2 { stale.append("run \(run): edit after next page") }
        }
        #expect(stale.isEmpty, "\(stale.count) stale reads: \(stale.prefix(5))")
    }

    struct Message: Sendable, Equatable {
        let id: Int
    }

    @Test("P37: two live messages added after awaited loads land in order, 500 runs on real threads")
    func P37_liveMessagesInOrder() async {
        var misplaced: [String] = []
        for run in 0..<stressRounds(500) {
            // A chat opened at its newest page (messages 90..<100), older pages above, answered by tasks.
            let chat = Paginator(
                source: PageSource<Message, Int, Void, Void, ServerError>(firstKey: 90) {
                    request async throws(ServerError) in
                    let start = request.key
                    return Page(
                        items: (start..<min(start + 10, 100)).map { Message(id: $0) },
                        previousKey: start == 0 ? nil : max(0, start - 10), nextKey: nil)
                },
                options: PagingOptions(pageSize: 10, deduplication: .by(\.id)))
            _ = await chat.refresh()
            misplaced += sendTwo(1_000 + 2 * run, to: chat, run: run)
            _ = await chat.loadPreviousPage()
            misplaced += sendTwo(5_000 + 2 * run, to: chat, run: run)
            let ids = chat.items.value.map(\.id)
            let expected = Array(80..<100) + [1_000 + 2 * run, 1_001 + 2 * run, 5_000 + 2 * run, 5_001 + 2 * run]
            if ids != expected { misplaced.append("run \(run): \(ids.suffix(4))") }
        }
        #expect(misplaced.isEmpty, "\(misplaced.count) misplaced: \(misplaced.prefix(5))")
    }

    /// Sends live messages `id` and `id + 1` as a chat screen does: each after the last row it shows.
    func sendTwo(_ id: Int, to chat: Paginator<Message, Int, Void, Void, ServerError>, run: Int) -> [String] {
        chat.insert(Message(id: id), at: chat.items.value.count)
        guard let row = chat.items.value.lastIndex(where: { $0.id == id }) else {
            return ["run \(run): message \(id) not shown after it was sent"]
        }
        chat.insert(Message(id: id + 1), at: row + 1)
        return []
    }
}
