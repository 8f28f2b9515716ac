import Reactive

extension TestPageSource {
    /// Fails a parked request with the app's own error, for a source that maps the fake's failures with
    /// ``appFailures(otherwise:)``.
    ///
    /// ```swift
    /// source: .pageNumber { page, size, _ in
    ///     server.loadPage(page, size: size, query: ())
    ///         .map(PostsPage.init)
    ///         .mapError(server.appFailures { _ in AppError.offline })
    /// }
    /// // ...
    /// server.fail(server.pendingRequests[0], throwing: AppError.api(code: 503))
    /// ```
    ///
    /// The request fails with ``TestSourceError/injected(key:request:)`` for its key and position, like
    /// ``fail(_:with:)`` with no error; ``appFailure(_:otherwise:)`` then turns that failure into `error`.
    ///
    /// - Parameters:
    ///   - request: A request of ``pendingRequests``; one no longer pending is ignored.
    ///   - error: The app's error the request fails with.
    public func fail<Failure: Error>(_ request: TestRequest<Query>, throwing error: Failure) {
        let recorded = state.withLock { state -> Bool in
            guard state.parked.contains(where: { $0.request.index == request.index }) else { return false }
            state.appFailures[request.index] = error
            return true
        }
        guard recorded else { return }
        finish(request.index, failure: .injected(key: request.key, request: request.index))
    }

    /// The app's own error for a failure of this fake.
    ///
    /// It is the error ``fail(_:throwing:)`` failed that request with, when it is a `Failure`; otherwise
    /// (an injected ``TestFailure``, ``fail(_:with:)``, or an unknown key's
    /// ``TestSourceError/rejected(_:)``) it is `fallback(error)`.
    ///
    /// - Parameters:
    ///   - error: A failure of one of this fake's requests.
    ///   - fallback: The app's error for the failures the test did not give one.
    /// - Returns: The app's error.
    public func appFailure<Failure: Error>(
        _ error: TestSourceError, otherwise fallback: (TestSourceError) -> Failure
    ) -> Failure {
        if case .injected(_, let index) = error,
            let failure = state.withLock({ $0.appFailures[index] }) as? Failure
        {
            return failure
        }
        return fallback(error)
    }

    /// A transform for `mapError(_:)` that turns this fake's failures into the app's own errors:
    /// ``appFailure(_:otherwise:)`` of each.
    ///
    /// With it, the fake's endpoints (``loadOffset(_:size:query:)``, ``loadPage(_:size:firstPage:query:)``,
    /// ``loadCursor(_:size:query:)``, ``loadExhaustible(_:size:query:)``, ``loadAll(query:)``) make a page
    /// source typed with the app's own response and error, so a test's assertions name the app's errors
    /// (`.errorLoadingMore(.source(.offline))`).
    ///
    /// - Parameter fallback: The app's error for the failures the test did not give one (injected
    ///   ``TestFailure``s, and unknown keys: map those to an error the test would notice).
    /// - Returns: The transform; it reads the fake's errors as they fail, so it may be made before them.
    public func appFailures<Failure: Error>(
        otherwise fallback: @escaping @Sendable (TestSourceError) -> Failure
    ) -> @Sendable (TestSourceError) -> Failure {
        { error in self.appFailure(error, otherwise: fallback) }
    }
}
