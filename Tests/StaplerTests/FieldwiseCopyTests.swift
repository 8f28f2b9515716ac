import TestSupport
import Testing

@testable import Stapler

/// The engine copies a snapshot into each publication, and releases each publication, one stored
/// property at a time (the whole value would go through its generic value witness). Both must cover
/// every stored property: these tests fail when a property is added to either type and not to them.
@Suite("Snapshots copied and publications released field by field")
struct FieldwiseCopyTests {
    typealias Tracked = LifetimeTracker.Tracked
    typealias Snapshot = PagingSnapshot<Tracked, Tracked, Fault>
    typealias Publication = PagingPublication<Tracked, Tracked, Tracked, Fault>

    struct Fault: Error, Equatable {
        let code: Int
    }

    /// A snapshot with no stored property at its default value.
    static func snapshot(items: PagedItems<Tracked>, metadata: Tracked) -> Snapshot {
        var snapshot = Snapshot(
            state: .errorLoadingMore(.source(Fault(code: 7))),
            loadStates: LoadStates(refresh: .idle(endReached: false), prepend: .loading, append: .failed(.timedOut)),
            items: items, pages: 3, total: 99, isEndReached: true, metadata: metadata, generation: 4,
            showsNextPageIndicator: true, leadingCount: -2, listSerial: 5)
        snapshot.stopReason = .failed(.invalidTotal(-1))
        snapshot.placeholdersBefore = 6
        snapshot.placeholdersAfter = 8
        snapshot.isStale = true
        snapshot.failureSerials.refresh = 9
        snapshot.failureSerials.prepend = 10
        snapshot.failureSerials.append = 11
        snapshot.stateFailureSerial = 12
        return snapshot
    }

    /// The stored properties of `value`, each described.
    static func properties(of value: Any) -> [String] {
        Swift.Mirror(reflecting: value).children.map { "\($0.label ?? "?"): \(String(reflecting: $0.value))" }
    }

    @Test("A snapshot copied field by field has every stored property of the original")
    func snapshotCopy() {
        let tracker = LifetimeTracker()
        let items = PagedItems([tracker.instance(), tracker.instance()])
        let original = Self.snapshot(items: items, metadata: tracker.instance())
        let copy = Snapshot(fieldwise: original)
        let properties = Self.properties(of: original)
        #expect(properties.count == Snapshot.fieldwisePropertyCount, "a stored property is not copied field by field")
        #expect(Self.properties(of: copy) == properties)
        #expect(copy.items.elementsEqual(items, by: ===))
        #expect(copy.metadata === original.metadata)
    }

    @Test("A publication released field by field releases every reference it holds, once")
    func publicationRelease() {
        let tracker = LifetimeTracker()
        let address = UnsafeMutablePointer<Publication>.allocate(capacity: 1)
        defer { address.deallocate() }
        do {
            let items = PagedItems([tracker.instance(), tracker.instance()])
            let previous = PagedItems([tracker.instance()])
            let publication = Publication(
                snapshot: Self.snapshot(items: items, metadata: tracker.instance()),
                itemsChange: .difference(ItemsDifference(removals: [0], insertions: [0, 1])), previousItems: previous,
                anchorRow: 0, laterPageError: .source(Fault(code: 1)), appliesPage: true,
                query: tracker.instance(), changesQuery: true, slotsChange: .appended(0..<2),
                previousPlaceholders: (1, 2))
            #expect(
                Self.properties(of: publication).count == Publication.releasedPropertyCount,
                "a stored property is not released field by field")
            address.initialize(to: publication)
        }
        #expect(tracker.created == 5)
        #expect(tracker.live == 5, "the publication in memory still holds every reference")
        Publication.release(at: address)
        #expect(tracker.live == 0, "a reference the publication held was not released")
    }
}
