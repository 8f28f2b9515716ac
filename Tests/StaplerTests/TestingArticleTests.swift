import Reactive
import Stapler
import Testing

// The code of the DocC article "Testing with the TestScheduler" (Sources/Stapler/Stapler.docc/
// TestingWithTheTestScheduler.md), compiled and run, so the article shows code that works. It reuses
// `User`, `UsersPage` and `APIError` from the README's quick start. Keep the two in step.

/// Records every event an observer receives, for whole-history assertions.
final class Recorder<Value: Sendable, Error: Swift.Error>: Sendable {
    private let log = MutableProperty<[Signal<Value, Error>.Event]>([])

    var events: [Signal<Value, Error>.Event] { log.value }
    var values: [Value] { events.compactMap(\.value) }

    var observer: Signal<Value, Error>.Observer {
        Signal.Observer { [log] event in log.modify { $0.append(event) } }
    }
}

/// Where a search screen gets its users.
protocol SearchBackend: Sendable {
    func users(matching text: String, offset: Int, limit: Int) -> SignalProducer<UsersPage, APIError>
}

/// A backend the test answers by hand: every request waits until the test replies to it.
final class HandDrivenBackend: SearchBackend {
    struct Request: Sendable {
        let text: String
        let offset: Int
        let reply: Signal<UsersPage, APIError>.Observer
    }

    private let log = MutableProperty<[Request]>([])

    var requests: [Request] { log.value }

    func users(matching text: String, offset: Int, limit: Int) -> SignalProducer<UsersPage, APIError> {
        SignalProducer { [log] observer, _ in
            log.modify { $0.append(Request(text: text, offset: offset, reply: observer)) }
        }
    }
}

extension UsersPage {
    /// The users `ids` of a list of `total`.
    init(ids: Range<Int>, total: Int) {
        self.init(items: ids.map(User.init), total: total)
    }
}

/// A search screen's view model: it searches once the user pauses typing, and pages the results.
final class UserSearchViewModel: Sendable {
    let paginator: Paginator<User, Int, String, UsersPage, APIError>
    private let input: Signal<String, Never>.Observer

    init(backend: some SearchBackend, scheduler: some TimeScheduler) {
        let paginator = Paginator(
            source: .offset { offset, size, text in backend.users(matching: text, offset: offset, limit: size) },
            query: "",
            options: PagingOptions(pageSize: 20, deliveringOn: scheduler))
        let (terms, input) = Signal<String, Never>.pipe()
        terms.debounce(.milliseconds(300), on: scheduler)
            .observeValues { [weak paginator] text in paginator?.refresh(query: text) }
        self.paginator = paginator
        self.input = input
    }

    func textChanged(_ text: String) { input.send(value: text) }
    func rowAppeared(_ row: Int) { paginator.preload(index: row) }
}

@Suite("The testing article's examples")
struct TestingArticleTests {
    @Test("search terms are debounced in virtual time")
    func searchTermsAreDebounced() {
        let scheduler = TestScheduler()
        let (terms, input) = Signal<String, Never>.pipe()
        let recorder = Recorder<String, Never>()
        terms.debounce(.milliseconds(300), on: scheduler).observe(recorder.observer)

        input.send(value: "s")
        scheduler.advance(by: .milliseconds(100))
        input.send(value: "sw")
        scheduler.advance(by: .milliseconds(299))
        #expect(recorder.events == [])  // "sw" restarted the wait at 100 ms
        scheduler.advance(by: .milliseconds(1))
        #expect(recorder.events == [.value("sw")])
        #expect(scheduler.now == .origin + .milliseconds(400))

        input.sendCompleted()
        scheduler.run()  // the completion is delivered on the scheduler too
        #expect(recorder.events == [.value("sw"), .completed])
        #expect(scheduler.pendingCount == 0)  // no timer left behind
    }

    @Test("typing searches once the user pauses; a new search wins over the page in flight")
    func typingSearchesOnceTheUserPauses() {
        let scheduler = TestScheduler()
        let backend = HandDrivenBackend()
        let viewModel = UserSearchViewModel(backend: backend, scheduler: scheduler)
        let states = Recorder<PagingState<APIError>, Never>()
        viewModel.paginator.state.producer.start(states.observer)

        viewModel.textChanged("sw")
        scheduler.advance(by: .milliseconds(100))
        viewModel.textChanged("swift")
        scheduler.advance(by: .milliseconds(300))
        #expect(backend.requests.map(\.text) == ["swift"])  // one search, for the last text

        backend.requests[0].reply.send(value: UsersPage(ids: 0..<20, total: 45))
        #expect(viewModel.paginator.items.value.isEmpty)  // nothing changes until the scheduler runs
        scheduler.advance()
        #expect(viewModel.paginator.items.value.count == 20)

        viewModel.rowAppeared(15)  // within half a page of the end: loads the next page
        backend.requests[1].reply.send(value: UsersPage(ids: 20..<40, total: 45))
        scheduler.advance()
        viewModel.rowAppeared(35)  // page 3 starts loading…
        viewModel.textChanged("swiftui")  // …and the user types again
        scheduler.advance(by: .milliseconds(300))
        backend.requests[2].reply.send(value: UsersPage(ids: 40..<45, total: 45))  // too late: never applied
        backend.requests[3].reply.send(value: UsersPage(ids: 100..<103, total: 3))
        scheduler.run()

        #expect(backend.requests.map(\.text) == ["swift", "swift", "swift", "swiftui"])
        #expect(backend.requests.map(\.offset) == [0, 20, 40, 0])
        #expect(viewModel.paginator.items.value.map(\.id) == [100, 101, 102])
        #expect(
            states.values == [
                .uninitialized, .refreshing, .data, .loadingMore, .data, .loadingMore, .refreshing, .data,
            ])
        #expect(scheduler.pendingCount == 0)
    }
}
