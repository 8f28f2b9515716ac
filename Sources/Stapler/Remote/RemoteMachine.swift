/// The pure state machine of a list's remote side: one slot per direction, the requests that wait for
/// the first refresh, and a ticket per load.
///
/// The owner (``RemoteLink``) calls it under its lock and runs the returned actions after unlocking.
/// A load's result counts only if its ticket is the one its direction's slot holds, so the result of a
/// load a refresh cancelled changes nothing, whenever it arrives.
struct RemoteMachine: Sendable {
    /// One direction's slot.
    enum Slot: Hashable, Sendable {
        case idle
        case running(UInt64)
        /// The server has nothing further that way (until the next refresh succeeds).
        case completed
        case failed(StoreError)
    }

    /// How a load ended, once the owner has classified it.
    enum Outcome: Hashable, Sendable {
        case success(endReached: Bool)
        case failure(StoreError)
        case cancelled
    }

    /// What the owner runs after unlocking.
    enum Action: Hashable, Sendable {
        case start(PageDirection, ticket: UInt64)
        case cancel(ticket: UInt64)
    }

    /// The slots, by ``PageDirection/rawValue``.
    private(set) var slots: [Slot] = [.idle, .idle, .idle]
    /// Edge requests that wait for a refresh (the first one, or the one running).
    private(set) var pending: Set<PageDirection> = []
    /// Whether edges wait for the first refresh to succeed (a launched initial refresh).
    private(set) var requiresRefresh: Bool
    private var lastTicket: UInt64 = 0

    init(requiresRefresh: Bool) {
        self.requiresRefresh = requiresRefresh
    }

    subscript(direction: PageDirection) -> Slot {
        get { slots[direction.rawValue] }
        set { slots[direction.rawValue] = newValue }
    }

    /// The direction whose running load holds `ticket`.
    func direction(of ticket: UInt64) -> PageDirection? {
        PageDirection.allCases.first { self[$0] == .running(ticket) }
    }

    private var refreshRuns: Bool {
        if case .running = self[.refresh] { return true }
        return false
    }

    private mutating func start(_ direction: PageDirection) -> Action {
        lastTicket += 1
        self[direction] = .running(lastTicket)
        return .start(direction, ticket: lastTicket)
    }

    /// Whether an edge request made now waits for a refresh (the first one, or the one running).
    var edgesWait: Bool { requiresRefresh || refreshRuns }

    /// The list asks for `direction`: a refresh cancels the edges' loads and drops their waiting requests;
    /// an edge starts only when its slot is idle and no refresh is awaited.
    mutating func request(_ direction: PageDirection) -> [Action] {
        guard direction != .refresh else {
            guard !refreshRuns else { return [] }
            var actions: [Action] = []
            for edge in [PageDirection.prepend, .append] {
                if case .running(let ticket) = self[edge] {
                    actions.append(.cancel(ticket: ticket))
                    self[edge] = .idle
                }
            }
            pending = []
            actions.append(start(.refresh))
            return actions
        }
        guard self[direction] == .idle else { return [] }
        if requiresRefresh || refreshRuns {
            pending.insert(direction)
            return []
        }
        return [start(direction)]
    }

    /// The list retries `direction`: a failed direction becomes idle and is requested again.
    mutating func retry(_ direction: PageDirection) -> [Action] {
        guard case .failed = self[direction] else { return [] }
        self[direction] = .idle
        return request(direction)
    }

    /// The load `ticket` ended with `outcome`; returns its direction (`nil` for a load that no longer
    /// counts) and what to start next.
    mutating func finish(_ ticket: UInt64, _ outcome: Outcome) -> (PageDirection?, [Action]) {
        guard let direction = direction(of: ticket) else { return (nil, []) }
        switch outcome {
        case .success(let endReached):
            self[direction] = endReached ? .completed : .idle
        case .failure(let error):
            self[direction] = .failed(error)
        case .cancelled:
            self[direction] = .idle
        }
        guard direction == .refresh else { return (direction, []) }
        if case .success(let endReached) = outcome {
            requiresRefresh = false
            for edge in [PageDirection.prepend, .append] { self[edge] = endReached ? .completed : .idle }
            if endReached { pending = [] }
        }
        guard !requiresRefresh else { return (direction, []) }
        let waiting = pending.sorted { $0.rawValue < $1.rawValue }
        pending = []
        return (direction, waiting.flatMap { request($0) })
    }

    /// Whether the server may have more beyond `edge` (its slot did not complete).
    func isOpen(_ edge: PageDirection) -> Bool {
        self[edge] != .completed
    }

    /// The states the list publishes.
    var states: RemoteLoadStates {
        func state(_ direction: PageDirection) -> RemoteLoadState {
            switch self[direction] {
            case .running: return .loading
            case .completed: return .idle(endReached: true)
            case .failed(let error): return .failed(error)
            case .idle:
                if direction != .refresh, requiresRefresh || refreshRuns { return .blocked }
                return .idle(endReached: false)
            }
        }
        return RemoteLoadStates(refresh: state(.refresh), prepend: state(.prepend), append: state(.append))
    }
}
