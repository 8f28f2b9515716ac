#if canImport(Observation)
    import Observation
    import Reactive

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    extension PagingModel where Item: Identifiable, Item.ID: Sendable {
        /// Shows `edit` at once, runs `mutation`, and settles the edit with its answer, returning with the
        /// model showing the result; see ``Paginator/optimistic(_:isolation:mutation:)``.
        ///
        /// An insertion's index is read against ``items``.
        ///
        /// - Parameters:
        ///   - edit: The edit to show.
        ///   - mutation: Sends the edit to the server and returns the server's row, or `nil` when the row
        ///     no longer exists.
        /// - Returns: How the mutation settled.
        @discardableResult
        public func optimistic(
            _ edit: OptimisticEdit<Item>, mutation: () async throws -> Item?
        ) async -> OptimisticOutcome<Item> {
            // The mutation runs here, on the main actor, like the caller's code around it.
            let engine = paginator.engine
            let serial = engine.startOptimistic(edit.reading(items))
            let outcome = await OptimisticOutcome(of: mutation)
            await engine.settle(serial, as: outcome)
            applyDelivered()
            return outcome
        }

        /// Shows `edit` at once and starts `mutation`, settling the edit with its first value; see
        /// ``Paginator/optimistic(_:mutation:completion:)``.
        ///
        /// - Parameters:
        ///   - edit: The edit to show; an insertion's index is read against ``items``.
        ///   - mutation: Sends the edit to the server.
        ///   - completion: Called once with the outcome, after the update it made was delivered.
        /// - Returns: A handle whose disposal, before the mutation settles, cancels the edit.
        @discardableResult
        public func optimistic<Refusal: Error>(
            _ edit: OptimisticEdit<Item>, mutation: SignalProducer<Item?, Refusal>,
            completion: (@Sendable (OptimisticOutcome<Item>) -> Void)? = nil
        ) -> any Disposable {
            paginator.optimistic(edit.reading(items), mutation: mutation, completion: completion)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    extension PagingModel {
        /// The mutations that failed, each once; see ``Paginator/mutationErrors``.
        public var mutationErrors: Signal<MutationFailure<Item>, Never> { paginator.mutationErrors }
    }
#endif
