import Reactive
import Stapler

extension Paginator {
    /// Returns when the paginator waits for nothing, as ``Paginator/settled()`` does, driving `scheduler`
    /// through the pending work; throws instead of waiting forever.
    ///
    /// ```swift
    /// paginator.preload(index: 49)
    /// try await paginator.settled(timeout: .seconds(30))
    /// #expect(paginator.items.value.count == 100)
    /// ```
    ///
    /// With a `TestScheduler`, it advances the scheduler from one due instant to the next only while work
    /// is pending (a source's latency, a delivery, a retry's backoff), never beyond. Work outside virtual
    /// time (an `async` source, another thread) is waited for in real time, up to `timeout`.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait in real time for work that no scheduler the kit drives will finish.
    ///   - scheduler: The test scheduler the paginator's sources, policy or deliveries run on, if any.
    /// - Throws: ``StaplerTesting/TestKitError/notSettled(pending:)`` naming what is still pending after `timeout`;
    ///   ``StaplerTesting/TestKitError/unknownKey(_:)`` when a fake source was asked for a key it never produced.
    nonisolated(nonsending) public func settled(
        timeout: Duration = .seconds(10), advancing scheduler: TestScheduler? = nil
    ) async throws(TestKitError) {
        try await SettledDriver(probe: self, scheduler: scheduler, timeout: timeout).run()
    }
}

extension TransformedList {
    /// Returns when the paginator this list is transformed from waits for nothing, driving `scheduler`;
    /// see ``Stapler/Paginator/settled(timeout:advancing:)``.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait in real time for work that no scheduler the kit drives will finish.
    ///   - scheduler: The test scheduler the paginator's sources, policy or deliveries run on, if any.
    /// - Throws: ``StaplerTesting/TestKitError/notSettled(pending:)`` or ``StaplerTesting/TestKitError/unknownKey(_:)``.
    nonisolated(nonsending) public func settled(
        timeout: Duration = .seconds(10), advancing scheduler: TestScheduler? = nil
    ) async throws(TestKitError) {
        try await SettledDriver(probe: probe, scheduler: scheduler, timeout: timeout).run()
    }
}

#if canImport(Observation)
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    extension PagingModel {
        /// Returns when the paginator waits for nothing and this model shows its latest snapshot, driving
        /// `scheduler`; see ``Stapler/Paginator/settled(timeout:advancing:)``.
        ///
        /// - Parameters:
        ///   - timeout: How long to wait in real time for work that no scheduler the kit drives will finish.
        ///   - scheduler: The test scheduler the paginator's sources, policy or deliveries run on, if any.
        /// - Throws: ``StaplerTesting/TestKitError/notSettled(pending:)`` or ``StaplerTesting/TestKitError/unknownKey(_:)``.
        public func settled(timeout: Duration = .seconds(10), advancing scheduler: TestScheduler? = nil)
            async throws(TestKitError)
        {
            try await paginator.settled(timeout: timeout, advancing: scheduler)
            applyDelivered()
        }
    }
#endif

#if canImport(Observation)
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    extension TransformedModel {
        /// Returns when the paginator waits for nothing and this model shows its transformed list's latest
        /// rows, driving `scheduler`; see ``Stapler/Paginator/settled(timeout:advancing:)``.
        ///
        /// - Parameters:
        ///   - timeout: How long to wait in real time for work that no scheduler the kit drives will finish.
        ///   - scheduler: The test scheduler the paginator's sources, policy or deliveries run on, if any.
        /// - Throws: ``StaplerTesting/TestKitError/notSettled(pending:)`` or ``StaplerTesting/TestKitError/unknownKey(_:)``.
        public func settled(timeout: Duration = .seconds(10), advancing scheduler: TestScheduler? = nil)
            async throws(TestKitError)
        {
            try await list.settled(timeout: timeout, advancing: scheduler)
            applyDelivered()
        }
    }
#endif
