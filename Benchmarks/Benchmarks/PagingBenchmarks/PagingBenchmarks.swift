import Benchmark
import BenchmarkSupport
import Scenarios

// P1-P5 and D1: see Sources/Scenarios/PagingScenarios.swift and README.md (P1a, P1a-delivery and P1r:
// Sources/Scenarios/AppPageScenarios.swift); P7 (a bounded list scrolled end to end and back), P8 (saving
// and restoring a list), P9 (a transformed list) and P9-delivery (its cost on the delivering thread) are
// in this target's own files.
let benchmarks: @Sendable () -> Void = {
    register(pagingScenarios())
    registerBounded(boundedScrollScenarios() + restoreScenarios())
    register(transformScenarios())
    registerDelivery(deliveryScenarios())
    registerDelivery(appDeliveryScenarios(), metric: deliveryTimePerPageMetric)
}
