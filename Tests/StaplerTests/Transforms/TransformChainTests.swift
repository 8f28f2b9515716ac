import Dispatch
import Reactive
import Stapler
import TestSupport
import Testing

/// Operators chained in different orders, driven through random sequences of loads, answers, edits and
/// refreshes; then the same with answers from several threads.
@Suite("Transformed list: chains and threads")
struct TransformChainTests {
    static let chains: [String: [TestStep]] = [
        "filter, separators": [.skipThrees, .decades],
        "separators, filter": [.decades, .skipThrees],
        "map, separators, compactMap": [.double, .decades, .shift],
        "separators, map, separators": [.decades, .double, .decades],
        "compactMap, filter, map": [.shift, .skipThrees, .double],
        "nothing": [],
    ]

    @Test(
        "9.1, 9.2: every chain stays equal to its transform from scratch under random operations",
        arguments: chains.keys.sorted())
    func randomOperations(chain: String) {
        let transform = TestTransform(
            steps: Self.chains[chain]!, header: { $0.isListEmpty ? nil : .header($0.status) },
            footer: { .footer($0.status) })
        for seed in 1...12 as ClosedRange<UInt64> {
            var random = SplitMix(seed: seed)
            let twoEnded = seed.isMultiple(of: 2)
            let harness = TransformHarness(
                transform, pageSize: 5, initialKey: twoEnded ? 50 : nil,
                deduplication: seed.isMultiple(of: 3) ? .by { $0 } : nil, maxPages: seed.isMultiple(of: 4) ? 4 : nil)
            harness.paginator.refresh()
            for _ in 0..<120 {
                Self.step(harness, &random)
            }
            #expect(harness.rows == harness.expected, "seed \(seed)")
            #expect(harness.mirror.failures.isEmpty, "seed \(seed): \(harness.mirror.failures.prefix(3))")
        }
    }

    @Test(
        "9.1, 9.2: a chain whose steps change the row type, with a header through its element steps, stays equal to its transform from scratch"
    )
    func typeChangingChain() {
        guard case .separators(let decades) = TestStep.decades else {
            Issue.record("TestStep.decades is a separators step")
            return
        }
        // Int → String → Double → TRow: each step reads the layer of the one before, typed by its rows.
        let chain = ListTransform<Int, Int>()
            .header { $0.isListEmpty ? nil : 7 }
            .map { String($0) }
            .filter { Int($0).map { $0 % 3 != 0 } ?? true }
            .compactMap { Int($0).map(Double.init) }
            .map { TRow.item(Int($0) * 2) }
            .separators(decades)
            .footer { .footer($0.status) }
        // The same, as test steps: 7 goes through the element steps to the item 14.
        let reference = TestTransform(
            steps: [.skipThrees, .double, .decades], header: { $0.isListEmpty ? nil : .item(14) },
            footer: { .footer($0.status) })
        for seed in 1...8 as ClosedRange<UInt64> {
            var random = SplitMix(seed: seed)
            let harness = TransformHarness(
                chain, reference: reference, pageSize: 5, initialKey: seed.isMultiple(of: 2) ? 50 : nil,
                deduplication: seed.isMultiple(of: 3) ? .by { $0 } : nil)
            harness.paginator.refresh()
            for _ in 0..<120 {
                Self.step(harness, &random)
            }
            #expect(harness.rows == harness.expected, "seed \(seed)")
            #expect(harness.mirror.failures.isEmpty, "seed \(seed): \(harness.mirror.failures.prefix(3))")
        }
    }

    static func step(_ harness: TransformHarness, _ random: inout SplitMix) {
        let paginator = harness.paginator
        let count = paginator.items.value.count
        switch Int.random(in: 0..<12, using: &random) {
        case 0...3:
            if let request = harness.server.pending.randomElement(using: &random) {
                if Int.random(in: 0..<8, using: &random) == 0 {
                    request.fail(.timeout)
                } else {
                    answer(request, total: 100)
                }
            }
        case 4: _ = paginator.loadNextPage()
        case 5: _ = paginator.loadPreviousPage()
        case 6 where count > 0:
            harness.list.preload(index: Int.random(in: 0..<max(1, harness.list.items.value.count), using: &random))
        case 7 where count > 0: _ = paginator.remove(at: Int.random(in: 0..<count, using: &random))
        case 8 where count > 0:
            _ = paginator.replace(
                at: Int.random(in: 0..<count, using: &random), with: Int.random(in: 0..<200, using: &random))
        case 9:
            _ = paginator.insert(
                Int.random(in: 200..<400, using: &random), at: Int.random(in: 0...count, using: &random))
        case 10: _ = paginator.retry()
        case 11 where Int.random(in: 0..<3, using: &random) == 0: _ = paginator.refresh()
        default: break
        }
    }

    @Test("9.5: answers from several threads: every change applies, and the list is its transform from scratch")
    func threads() {
        let transform = TestTransform(steps: [.skipThrees, .decades, .double], footer: { .footer($0.status) })
        for round in 0..<20 {
            let harness = TransformHarness(transform, pageSize: 5, initialKey: round.isMultiple(of: 2) ? 100 : nil)
            harness.paginator.refresh()
            answer(harness.server.last, total: 200)
            let queues = (0..<3).map { DispatchQueue(label: "answers.\($0)") }
            raceFromBarrier(threads: 3) { thread in
                for step in 0..<60 {
                    switch (thread + step) % 4 {
                    case 0: _ = harness.paginator.loadNextPage()
                    case 1: _ = harness.paginator.loadPreviousPage()
                    case 2:
                        let count = harness.paginator.items.value.count
                        if count > 0 { _ = harness.paginator.replace(at: step % count, with: step) }
                    default:
                        if let request = harness.server.pending.first {
                            answer(request, total: 200, on: queues[thread])
                        }
                    }
                }
            }
            while let request = harness.server.pending.first { answer(request, total: 200) }
            #expect(harness.rows == harness.expected)
            #expect(harness.mirror.failures.isEmpty, "\(harness.mirror.failures.prefix(3))")
        }
    }

    @Test("9.5: transformed lists made while pages land on other threads catch up and stay consistent")
    func madeWhilePagesLand() {
        let transform = TestTransform(steps: [.skipThrees, .decades])
        for _ in 0..<20 {
            let server = TwoEndedServer()
            let paginator = offsetPaginator(server, pageSize: 5)
            paginator.refresh()
            answer(server.last, total: 300)
            let made = Locked<[TransformedList<TRow>]>([])
            let broken = Locked<[String]>([])
            let queue = DispatchQueue(label: "answers")
            raceFromBarrier(threads: 2) { thread in
                for _ in 0..<30 {
                    if thread == 0 {
                        let list = paginator.transformed(by: transform.transform)
                        // Made while pages land, so an update may come before this observer: each update is
                        // checked on its own (its change turns its previous snapshot into its new one).
                        list.updates.observeValues { update in
                            let new = Array(update.items)
                            if Mirror<TRow>.apply(update.change, to: Array(update.previous), giving: new) != new {
                                broken.append("\(update.change)")
                            }
                        }
                        made.append(list)
                    } else {
                        _ = paginator.loadNextPage()
                        if let request = server.pending.first { answer(request, total: 300, on: queue) }
                    }
                }
            }
            let expected = transform.naive(paginator.snapshot.value)
            for list in made.value { #expect(Array(list.items.value) == expected) }
            #expect(broken.value.isEmpty, "\(broken.value)")
        }
    }
}
