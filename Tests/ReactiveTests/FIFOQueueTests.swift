import TestSupport
import Testing

@testable import Reactive

/// The queue behind every signal's reentrant sends and the paging engine's delivery queue: elements come out in
/// the order they went in, through every reuse of its slots.
@Suite("FIFOQueue")
struct FIFOQueueTests {
    @Test("elements come out in order, across empties and compactions, against an array as the model")
    func matchesAnArray() {
        var queue = FIFOQueue<Int>()
        var model: [Int] = []
        var generator = SplitMix(seed: 0x5EED)
        var next = 0
        // Bursts of appends and pops of varying sizes: the queue empties, restarts at its first slot, and
        // compacts when more than half of a long run is consumed.
        for _ in 0..<2_000 {
            for _ in 0..<Int(generator.next() % 150) {
                queue.append(next)
                model.append(next)
                next += 1
            }
            for _ in 0..<Int(generator.next() % 160) {
                let popped = queue.popFirst()
                #expect(popped == (model.isEmpty ? nil : model.removeFirst()))
            }
            #expect(queue.count == model.count)
            #expect(queue.isEmpty == model.isEmpty)
        }
        while let popped = queue.popFirst() { #expect(popped == model.removeFirst()) }
        #expect(model.isEmpty)
    }

    @Test("a long queue consumed past half moves its remaining elements to the front, in order")
    func compactsInOrder() {
        var queue = FIFOQueue<Int>()
        for value in 0..<300 { queue.append(value) }
        for value in 0..<150 { #expect(queue.popFirst() == value) }
        #expect(queue.head == 150)
        // The 151st pop consumes more than half of the 300 slots in use: the 149 left move to the front.
        #expect(queue.popFirst() == 150)
        #expect(queue.head == 0)
        #expect(queue.count == 149)
        for value in 300..<310 { queue.append(value) }
        for value in 151..<310 { #expect(queue.popFirst() == value) }
        #expect(queue.popFirst() == nil)
    }

    @Test("a popped element is released by its taker: the queue keeps no reference to it")
    func keepsNoReferenceAfterPopping() {
        final class Token {}
        var queue = FIFOQueue<Token>()
        weak var first: Token?
        do {
            let token = Token()
            first = token
            queue.append(token)
            queue.append(Token())
        }
        var popped = queue.popFirst()
        #expect(first != nil)
        popped = nil
        #expect(first == nil)
        #expect(popped == nil)
        #expect(queue.count == 1)
    }
}
