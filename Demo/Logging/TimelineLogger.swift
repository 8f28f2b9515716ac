import Reactive
import Stapler

/// Logs every change of the chat's transformed timeline as its observers receive it, and checks it:
/// applied to the rows before, the change gives the rows after, and those are the timeline computed
/// from scratch from the paginator's messages.
@MainActor
final class TimelineLogger {
    private(set) var violations: [String] = []
    private(set) var changes = 0
    private var rows: [ChatTimeline.Row]
    private let disposable: (any Disposable)?

    init(
        _ timeline: TransformedList<ChatTimeline.Row>, of paginator: ChatSession.ChatPaginator, log: Log
    ) {
        rows = Array(timeline.items.value)
        var record: (@MainActor (TransformedUpdate<ChatTimeline.Row>) -> Void)?
        disposable = timeline.updates.observeValues { update in
            MainActor.assumeIsolated { record?(update) }
        }
        record = { [weak self] update in
            guard let self else { return }
            changes += 1
            log.write(.paginator, "timeline", Self.describe(update))
            update.apply(to: &rows)
            let shown = Array(update.items)
            if rows != shown { violations.append("timeline change \(update.change) does not give its rows") }
            let snapshot = paginator.snapshot.value
            let expected = ChatTimeline.rows(
                of: Array(snapshot.items), startReached: snapshot.loadStates.prepend.isEndReached)
            if shown != expected {
                violations.append("timeline differs from the messages' days after \(update.change)")
            }
        }
    }

    func dispose() {
        disposable?.dispose()
    }

    /// One line for a change of the timeline: what changed, where, and which rows.
    static func describe(_ update: TransformedUpdate<ChatTimeline.Row>) -> String {
        func rows(_ items: TransformedItems<ChatTimeline.Row>, _ range: Range<Int>) -> String {
            range.map { index -> String in
                switch items[index] {
                case .day(let day): "[day \(day)]"
                case .message(let message): "\(message.id)"
                }
            }.joined(separator: " ")
        }
        switch update.change {
        case .reloaded: return "reloaded 0..<\(update.items.count): \(rows(update.items, 0..<update.items.count))"
        case .cleared: return "cleared"
        case .appended(let range): return "appended \(range) of \(update.items.count): \(rows(update.items, range))"
        case .inserted(let range): return "inserted \(range) of \(update.items.count): \(rows(update.items, range))"
        case .removed(let range): return "removed \(range) of \(update.previous.count): \(rows(update.previous, range))"
        case .updated(let range): return "updated \(range): \(rows(update.items, range))"
        case .difference(let difference):
            return "difference: \(difference.removals.count) removed, \(difference.insertions.count) inserted, "
                + "\(difference.moves.count) moved, \(difference.updates.count) updated"
        }
    }
}
