import Reactive

extension PagingEngine {
    /// What an edit does, decided against a snapshot of the items: an edit to make, or an outcome
    /// without one.
    @usableFromInline
    enum EditPlan {
        case edit(Machine.Edit.Kind)
        case done(EditOutcome)
    }

    /// Plans an edit against the current items and applies it if they did not change meanwhile;
    /// otherwise plans again.
    ///
    /// `plan` runs with no lock held (it may call user code: an identity, a `modify` closure), so the
    /// machine applies the edit only if the items are still those it was planned against.
    @inlinable
    func edit(_ plan: (PagedItems<Item>) -> EditPlan) -> EditOutcome {
        while true {
            let items = state.withLock { $0.machine.snapshot.items }
            let kind: Machine.Edit.Kind
            switch plan(items) {
            case .done(let outcome): return outcome
            case .edit(let planned): kind = planned
            }
            var identity: AnyHashable?
            if let identify = self.identity {
                switch kind {
                case .insert(let item, _), .replace(_, let item): identity = identify(item)
                case .remove: break
                }
            }
            let edit = Machine.Edit(kind, identity: identity, expected: items)
            var outcome: EditOutcome?
            send { $0.receiveEdit(edit, outcome: &outcome) }
            if let outcome { return outcome }
        }
    }
}
