import Dispatch
import Reactive
import Stapler

/// Runs an app's page source through the rules a paginator relies on, and reports the first one it
/// breaks.
///
/// ``check(_:timeout:)`` loads every page through the source itself, as a paginator does: a source made
/// with a page model gets that model's own keys, request sizes and ends, so the check sees what a
/// paginator would see. It opens the list at the source's first key and at every other opening key of the
/// subject, walks each opening to both ends, and checks that:
/// - every load answers (synchronously, on the subject's `TestScheduler`, or on another thread within
///   the timeout) with a page, and no page holds more items than the page size (a single load's page
///   may hold the whole list);
/// - every item comes exactly once, whichever key the list opened at, and in the same order as from the
///   first key (an item missing from a walk is reported as unreachable from that opening);
/// - keys round-trip: the previous key of each page leads back to the items just before it;
/// - a page without a next key, or an empty page, ends the list; a walk that never ends is reported.
public enum PageSourceConformance {
    /// Checks the source of `subject`, throwing the first violation found; it returns only if the source
    /// keeps every rule from every opening.
    ///
    /// Without a `TestScheduler`, it blocks the calling thread while it waits for an answer: call it off
    /// the queue the source answers on (a source that answers on the main queue, from a test on another
    /// thread).
    ///
    /// - Parameters:
    ///   - subject: The source and how to drive it.
    ///   - timeout: How long to wait for an answer that comes on another thread.
    /// - Throws: The first ``ConformanceViolation``, which names the direction, the key and the ids.
    public static func check<Item, Key, Query, Metadata, Failure, ID>(
        _ subject: PageSourceUnderTest<Item, Key, Query, Metadata, Failure, ID>, timeout: Duration = .seconds(10)
    ) throws(ConformanceViolation) {
        var walker = ConformanceWalker(subject: subject, timeout: timeout)
        let reference = try walker.walk(openingAt: subject.firstKey)
        for key in subject.openingKeys {
            let walk = try walker.walk(openingAt: key)
            try compare(walk, with: reference, openingAt: key)
        }
        try walker.checkRoundTrips()
    }

    /// Checks that a walk from another opening reached the ids of the reference walk, in order.
    static func compare<ID: Hashable>(_ walk: [ID], with reference: [ID], openingAt key: some Any)
        throws(ConformanceViolation)
    {
        let opening = describeKey(key)
        let reached = Set(walk)
        if let missing = reference.first(where: { !reached.contains($0) }) {
            let id = String(describing: missing)
            throw ConformanceViolation(
                direction: .refresh, key: opening, ids: [id], description: "id \(id) unreachable from openAt \(opening)"
            )
        }
        let known = Set(reference)
        if let extra = walk.first(where: { !known.contains($0) }) {
            let id = String(describing: extra)
            throw ConformanceViolation(
                direction: .refresh, key: opening, ids: [id],
                description: "id \(id) from openAt \(opening) is not in the list opened at the first key")
        }
        if let position = zip(walk, reference).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            let ids = [String(describing: reference[position]), String(describing: walk[position])]
            throw ConformanceViolation(
                direction: .refresh, key: opening, ids: ids,
                description: "from openAt \(opening), row \(position) is id \(ids[1]) where the list has id \(ids[0])")
        }
    }
}

/// The outcome of one load under the check.
enum LoadAnswer<Page: Sendable>: Sendable {
    case page(Page)
    case failed(String)
}

extension PageSourceUnderTest {
    /// Starts the load of `request` through the source, as a paginator does, and waits for its first
    /// answer: at once, by running the scheduler, or for `timeout` on another thread.
    func answer(
        to request: PageRequest<Key, Query>, timeout: Duration
    ) -> LoadAnswer<Page<Item, Key, Metadata>>? {
        let answer = LockedState<LoadAnswer<Page<Item, Key, Metadata>>?>(nil)
        let answered = DispatchSemaphore(value: 0)
        let settle: @Sendable (LoadAnswer<Page<Item, Key, Metadata>>) -> Void = { outcome in
            let first = answer.withLock { current in
                guard current == nil else { return false }
                current = outcome
                return true
            }
            if first { answered.signal() }
        }
        let disposable = source.load(request) { event in
            switch event {
            case .value(let page): settle(.page(page))
            case .failed(.source(let error)): settle(.failed("failed: \(error)"))
            case .failed(let error): settle(.failed("failed: \(error)"))
            case .completed: settle(.failed("completed without a page"))
            case .interrupted: settle(.failed("was interrupted"))
            }
        }
        defer { disposable.dispose() }
        if let scheduler, answer.withLock({ $0 == nil }) { scheduler.run() }
        if scheduler == nil, answer.withLock({ $0 == nil }) {
            let nanoseconds =
                timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
            _ = answered.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
        }
        return answer.withLock { $0 }
    }
}
