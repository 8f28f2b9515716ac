extension StoreListFollower {
    /// Resolves the list's loads that waited for the mediator's load of `direction`, which ended with
    /// `outcome` after its writes committed.
    ///
    /// A refresh is answered by a read of the opening page made now, so at or after every commit of the
    /// mediator's call; an edge load ends in the window reload that shows the rows beyond the edge; a
    /// failure fails them (a failed refresh keeps the rows shown); a cancelled load ends without an error.
    func remoteFinished(
        _ direction: PageDirection, _ outcome: RemoteMachine.Outcome, held: [(ticket: UInt64, key: StorePosition)]
    ) {
        guard let engine, !held.isEmpty else { return }
        if case .failure(let error) = outcome {
            for load in held { engine.fail(load.ticket, with: .source(error)) }
            return
        }
        if direction == .refresh {
            for load in held { answer(.refresh, at: load.key, ticket: load.ticket) }
            return
        }
        state.withLock { state in
            for load in held { state.discarded.insert(load.ticket) }
        }
        reload(evenIfUnobserved: true)
    }
}
