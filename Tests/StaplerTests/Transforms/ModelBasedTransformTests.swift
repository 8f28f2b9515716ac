import Dispatch
import Stapler
import TestSupport
import Testing

extension ModelBasedTests {
    @Test("9.1: in random sequences the transformed list always equals the transform of the model's snapshot")
    func transformedListFollowsTheModel() {
        // Every sequence of the model-based run checks the transformed list after every step; these seeds
        // run here on their own so that the clause names a test that fails only for the transform.
        let queues = Self.makeQueues()
        var checked = 0
        for seed in 0..<40 as Range<UInt64> {
            let configuration = ModelConfiguration(seed: seed)
            let sequence = Self.sequence(seed: seed)
            if let (step, failure) = Self.run(sequence, configuration, queues: queues) {
                Issue.record("seed \(seed) (\(configuration)) failed at step \(step): \(failure)")
            }
            checked += sequence.count
        }
        #expect(checked > 1_000)
    }
}
