import Reactive
import Stapler
import TestSupport

/// The model-based check of a transformed list: each paginator of a session gets one, and after every
/// step its snapshot must equal the transform applied to the paginator's snapshot from scratch, and
/// every update it published must have turned the previous transformed snapshot into the new one. Beside
/// it, the identity transform (no steps: the rows pass through) must show the paginator's rows, by the same
/// two checks.
final class TransformCheck: Sendable {
    /// A row of the transformed list.
    enum ModelRow: Equatable, Sendable {
        case item(Int)
        case section(Int)
        case top
        case bottom
        case footer(ListEdge.Status)
    }

    let list: TransformedList<ModelRow>
    /// The identity transform of the same paginator.
    let passThrough: TransformedList<Int>
    /// The rows as the updates built them, and the first failure seen.
    private let mirror: Locked<[ModelRow]>
    private let passThroughMirror: Locked<[Int]>
    private let failures = Locked<[String]>([])
    /// How many updates were checked.
    let updates = Locked(0)

    init<Key, Metadata, Failure>(_ paginator: Paginator<Int, Key, Int, Metadata, Failure>) {
        list = paginator.transformed(by: Self.transform)
        mirror = Self.mirror(of: list, failures: failures, updates: updates)
        passThrough = paginator.transformed(by: ListTransform<Int, Int>())
        passThroughMirror = Self.mirror(of: passThrough, failures: failures, updates: updates)
    }

    /// The rows of `list` as its updates build them, each update checked against them.
    private static func mirror<Row: Equatable & Sendable>(
        of list: TransformedList<Row>, failures: Locked<[String]>, updates: Locked<Int>
    ) -> Locked<[Row]> {
        let mirror = Locked(Array(list.items.value))
        list.updates.observeValues { [mirror, failures, updates] update in
            updates.increment(by: 1)
            mirror.withLock { rows in
                if Array(update.previous) != rows {
                    failures.append("transformed \(update.change): previous is not the last snapshot")
                }
                update.apply(to: &rows)
                if rows != Array(update.items) {
                    failures.append("transformed \(update.change) gives \(rows), not \(Array(update.items))")
                }
            }
        }
        return mirror
    }

    /// The transform: every item but the fifth of each query's list (a filter that never empties a page,
    /// which would make the list load the next page by itself, a request the reference does not model), doubled, with a section before each new
    /// hundred, markers at the list's true ends, and the bottom edge's state as a footer.
    static var transform: ListTransform<Int, ModelRow> {
        ListTransform<Int, Int>()
            .filter { $0 % 1_000 != 4 }
            .map { ModelRow.item($0 * 2) }
            .separators(section)
            .footer { .footer($0.status) }
    }

    @Sendable static func section(_ before: ModelRow?, _ after: ModelRow?) -> ModelRow? {
        switch (before, after) {
        case (nil, _?): return .top
        case (_?, nil): return .bottom
        case (.item(let left)?, .item(let right)?): return left / 200 == right / 200 ? nil : .section(right / 200)
        default: return nil
        }
    }

    /// The transform of `snapshot` from scratch.
    static func naive<Metadata, Failure>(_ snapshot: PagingSnapshot<Int, Metadata, Failure>) -> [ModelRow] {
        let rows = snapshot.items.filter { $0 % 1_000 != 4 }.map { ModelRow.item($0 * 2) }
        var shown: [ModelRow] = []
        for (index, row) in rows.enumerated() {
            let before = index > 0 ? rows[index - 1] : nil
            if index > 0 || snapshot.loadStates.prepend.isEndReached, let separator = section(before, row) {
                shown.append(separator)
            }
            shown.append(row)
        }
        if snapshot.isEndReached, let last = rows.last, let separator = section(last, nil) { shown.append(separator) }
        let status: ListEdge.Status =
            switch snapshot.loadStates.append {
            case .idle(let ended): ended ? .ended : .idle
            case .loading: .loading
            case .failed: .failed
            }
        return shown + [.footer(status)]
    }

    /// The first way the transformed list disagrees with its paginator, if any.
    func failure<Key, Metadata, Failure>(_ paginator: Paginator<Int, Key, Int, Metadata, Failure>) -> String? {
        if let failure = failures.value.first { return failure }
        let expected = Self.naive(paginator.snapshot.value)
        let shown = Array(list.items.value)
        if shown != expected { return "transformed list \(shown), expected \(expected)" }
        if mirror.value != shown { return "transformed updates built \(mirror.value), the list shows \(shown)" }
        let rows = Array(paginator.snapshot.value.items)
        let passed = Array(passThrough.items.value)
        if passed != rows { return "identity transform \(passed), expected \(rows)" }
        if passThroughMirror.value != passed {
            return "identity updates built \(passThroughMirror.value), the list shows \(passed)"
        }
        return nil
    }
}
