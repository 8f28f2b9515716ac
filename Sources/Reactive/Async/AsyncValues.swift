/// The values of a signal, a producer or a property, read with `for await`.
///
/// Get one from `Signal.values`, `SignalProducer.values`, `Property.values` or
/// `MutableProperty.values`. Each iterator is its own subscription:
/// - **Signal**: making the iterator observes the signal; it reads the values sent from then on.
/// - **Producer**: making the iterator starts a run, so two loops over the same sequence start two
///   runs.
/// - **Property**: making the iterator reads the current value, then every change, with no gap and
///   no duplicate.
///
/// The sequence's `Failure` is the source's `Error`, so a `Never`-failing source iterates with a plain
/// `for await`, and a failing one with `for try await` that throws its typed error after every value
/// sent before it. A completed or interrupted source ends the sequence (interruption is not an error:
/// it means the source was cancelled).
///
/// ```swift
/// let count = MutableProperty(0)
/// for await value in count.values {
///     print(value)  // 0, then every change
///     if value == 3 { break }  // disposes the observation
/// }
/// ```
///
/// **Buffering.** Values that arrive while the loop body runs wait in the iterator's buffer, which by
/// default (``AsyncBufferingPolicy/unbounded``) keeps them all: every value arrives exactly once, in
/// order, however fast the source and slow the consumer. See ``AsyncBufferingPolicy`` for the bounded
/// alternatives.
///
/// **Cancellation.** Leaving the loop (`break`, `return`, a thrown error) releases the iterator, which
/// disposes its run or observation. Cancelling the consuming task does the same at once, even while
/// `next()` waits, and the sequence then ends (`next()` returns `nil`; values still buffered are
/// dropped).
public struct AsyncValues<Value: Sendable, Error: Swift.Error>: AsyncSequence, Sendable {
    /// The values of the source.
    public typealias Element = Value

    /// The error of the source, thrown by `next()` after the values sent before it.
    public typealias Failure = Error

    private let policy: AsyncBufferingPolicy
    private let subscribe: @Sendable (AsyncValuesChannel<Value, Error>) -> Void

    /// Creates a sequence whose every iterator calls `subscribe` to attach a fresh channel to the source.
    init(
        bufferingPolicy policy: AsyncBufferingPolicy,
        subscribe: @escaping @Sendable (AsyncValuesChannel<Value, Error>) -> Void
    ) {
        if let limit = policy.limit {
            guard limit >= 0 else {
                fatalError("bufferingPolicy: the buffer limit must be at least 0, got \(limit)")
            }
        }
        self.policy = policy
        self.subscribe = subscribe
    }

    /// Subscribes to the source (observes the signal, or starts a run of the producer) and returns
    /// the iterator that reads what it sends.
    ///
    /// - Returns: The iterator. Releasing it disposes the subscription.
    public func makeAsyncIterator() -> Iterator {
        let channel = AsyncValuesChannel<Value, Error>(policy: policy)
        let iterator = Iterator(subscription: Subscription(channel: channel))
        subscribe(channel)
        return iterator
    }

    /// Reads the values of one subscription.
    ///
    /// Not `Sendable`: use it from one task. Releasing the last copy disposes the subscription.
    public struct Iterator: AsyncIteratorProtocol {
        /// The values of the source.
        public typealias Element = Value

        /// The error of the source.
        public typealias Failure = Error

        private let subscription: Subscription

        fileprivate init(subscription: Subscription) {
            self.subscription = subscription
        }

        /// The next value, or `nil` once the source has completed or was interrupted, or the consuming
        /// task was cancelled.
        ///
        /// - Returns: The next value, or `nil` at the end of the sequence.
        /// - Throws: The source's error, once, after every value sent before it.
        /// - Complexity: O(1) amortised.
        public mutating func next() async throws(Error) -> Value? {
            try await subscription.channel.next(isolation: nil)
        }

        /// The next value, or `nil` at the end; runs on the caller's actor (`for await` calls it).
        ///
        /// - Parameter actor: The caller's isolation.
        /// - Returns: The next value, or `nil` at the end of the sequence.
        /// - Throws: The source's error, once, after every value sent before it.
        /// - Complexity: O(1) amortised.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Error) -> Value? {
            try await subscription.channel.next(isolation: actor)
        }
    }

    /// The iterator's hold on its channel: released with the last copy of the iterator, it disposes
    /// the run.
    fileprivate final class Subscription: Sendable {
        let channel: AsyncValuesChannel<Value, Error>

        init(channel: AsyncValuesChannel<Value, Error>) {
            self.channel = channel
        }

        deinit {
            channel.cancel()
        }
    }
}

@available(*, unavailable)
extension AsyncValues.Iterator: Sendable {}
