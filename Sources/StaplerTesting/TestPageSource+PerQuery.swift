extension TestPageSource {
    /// Creates a fake server whose list depends on the request's query: each answer cuts its page from
    /// `itemsPerQuery(query)`, as a search endpoint answers each search with its own results.
    ///
    /// ```swift
    /// let server = TestPageSource(query: String.self) { query in
    ///     query.isEmpty ? [] : (0..<45).map { User(id: $0, name: query) }
    /// }
    /// ```
    ///
    /// Guarantees:
    /// - **The list is the query's**: `itemsPerQuery` runs once for every answer, when it is made, with the
    ///   query of the request, and the page is cut from what it returns. A closure that reads state of the
    ///   test sees that state as it is at the answer.
    /// - The rest is as for any fake: keys are kept per query, ``items`` is the list of the last answer
    ///   (empty before it), and ``serve(_:)``, ``mutate(_:)``, ``insertAtTop(_:)`` and
    ///   ``removeFromTop(_:)`` last only until the next answer: change what the closure returns instead.
    ///
    /// `itemsPerQuery` runs under the fake's lock: it must not call the fake.
    ///
    /// - Parameters:
    ///   - query: The type of the queries the paginator passes.
    ///   - delivery: When requests are answered; on a later turn of a global queue by default.
    ///   - failures: Failures to inject.
    ///   - strictKeys: Whether a key the fake never produced fails.
    ///   - pageCap: When given, the most items any answer holds, whatever was asked.
    ///   - itemsPerQuery: The list served for a query.
    public convenience init(
        query: Query.Type, delivery: TestDelivery = .nextTurn, failures: [TestFailure] = [],
        strictKeys: Bool = true, pageCap: Int? = nil, itemsPerQuery: @escaping @Sendable (Query) -> [Item]
    ) {
        self.init(
            lists: [[]], query: query, delivery: delivery, failures: failures, strictKeys: strictKeys,
            pageCap: pageCap)
        state.withLock { $0.itemsPerQuery = itemsPerQuery }
    }
}
