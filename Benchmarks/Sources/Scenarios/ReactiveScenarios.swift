import OpenCombine
import Reactive

// R1-R6: the reactive core against OpenCombine (the peer) and a bare Swift closure call (the floor).
//
// Each scenario has three variants that do the same work in the same run: "ours", "OpenCombine" and
// "floor". Setup (making signals, attaching observers) happens before `startMeasurement()`; only the
// loop the scenario names is measured. Every observer adds what it receives to a `Sink`, the same for
// all three variants. `size` is what the issue sets (values, or calls); the smoke run passes less.

/// R1-R6, each as ours, OpenCombine and floor.
public func reactiveScenarios() -> [Scenario] {
    r1() + r2() + r3() + r4() + r5() + r6()
}

/// The three variants of a scenario, named `"<scenario>-<variant>"` (no spaces: the names are also file names of thresholds).
private func variants(
    _ scenario: String,
    size: Int,
    ours: @escaping (_ size: Int, _ meter: Meter) -> Void,
    peer: @escaping (_ size: Int, _ meter: Meter) -> Void,
    floor: @escaping (_ size: Int, _ meter: Meter) -> Void
) -> [Scenario] {
    [
        Scenario("\(scenario)-ours", size: size, run: ours),
        Scenario("\(scenario)-OpenCombine", size: size, run: peer),
        Scenario("\(scenario)-floor", size: size, run: floor),
    ]
}

// MARK: - R1: one hot signal, one observer

/// R1: 10,000,000 values through one hot signal to one observer.
private func r1() -> [Scenario] {
    variants(
        "R1",
        size: 10_000_000,
        ours: { count, meter in
            let sink = Sink()
            let (signal, input) = Signal<Int, Never>.pipe()
            let observation = signal.observeValues { sink.take($0) }
            meter.start()
            for value in 0..<count {
                input.send(value: value)
            }
            meter.stop()
            observation.dispose()
            check(sink.total == triangle(count), "R1 ours delivered \(sink.total)")
        },
        peer: { count, meter in
            let sink = Sink()
            let subject = PassthroughSubject<Int, Never>()
            let subscription = subject.sink { sink.take($0) }
            meter.start()
            for value in 0..<count {
                subject.send(value)
            }
            meter.stop()
            subscription.cancel()
            check(sink.total == triangle(count), "R1 OpenCombine delivered \(sink.total)")
        },
        floor: { count, meter in
            let sink = Sink()
            let observer: (Int) -> Void = opaque { sink.take($0) }
            meter.start()
            for value in 0..<count {
                observer(value)
            }
            meter.stop()
            check(sink.total == triangle(count), "R1 floor delivered \(sink.total)")
        }
    )
}

// MARK: - R2: one signal, many observers

/// R2: 10,000 values through one hot signal to each of 1,000 observers (10,000,000 deliveries).
private func r2() -> [Scenario] {
    let observers = 1_000
    return variants(
        "R2",
        size: 10_000,
        ours: { count, meter in
            let sink = Sink()
            let (signal, input) = Signal<Int, Never>.pipe()
            let observations = (0..<observers).map { _ in signal.observeValues { sink.take($0) } }
            meter.start()
            for value in 0..<count {
                input.send(value: value)
            }
            meter.stop()
            observations.forEach { $0.dispose() }
            check(sink.total == triangle(count) &* observers, "R2 ours delivered \(sink.total)")
        },
        peer: { count, meter in
            let sink = Sink()
            let subject = PassthroughSubject<Int, Never>()
            let subscriptions = (0..<observers).map { _ in subject.sink { sink.take($0) } }
            meter.start()
            for value in 0..<count {
                subject.send(value)
            }
            meter.stop()
            subscriptions.forEach { $0.cancel() }
            check(sink.total == triangle(count) &* observers, "R2 OpenCombine delivered \(sink.total)")
        },
        floor: { count, meter in
            let sink = Sink()
            let closures: [(Int) -> Void] = (0..<observers).map { _ in opaque { sink.take($0) } }
            meter.start()
            for value in 0..<count {
                for closure in closures {
                    closure(value)
                }
            }
            meter.stop()
            check(sink.total == triangle(count) &* observers, "R2 floor delivered \(sink.total)")
        }
    )
}

// MARK: - R3: map, filter, map

/// The three steps of the R3 chain, shared by all variants and by R3's lock floor.
let r3First: @Sendable (Int) -> Int = { $0 &* 3 }
let r3Keeps: @Sendable (Int) -> Bool = { $0 & 1 == 0 }
let r3Second: @Sendable (Int) -> Int = { $0 &+ 1 }

/// What the R3 chain delivers for `0..<count`.
func r3Expected(_ count: Int) -> Int {
    var total = 0
    for value in 0..<count where r3Keeps(r3First(value)) {
        total &+= r3Second(r3First(value))
    }
    return total
}

/// R3: a `map`, then `filter`, then `map` chain, 5,000,000 values.
private func r3() -> [Scenario] {
    variants(
        "R3",
        size: 5_000_000,
        ours: { count, meter in
            let sink = Sink()
            let (signal, input) = Signal<Int, Never>.pipe()
            let observation = signal.map(r3First).filter(r3Keeps).map(r3Second).observeValues { sink.take($0) }
            meter.start()
            for value in 0..<count {
                input.send(value: value)
            }
            meter.stop()
            observation.dispose()
            check(sink.total == r3Expected(count), "R3 ours delivered \(sink.total)")
        },
        peer: { count, meter in
            let sink = Sink()
            let subject = PassthroughSubject<Int, Never>()
            let subscription = subject.map(r3First).filter(r3Keeps).map(r3Second).sink { sink.take($0) }
            meter.start()
            for value in 0..<count {
                subject.send(value)
            }
            meter.stop()
            subscription.cancel()
            check(sink.total == r3Expected(count), "R3 OpenCombine delivered \(sink.total)")
        },
        floor: { count, meter in
            // The same user closures, called directly: the chain without any machinery.
            let sink = Sink()
            let first = opaque(r3First)
            let keeps = opaque(r3Keeps)
            let second = opaque(r3Second)
            let observer: (Int) -> Void = opaque { sink.take($0) }
            meter.start()
            for value in 0..<count {
                let mapped = first(value)
                if keeps(mapped) {
                    observer(second(mapped))
                }
            }
            meter.stop()
            check(sink.total == r3Expected(count), "R3 floor delivered \(sink.total)")
        }
    )
}

// MARK: - R4: a mutable property

/// R4: 5,000,000 sets of a `MutableProperty` with one observer.
private func r4() -> [Scenario] {
    variants(
        "R4",
        size: 5_000_000,
        ours: { count, meter in
            let sink = Sink()
            let property = MutableProperty(0)
            let observation = property.signal.observeValues { sink.take($0) }
            meter.start()
            for value in 0..<count {
                property.value = value
            }
            meter.stop()
            observation.dispose()
            check(sink.total == triangle(count), "R4 ours delivered \(sink.total)")
        },
        peer: { count, meter in
            let sink = Sink()
            let subject = CurrentValueSubject<Int, Never>(0)
            let subscription = subject.dropFirst().sink { sink.take($0) }
            meter.start()
            for value in 0..<count {
                subject.value = value
            }
            meter.stop()
            subscription.cancel()
            check(sink.total == triangle(count), "R4 OpenCombine delivered \(sink.total)")
        },
        floor: { count, meter in
            // Store the value, then call the observer: a property with no thread safety at all.
            let sink = Sink()
            let storage = Sink()
            let observer: (Int) -> Void = opaque { sink.take($0) }
            meter.start()
            for value in 0..<count {
                storage.total = value
                observer(value)
            }
            meter.stop()
            check(sink.total == triangle(count), "R4 floor delivered \(sink.total)")
        }
    )
}

// MARK: - R5: observe, then dispose

/// R5: observe a signal, then dispose the observation, 1,000,000 times.
private func r5() -> [Scenario] {
    variants(
        "R5",
        size: 1_000_000,
        ours: { count, meter in
            let sink = Sink()
            let (signal, input) = Signal<Int, Never>.pipe()
            meter.start()
            for _ in 0..<count {
                let observation = signal.observeValues { sink.take($0) }
                observation.dispose()
            }
            meter.stop()
            input.send(value: 1)
            check(sink.total == 0, "R5 ours: a disposed observer received a value")
        },
        peer: { count, meter in
            let sink = Sink()
            let subject = PassthroughSubject<Int, Never>()
            meter.start()
            for _ in 0..<count {
                let subscription = subject.sink { sink.take($0) }
                subscription.cancel()
            }
            meter.stop()
            subject.send(1)
            check(sink.total == 0, "R5 OpenCombine: a cancelled subscriber received a value")
        },
        floor: { count, meter in
            // Keep the closure in an array and take it out again.
            let sink = Sink()
            var observers: [(Int) -> Void] = []
            observers.reserveCapacity(1)
            meter.start()
            for _ in 0..<count {
                observers.append(opaque { sink.take($0) })
                observers.removeLast()
            }
            meter.stop()
            check(observers.isEmpty, "R5 floor kept an observer")
        }
    )
}

// MARK: - R6: synchronous actions

/// R6: 1,000,000 executions of an `Action` whose work is synchronous.
///
/// OpenCombine has no `Action`; the peer is the nearest idiom: a `CurrentValueSubject<Bool, Never>` for
/// "is executing" that gates each run, the work as `Just(input).map(work)`, and its value forwarded into a
/// `PassthroughSubject` of values, which the observer reads.
private func r6() -> [Scenario] {
    let work: @Sendable (Int) -> Int = { $0 &* 2 }
    return variants(
        "R6",
        size: 1_000_000,
        ours: { count, meter in
            let sink = Sink()
            let action = Action<Int, Int, Never> { input in SignalProducer(value: work(input)) }
            let observation = action.values.observeValues { sink.take($0) }
            meter.start()
            for input in 0..<count {
                action.apply(input).start()
            }
            meter.stop()
            observation.dispose()
            check(sink.total == triangle(count) &* 2, "R6 ours delivered \(sink.total)")
        },
        peer: { count, meter in
            let sink = Sink()
            let isExecuting = CurrentValueSubject<Bool, Never>(false)
            let values = PassthroughSubject<Int, Never>()
            let subscription = values.sink { sink.take($0) }
            meter.start()
            for input in 0..<count {
                guard !isExecuting.value else { continue }
                isExecuting.value = true
                _ = Just(input).map(work).sink(
                    receiveCompletion: { _ in isExecuting.value = false },
                    receiveValue: { values.send($0) })
            }
            meter.stop()
            subscription.cancel()
            check(sink.total == triangle(count) &* 2, "R6 OpenCombine delivered \(sink.total)")
        },
        floor: { count, meter in
            let sink = Sink()
            let run = opaque(work)
            let observer: (Int) -> Void = opaque { sink.take($0) }
            meter.start()
            for input in 0..<count {
                observer(run(input))
            }
            meter.stop()
            check(sink.total == triangle(count) &* 2, "R6 floor delivered \(sink.total)")
        }
    )
}

/// The sum of `0..<count`, what a sink holds after receiving each of those values once.
func triangle(_ count: Int) -> Int {
    count &* (count &- 1) / 2
}
