import Foundation
import Testing

/// Randomized model-based testing: seeded sequences of every paginator operation, interleaved with
/// responses of every shape (bad ones included), in random order, on random threads, each step checked
/// against ``PagingReference``. A failure prints its seed and a shrunk sequence.
@Suite("Model-based paging")
struct ModelBasedTests {
    static let operationsPerSequence = 40

    /// How many sequences to run: 10,000 by default, `STAPLER_MODEL_SEQUENCES` to override (the TSan pass
    /// of CI runs fewer).
    static var sequenceCount: Int {
        ProcessInfo.processInfo.environment["STAPLER_MODEL_SEQUENCES"].flatMap(Int.init) ?? 10_000
    }

    static func sequence(seed: UInt64) -> [PagingOperation] {
        var generator = SplitMix(seed: seed)
        return (0..<operationsPerSequence).map { _ in PagingOperation.random(using: &generator) }
    }

    /// Runs `operations` on a fresh session; returns the failing step and its description.
    static func run(
        _ operations: [PagingOperation], appliesStaleResponses: Bool = false
    ) -> (step: Int, failure: String)? {
        let session = PagingSession(appliesStaleResponses: appliesStaleResponses)
        for (step, operation) in operations.enumerated() {
            if let failure = session.apply(operation) { return (step, failure) }
        }
        return nil
    }

    /// Removes operations one at a time while the sequence still fails.
    static func shrink(_ operations: [PagingOperation], appliesStaleResponses: Bool = false) -> [PagingOperation] {
        var current = operations
        var shrunk = true
        while shrunk {
            shrunk = false
            for index in current.indices.reversed() {
                var candidate = current
                candidate.remove(at: index)
                if run(candidate, appliesStaleResponses: appliesStaleResponses) != nil {
                    current = candidate
                    shrunk = true
                }
            }
        }
        return current
    }

    @Test("random sequences of every operation always match the reference model")
    func randomSequencesMatchTheReference() {
        let count = Self.sequenceCount
        var failures = 0
        for seed in 0..<UInt64(count) {
            let operations = Self.sequence(seed: seed)
            guard let (step, failure) = Self.run(operations) else { continue }
            failures += 1
            let shrunk = Self.shrink(Array(operations.prefix(step + 1)))
            Issue.record(
                """
                seed \(seed) failed at step \(step): \(failure)
                shrunk sequence (\(shrunk.count) steps): \(shrunk)
                fails with: \(Self.run(shrunk)?.failure ?? "?")
                """)
            if failures >= 3 { break }
        }
        print(
            "model-based paging: \(count) sequences of \(Self.operationsPerSequence) operations, \(failures) failures")
    }

    @Test("the harness catches a stale-response bug and shrinks it to a few steps")
    func harnessCatchesAStaleResponseBug() throws {
        // A reference with the original Stapler's bug disagrees with the real paginator; the harness
        // must find such a sequence among a few hundred seeds and shrink it.
        let failing = (0..<UInt64(500)).lazy.map { Self.sequence(seed: $0) }
            .first { Self.run($0, appliesStaleResponses: true) != nil }
        let operations = try #require(failing)
        let shrunk = Self.shrink(operations, appliesStaleResponses: true)
        #expect(Self.run(shrunk, appliesStaleResponses: true) != nil)
        #expect(shrunk.count <= 8, "shrunk to \(shrunk)")
        #expect(Self.run(shrunk) == nil, "the real paginator passes the same sequence against the right model")
    }
}
