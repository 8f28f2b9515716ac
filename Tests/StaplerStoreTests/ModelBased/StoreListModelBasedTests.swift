import Foundation
import TestSupport
import Testing

/// Randomized model-based testing of lists over a store: seeded sequences of writes (inserts, sort-key
/// changes that move rows, renames, deletes, several in one transaction) interleaved with scrolling
/// (`loadNextPage`, `loadPreviousPage`, `preload`), local edits and the passing of time on a
/// `TestScheduler`, on `MemoryStore` and on `SQLiteStore`, with and without a memory bound, opened at
/// either end. Each step is checked against the store's rows at the list's version (see
/// ``StoreListSession``). A failure prints its seed, its configuration and a shrunk sequence.
@Suite("Model-based lists over a store")
struct StoreListModelBasedTests {
    static let operationsPerSequence = 30

    /// How many sequences to run: 400 by default, `STAPLER_STORE_MODEL_SEQUENCES` to override.
    static var sequenceCount: Int {
        ProcessInfo.processInfo.environment["STAPLER_STORE_MODEL_SEQUENCES"].flatMap(Int.init) ?? 400
    }

    static func sequence(seed: UInt64) -> [StoreListOperation] {
        var generator = SplitMix(seed: seed)
        return (0..<operationsPerSequence).map { _ in StoreListOperation.random(using: &generator) }
    }

    /// Runs `operations` on a fresh session; returns the failing step and its description.
    static func run(_ operations: [StoreListOperation], _ configuration: StoreListConfiguration) -> (
        step: Int, failure: String
    )? {
        let session: StoreListSession
        do {
            session = try StoreListSession(configuration)
        } catch {
            return (0, "the session did not open: \(error)")
        }
        for (step, operation) in operations.enumerated() {
            if let failure = session.apply(operation) { return (step, failure) }
        }
        if let failure = session.finish() { return (operations.count, "at the end: \(failure)") }
        return nil
    }

    /// Removes operations while the sequence still fails.
    static func shrink(_ operations: [StoreListOperation], _ configuration: StoreListConfiguration)
        -> [StoreListOperation]
    {
        var current = operations
        var shrunk = true
        while shrunk {
            shrunk = false
            for index in current.indices.reversed() where index < current.count {
                var candidate = current
                candidate.remove(at: index)
                if run(candidate, configuration) != nil {
                    current = candidate
                    shrunk = true
                }
            }
        }
        return current
    }

    @Test(
        "P44, P47: random writes, scrolling and local edits keep a store-backed list a run of the store at its version",
        arguments: [StoreKind.memory, .sqliteWAL])
    func randomSequencesMatchTheStore(kind: StoreKind) {
        let offset: UInt64 = kind == .memory ? 0 : 1
        var failures = 0
        for seed in stride(from: offset, to: UInt64(Self.sequenceCount), by: 2) {
            let configuration = StoreListConfiguration(seed: seed)
            let sequence = Self.sequence(seed: seed)
            guard let (step, failure) = Self.run(sequence, configuration) else { continue }
            failures += 1
            let shrunk = Self.shrink(Array(sequence.prefix(step + 1)), configuration)
            Issue.record(
                """
                seed \(seed) (\(configuration)) failed at step \(step): \(failure)
                shrunk sequence (\(shrunk.count) steps): \(shrunk)
                fails with: \(Self.run(shrunk, configuration)?.failure ?? "?")
                """)
            if failures >= 3 { break }
        }
    }
}
