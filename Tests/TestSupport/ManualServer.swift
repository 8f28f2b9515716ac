import Dispatch
import Reactive

/// A hand-driven backend: every request is recorded and answered only when the test says so.
///
/// The test decides which request completes, when, how (a value and completion, an error, completion
/// with no value, two values, a value then an error) and on which thread.
public final class ManualServer<Key: Sendable, Response: Sendable, Failure: Error>: Sendable {
    public typealias Observer = Signal<Response, Failure>.Observer

    private let log = Locked<[Request]>([])

    public init() {}

    /// Every request made so far, in order.
    public var requests: [Request] { log.value }

    /// The keys of every request made so far.
    public var keys: [Key] { log.value.map(\.key) }

    /// The most recent request.
    public var last: Request? { log.value.last }

    /// The producer to return from a source's load closure for `key`.
    public func producer(_ key: Key, size: Int = 0) -> SignalProducer<Response, Failure> {
        SignalProducer { [log] observer, lifetime in
            let request = Request(key: key, size: size, observer: observer)
            lifetime.observeEnded { request.markDisposed() }
            log.append(request)
        }
    }

    /// One recorded request.
    public final class Request: Sendable {
        public let key: Key
        public let size: Int
        private let observer: Observer
        private let disposals = Locked(0)

        init(key: Key, size: Int, observer: Observer) {
            self.key = key
            self.size = size
            self.observer = observer
        }

        /// How many times the request's run ended (1 once it was disposed or terminated).
        public var disposeCount: Int { disposals.value }

        /// Whether the request's run has ended.
        public var isDisposed: Bool { disposals.value > 0 }

        fileprivate func markDisposed() { disposals.increment(by: 1) }

        /// Sends `response` then completes, on `queue` (synchronously) if given.
        public func succeed(_ response: Response, on queue: DispatchQueue? = nil) {
            run(on: queue) {
                self.observer.send(value: response)
                self.observer.sendCompleted()
            }
        }

        /// Sends `response` without completing.
        public func send(_ response: Response, on queue: DispatchQueue? = nil) {
            run(on: queue) { self.observer.send(value: response) }
        }

        /// Fails with `error`.
        public func fail(_ error: Failure, on queue: DispatchQueue? = nil) {
            run(on: queue) { self.observer.send(error: error) }
        }

        /// Completes without a value.
        public func complete(on queue: DispatchQueue? = nil) {
            run(on: queue) { self.observer.sendCompleted() }
        }

        private func run(on queue: DispatchQueue?, _ body: @escaping @Sendable () -> Void) {
            if let queue { queue.sync(execute: body) } else { body() }
        }
    }
}
