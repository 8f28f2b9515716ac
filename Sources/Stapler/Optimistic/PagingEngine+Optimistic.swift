import Reactive

// The engine's side of optimistic edits: a layer is added, and later settled, by one transition each,
// which publishes once through the one publication path; the deliverer replays the layers over the
// publication's rows (see `OptimisticOverlay.swift`). A confirmed edit folds the server's answer into the
// server's rows (a local edit of them) and drops its layer in the same transition; a reverted or cancelled
// one drops its layer alone. No copy of the rows is ever kept to be restored.

extension PagingEngine {
    /// How a mutation settled, as the engine applies it.
    @usableFromInline
    enum LayerSettlement: Sendable {
        case confirmed(Item?)
        case reverted(any Error)
        case cancelled
    }

    /// Adds the layer `make` builds for the next serial and publishes the rows with it, in one update.
    ///
    /// - Parameters:
    ///   - make: Builds the layer; it runs under the state lock, so it must only build it.
    ///   - difference: The keyed difference of the rows shown, by the items' identity.
    /// - Returns: The layer's serial.
    @usableFromInline
    func addLayer(
        _ make: (UInt64) -> OverlayLayer<Item>, difference: @escaping OptimisticOverlay<Item>.Difference
    ) -> UInt64 {
        var serial: UInt64 = 0
        _ = sendOverlay { state in
            serial = state.overlay.nextSerial
            state.overlay.nextSerial += 1
            state.overlay.layers.append(make(serial))
            if state.overlay.difference == nil { state.overlay.difference = difference }
            return state.machine.receiveOverlayChange()
        }
        return serial
    }

    /// Settles the layer with `serial`, in one transition and one update.
    ///
    /// A confirmed edit's answer is folded into the server's rows and the layer dropped; a reverted or
    /// cancelled edit's layer is dropped alone. The later layers are replayed over the result in the same
    /// update. `report` runs once that update was delivered (at once if the layer had settled already).
    @usableFromInline
    func settleLayer(_ serial: UInt64, as settlement: LayerSettlement, report: @escaping @Sendable () -> Void) {
        let state = state
        let reportAfterDelivery: @Sendable () -> Void = { Self.resumeAfterDelivery(state, report) }
        switch settlement {
        case .confirmed(let answer):
            while true {
                let (base, found) = state.withLock { ($0.machine.snapshot.items, $0.overlay.layer(serial)) }
                guard let layer = found else { return report() }
                // The plan runs user code (identities), so with no lock held; it applies only if the server's
                // rows are still those it was planned on.
                let fold = layer.fold(base, answer)
                let kind = fold.edit.map(machineEdit)
                var identity: ItemIdentity?
                if let identities, let item = fold.edit.flatMap(\.item) { identity = identities.erased(item) }
                var stale = false
                let applied = sendOverlay(report: reportAfterDelivery) { state in
                    guard state.overlay.layer(serial) != nil else { return nil }
                    var effects = Machine.Effects()
                    if let kind {
                        var outcome: EditOutcome?
                        effects = state.machine.receiveEdit(
                            Machine.Edit(kind, identity: identity, expected: base), outcome: &outcome)
                        if outcome == nil {
                            stale = true
                            return nil
                        }
                    }
                    state.overlay.layers.removeAll { $0.edit.serial == serial }
                    if let renamed = fold.renamed { state.overlay.renamed[renamed.new] = renamed.old }
                    return effects.publish ? effects : state.machine.receiveOverlayChange()
                }
                if applied { return }
                if !stale { return report() }
            }
        case .reverted, .cancelled:
            let applied = sendOverlay(report: reportAfterDelivery) { state in
                guard let layer = state.overlay.layer(serial) else { return nil }
                state.overlay.layers.removeAll { $0.edit.serial == layer.edit.serial }
                if case .reverted(let error) = settlement {
                    state.overlay.failure = MutationFailure(edit: layer.edit, error: error)
                }
                return state.machine.receiveOverlayChange()
            }
            if !applied { report() }
        }
    }

    /// The machine's edit of one of the server's rows.
    @usableFromInline
    func machineEdit(_ edit: OverlayFold<Item>.RowEdit) -> Machine.Edit.Kind {
        switch edit {
        case .insert(let item, let index): .insert(item, at: index)
        case .replace(let index, let item): .replace(at: index, with: item)
        case .remove(let index): .remove(at: index)
        }
    }

    /// Runs `step` under the state lock and publishes what it returns, then stages `report` behind the
    /// publication; a `nil` step changes nothing and reports nothing.
    ///
    /// The overlay's one-shot fields (a renamed row, a failure) go with this publication alone.
    ///
    /// - Returns: Whether `step` made a transition.
    @usableFromInline
    func sendOverlay(report: (@Sendable () -> Void)? = nil, _ step: (inout State) -> Machine.Effects?) -> Bool {
        var drain: SignalDrain?
        let made = state.withLock { state -> Bool in
            guard var effects = step(&state) else { return false }
            state.transitions &+= 1
            updateGate(state.machine)
            if effects.publish || effects.settlesWaiters { drain = enqueue(&effects, of: &state) }
            state.overlay.renamed = [:]
            state.overlay.failure = nil
            if let report { stage(.outcome(report), in: &state, drain: &drain) }
            return true
        }
        if let drain = drain.take() { run(drain) }
        resumeSettledIfQuiescent()
        return made
    }
}

extension OverlayFold.RowEdit {
    /// The row the edit brings in, if any.
    @usableFromInline
    var item: Item? {
        switch self {
        case .insert(let item, _), .replace(_, let item): item
        case .remove: nil
        }
    }
}

extension PagingMachine {
    /// Publishes the snapshot as it is: the optimistic layers above it changed.
    @usableFromInline
    mutating func receiveOverlayChange() -> Effects {
        var effects = Effects()
        effects.previousItemCount = list.items.count
        publish(&effects)
        return effects
    }
}
