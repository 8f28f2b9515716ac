import Reactive
import Stapler
import TestSupport
import Testing

/// The refetch modes on real threads while the server inserts and deletes at the head of the list.
@Suite("Refetching while the server moves")
struct RefetchStressTests {
    /// The server's rows, newest first (descending ids), changed at the head by one racer.
    final class MovingRows: Sendable {
        private let state = Locked<(rows: [Int], nextID: Int)>((Array((1...30).reversed()), 31))

        var rows: [Int] { state.value.rows }

        /// Inserts a new row at the head, or deletes one of the first rows.
        func move(_ step: Int) {
            state.withLock { state in
                if step % 3 == 2, state.rows.count > 5 {
                    state.rows.remove(at: step % 5)
                } else {
                    state.rows.insert(state.nextID, at: 0)
                    state.nextID += 1
                }
            }
        }
    }

    /// Whether `rows` are strictly descending: in the server's order, every id once.
    static func inServerOrder(_ rows: [Int]) -> Bool {
        zip(rows, rows.dropFirst()).allSatisfy { $0 > $1 }
    }

    /// Races `mode`, 500 times, on a list whose source `makeSource` answers from `rows` through the
    /// returned `answer` (the pending request, if any), and checks every committed snapshot.
    func race<Key: Hashable & Sendable, Metadata: Sendable>(
        _ mode: RefreshMode<Key>,
        makeSource: (MovingRows) -> (PageSource<Int, Key, Void, Metadata, ServerError>, @Sendable () -> Bool)
    ) {
        let racers = RacingThreads(count: 2)
        defer { racers.stop() }
        for iteration in 0..<stressRounds(500) {
            let rows = MovingRows()
            let (source, answer) = makeSource(rows)
            let paginator = Paginator(source: source, options: PagingOptions(pageSize: 10, deduplication: .by { $0 }))
            paginator.refresh()
            _ = answer()
            for _ in 0..<2 {
                paginator.loadNextPage()
                _ = answer()
            }
            let bad = Locked<[[Int]]>([])
            paginator.updates.observeValues { update in
                let shown = Array(update.items)
                if !Self.inServerOrder(shown) { bad.append(shown) }
            }
            racers.race { thread in
                for step in 0..<20 {
                    if thread == 0 {
                        _ = answer()
                    } else {
                        rows.move(step)
                        if step % 4 == 0 { paginator.refresh(mode) }
                        if step % 4 == 2 { paginator.loadNextPage() }
                    }
                }
            }
            while answer() {}
            #expect(bad.value.isEmpty, "iteration \(iteration): snapshots out of the server's order: \(bad.value)")
            #expect(Self.inServerOrder(Array(paginator.items.value)))
        }
    }

    /// A cursor source over `rows`: the key is the id the page continues below (`Int.max`: the newest).
    static func cursorSource(
        _ rows: MovingRows
    ) -> (PageSource<Int, Int, Void, Void, ServerError>, @Sendable () -> Bool) {
        let server = ManualServer<Int, Page<Int, Int, Void>, ServerError>()
        let source = PageSource<Int, Int, Void, Void, ServerError>(firstKey: Int.max) { server.producer($0.key) }
        let answer: @Sendable () -> Bool = {
            guard let request = server.pending.last else { return false }
            let below = rows.rows.filter { $0 < request.key }
            let page = Array(below.prefix(10))
            request.succeed(Page(items: page, previousKey: nil, nextKey: below.count > page.count ? page.last : nil))
            return true
        }
        return (source, answer)
    }

    @Test("P61: racing threads: .firstPage while the head moves commits every row once, in the server's order")
    func firstPageRacingTheHead() {
        race(RefreshMode<Int>.firstPage, makeSource: Self.cursorSource)
    }

    @Test("P61: racing threads: .reloadAll while the head moves commits every row once, in the server's order")
    func reloadAllRacingTheHead() {
        race(RefreshMode<Int>.reloadAll, makeSource: Self.cursorSource)
    }

    @Test("P61: racing threads: .reloadAllInParallel over offsets while the head moves: every row once, in order")
    func parallelRacingTheHead() {
        race(RefreshMode<Int>.reloadAllInParallel(max: 2)) { rows in
            let server = ManualServer<Int, Response, ServerError>()
            let source = PageSource<Int, Int, Void, Response, ServerError>.offset { offset, size, _ in
                server.producer(offset, size: size)
            }
            let answer: @Sendable () -> Bool = {
                guard let request = server.pending.first else { return false }
                let shown = rows.rows
                let start = min(request.key, shown.count)
                request.succeed(
                    Response(items: Array(shown[start..<min(start + request.size, shown.count)]), total: shown.count))
                return true
            }
            return (source, answer)
        }
    }
}
