import Reactive
import Stapler

/// Checks every slots update of the scene: the list keeps its length, and no row of a superseded load
/// ever shows.
final class SlotsWatcher: Sendable {
    private struct State {
        var superseded: Set<Int> = []
        var checks = 0
        var violations: [String] = []
    }

    private let count: Int
    // Guarded by its own lock.
    private let state = LockedState(State())

    init(count: Int) {
        self.count = count
    }

    /// Takes note that a jump superseded the load of the products `ids` in flight: they must never show.
    func supersede(_ ids: some Sequence<Int>) {
        state.withLock { $0.superseded.formUnion(ids) }
    }

    var checks: Int { state.withLock { $0.checks } }
    var violations: [String] { state.withLock { $0.violations } }

    /// The rules `slots` breaks, recorded.
    func check(_ slots: PagedSlots<Product>) -> [String] {
        var broken: [String] = []
        if slots.count != count { broken.append("the slots are \(slots.count), not the list's \(count)") }
        let superseded = state.withLock { $0.superseded }
        if let stale = slots.items.first(where: { superseded.contains($0.id) }) {
            broken.append("product \(stale.id), of a load a jump superseded, is shown")
        }
        state.withLock {
            $0.checks += 1
            $0.violations += broken
        }
        return broken
    }
}
