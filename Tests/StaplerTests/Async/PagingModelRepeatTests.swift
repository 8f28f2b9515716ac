import Observation
import Reactive
import Stapler
import TestSupport
import Testing

/// The model changes a property only when its value changes, by the paginator's own skip rules.
@Suite("Observation model: repeats")
@MainActor
struct PagingModelRepeatTests {
    typealias Model = PagingModel<Int, Int, String, Response, ServerError>

    /// The names of the model's properties that change after `watch` returns, recorded as they change.
    final class Changes: Sendable {
        let names = Locked<Set<String>>([])

        /// Records the next change of each property of `model`.
        @MainActor
        func watch(_ model: Model) {
            names.value = []
            track("items") { _ = model.items }
            track("state") { _ = model.state }
            track("loadStates") { _ = model.loadStates }
            track("presentation") { _ = model.presentation }
            track("isEndReached") { _ = model.isEndReached }
            track("total") { _ = model.total }
            track("metadata") { _ = model.metadata }
        }

        @MainActor
        private func track(_ name: String, _ read: () -> Void) {
            let names = names
            withObservationTracking(read) { names.withLock { _ = $0.insert(name) } }
        }
    }

    @Test("the model assigns only the properties whose value changed, by the paginator's skip rules")
    func assignsOnlyWhatChanged() {
        let server = TwoEndedServer()
        let paginator = offsetPaginator(server)
        let model = Model(paginator)
        let changes = Changes()
        synchronously { paginator.refresh() }
        answer(server.last, total: 40)
        model.applyDelivered()

        changes.watch(model)
        synchronously { paginator.loadNextPage() }
        model.applyDelivered()
        #expect(changes.names.value == ["state", "loadStates", "presentation"], "a load starts: no row, total or end")

        changes.watch(model)
        answer(server.last, total: 40)
        model.applyDelivered()
        #expect(
            changes.names.value == ["items", "state", "loadStates", "presentation", "metadata"],
            "a page lands: the same total, the end not reached")

        changes.watch(model)
        synchronously { paginator.loadNextPage() }
        server.last?.fail(.timeout)
        model.applyDelivered()
        changes.watch(model)
        synchronously { paginator.retry() }
        server.last?.fail(.unavailable)
        model.applyDelivered()
        #expect(
            changes.names.value == ["state", "loadStates", "presentation"],
            "a new failure replaces the shown one even when the model skipped the load between them")
        #expect(model.loadStates.append == .failed(.source(.unavailable)))
        #expect(model.presentation == ListPresentation(paginator.snapshot.value))
    }
}
