import Reactive
import TestSupport
import Testing

@Suite("sample(with:), sample(on:)")
struct SampleTests {
    @Test("sample(with:) sends the latest value at each sampler value; completes once both have")
    func sampleWithHistory() {
        let (source, input) = Signal<Int, ProbeError>.pipe()
        let (sampler, samplerInput) = Signal<Int, Never>.pipe()
        let recorder = source.sample(with: sampler).map { $0 * 100 + $1 }.record()
        samplerInput.send(value: 1)
        input.send(value: 2)
        input.send(value: 3)
        samplerInput.send(value: 4)
        samplerInput.send(value: 5)
        input.sendCompleted()
        samplerInput.send(value: 6)
        #expect(recorder.events == [.value(304), .value(305), .value(306)])
        samplerInput.sendCompleted()
        #expect(recorder.events == [.value(304), .value(305), .value(306), .completed])
    }

    @Test("sample(on:) sends the latest value; a failure or either interruption ends it")
    func sampleOnHistory() {
        let (source, input) = Signal<Int, ProbeError>.pipe()
        let (sampler, samplerInput) = Signal<Void, Never>.pipe()
        let recorder = source.sample(on: sampler).record()
        input.send(value: 1)
        samplerInput.send(value: ())
        input.send(error: .boom)
        #expect(recorder.events == [.value(1), .failed(.boom)])
        let (other, otherInput) = Signal<Int, ProbeError>.pipe()
        let (otherSampler, otherSamplerInput) = Signal<Void, Never>.pipe()
        let interrupted = other.sample(on: otherSampler).record()
        otherInput.send(value: 1)
        otherSamplerInput.sendInterrupted()
        #expect(interrupted.events == [.interrupted])
    }

    @Test("producer forms: a sampler producer starts per run, after the source")
    func producers() {
        let ticks = SignalProducer<Void, Never>(values: [(), ()])
        let source = SignalProducer<Int, ProbeError>(value: 7).concat(.never)
        let (recorder, disposable) = source.sample(on: ticks).record()
        #expect(recorder.events == [.value(7), .value(7)])
        disposable.dispose()
        #expect(recorder.events == [.value(7), .value(7), .interrupted])
        let (signal, input) = Signal<Void, Never>.pipe()
        let (fromSignal, _) = source.sample(on: signal).record()
        input.send(value: ())
        #expect(fromSignal.events == [.value(7)])
    }

    @Test("R8: sample frees everything whichever way its run ends", arguments: Ending.allCases)
    func R8_leaks(ending: Ending) {
        #expect(leakReport(ending) { a, b, _ in a.sample(with: neverFailing(b)).map { $0 + $1 } } == .clean)
    }
}
