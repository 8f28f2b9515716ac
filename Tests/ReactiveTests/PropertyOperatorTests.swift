import Reactive
import TestSupport
import Testing

@Suite("Property zip and Boolean operators")
struct PropertyOperatorTests {
    @Test("zip pairs the current values, then the nth change of each side")
    func zipHistory() {
        let a = MutableProperty(1)
        let b = MutableProperty(10)
        let zipped = Property(a).zip(with: Property(b))
        let (recorder, _) = zipped.map { $0 * 100 + $1 }.producer.record()
        a.value = 2
        a.value = 3
        #expect(zipped.value == (1, 10))
        b.value = 20
        b.value = 30
        b.value = 40
        a.value = 4
        #expect(recorder.events == [.value(110), .value(220), .value(330), .value(440)])
    }

    @Test("zip completes once a completed side has nothing waiting")
    func zipCompletion() {
        let (first, firstInput) = Signal<Int, Never>.pipe()
        let b = MutableProperty(0)
        let zipped = Property(initial: 0, then: first).zip(with: Property(b))
        let (recorder, _) = zipped.map { $0 + $1 }.producer.record()
        firstInput.send(value: 1)
        firstInput.send(value: 2)
        firstInput.sendCompleted()
        #expect(recorder.events == [.value(0)])
        b.value = 10
        #expect(recorder.events == [.value(0), .value(11)])
        b.value = 20
        #expect(recorder.events == [.value(0), .value(11), .value(22), .completed])
    }

    @Test("negate, and, or follow their sources")
    func booleanOperators() {
        let a = MutableProperty(true)
        let b = MutableProperty(false)
        let notA = Property(a).negate()
        let both = Property(a).and(Property(b))
        let either = Property(a).or(Property(b))
        let (negated, _) = notA.producer.record()
        #expect(!notA.value && !both.value && either.value)
        b.value = true
        #expect(both.value && either.value)
        a.value = false
        b.value = false
        #expect(notA.value && !both.value && !either.value)
        #expect(negated.events == [.value(false), .value(true)])
    }
}
