import Reactive

extension PagingEngine {
    /// Whether a refresh with `query` blanks the list: with ``PagingPolicy/clearsOnQueryChange``, when
    /// `query` differs from the current one (by `==` when `Query` is `Equatable`; compared with no lock
    /// held, since `==` is user code).
    @inlinable
    func blanks(for query: Query?) -> Bool {
        guard policy.clearsOnQueryChange, let query else { return false }
        let current = state.withLock { $0.machine.query }
        return !ItemsDifference.contentComparison(of: Query.self)(current, query)
    }

    /// The visit of `query` for the query cache, when it is on; the query's identity is computed here,
    /// with no lock held (`hash(into:)` is user code).
    @inlinable
    func visit(for query: Query?) -> QueryVisit? {
        guard let cacheKey, let query else { return nil }
        return QueryVisit(key: cacheKey(query), now: policy.clock.now)
    }
}
