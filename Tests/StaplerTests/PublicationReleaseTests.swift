import Reactive
import Stapler
import TestSupport
import Testing

/// The engine hands its publications on by reference and lets go of each one it replaces after
/// unlocking: the last reference to rows a refresh dropped can be that publication, and a row's `deinit`
/// is user code.
@Suite("Publications the engine lets go of")
struct PublicationReleaseTests {
    /// A row that runs `onRelease` in its `deinit`.
    final class Row: Sendable {
        let id: Int
        let onRelease: @Sendable (Int) -> Void

        init(id: Int, onRelease: @escaping @Sendable (Int) -> Void) {
            self.id = id
            self.onRelease = onRelease
        }

        deinit { onRelease(id) }
    }

    struct Rows: PaginatedResponse {
        let items: [Row]
        let total: Int
    }

    typealias RowPaginator = Paginator<Row, Int, Void, Rows, Never>

    @Test("Releasing a paginator frees the rows it shows: its delivery queue lets go of its state")
    func releasedPaginatorFreesItsRows() {
        let released = Locked<[Int]>([])
        do {
            let paginator = RowPaginator(
                source: .offset { offset, size, _ in
                    let rows = (offset..<offset + size).map { id in Row(id: id) { released.append($0) } }
                    return SignalProducer(value: Rows(items: rows, total: 30))
                }, pageSize: 10)
            paginator.refresh()
            paginator.loadNextPage()
            #expect(paginator.items.value.count == 20)
            #expect(released.value.isEmpty)
        }
        #expect(Set(released.value) == Set(0..<20), "every row shown goes with the paginator")
    }

    @Test("A replaced publication is released with no lock held: a dropped row's deinit may call the paginator")
    func releasedWithNoLockHeld() {
        let paginator = Locked<RowPaginator?>(nil)
        let released = Locked<[Int]>([])
        let generation = Locked(0)
        let onRelease: @Sendable (Int) -> Void = { id in
            released.append(id)
            // Takes the engine's locks: a deadlock if the release ran under one of them.
            paginator.value?.preload(index: 0)
            _ = paginator.value?.state.value
        }
        let finished = finishesWithin(seconds: 20) {
            let made = RowPaginator(
                source: .offset { offset, size, _ in
                    let base = generation.value * 1_000
                    let rows = (offset..<offset + size).map { Row(id: base + $0, onRelease: onRelease) }
                    return SignalProducer(value: Rows(items: rows, total: 30))
                }, pageSize: 10)
            paginator.value = made
            made.refresh()
            made.loadNextPage()
            for round in 1...5 {
                generation.value = round
                made.refresh()
                made.loadNextPage()
            }
            paginator.value = nil
        }
        #expect(finished, "a row released under a lock of the engine deadlocked")
        // Every generation but the last was dropped by the next refresh: its 20 rows are released.
        #expect(released.value.count >= 5 * 20)
        #expect(Set(released.value.map { $0 / 1_000 }).isSuperset(of: 0..<5))
    }

    @Test("Publications queued faster than they are delivered all arrive, in order, each with its own snapshot")
    func burstOfQueuedPublications() {
        let server = OffsetServer()
        let paginator = Paginator(
            source: .offset { offset, size, _ in server.producer(offset, size: size) }, pageSize: 10)
        let counts = Locked<[Int]>([])
        var observation: (any Disposable)?
        // Each notification answers the next load, so up to a burst of publications queue behind the one
        // being delivered in the engine's delivery queue.
        observation = paginator.items.signal.observeValues { items in
            counts.append(items.count)
            if items.count < 200, items.count % 10 == 0 {
                paginator.loadNextPage()
                server.last?.succeed(page(items.count, 10, total: 200))
            }
        }
        paginator.refresh()
        server.last?.succeed(page(0, 10, total: 200))
        #expect(counts.value == Array(stride(from: 10, through: 200, by: 10)))
        #expect(Array(paginator.items.value) == Array(0..<200))
        observation?.dispose()
        observation = nil
    }
}
