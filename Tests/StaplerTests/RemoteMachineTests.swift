import Testing

@testable import Stapler

/// The remote side's pure state machine: slots, waiting requests and tickets (P49, P51).
@Suite struct RemoteMachineTests {
    @Test("P49: edges wait for the launch refresh; requests made during it run after it, once each")
    func p49EdgesWaitThenRunOnce() {
        var machine = RemoteMachine(requiresRefresh: true)
        #expect(machine.request(.append) == [])
        #expect(machine.states.append == .blocked)
        #expect(machine.request(.refresh) == [.start(.refresh, ticket: 1)])
        #expect(machine.request(.append) == [])
        #expect(machine.request(.append) == [])
        let (direction, actions) = machine.finish(1, .success(endReached: false))
        #expect(direction == .refresh)
        #expect(actions == [.start(.append, ticket: 2)])
        #expect(machine.request(.append) == [])
        #expect(
            machine.states
                == RemoteLoadStates(
                    refresh: .idle(endReached: false), prepend: .idle(endReached: false), append: .loading))
    }

    @Test("P49: a refresh cancels the running edges, and their late results change nothing")
    func p49LateResultOfACancelledLoadIsIgnored() {
        var machine = RemoteMachine(requiresRefresh: false)
        #expect(machine.request(.append) == [.start(.append, ticket: 1)])
        #expect(machine.request(.prepend) == [.start(.prepend, ticket: 2)])
        #expect(machine.request(.refresh) == [.cancel(ticket: 2), .cancel(ticket: 1), .start(.refresh, ticket: 3)])
        #expect(machine.finish(1, .success(endReached: true)) == (nil, []))
        #expect(machine.finish(2, .failure(.busy)) == (nil, []))
        #expect(machine.states.append == .blocked)
        #expect(machine.finish(3, .success(endReached: true)).0 == .refresh)
        #expect(machine.states.append == .idle(endReached: true))
        #expect(machine.states.prepend == .idle(endReached: true))
        #expect(machine.request(.append) == [])
    }

    @Test("P49, P51: a failure waits for retry; a cancellation returns to idle with no error")
    func p49FailureWaitsCancellationDoesNot() {
        var machine = RemoteMachine(requiresRefresh: false)
        #expect(machine.request(.append) == [.start(.append, ticket: 1)])
        _ = machine.finish(1, .failure(.busy))
        #expect(machine.request(.append) == [])
        #expect(machine.states.append == .failed(.busy))
        #expect(machine.retry(.append) == [.start(.append, ticket: 2)])
        _ = machine.finish(2, .cancelled)
        #expect(machine.states.append == .idle(endReached: false))
        #expect(machine.request(.append) == [.start(.append, ticket: 3)])
    }
}
