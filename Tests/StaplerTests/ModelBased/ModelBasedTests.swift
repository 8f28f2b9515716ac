import Dispatch
import Foundation
import TestSupport
import Testing

/// Randomized model-based testing: seeded sequences of every paginator operation (refresh, query change,
/// load next, preload, retry, cancel, release, calls from inside notifications), interleaved with
/// responses of every shape (bad ones included) to any request, latest or superseded, in random order,
/// delayed on a `TestScheduler` or not, on random threads, for both the offset and the cursor page
/// models, with and without deduplication, and with a policy (a load timeout and automatic retries on a
/// `TestScheduler` clock that the sequence moves) and a query cache, a memory bound of three pages,
/// placeholders (with jumps over the offset model), and saves and restores. Each step is checked against
/// ``PagingReference``: the items (no duplicate, no stale item), the state, the query, pages, total and
/// end, only legal transitions, the requests made (keys, no request after the end, never two loads in
/// flight), the pages a bound drops and the keys that reload them when the rows are scrolled back (so no
/// row is lost or repeated), the slots (placeholders around the rows shown, as many as the total), the
/// page a far preload jumps to (and none in between). A paginator restored from the list saved at a
/// random step gets the same calls and answers and must agree with the saved one at every later step.
/// A failure prints its seed, its configuration and a shrunk sequence.
@Suite("Model-based paging")
struct ModelBasedTests {
    static let operationsPerSequence = 40
    /// The runs are split in chunks that run in parallel; seed `s` belongs to chunk `s % chunkCount`.
    static let chunkCount = 4

    /// How many sequences to run: 10,000 by default, `STAPLER_MODEL_SEQUENCES` to override (the sanitizer
    /// passes of CI run fewer).
    static var sequenceCount: Int {
        ProcessInfo.processInfo.environment["STAPLER_MODEL_SEQUENCES"].flatMap(Int.init) ?? 10_000
    }

    static func sequence(seed: UInt64) -> [PagingOperation] {
        let configuration = ModelConfiguration(seed: seed)
        var generator = SplitMix(seed: seed)
        return (0..<operationsPerSequence).map { _ in PagingOperation.random(in: configuration, using: &generator) }
    }

    /// The queues that answers and calls hop to; each runner has its own.
    static func makeQueues() -> [DispatchQueue] {
        (1...3).map { DispatchQueue(label: "model.q\($0)") }
    }

    /// Runs `operations` on a fresh session; returns the failing step and its description.
    static func run(
        _ operations: [PagingOperation], _ configuration: ModelConfiguration, queues: [DispatchQueue],
        mutation: PagingReference.Mutation? = nil
    ) -> (step: Int, failure: String)? {
        let session = PagingSession(configuration, queues: queues, mutation: mutation)
        for (step, operation) in operations.enumerated() {
            if let failure = session.apply(operation) { return (step, failure) }
        }
        if let failure = session.finish() { return (operations.count, "after the scheduler ran: \(failure)") }
        return nil
    }

    /// Removes operations, then simplifies them (no hop, no delay, the latest request), while the
    /// sequence still fails.
    static func shrink(
        _ operations: [PagingOperation], _ configuration: ModelConfiguration, queues: [DispatchQueue],
        mutation: PagingReference.Mutation? = nil
    ) -> [PagingOperation] {
        func fails(_ candidate: [PagingOperation]) -> Bool {
            run(candidate, configuration, queues: queues, mutation: mutation) != nil
        }
        var current = operations
        var shrunk = true
        while shrunk {
            shrunk = false
            for index in current.indices.reversed() where index < current.count {
                var candidate = current
                candidate.remove(at: index)
                if fails(candidate) {
                    current = candidate
                    shrunk = true
                }
            }
            for index in current.indices {
                for simpler in current[index].simplifications {
                    var candidate = current
                    candidate[index] = simpler
                    if fails(candidate) {
                        current = candidate
                        shrunk = true
                        break
                    }
                }
            }
        }
        return current
    }

    @Test(
        "random sequences of every operation, answer, delay and thread always match the reference model",
        arguments: 0..<chunkCount)
    func randomSequencesMatchTheReference(chunk: Int) async {
        let queues = Self.makeQueues()
        let seeds = stride(from: UInt64(chunk), to: UInt64(Self.sequenceCount), by: Self.chunkCount)
        var failures = 0
        var operations = 0
        for seed in seeds {
            // A chunk runs for seconds (minutes under Thread Sanitizer): let the other tests of the
            // cooperative pool run between sequences rather than starving them.
            await Task.yield()
            let configuration = ModelConfiguration(seed: seed)
            let sequence = Self.sequence(seed: seed)
            operations += sequence.count
            guard let (step, failure) = Self.run(sequence, configuration, queues: queues) else { continue }
            failures += 1
            let shrunk = Self.shrink(Array(sequence.prefix(step + 1)), configuration, queues: queues)
            Issue.record(
                """
                seed \(seed) (\(configuration)) failed at step \(step): \(failure)
                shrunk sequence (\(shrunk.count) steps): \(shrunk)
                fails with: \(Self.run(shrunk, configuration, queues: queues)?.failure ?? "?")
                """)
            if failures >= 3 { break }
        }
        print(
            "model-based paging, chunk \(chunk + 1)/\(Self.chunkCount): \(seeds.underestimatedCount) sequences, "
                + "\(operations) operations, \(failures) failures")
    }

    /// Finds a seed among the first `limit` whose sequence fails against `mutation`, and shrinks it.
    static func catches(
        _ mutation: PagingReference.Mutation, limit: UInt64 = 2_000,
        where accepts: (ModelConfiguration) -> Bool = { _ in true }
    ) throws -> (operations: [PagingOperation], configuration: ModelConfiguration) {
        let queues = makeQueues()
        var found: UInt64?
        for seed in 0..<limit where accepts(ModelConfiguration(seed: seed)) {
            if run(sequence(seed: seed), ModelConfiguration(seed: seed), queues: queues, mutation: mutation) != nil {
                found = seed
                break
            }
        }
        let seed = try #require(found, "no sequence catches \(mutation)")
        let configuration = ModelConfiguration(seed: seed)
        return (shrink(sequence(seed: seed), configuration, queues: queues, mutation: mutation), configuration)
    }

    @Test("the harness catches a stale-response bug and shrinks it to a few steps")
    func harnessCatchesAStaleResponseBug() throws {
        // A reference with the original Stapler's bug disagrees with the real paginator; the harness
        // must find such a sequence and shrink it.
        let (shrunk, configuration) = try Self.catches(.appliesStaleResponses)
        let queues = Self.makeQueues()
        #expect(Self.run(shrunk, configuration, queues: queues, mutation: .appliesStaleResponses) != nil)
        #expect(shrunk.count <= 8, "shrunk to \(shrunk)")
        #expect(
            Self.run(shrunk, configuration, queues: queues) == nil,
            "the real paginator passes the same sequence against the right model")
    }

    @Test("the harness catches a deduplication bug (identities kept across a refresh) and shrinks it")
    func harnessCatchesADeduplicationBug() throws {
        let (shrunk, configuration) = try Self.catches(.keepsIdentitiesAcrossRefresh) { $0.deduplicates }
        let queues = Self.makeQueues()
        #expect(Self.run(shrunk, configuration, queues: queues, mutation: .keepsIdentitiesAcrossRefresh) != nil)
        #expect(shrunk.count <= 8, "shrunk to \(shrunk)")
        #expect(shrunk.contains { if case .call(.refresh, _) = $0 { true } else { false } }, "\(shrunk)")
        #expect(Self.run(shrunk, configuration, queues: queues) == nil)
    }

    @Test("the harness catches a reference that ignores load timeouts or the query cache")
    func harnessCatchesPolicyBugs() throws {
        let queues = Self.makeQueues()
        for mutation in [PagingReference.Mutation.ignoresLoadTimeouts, .forgetsCachedLists] {
            let (shrunk, configuration) = try Self.catches(mutation) { $0.usesPolicies }
            #expect(Self.run(shrunk, configuration, queues: queues, mutation: mutation) != nil)
            #expect(shrunk.count <= 10, "\(mutation) shrunk to \(shrunk)")
            #expect(Self.run(shrunk, configuration, queues: queues) == nil)
        }
    }

    @Test(
        "the harness catches a reference that ignores the memory bound or jumps, and a restore that loses the end"
    )
    func harnessCatchesBoundJumpAndRestoreBugs() throws {
        let queues = Self.makeQueues()
        let cases: [(PagingReference.Mutation, (ModelConfiguration) -> Bool)] = [
            (.ignoresDrops, { $0.bounded }), (.neverJumps, { $0.jumps }), (.restoresWithoutTheEnd, { $0.restores }),
        ]
        for (mutation, accepts) in cases {
            let (shrunk, configuration) = try Self.catches(mutation, where: accepts)
            #expect(Self.run(shrunk, configuration, queues: queues, mutation: mutation) != nil)
            #expect(shrunk.count <= 12, "\(mutation) shrunk to \(shrunk)")
            #expect(Self.run(shrunk, configuration, queues: queues) == nil)
        }
    }

    @Test("the default run drops and reloads pages at both ends, jumps, and restores saved lists")
    func generatorReachesBoundsJumpsAndRestores() {
        let queues = Self.makeQueues()
        var total = PagingReference.BoundEvents()
        var restores = 0
        for seed in UInt64(0)..<1_280 where ModelConfiguration(seed: seed).bounded {
            do {
                let session = PagingSession(ModelConfiguration(seed: seed), queues: queues)
                var restored = false
                for operation in Self.sequence(seed: seed) {
                    _ = session.apply(operation)
                    restored = restored || session.events.restored
                }
                let events = session.events.bound
                total.dropsAbove += events.dropsAbove
                total.dropsBelow += events.dropsBelow
                total.reloadsAbove += events.reloadsAbove
                total.reloadsBelow += events.reloadsBelow
                total.jumps += events.jumps
                restores += restored ? 1 : 0
            }
        }
        #expect(total.dropsAbove > 0 && total.dropsBelow > 0, "\(total)")
        #expect(total.reloadsAbove > 0 && total.reloadsBelow > 0, "\(total)")
        #expect(total.jumps > 0 && restores > 0, "\(total), \(restores) restores")
        print("bounded sequences: \(total), \(restores) of 640 restored")
    }

    @Test("every configuration, answer and operation kind occurs in the default run")
    func generatorCoversEverything() {
        var configurations: [String: Int] = [:]
        var kinds: Set<String> = []
        var answers: Set<String> = []
        for seed in 0..<UInt64(2_560) {
            configurations["\(ModelConfiguration(seed: seed))", default: 0] += 1
            for operation in Self.sequence(seed: seed) {
                switch operation {
                case .call(let call, let queue):
                    kinds.insert("\(call)".prefix { $0 != "(" } + (queue == 0 ? "" : " hop"))
                case .respond(_, let answer, let queue, let delay):
                    answers.insert("\(answer)")
                    kinds.insert("respond" + (queue == 0 ? "" : " hop") + (delay == 0 ? "" : " delayed"))
                default:
                    kinds.insert("\(operation)".prefix { $0 != "(" }.description)
                }
            }
        }
        #expect(configurations.count == 256 && configurations.values.allSatisfy { $0 == 10 })
        #expect(answers.count == PagingOperation.Answer.allCases.count)
        let expectedKinds: Set<String> = [
            "refresh", "refresh hop", "loadNext", "loadNext hop", "preload", "preload hop", "retry", "retry hop",
            "cancel", "cancel hop", "respond", "respond hop", "respond delayed", "respond hop delayed",
            "reloadAll", "reloadAll hop", "refreshAround", "refreshAround hop", "loadPrevious", "loadPrevious hop",
            "insert", "insert hop", "remove", "remove hop", "replace", "replace hop",
            "onNextState", "onNextItems", "advance", "run", "release", "clock", "saveAndRestore",
        ]
        #expect(kinds == expectedKinds)
    }
}
