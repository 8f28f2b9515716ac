import Reactive

// Optimistic edits: an edit shown at once, as a layer over the server's rows, while its mutation runs.
//
// Unlike a local edit (`insert(_:at:)`, `modify(id:_:)`…), which changes the loaded rows once and which a
// later refresh replaces, an optimistic edit stays a layer until its mutation settles: every list the
// paginator shows meanwhile (a page appended or prepended, a refresh's list) is shown with the pending
// layers replayed over it, in the same update. On success the server's answer replaces the layer in place;
// on failure the layer is removed alone and the others are replayed over the current rows. No copy of the
// list is ever restored.

extension Paginator where Item: Identifiable, Item.ID: Sendable {
    /// Shows `edit` at once, as one update, runs `mutation`, and settles the edit with its answer.
    ///
    /// ```swift
    /// await paginator.optimistic(.modify(id: post.id) { $0.liked = true }) {
    ///     try await api.like(post.id)  // the server's row after the like
    /// }
    /// ```
    ///
    /// While the mutation runs, every list the paginator shows has the pending edits applied over it, in
    /// the order they started. When the mutation returns, its answer (the server's row, or `nil` when the
    /// row no longer exists) replaces the edit in the server's rows, in place: a row inserted with a
    /// temporary identity takes the server's as an update of that row, not a removal and an insertion, and
    /// with deduplication a later server copy of it is dropped. When the mutation throws, the edit alone is
    /// removed and the later edits are replayed over the current rows; if they already show the server's
    /// value, the items do not change. Once every edit has settled, the rows are the server's answers alone.
    /// An answer older than the row shown is not folded in when the items are ``Versioned``; without
    /// versions, the last answer applied wins.
    ///
    /// - Parameters:
    ///   - edit: The edit to show; an insertion's index is read against the observers' latest snapshot
    ///     (an index below 0 traps, naming `index`).
    ///   - isolation: Where the mutation runs: the caller's actor.
    ///   - mutation: Sends the edit to the server and returns the server's row, or `nil` when the row no
    ///     longer exists. It runs in the calling task: cancelling the task so that the mutation throws
    ///     `CancellationError` cancels the edit.
    /// - Returns: ``OptimisticOutcome/confirmed(_:)``, ``OptimisticOutcome/reverted(_:)`` or
    ///   ``OptimisticOutcome/cancelled``, once the update it made was delivered.
    @discardableResult
    public func optimistic(
        _ edit: OptimisticEdit<Item>, isolation: isolated (any Actor)? = #isolation,
        mutation: () async throws -> Item?
    ) async -> OptimisticOutcome<Item> {
        let serial = engine.startOptimistic(edit)
        let outcome = await OptimisticOutcome(of: mutation)
        await engine.settle(serial, as: outcome)
        return outcome
    }

    /// Shows `edit` at once, as one update, starts `mutation`, and settles the edit with the first value it
    /// sends; see ``optimistic(_:isolation:mutation:)``.
    ///
    /// The producer's first value (the server's row, or `nil` when the row no longer exists) confirms the
    /// edit; a failure reverts it; a completion with no value reverts it with
    /// ``OptimisticEditError/noAnswer``; an interruption cancels it.
    ///
    /// - Parameters:
    ///   - edit: The edit to show.
    ///   - mutation: Sends the edit to the server; it is started at once.
    ///   - completion: Called once with the outcome, after the update it made was delivered.
    /// - Returns: A handle whose disposal, before the mutation settles, disposes it and cancels the edit.
    @discardableResult
    public func optimistic<Refusal: Error>(
        _ edit: OptimisticEdit<Item>, mutation: SignalProducer<Item?, Refusal>,
        completion: (@Sendable (OptimisticOutcome<Item>) -> Void)? = nil
    ) -> any Disposable {
        let serial = engine.startOptimistic(edit)
        let settled = LockedState(false)
        let running = SerialDisposable()
        let engine = engine
        let settle: @Sendable (OptimisticOutcome<Item>) -> Void = { outcome in
            let first = settled.withLock { done -> Bool in
                defer { done = true }
                return !done
            }
            guard first else { return }
            running.dispose()
            engine.settleLayer(serial, as: .init(outcome)) { completion?(outcome) }
        }
        running.inner = mutation.start { event in
            switch event {
            case .value(let answer): settle(.confirmed(answer))
            case .failed(let error): settle(.reverted(error))
            case .completed: settle(.reverted(OptimisticEditError.noAnswer))
            case .interrupted: settle(.cancelled)
            }
        }
        return AnyDisposable { settle(.cancelled) }
    }
}

extension Paginator {
    /// The edits whose mutations have not settled, in the order they started; it changes in the update
    /// that shows an edit and in the one that settles it.
    public var pendingEdits: Property<[PendingEdit<Item>]> { engine.pendingEditsProperty }

    /// The mutations that failed, each once, in the update that reverted its edit.
    public var mutationErrors: Signal<MutationFailure<Item>, Never> {
        engine.signal(.mutationErrors) { $0.current.contents.overlay.failure }
    }
}

extension PagingEngine {
    /// The property of the pending optimistic edits.
    @usableFromInline
    var pendingEditsProperty: Property<[PendingEdit<Item>]> {
        published(.pendingEdits) {
            publication.projection({ $0.current.contents.overlay.pending }) { change in
                change.isDerivedOnly
                    || change.current.contents.overlay.hasSamePending(as: change.previous.contents.overlay)
                    ? nil : change.current.contents.overlay.pending
            }
        }
    }
}

extension PagingEngine {
    /// Settles the layer with `serial` as `outcome` says, and returns once the update it made was
    /// delivered.
    @usableFromInline
    func settle(_ serial: UInt64, as outcome: OptimisticOutcome<Item>) async {
        await withCheckedContinuation { continuation in
            settleLayer(serial, as: .init(outcome)) { continuation.resume() }
        }
    }
}

extension OptimisticOutcome {
    /// The outcome of running `mutation`: its answer, its error, or a cancellation when it threw
    /// `CancellationError` or threw in a cancelled task.
    @usableFromInline
    init(of mutation: () async throws -> Item?, isolation: isolated (any Actor)? = #isolation) async {
        do {
            self = .confirmed(try await mutation())
        } catch {
            self = error is CancellationError || Task.isCancelled ? .cancelled : .reverted(error)
        }
    }
}

extension PagingEngine.LayerSettlement {
    /// The settlement of `outcome`.
    @usableFromInline
    init(_ outcome: OptimisticOutcome<Item>) {
        switch outcome {
        case .confirmed(let answer): self = .confirmed(answer)
        case .reverted(let error): self = .reverted(error)
        case .cancelled: self = .cancelled
        }
    }
}
