import Reactive

/// Records every event an observer receives, for whole-history assertions.
public final class EventRecorder<Value: Sendable, Error: Swift.Error>: Sendable {
    private let log = Locked<[Signal<Value, Error>.Event]>([])

    public init() {}

    /// An observer that appends to this recorder.
    public var observer: Signal<Value, Error>.Observer {
        Signal<Value, Error>.Observer { [log] event in log.append(event) }
    }

    public var events: [Signal<Value, Error>.Event] { log.value }

    public var values: [Value] { log.value.compactMap(\.value) }

    public var isTerminated: Bool { log.value.last?.isTerminating ?? false }
}

extension Signal {
    /// Observes with a fresh recorder and returns it.
    public func record() -> EventRecorder<Value, Error> {
        let recorder = EventRecorder<Value, Error>()
        observe(recorder.observer)
        return recorder
    }
}

extension SignalProducer {
    /// Starts with a fresh recorder; returns it and the start's disposable.
    public func record() -> (EventRecorder<Value, Error>, any Disposable) {
        let recorder = EventRecorder<Value, Error>()
        let disposable = start(recorder.observer)
        return (recorder, disposable)
    }
}
