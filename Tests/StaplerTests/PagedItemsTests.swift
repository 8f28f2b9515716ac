import Reactive
import Stapler
import TestSupport
import Testing

@Suite("Chunked item storage")
struct PagedItemsTests {
    /// A Stapler over a synchronous source of `0..<total`.
    func synchronousStapler(pageSize: Int, total: Int) -> Stapler<Response, ServerError> {
        Stapler(pageSize: pageSize) { offset, size in
            SignalProducer(value: page(offset, min(size, total - offset), total: total))
        }
    }

    @Test("P15: snapshots kept by observers never change when later pages are appended")
    func P15_snapshotsAreImmutable() {
        let stapler = synchronousStapler(pageSize: 7, total: 700)
        let snapshots = Locked<[PagedItems<Int>]>([])
        stapler.items.signal.observeValues { snapshots.append($0) }
        stapler.refreshAction.apply().start()
        while !stapler.paginator.isEndReached.value { stapler.loadNextPageIfNeeded() }
        #expect(snapshots.value.count == 100)
        for (index, snapshot) in snapshots.value.enumerated() {
            #expect(Array(snapshot) == Array(0..<(index + 1) * 7))
            #expect(snapshot.count == (index + 1) * 7)
        }
    }

    @Test("indexing, iteration and page access agree on every position")
    func randomAccess() {
        let stapler = synchronousStapler(pageSize: 3, total: 100)
        stapler.refreshAction.apply().start()
        while !stapler.paginator.isEndReached.value { stapler.loadNextPageIfNeeded() }
        let items = stapler.items.value
        #expect(items.count == 100)
        for index in items.indices { #expect(items[index] == index) }
        #expect(items.reversed().first == 99)
        #expect(items.pageCount == 34)
        #expect(Array(items.items(ofPage: 33)) == [99])
        #expect(items[10..<13].elementsEqual([10, 11, 12]))
    }

    @Test("P14: every appended change arrives with the snapshot it describes")
    func P14_changesMatchSnapshots() {
        let stapler = synchronousStapler(pageSize: 10, total: 95)
        let log = Locked<[ItemsChange]>([])
        let mismatches = Locked(0)
        stapler.paginator.updates.observeValues { update in
            log.append(update.change)
            if case .appended(let range) = update.change {
                if update.previous.count != range.lowerBound || update.items.count != range.upperBound {
                    mismatches.increment(by: 1)
                }
            }
            if stapler.items.value.count != update.items.count { mismatches.increment(by: 1) }
        }
        stapler.refreshAction.apply().start()
        while !stapler.paginator.isEndReached.value { stapler.loadNextPageIfNeeded() }
        stapler.refreshAction.apply().start()
        #expect(mismatches.value == 0)
        let expected: [ItemsChange] =
            [.reloaded] + (1..<9).map { .appended($0 * 10..<$0 * 10 + 10) } + [.appended(90..<95), .reloaded]
        #expect(log.value == expected)
    }

    @Test("every property already holds the new values when any observer is notified")
    func propertiesChangeTogether() {
        let stapler = synchronousStapler(pageSize: 10, total: 30)
        let inconsistent = Locked(0)
        let check: @Sendable () -> Void = {
            let items = stapler.items.value.count
            let pages = stapler.pages.value
            if items != pages * 10 && !(items == 30 && pages == 3) { inconsistent.increment(by: 1) }
        }
        stapler.items.signal.observeValues { _ in check() }
        stapler.pages.signal.observeValues { _ in check() }
        stapler.paginator.state.signal.observeValues { _ in check() }
        stapler.refreshAction.apply().start()
        while !stapler.paginator.isEndReached.value { stapler.loadNextPageIfNeeded() }
        #expect(stapler.pages.value == 3)
        #expect(inconsistent.value == 0)
    }
}
