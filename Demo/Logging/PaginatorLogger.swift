import Reactive
import Stapler

/// Logs every change of every property of a paginator, as the paginator notifies it.
///
/// Each property is observed on its own (as a screen would bind it), so the log shows the order in
/// which the paginator delivers one change to all its observers.
enum PaginatorLogger {
    /// Starts logging the changes of `paginator` into `log`; dispose the result to stop.
    static func attach<Item: ListItem, Key, Query, Metadata, Failure>(
        to paginator: Paginator<Item, Key, Query, Metadata, Failure>, log: Log
    ) -> CompositeDisposable {
        let disposables = CompositeDisposable()
        // The old state by name, the new one with its error: the error shows once, when it happens.
        disposables += logChanges(of: paginator.state, named: "state", into: log, old: { $0.name }) {
            $0.description
        }
        disposables += logLoadStates(of: paginator, into: log)
        disposables += logChanges(of: paginator.pages, named: "pages", into: log) { "\($0)" }
        disposables += logChanges(of: paginator.total, named: "total", into: log) { $0.map { "\($0)" } ?? "nil" }
        disposables += logChanges(of: paginator.isEndReached, named: "isEndReached", into: log) { "\($0)" }
        disposables += logChanges(of: paginator.showsNextPageIndicator, named: "showsNextPageIndicator", into: log) {
            "\($0)"
        }
        disposables += logStopReason(of: paginator, into: log)
        disposables += paginator.updates.observeValues { update in
            log.write(.paginator, "items", describe(update))
        }
        disposables += paginator.errorsAfterFirstPage.observeValues { error in
            log.write(.paginator, "errorsAfterFirstPage", "\(error)")
        }
        return disposables
    }

    /// One line for a change of the items: what changed, where, and which ids.
    static func describe<Item: ListItem, Metadata>(_ update: ItemsUpdate<Item, Metadata>) -> String {
        switch update.change {
        case .reloaded:
            return "reloaded 0..<\(update.items.count): \(update.items.idSummary)"
        case .appended(let range):
            return "appended \(range) of \(update.items.count): \(update.items[range].idSummary)"
        case .cleared:
            return update.previous.isEmpty
                ? "cleared: the list is empty" : "cleared: \(update.previous.count) removed, the list is empty"
        case .inserted(let range):
            return "inserted \(range) of \(update.items.count): \(update.items[range].idSummary)"
        case .removed(let range):
            return "removed \(range) of \(update.previous.count): \(update.previous[range].idSummary)"
        case .updated(let range):
            return "updated \(range): \(update.items[range].idSummary)"
        case .difference(let difference):
            var text =
                "difference: \(difference.removals.count) removed, \(difference.insertions.count) inserted, "
                + "\(difference.moves.count) moved, \(difference.updates.count) updated"
            // A memory bound's drop with the page it made room for: which rows went and came.
            if difference.moves.isEmpty, difference.updates.isEmpty {
                let previous = Array(update.previous)
                let items = Array(update.items)
                if !difference.removals.isEmpty {
                    text += "; removed \(difference.removals.map { previous[$0] }.idSummary)"
                }
                if !difference.insertions.isEmpty {
                    text += "; inserted \(difference.insertions.map { items[$0] }.idSummary)"
                }
            }
            return text
        }
    }

    /// Logs each change of `loadStates` as the directions that changed, `append loading → idle`, an
    /// error once, when it happens.
    private static func logLoadStates<Item, Key, Query, Metadata, Failure>(
        of paginator: Paginator<Item, Key, Query, Metadata, Failure>, into log: Log
    ) -> any Disposable {
        let previous = LockedState(paginator.loadStates.value)
        return paginator.loadStates.signal.observeValues { states in
            let old = previous.withLock { stored in
                defer { stored = states }
                return stored
            }
            let changes = PageDirection.allCases.compactMap { direction -> String? in
                let (before, after) = (old[direction], states[direction])
                guard !before.isSameIgnoringError(as: after) || after.error != nil else { return nil }
                return "\(direction) \(before.shortName) → \(after)"
            }
            log.write(.paginator, "loadStates", changes.joined(separator: "; "))
        }
    }

    /// Logs each change of the snapshot's `stopReason` (why loading stopped at the bottom), `nil` while
    /// the list can go on; the snapshot has no property of its own for it, so this compares each
    /// snapshot's reason with the one before.
    private static func logStopReason<Item, Key, Query, Metadata, Failure>(
        of paginator: Paginator<Item, Key, Query, Metadata, Failure>, into log: Log
    ) -> any Disposable {
        let previous = LockedState(describe(paginator.snapshot.value.stopReason))
        return paginator.snapshot.signal.observeValues { snapshot in
            let reason = describe(snapshot.stopReason)
            let old = previous.withLock { stored in
                defer { stored = reason }
                return stored
            }
            guard old != reason else { return }
            log.write(.paginator, "stopReason", "\(old) → \(reason)")
        }
    }

    /// A stop reason as the log shows it: its case, with the error of a failure.
    static func describe<Failure>(_ reason: StopReason<Failure>?) -> String {
        switch reason {
        case nil: "nil"
        case .endOfList: "endOfList"
        case .emptyFirstPage: "emptyFirstPage"
        case .noProgress(let pages): "noProgress(pages: \(pages))"
        case .repeatedKey: "repeatedKey"
        case .cancelled: "cancelled"
        case .failed(let error): "failed(\(error))"
        }
    }

    /// Logs `old → new` for every change of `property`.
    private static func logChanges<Value: Sendable>(
        of property: Property<Value>, named name: String, into log: Log,
        old describeOld: (@Sendable (Value) -> String)? = nil, _ describe: @escaping @Sendable (Value) -> String
    ) -> any Disposable {
        let describeOld = describeOld ?? describe
        // The signal delivers one change at a time, so the previous value needs no more than this lock.
        let previous = LockedState(property.value)
        return property.signal.observeValues { value in
            let old = previous.withLock { stored in
                defer { stored = value }
                return stored
            }
            log.write(.paginator, name, "\(describeOld(old)) → \(describe(value))")
        }
    }
}

extension LoadState {
    /// The state without its error, for the old side of a logged change.
    var shortName: String {
        error == nil ? description : "failed"
    }

    /// Whether both are the same case with the same end flag, and neither carries an error.
    func isSameIgnoringError(as other: LoadState) -> Bool {
        switch (self, other) {
        case (.idle(let left), .idle(let right)): left == right
        case (.loading, .loading): true
        default: false
        }
    }
}
