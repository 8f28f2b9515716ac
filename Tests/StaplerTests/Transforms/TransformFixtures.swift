import Reactive
import Stapler
import TestSupport
import Testing

/// A row of the transformed lists under test.
enum TRow: Hashable, Sendable, CustomStringConvertible {
    case item(Int)
    case section(Int)
    case top
    case bottom
    case header(ListEdge.Status)
    case footer(ListEdge.Status)

    var description: String {
        switch self {
        case .item(let value): "\(value)"
        case .section(let decade): "§\(decade)"
        case .top: "⊤"
        case .bottom: "⊥"
        case .header(let status): "H(\(status))"
        case .footer(let status): "F(\(status))"
        }
    }

    var value: Int? {
        if case .item(let value) = self { return value }
        return nil
    }
}

/// One step of a transform under test, applied both by ``ListTransform`` and by ``naive(_:)``.
enum TestStep: Sendable {
    case map(@Sendable (TRow) -> TRow)
    case compactMap(@Sendable (TRow) -> TRow?)
    case filter(@Sendable (TRow) -> Bool)
    case separators(@Sendable (TRow?, TRow?) -> TRow?)

    /// Leaves out multiples of 3.
    static let skipThrees = TestStep.filter { $0.value.map { $0 % 3 != 0 } ?? true }
    /// Doubles each item.
    static let double = TestStep.map { $0.value.map { .item($0 * 2) } ?? $0 }
    /// Leaves out items above 1,000 and shifts the others by one.
    static let shift = TestStep.compactMap { row in row.value.map { $0 > 1_000 ? nil : .item($0 + 1) } ?? row }
    /// A section row before each item of a new decade, `top` and `bottom` at the list's ends.
    static let decades = TestStep.separators { before, after in
        switch (before, after) {
        case (nil, let after?): after.value.map { .section($0 / 10) } ?? .top
        case (let before?, let after?):
            before.value != nil && after.value != nil && before.value! / 10 != after.value! / 10
                ? .section(after.value! / 10) : nil
        case (_?, nil): .bottom
        case (nil, nil): nil
        }
    }
}

/// A transform: items become `TRow.item`, then `steps`, then an optional header and footer.
struct TestTransform: Sendable {
    var steps: [TestStep]
    var header: (@Sendable (ListEdge) -> TRow?)? = nil
    var footer: (@Sendable (ListEdge) -> TRow?)? = nil

    var transform: ListTransform<Int, TRow> {
        var transform = ListTransform<Int, Int>().map { TRow.item($0) }
        for step in steps {
            switch step {
            case .map(let map): transform = transform.map(map)
            case .compactMap(let map): transform = transform.compactMap(map)
            case .filter(let isIncluded): transform = transform.filter(isIncluded)
            case .separators(let separator): transform = transform.separators(separator)
            }
        }
        if let header { transform = transform.header(header) }
        if let footer { transform = transform.footer(footer) }
        return transform
    }

    /// The transform of `items` computed from scratch, the obvious way.
    func naive(_ items: [Int], top: Bool, bottom: Bool, header headerEdge: ListEdge, footer footerEdge: ListEdge)
        -> [TRow]
    {
        var rows = items.map { TRow.item($0) }
        for step in steps {
            switch step {
            case .map(let map): rows = rows.map(map)
            case .compactMap(let map): rows = rows.compactMap(map)
            case .filter(let isIncluded): rows = rows.filter(isIncluded)
            case .separators(let separator):
                var separated: [TRow] = []
                for (index, row) in rows.enumerated() {
                    if index > 0 {
                        if let between = separator(rows[index - 1], row) { separated.append(between) }
                    } else if top, let first = separator(nil, row) {
                        separated.append(first)
                    }
                    separated.append(row)
                }
                if bottom, let last = rows.last, let after = separator(last, nil) { separated.append(after) }
                rows = separated
            }
        }
        if let header, let row = header(headerEdge) { rows.insert(row, at: 0) }
        if let footer, let row = footer(footerEdge) { rows.append(row) }
        return rows
    }

    /// The transform of a paginator's snapshot computed from scratch.
    func naive<Metadata, Failure>(_ snapshot: PagingSnapshot<Int, Metadata, Failure>) -> [TRow] {
        let states = snapshot.loadStates
        let empty = snapshot.items.isEmpty
        let top: LoadState<Failure> =
            states.refresh.isLoading || states.refresh.error != nil ? states.refresh : states.prepend
        return naive(
            Array(snapshot.items), top: states.prepend.isEndReached, bottom: snapshot.isEndReached,
            header: ListEdge(status: status(top), isListEmpty: empty),
            footer: ListEdge(status: status(states.append), isListEmpty: empty))
    }

    private func status<Failure>(_ state: LoadState<Failure>) -> ListEdge.Status {
        switch state {
        case .idle(let ended): ended ? .ended : .idle
        case .loading: .loading
        case .failed: .failed
        }
    }
}

/// Watches a transformed list and its paginator, and records every way they disagree: an update whose
/// previous snapshot is not the last one heard, a change that does not turn it into the new one, a
/// transformed snapshot that is not the transform of the paginator's from scratch when the paginator's
/// observers hear it, or one older than the paginator's latest delivered snapshot.
final class TransformMirror: @unchecked Sendable {
    // Guarded by the paginator's serial delivery: notifications never overlap (a race here is a bug
    // Thread Sanitizer reports).
    var rows: [TRow]
    // Guarded by the same serial delivery.
    var failures: [String] = []
    // Guarded by the same serial delivery.
    var changes: [ItemsChange] = []
    // Guarded by the same serial delivery: the paginator snapshots delivered so far.
    var delivered = 0

    init<Key, Query, Metadata, Failure>(
        _ list: TransformedList<TRow>, of paginator: Paginator<Int, Key, Query, Metadata, Failure>,
        _ transform: TestTransform
    ) {
        rows = Array(list.items.value)
        // Weakly, both ways: the list keeps its paginator, and the paginator's observers must not keep the list.
        list.updates.observeValues { [self, weak paginator] update in
            guard let paginator else { return }
            changes.append(update.change)
            if Array(update.previous) != rows {
                failures.append("\(update.change): previous \(Array(update.previous)) is not the mirror \(rows)")
            }
            let new = Array(update.items)
            rows = Mirror<TRow>.apply(update.change, to: rows, giving: new)
            if rows != new { failures.append("\(update.change) gives \(rows), not \(new)") }
            let expected = transform.naive(paginator.snapshot.value)
            if new != expected {
                failures.append("heard \(new) while the paginator's snapshot transforms to \(expected)")
            }
        }
        paginator.snapshot.signal.observeValues { [self, weak list] snapshot in
            guard let list else { return }
            delivered += 1
            let expected = transform.naive(snapshot)
            let shown = Array(list.items.value)
            if shown != expected {
                failures.append("paginator delivered \(Array(snapshot.items)): list shows \(shown), not \(expected)")
            }
        }
    }
}

/// A paginator over an offset server with one transformed list and its mirror.
struct TransformHarness {
    let server = TwoEndedServer()
    let paginator: Paginator<Int, Int, String, Response, ServerError>
    let list: TransformedList<TRow>
    let mirror: TransformMirror
    let transform: TestTransform

    init(
        _ transform: TestTransform, pageSize: Int = 10, initialKey: Int? = nil, prefetchDistance: Int? = nil,
        deduplication: Deduplication<Int>? = nil, deliveringOn scheduler: (any Scheduler)? = nil, maxPages: Int? = nil,
        reference: TestTransform? = nil
    ) {
        paginator = offsetPaginator(
            server, pageSize: pageSize, initialKey: initialKey, prefetchDistance: prefetchDistance,
            deduplication: deduplication, deliveringOn: scheduler, maxPages: maxPages)
        list = paginator.transformed(by: transform.transform)
        // The reference computes from scratch with its own closures, so counting closures count the list's
        // calls only.
        self.transform = reference ?? transform
        mirror = TransformMirror(list, of: paginator, self.transform)
    }

    /// A harness of a list made with `transform` itself, checked against `reference`, the same transform
    /// as test steps, computed from scratch.
    init(
        _ transform: ListTransform<Int, TRow>, reference: TestTransform, pageSize: Int = 10, initialKey: Int? = nil,
        deduplication: Deduplication<Int>? = nil
    ) {
        paginator = offsetPaginator(
            server, pageSize: pageSize, initialKey: initialKey, deduplication: deduplication)
        list = paginator.transformed(by: transform)
        self.transform = reference
        mirror = TransformMirror(list, of: paginator, reference)
    }

    /// The transformed rows now.
    var rows: [TRow] { Array(list.items.value) }

    /// The transform of the paginator's items from scratch.
    var expected: [TRow] { transform.naive(paginator.snapshot.value) }
}
