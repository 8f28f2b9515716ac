import Dispatch
import Reactive
import Stapler
import TestSupport
import Testing

/// A mirror observer: keeps its own array in a plain variable (so Thread Sanitizer sees any delivery
/// that overlaps another), and on every update checks that the update's previous snapshot is the
/// mirror, applies the change with its own code (a table view's batch-update rules, written here
/// independently of the library), and checks that the result is the update's new snapshot.
final class Mirror<Item: Equatable & Sendable>: @unchecked Sendable {
    // Guarded by the paginator's serial delivery: notifications never overlap (a race here is a bug
    // Thread Sanitizer reports).
    var rows: [Item] = []
    // Guarded by the same serial delivery.
    var failures: [String] = []
    // Guarded by the same serial delivery.
    var changes: [ItemsChange] = []

    init<Key, Query, Metadata, Failure>(_ paginator: Paginator<Item, Key, Query, Metadata, Failure>) {
        rows = Array(paginator.items.value)
        paginator.updates.observeValues { [self] update in check(update) }
    }

    func check<Metadata>(_ update: ItemsUpdate<Item, Metadata>) {
        changes.append(update.change)
        if Array(update.previous) != rows {
            failures.append("\(update.change): previous \(Array(update.previous)) is not the mirror \(rows)")
        }
        let new = Array(update.items)
        if case .appended(let range) = update.change, range.lowerBound != rows.count {
            failures.append("appended \(range) after \(rows.count) rows")
        }
        rows = Self.apply(update.change, to: rows, giving: new)
        if rows != new { failures.append("\(update.change) gives \(rows), not \(new)") }
    }

    /// `rows` with `change` applied by a table view's batch-update rules, taking new rows from `new`.
    static func apply(_ change: ItemsChange, to rows: [Item], giving new: [Item]) -> [Item] {
        var rows = rows
        switch change {
        case .reloaded: rows = new
        case .cleared: rows = []
        case .appended(let range): rows += new[range]
        case .inserted(let range): rows.insert(contentsOf: new[range], at: range.lowerBound)
        case .removed(let range): rows.removeSubrange(range)
        case .updated(let range): rows.replaceSubrange(range, with: new[range])
        case .difference(let difference):
            let gone = Set(difference.removals).union(difference.moves.map(\.from))
            rows = rows.enumerated().filter { !gone.contains($0.offset) }.map(\.element)
            for index in (difference.insertions + difference.moves.map(\.to)).sorted() {
                guard index <= rows.count else { return rows }
                rows.insert(new[index], at: index)
            }
            for index in difference.updates where index < rows.count { rows[index] = new[index] }
        }
        return rows
    }
}

/// An offset server over items `0..<total` whose every request is answered by hand.
typealias TwoEndedServer = ManualServer<Int, Response, ServerError>

/// Answers `request` with the rows it asked for, of a list of `total` items.
func answer(_ request: TwoEndedServer.Request?, total: Int, on queue: DispatchQueue? = nil) {
    guard let request else {
        Issue.record("no request to answer")
        return
    }
    let count = max(0, min(request.size, total - request.key))
    request.succeed(page(request.key, count, total: total), on: queue)
}

extension ManualServer {
    /// The requests whose run has not ended.
    var pending: [Request] { requests.filter { !$0.isDisposed } }
}

/// A paginator over an offset server, opened at `initialKey`.
func offsetPaginator(
    _ server: TwoEndedServer, pageSize: Int = 10, initialKey: Int? = nil, prefetchDistance: Int? = nil,
    deduplication: Deduplication<Int>? = nil, deliveringOn scheduler: (any Scheduler)? = nil,
    policy: PagingPolicy = .default, maxPages: Int? = nil
) -> Paginator<Int, Int, String, Response, ServerError> {
    Paginator(
        source: .offset { offset, size, _ in server.producer(offset, size: size) }, query: "q", initialKey: initialKey,
        options: PagingOptions(
            pageSize: pageSize, prefetchDistance: prefetchDistance, deduplication: deduplication,
            deliveringOn: scheduler, policy: policy, maxPages: maxPages))
}
