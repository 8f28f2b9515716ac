import Testing

@testable import Stapler

/// The pure state machine, driven directly: every (state, input) pair against the transition table.
@Suite("Paging state machine")
struct PagingMachineTests {
    typealias Machine = PagingMachine<Int, Int, String, Void, ServerError>

    enum Start: String, CaseIterable {
        case uninitialized, refreshing, errorRefreshing, noData, data, loadingMore, errorLoadingMore
    }

    enum Input: String, CaseIterable {
        case refresh, refreshWithQuery, loadNext, loadNextRetrying, preloadLastRow, preloadOutOfRange, retry, cancel
        case loadedPage, loadedEmptyPage, loadedRepeatingKey, loadedNegativeTotal, failed, interrupted
        case staleLoaded, staleFailed
    }

    /// A machine brought to `start` through legal inputs.
    static func machine(in start: Start) -> Machine {
        var machine = Machine(firstKey: 0, pageSize: 10, query: "q")
        func ticket() -> UInt64 { machine.inFlight?.ticket ?? 0 }
        let firstPage = Page(items: Array(0..<10), nextKey: 10, total: 100)
        switch start {
        case .uninitialized:
            break
        case .refreshing:
            _ = machine.handle(.refresh(query: nil))
        case .errorRefreshing:
            _ = machine.handle(.refresh(query: nil))
            _ = machine.handle(.failed(ticket: ticket(), error: .source(.unavailable)))
        case .noData:
            _ = machine.handle(.refresh(query: nil))
            _ = machine.handle(.loaded(ticket: ticket(), page: Page(items: [], nextKey: nil), identities: nil))
        case .data, .loadingMore, .errorLoadingMore:
            _ = machine.handle(.refresh(query: nil))
            _ = machine.handle(.loaded(ticket: ticket(), page: firstPage, identities: nil))
            if start != .data { _ = machine.handle(.loadNext(retryingFailedPage: false)) }
            if start == .errorLoadingMore {
                _ = machine.handle(.failed(ticket: ticket(), error: .source(.timeout)))
            }
        }
        #expect(machine.snapshot.state.name == start.rawValue)
        return machine
    }

    static func machineInput(_ input: Input, for machine: Machine) -> Machine.Input {
        let current = machine.inFlight?.ticket ?? 0
        let stale = current &+ 1_000
        let key = machine.inFlight?.request.key ?? 0
        switch input {
        case .refresh: return .refresh(query: nil)
        case .refreshWithQuery: return .refresh(query: "other")
        case .loadNext: return .loadNext(retryingFailedPage: false)
        case .loadNextRetrying: return .loadNext(retryingFailedPage: true)
        case .preloadLastRow: return .preload(index: machine.snapshot.items.count - 1, distance: 0)
        case .preloadOutOfRange: return .preload(index: machine.snapshot.items.count, distance: 5)
        case .retry: return .retry
        case .cancel: return .cancel(generation: nil)
        case .loadedPage:
            return .loaded(
                ticket: current, page: Page(items: Array(key + 100..<key + 110), nextKey: key + 10), identities: nil)
        case .loadedEmptyPage:
            return .loaded(ticket: current, page: Page(items: [], nextKey: key + 10), identities: nil)
        case .loadedRepeatingKey: return .loaded(ticket: current, page: Page(items: [1], nextKey: key), identities: nil)
        case .loadedNegativeTotal:
            return .loaded(ticket: current, page: Page(items: [1], nextKey: key + 1, total: -3), identities: nil)
        case .failed: return .failed(ticket: current, error: .source(.unavailable))
        case .interrupted: return .interrupted(ticket: current)
        case .staleLoaded: return .loaded(ticket: stale, page: Page(items: [9], nextKey: 1), identities: nil)
        case .staleFailed: return .failed(ticket: stale, error: .source(.unavailable))
        }
    }

    /// The state each (state, input) pair leads to; a missing entry means "unchanged, no effect".
    static let table: [Start: [Input: String]] = [
        .uninitialized: [.refresh: "refreshing", .refreshWithQuery: "refreshing"],
        .refreshing: [
            .refresh: "refreshing", .refreshWithQuery: "refreshing", .cancel: "uninitialized",
            .loadedPage: "data", .loadedEmptyPage: "noData", .loadedRepeatingKey: "errorRefreshing",
            .loadedNegativeTotal: "errorRefreshing", .failed: "errorRefreshing", .interrupted: "uninitialized",
        ],
        .errorRefreshing: [.refresh: "refreshing", .refreshWithQuery: "refreshing", .retry: "refreshing"],
        .noData: [.refresh: "refreshing", .refreshWithQuery: "refreshing", .retry: "refreshing"],
        .data: [
            .refresh: "refreshing", .refreshWithQuery: "refreshing", .loadNext: "loadingMore",
            .loadNextRetrying: "loadingMore", .preloadLastRow: "loadingMore",
        ],
        .loadingMore: [
            .refresh: "refreshing", .refreshWithQuery: "refreshing", .cancel: "data", .loadedPage: "data",
            .loadedEmptyPage: "data", .loadedRepeatingKey: "errorLoadingMore",
            .loadedNegativeTotal: "errorLoadingMore", .failed: "errorLoadingMore", .interrupted: "data",
        ],
        .errorLoadingMore: [
            .refresh: "refreshing", .refreshWithQuery: "refreshing", .loadNextRetrying: "loadingMore",
            .retry: "loadingMore",
        ],
    ]

    @Test(
        "every (state, input) pair leads where the transition table says, by an allowed move",
        arguments: Start.allCases, Input.allCases)
    func transitionTable(start: Start, input: Input) {
        var machine = Self.machine(in: start)
        let before = machine.snapshot
        let effects = machine.handle(Self.machineInput(input, for: machine))
        let after = machine.snapshot
        if let expected = Self.table[start]?[input] {
            #expect(after.state.name == expected)
            #expect(before.state.canMove(to: after.state), "\(before.state.name) -> \(after.state.name)")
            #expect(effects.publish)
        } else {
            #expect(after.state.name == before.state.name)
            #expect(effects.isEmpty, "an ignored input has no effect")
            #expect(after.items.count == before.items.count)
        }
        #expect(after.state.isLoading == (machine.inFlight != nil))
    }

    @Test("the allowed-transition table is exactly seed 001's, plus cancel's return to uninitialized")
    func allowedTransitions() {
        let states: [PagingState<ServerError>] = [
            .uninitialized, .refreshing, .errorRefreshing(.noPage), .noData, .data, .loadingMore,
            .errorLoadingMore(.noPage),
        ]
        var allowed: Set<String> = []
        for from in states {
            for to in states where from.canMove(to: to) { allowed.insert("\(from.name)->\(to.name)") }
        }
        #expect(
            allowed == [
                "uninitialized->refreshing", "refreshing->refreshing", "refreshing->errorRefreshing",
                "refreshing->noData", "refreshing->data", "refreshing->uninitialized", "errorRefreshing->refreshing",
                "noData->refreshing", "data->refreshing", "data->loadingMore", "loadingMore->errorLoadingMore",
                "loadingMore->data", "loadingMore->refreshing", "errorLoadingMore->loadingMore",
                "errorLoadingMore->refreshing",
            ])
    }

    @Test("P2: a response for a superseded ticket is never applied, whatever its content")
    func P2_staleTicketIgnored() {
        var machine = Self.machine(in: .loadingMore)
        let stale = machine.inFlight!.ticket
        _ = machine.handle(.refresh(query: nil))
        let effects = machine.handle(
            .loaded(ticket: stale, page: Page(items: [7, 7, 7], nextKey: 99), identities: nil))
        #expect(effects.isEmpty)
        #expect(machine.snapshot.state == .refreshing)
        #expect(Array(machine.snapshot.items) == Array(0..<10))
    }

    @Test("P3: refresh with query A, then B, then A applies only the last load")
    func P3_queryGenerations() {
        var machine = Machine(firstKey: 0, pageSize: 10, query: "")
        _ = machine.handle(.refresh(query: "A"))
        let first = machine.inFlight!.ticket
        _ = machine.handle(.refresh(query: "B"))
        let second = machine.inFlight!.ticket
        let effects = machine.handle(.refresh(query: "A"))
        #expect(effects.startsLoad && machine.inFlight?.request.query == "A")
        _ = machine.handle(.loaded(ticket: first, page: Page(items: [1], nextKey: nil), identities: nil))
        _ = machine.handle(.loaded(ticket: second, page: Page(items: [2], nextKey: nil), identities: nil))
        #expect(machine.snapshot.state == .refreshing)
        _ = machine.handle(
            .loaded(ticket: machine.inFlight!.ticket, page: Page(items: [3], nextKey: nil), identities: nil))
        #expect(Array(machine.snapshot.items) == [3])
        #expect(machine.snapshot.generation == 3)
    }
}
