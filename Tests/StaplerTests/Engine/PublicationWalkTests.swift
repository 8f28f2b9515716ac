import Foundation
import Reactive
import TestSupport
import Testing

@testable import Stapler

/// The walk from a call to the observer it notifies is counted, so the figure the internals article gives
/// is reproducible: every lock the calling thread takes on the way, in a debug build.
@Suite("The publication walk, counted")
struct PublicationWalkTests {
    #if DEBUG
        @Test("refresh() reaches an observer of state in four lock round trips")
        func refreshToStateObserver() {
            let server = OffsetServer()
            let paginator = Paginator(
                source: .offset { offset, size, _ in server.producer(offset, size: size) }, pageSize: 10)
            let state = paginator.state
            let locksAtObserver = Locked<[Int]>([])
            let observation = state.signal.observeValues { _ in locksAtObserver.append(LockCount.current) }
            // The first delivery to a derived signal's only observer finds it under the lock and remembers
            // it; the walk counted is the next one, as a list refreshes again and again.
            paginator.refresh()
            server.last?.succeed(page(0, 10, total: 30))
            locksAtObserver.value = []
            let locksAtCall = LockCount.current
            paginator.refresh()
            #expect(locksAtObserver.value.count == 1)
            // Without atomics (the fallback of older Apple systems) every atomic word is a lock too: the
            // figure is the build with atomics.
            guard AtomicWord().isLockFree else { return }
            let checks = LockCount.checkLocksPerDerivedDelivery
            #expect(locksAtObserver.value.map { $0 - locksAtCall - checks } == [4])
            observation.dispose()
        }

        @Test("a page a source sends reaches an observer of items in five lock round trips: the source's, then four")
        func answerToItemsObserver() {
            let server = OffsetServer()
            let paginator = Paginator(
                source: .offset { offset, size, _ in server.producer(offset, size: size) }, pageSize: 10)
            let items = paginator.items
            paginator.refresh()
            let locksAtObserver = Locked<[Int]>([])
            let observation = items.signal.observeValues { _ in locksAtObserver.append(LockCount.current) }
            let locksAtAnswer = LockCount.current
            server.last?.succeed(page(0, 10, total: 30))
            // The source's own signal delivers the page to the load's sink (one lock); from the engine on, the
            // walk is the refresh's: the state lock, the queue's two, the published value's.
            #expect(locksAtObserver.value.count == 1)
            guard AtomicWord().isLockFree else { return }
            let checks = LockCount.checkLocksPerDerivedDelivery
            #expect(locksAtObserver.value.map { $0 - locksAtAnswer - checks } == [5])
            observation.dispose()
        }
    #endif
}
