import Reactive
import Stapler
import TestSupport

/// A paginator over Store S's feed, driven by a randomized sequence and checked after every step against
/// a reference: the store's rows at every version, kept by the session as it writes them.
///
/// The check: no id shows twice; the rows shown are a contiguous run of the feed's rows at the version
/// the list's snapshot names (so in the feed's order, none skipped), each equal to the stored row at that
/// version or to the local edit the session made of it (a local edit stays until the store's next change
/// of the collection reloads the window). At the end, after one more commit and the coalescing latency,
/// the rows must equal the stored ones at the store's last version, and scrolling to each end must reach
/// the feed's first and last rows.
final class StoreListSession {
    /// Posts are drawn from ids 1 to this.
    static let idRange = 60
    static let latency = Duration.milliseconds(16)

    let configuration: StoreListConfiguration
    let fixture: StoreFixture<Post>
    let scheduler = TestScheduler()
    let list: PostList
    /// The stored posts now, by id.
    private var rows: [Int: Post] = [:]
    /// The feed's rows at each version, in its order.
    private var history: [UInt64: [Post]] = [:]
    /// The rows the session edited locally, as it edited them.
    private var localEdits: [Int: Post] = [:]
    private var titles = 0

    init(_ configuration: StoreListConfiguration) throws {
        self.configuration = configuration
        fixture = try StoreFixture(configuration.kind, schema: .storeS)
        try fixture.seed(1...30)
        for id in 1...30 { rows[id] = Post.numbered(id) }
        history[fixture.dataVersion] = Self.feed(rows)
        list = PostList(
            store: fixture, collection: "feed", pageSize: 5,
            options: PagingOptions(prefetchDistance: 2, maxPages: configuration.bounded ? 3 : nil),
            openingAt: configuration.opensAtEnd ? .last : .first, maxCoalescingLatency: Self.latency,
            scheduler: scheduler)
    }

    /// Store S's feed order: newest first, NULLs last, then the higher id first.
    static func feed(_ rows: [Int: Post]) -> [Post] {
        rows.values.sorted { left, right in
            switch (left.createdAt, right.createdAt) {
            case (nil, nil): return left.id > right.id
            case (nil, _): return false
            case (_, nil): return true
            case (let l?, let r?): return l != r ? l > r : left.id > right.id
            }
        }
    }

    /// Applies `operation`; returns what went wrong, if anything.
    func apply(_ operation: StoreListOperation) -> String? {
        switch operation {
        case .write(let writes):
            do {
                try write(writes)
            } catch {
                return "the write failed: \(error)"
            }
        case .loadNextPage: list.loadNextPage()
        case .loadPreviousPage: list.loadPreviousPage()
        case .preload(let percent):
            let count = list.items.value.count
            if count > 0 { list.preload(index: min(count - 1, count * percent / 100)) }
        case .editLocally(let percent):
            let items = list.items.value
            guard !items.isEmpty else { break }
            titles += 1
            let title = "local\(titles)"
            let index = min(items.count - 1, items.count * percent / 100)
            if case .applied = list.modify(at: index, { $0.title = title }) {
                var edited = items[items.startIndex + index]
                edited.title = title
                localEdits[edited.id] = edited
            }
        case .advance(let milliseconds): scheduler.advance(by: .milliseconds(milliseconds))
        }
        return check(exact: false)
    }

    /// Ends the session: one more commit, the coalescing latency, then a scroll to each end.
    func finish() -> String? {
        do {
            try write([rows[1] == nil ? .upsert(id: 1, createdAt: 10) : .rename(id: 1)])
        } catch {
            return "the last write failed: \(error)"
        }
        scheduler.advance(by: .milliseconds(100))
        // A reload whose rows equal those shown publishes nothing, so the list's version may be older: its
        // rows must be the store's last version's all the same.
        if let failure = check(exact: true, at: fixture.dataVersion) { return failure }
        let latest = history[fixture.dataVersion] ?? []
        if let failure = scroll(down: true) { return failure }
        if let failure = check(exact: true, at: fixture.dataVersion) { return "scrolled down: \(failure)" }
        if list.items.value.last?.id != latest.last?.id { return "scrolled down to \(list.ids), store \(latest.ids)" }
        if let failure = scroll(down: false) { return failure }
        if let failure = check(exact: true, at: fixture.dataVersion) { return "scrolled up: \(failure)" }
        if list.items.value.first?.id != latest.first?.id { return "scrolled up to \(list.ids), store \(latest.ids)" }
        if !configuration.bounded, list.ids != latest.ids {
            return "the list \(list.ids) is not the store \(latest.ids)"
        }
        return nil
    }

    /// Scrolls to one end as a screen does (a preload at the row shown at that end, then a page there)
    /// until nothing more loads; a walk longer than the store's rows fails.
    private func scroll(down: Bool) -> String? {
        for _ in 0...Self.idRange {
            let before = list.ids
            if !before.isEmpty { list.preload(index: down ? before.count - 1 : 0) }
            let outcome = down ? list.loadNextPage() : list.loadPreviousPage()
            if case .started = outcome { continue }
            if list.ids == before { return nil }
        }
        return "scrolling \(down ? "down" : "up") never ends: \(list.ids), \(list.loadStates.value)"
    }

    private func write(_ writes: [StoreListWrite]) throws {
        let change = try fixture.write { transaction in
            for write in writes {
                switch write {
                case .upsert(let id, let createdAt):
                    titles += 1
                    let post = Post(id: id, createdAt: createdAt, title: "w\(titles)")
                    rows[id] = post
                    transaction.upsert(post)
                case .rename(let id):
                    guard var post = rows[id] else { continue }
                    titles += 1
                    post.title = "w\(titles)"
                    rows[id] = post
                    transaction.upsert(post)
                case .delete(let id):
                    rows[id] = nil
                    transaction.delete(.integer(Int64(id)))
                }
            }
        }
        if history[change.version] == nil { history[change.version] = Self.feed(rows) }
    }

    /// Checks the rows shown against the stored rows at the list's version (or at `version`).
    private func check(exact: Bool, at version: UInt64? = nil) -> String? {
        let items = Array(list.items.value)
        let ids = items.map(\.id)
        guard Set(ids).count == ids.count else { return "an id shows twice: \(ids)" }
        guard let version = version ?? list.snapshot.value.metadata?.version else {
            return items.isEmpty ? nil : "rows \(ids) without a version"
        }
        guard let stored = history[version] else { return "the list names version \(version), never committed" }
        guard let first = items.first else {
            return stored.isEmpty ? nil : "the list is empty, version \(version) has \(stored.ids)"
        }
        guard let start = stored.firstIndex(where: { $0.id == first.id }) else {
            return "row \(first.id) is not in version \(version): \(stored.ids)"
        }
        for (offset, item) in items.enumerated() {
            let index = start + offset
            guard index < stored.count, stored[index].id == item.id else {
                return "the rows \(ids) are not a run of version \(version): \(stored.ids)"
            }
            if item != stored[index], exact || localEdits[item.id] != item {
                return "row \(item.id) shows \(item), version \(version) has \(stored[index])"
            }
        }
        return nil
    }
}

extension Array where Element == Post {
    var ids: [Int] { map(\.id) }
}
