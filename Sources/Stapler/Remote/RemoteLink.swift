import Reactive

/// Connects a list over a store to its mediator: it runs ``RemoteMachine`` under its lock, starts and
/// cancels the mediator's loads after unlocking, and holds the list's own loads that wait for the
/// network until the store shows what the mediator wrote.
///
/// Lock order: the follower's lock and this link's `state` lock are never held together. A load's write
/// holds no lock of the list: the store checks the load's cancellation under its own write lock, just
/// before it commits (``RemoteTicket/write(to:_:)``).
final class RemoteLink<Row: StoreRow>: Sendable {
    typealias Outcome = RemoteMachine.Outcome
    /// What a held edge load asks next: the direction's load, a retry of it, or nothing (it ended, or it
    /// waits for a refresh).
    enum HoldNext { case request, retry, ended, waits }
    /// The list's loads that waited for one remote load: engine tickets with their keys.
    typealias Held = [(ticket: UInt64, key: StorePosition)]
    /// What resolves the held loads when a remote load of a direction ends.
    typealias Receiver = @Sendable (PageDirection, Outcome, Held) -> Void

    struct State {
        var machine: RemoteMachine
        /// The mediator's loads in flight, by ticket.
        var loads: [UInt64: (ticket: RemoteTicket, disposable: (any Disposable)?)] = [:]
        /// The list's loads (engine tickets, with their keys) waiting for each direction's remote load.
        var held: [PageDirection: [(ticket: UInt64, key: StorePosition)]] = [:]
        /// Whether the list has read its opening page.
        var opened = false
        /// Whether a launch refresh is still to start after the opening read.
        var launchAfterOpening: Bool
        /// Whether the collection was empty when the list opened.
        let openedEmpty: Bool
    }

    let mediator: any RemoteMediator<Row>
    let store: any LocalStore<Row>
    let collection: String
    let pageSize: Int
    let isCancellation: @Sendable (any Error) -> Bool
    // Guarded by its own lock (`LockedState`).
    let state: LockedState<State>
    /// Takes each counted end of a remote load: the follower resolves the list's loads that waited for it.
    // Guarded by its own lock (`LockedState`).
    private let receiver = LockedState<Receiver?>(nil)

    /// A link to `mediator`, whose ``RemoteMediator/initialize(_:)`` runs here, once, before any load.
    init(
        mediator: any RemoteMediator<Row>, store: any LocalStore<Row>, collection: String, pageSize: Int,
        isCancellation: @escaping @Sendable (any Error) -> Bool
    ) {
        self.mediator = mediator
        self.store = store
        self.collection = collection
        self.pageSize = pageSize
        self.isCancellation = isCancellation
        let decision =
            (try? mediator.initialize(RemoteContext(store: store, collection: collection))) ?? .launchInitialRefresh
        let empty = ((try? store.count(of: collection)) ?? 0) == 0
        let launch = decision == .launchInitialRefresh
        state = LockedState(
            State(
                machine: RemoteMachine(requiresRefresh: launch), launchAfterOpening: launch && !empty,
                openedEmpty: empty))
    }

    deinit {
        // The list went away: its loads in flight are cancelled, and their writes commit nothing.
        let loads = state.withLock { state in
            defer { state.loads = [:] }
            return Array(state.loads.values)
        }
        for load in loads {
            load.ticket.cancel()
            load.disposable?.dispose()
        }
    }

    /// The remote side's state now.
    var states: RemoteLoadStates { state.withLock { $0.machine.states } }

    /// Whether the server may have more beyond `edge`.
    func isOpen(_ edge: StoreEdge) -> Bool {
        state.withLock { $0.machine.isOpen(edge == .before ? .prepend : .append) }
    }

    /// Sets what resolves the list's held loads.
    func onFinish(_ receive: @escaping Receiver) {
        receiver.withLock { $0 = receive }
    }

    // MARK: The list's refreshes

    /// Whether the list's refresh with `ticket` goes to the network (held until the mediator returned):
    /// every refresh but the opening read, which does only for an empty collection with a launch refresh.
    ///
    /// The refresh is held and asked in one critical section, so a network refresh that ends meanwhile
    /// cannot answer it with the store as it was, leaving the new one with nobody waiting for it.
    func takesRefresh(ticket: UInt64, key: StorePosition) -> Bool {
        let actions = state.withLock { state -> [RemoteMachine.Action]? in
            guard state.opened else {
                state.opened = true
                guard state.machine.requiresRefresh, state.openedEmpty else { return nil }
                state.launchAfterOpening = false
                state.held[.refresh, default: []].append((ticket, key))
                return Self.request(.refresh, in: &state)
            }
            state.launchAfterOpening = false
            state.held[.refresh, default: []].append((ticket, key))
            return Self.request(.refresh, in: &state)
        }
        guard let actions else { return false }
        run(actions)
        return true
    }

    /// Whether a launch refresh waits to start now that the opening read is done (it is taken once).
    func takeLaunch() -> Bool {
        state.withLock { state in
            guard state.opened, state.launchAfterOpening else { return false }
            state.launchAfterOpening = false
            return true
        }
    }

    /// Holds the list's edge load `ticket` (the store has nothing beyond the edge) until the mediator's
    /// load of `direction` ends.
    ///
    /// A failed direction is retried, since only a retry asks a failed edge again. A direction the server ended meanwhile resolves the load at once, and so does one that waits for a
    /// refresh (the launch refresh failed: the list pages what the store holds; the request is recorded,
    /// and a refresh started later drops it, so the next edge hit after that refresh asks).
    func hold(_ direction: PageDirection, ticket: UInt64, key: StorePosition) {
        let next = state.withLock { state -> HoldNext in
            switch state.machine[direction] {
            case .completed: return .ended
            case .failed:
                state.held[direction, default: []].append((ticket, key))
                return .retry
            case .idle where state.machine.edgesWait:
                // Recorded: it runs once the refresh succeeds. The list's load ends now, without an error.
                _ = state.machine.request(direction)
                return .waits
            case .idle, .running:
                state.held[direction, default: []].append((ticket, key))
                return .request
            }
        }
        switch next {
        case .request: request(direction)
        case .retry: run(state.withLock { $0.machine.retry(direction) })
        case .ended: receiver.withLock { $0 }?(direction, .success(endReached: true), [(ticket, key)])
        case .waits: receiver.withLock { $0 }?(direction, .cancelled, [(ticket, key)])
        }
    }

    // MARK: Loads

    /// Asks the mediator for `direction`, under the machine's rules.
    func request(_ direction: PageDirection) {
        run(state.withLock { Self.request(direction, in: &$0) })
    }

    /// Asks the machine for `direction`; called under the state lock.
    ///
    /// A refresh that starts supersedes the list's edge loads (the engine runs a refresh alone), so the
    /// ones that waited for the mediator's edge loads, which the refresh cancels, wait for nothing any more.
    private static func request(_ direction: PageDirection, in state: inout State) -> [RemoteMachine.Action] {
        let actions = state.machine.request(direction)
        if direction == .refresh, actions.contains(where: { if case .start = $0 { true } else { false } }) {
            state.held[.prepend] = nil
            state.held[.append] = nil
        }
        return actions
    }

    /// Runs `actions`: cancels loads, then starts loads (reading the edge and its key in one read).
    private func run(_ actions: [RemoteMachine.Action]) {
        for action in actions {
            switch action {
            case .cancel(let ticket):
                let load = state.withLock { $0.loads.removeValue(forKey: ticket) }
                load?.ticket.cancel()
                load?.disposable?.dispose()
            case .start(let direction, let ticket):
                start(direction, ticket: ticket)
            }
        }
    }

    private func start(_ direction: PageDirection, ticket number: UInt64) {
        let ticket = RemoteTicket()
        state.withLock { $0.loads[number] = (ticket, nil) }
        let name = collection
        let read: (Row?, StoreRemoteKeys)
        do {
            read = try store.read { reader in
                let keys = try reader.remoteKeys(of: name)
                switch direction {
                case .refresh: return (nil, keys)
                case .prepend: return (try reader.page(of: name, .first, limit: 1).rows.first, keys)
                case .append: return (try reader.page(of: name, .last, limit: 1).rows.last, keys)
                }
            }
        } catch {
            return finish(number, .failure(error))
        }
        let request = RemoteRequest(
            direction: direction, edgeRow: read.0, keys: read.1, pageSize: pageSize, store: store, collection: name,
            ticket: ticket)
        let completion = RemoteCompletion { [weak self] result in self?.finish(number, result) }
        let disposable = mediator.load(request, completion: completion)
        let stale = state.withLock { state -> Bool in
            guard state.loads[number] != nil else { return true }
            state.loads[number]?.disposable = disposable
            return false
        }
        // A load that ended (or was cancelled) while it started keeps nothing to dispose later.
        if stale, ticket.isCancelled { disposable.dispose() }
    }

    /// The load `number` ended with `result`: a result of a load that no longer counts changes nothing.
    private func finish(_ number: UInt64, _ result: RemoteResult) {
        let outcome: Outcome
        switch result {
        case .success(let endReached): outcome = .success(endReached: endReached)
        case .failure(let error):
            if error is CancellationError || isCancellation(error) {
                outcome = .cancelled
            } else if let error = error as? StoreError {
                outcome = .failure(error)
            } else {
                outcome = .failure(.remote(RemoteFailure(error)))
            }
        }
        let (direction, actions, held) = state.withLock { state in
            state.loads[number] = nil
            let (direction, actions) = state.machine.finish(number, outcome)
            let held = direction.map { state.held.removeValue(forKey: $0) ?? [] } ?? []
            return (direction, actions, held)
        }
        guard let direction else { return }
        receiver.withLock { $0 }?(direction, outcome, held)
        run(actions)
    }
}
