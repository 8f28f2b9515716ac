/// The buffer of one ``AsyncValues`` iterator and the consumer waiting on it, as a pure state machine.
///
/// Its owner, `AsyncValuesChannel`, calls each transition under its lock and performs the effect the
/// transition returns (resume the consumer, dispose or release the run) after unlocking.
///
/// Invariant: a waiting consumer implies an empty buffer and a running source (a value or a terminal
/// event that arrives while the consumer waits goes straight to it).
struct AsyncValuesStateMachine<Value: Sendable, Error: Swift.Error> {
    typealias Consumer = UnsafeContinuation<Result<Value?, Error>, Never>

    enum Status {
        /// The source may still send.
        case running
        /// The source completed or was interrupted: the buffer drains, then the sequence ends.
        case finished
        /// The source failed: the buffer drains, then `next()` throws once.
        case failed(Error)
        /// Nothing more: the consumer saw the end, or it was cancelled.
        case ended
    }

    /// What the owner does after a transition, with no lock held.
    struct Effect {
        /// The waiting consumer and what to resume it with.
        var resume: (consumer: Consumer, result: Result<Value?, Error>)?
        /// The run to dispose.
        var dispose: (any Disposable)?
        /// The run of a source that ended: no need to dispose it, only to release it outside the lock.
        var release: (any Disposable)?
    }

    let policy: AsyncBufferingPolicy
    private(set) var status = Status.running
    private var buffer = FIFOQueue<Value>()
    private var consumer: Consumer?
    private var run: (any Disposable)?

    init(policy: AsyncBufferingPolicy) {
        self.policy = policy
    }

    /// The source delivered `event`.
    mutating func receive(_ event: Signal<Value, Error>.Event) -> Effect? {
        guard case .running = status else { return nil }
        defer { checkInvariants() }
        switch event {
        case .value(let value):
            if let consumer {
                self.consumer = nil
                return Effect(resume: (consumer, .success(value)))
            }
            enqueue(value)
            return nil
        case .failed(let error):
            return end(with: .failure(error), otherwise: .failed(error))
        case .completed, .interrupted:
            return end(with: .success(nil), otherwise: .finished)
        }
    }

    /// The consumer asks for the next element: the result to return now, or `nil` to suspend.
    mutating func next() -> Result<Value?, Error>? {
        defer { checkInvariants() }
        if let value = buffer.popFirst() {
            return .success(value)
        }
        switch status {
        case .running:
            return nil
        case .finished, .ended:
            status = .ended
            return .success(nil)
        case .failed(let error):
            status = .ended
            return .failure(error)
        }
    }

    /// The consumer suspends on `consumer`: the result to resume it with at once, or `nil` if it
    /// now waits for the source.
    mutating func suspend(_ consumer: Consumer) -> Result<Value?, Error>? {
        if let result = next() { return result }
        guard self.consumer == nil else {
            fatalError("AsyncValues.Iterator: next() called while another call to next() is waiting")
        }
        self.consumer = consumer
        checkInvariants()
        return nil
    }

    /// The consumer was cancelled or dropped its iterator: end the sequence and dispose the run.
    mutating func cancel() -> Effect {
        defer { checkInvariants() }
        status = .ended
        buffer.removeAll()
        defer { (consumer, run) = (nil, nil) }
        return Effect(resume: consumer.map { ($0, .success(nil)) }, dispose: run)
    }

    /// The run (or observation) that feeds this iterator now exists.
    ///
    /// - Returns: The run to dispose at once, if the sequence has already ended.
    mutating func attach(_ run: any Disposable) -> (any Disposable)? {
        guard case .running = status else { return run }
        self.run = run
        return nil
    }

    private mutating func enqueue(_ value: Value) {
        switch policy {
        case .unbounded:
            buffer.append(value)
        case .bufferingNewest(let limit):
            guard limit > 0 else { return }
            if buffer.count == limit { _ = buffer.popFirst() }
            buffer.append(value)
        case .bufferingOldest(let limit):
            if buffer.count < limit { buffer.append(value) }
        }
    }

    private mutating func end(with result: Result<Value?, Error>, otherwise next: Status) -> Effect {
        defer { run = nil }
        if let consumer {
            self.consumer = nil
            status = .ended
            return Effect(resume: (consumer, result), release: run)
        }
        status = next
        return Effect(release: run)
    }

    private func checkInvariants() {
        #if STAPLER_INTERNAL_CHECKS
            if consumer != nil {
                guard buffer.isEmpty, case .running = status else {
                    fatalError("AsyncValues: a consumer waits on a non-empty buffer or an ended source")
                }
            }
            if let limit = policy.limit, buffer.count > limit {
                fatalError("AsyncValues: \(buffer.count) values buffered over the limit \(limit)")
            }
        #endif
    }
}
