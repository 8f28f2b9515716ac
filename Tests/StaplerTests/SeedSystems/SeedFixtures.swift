import Dispatch
import Foundation
import Reactive
import Stapler
import TestSupport
import Testing

// Shared by the seed-system suites, the page-model tests and the paging-hazard tests.

/// A request as a backend saw it: the key it asked for and the query it asked with.
struct Call<Key: Equatable & Sendable, Query: Equatable & Sendable>: Equatable, Sendable, CustomStringConvertible {
    let key: Key
    let query: Query

    init(_ key: Key, _ query: Query) {
        self.key = key
        self.query = query
    }

    var description: String { "(\(key), \(query))" }
}

/// One item change as a list would apply it: what was reloaded or appended, or that all was cleared.
enum Change<Item: Equatable & Sendable>: Equatable, Sendable {
    case reloaded([Item])
    case appended([Item], at: Range<Int>)
    case cleared
}

extension Paginator {
    /// Records the state now and every change of it.
    func recordStates() -> Locked<[PagingState<Failure>]> {
        state.recordValues()
    }

    /// Records the state of every published snapshot that moved the state machine, so even
    /// `refreshing -> refreshing` shows (a new refresh, a new generation).
    ///
    /// A snapshot that only changed the rows (an edit, or a page at one end while a refresh's failure
    /// stands) leaves the state where it was, in the same generation: that is no move, and not recorded.
    func recordEveryState() -> Locked<[PagingState<Failure>]> {
        let first = snapshot.value
        let log = Locked<[PagingState<Failure>]>([first.state])
        let last = Locked((first.state.name, first.generation))
        snapshot.signal.observeValues { snapshot in
            let moved = last.withLock { last in
                defer { last = (snapshot.state.name, snapshot.generation) }
                return last != (snapshot.state.name, snapshot.generation)
            }
            if moved { log.append(snapshot.state) }
        }
        return log
    }

    /// Renders every presentation with `presenter`, the retry closure calling ``retry()``.
    func recordRendering<Presenter: ListPresenter & Sendable>(
        with presenter: Presenter
    ) -> Locked<[RenderedList<Presenter.View>]> where Presenter.Failure == Failure {
        let log = Locked<[RenderedList<Presenter.View>]>([])
        presentation.producer.startWithValues { [weak self] screen in
            log.append(presenter.render(screen) { [weak self] in self?.retry() })
        }
        return log
    }
}

extension Paginator where Item: Equatable {
    /// Records every items update as the change a list applies.
    func recordChanges() -> Locked<[Change<Item>]> {
        let log = Locked<[Change<Item>]>([])
        updates.observeValues { update in
            switch update.change {
            case .reloaded: log.append(.reloaded(Array(update.newItems)))
            case .appended(let rows): log.append(.appended(Array(update.newItems), at: rows))
            case .cleared: log.append(.cleared)
            case .inserted, .removed, .updated, .difference:
                Issue.record("the seed systems page one way and edit nothing, yet got \(update.change)")
            }
        }
        return log
    }
}

/// The moves of `states` that the state machine does not allow (an empty array when all are legal).
func illegalMoves<Failure>(_ states: [PagingState<Failure>]) -> [String] {
    zip(states, states.dropFirst()).filter { !$0.canMove(to: $1) }.map { "\($0.name) -> \($1.name)" }
}

/// The names of `states`, for histories whose errors do not matter.
func names<Failure>(_ states: [PagingState<Failure>]) -> [String] {
    states.map(\.name)
}

/// A view made of text, for presenters in tests: a message, an indicator or a button that can be pressed.
enum Shown: Equatable, Sendable, CustomStringConvertible {
    case text(String)
    case indicator(String)
    case button(String, press: @Sendable () -> Void)

    static func == (lhs: Shown, rhs: Shown) -> Bool {
        switch (lhs, rhs) {
        case (.text(let lhs), .text(let rhs)), (.indicator(let lhs), .indicator(let rhs)),
            (.button(let lhs, _), .button(let rhs, _)):
            lhs == rhs
        default: false
        }
    }

    var description: String {
        switch self {
        case .text(let text): "text(\(text))"
        case .indicator(let name): "indicator(\(name))"
        case .button(let title, _): "button(\(title))"
        }
    }

    /// Presses the button, if this is one.
    func press() {
        if case .button(_, let press) = self { press() }
    }
}

/// A presenter that implements only the three primitives, so every placeholder, indicator and footer is
/// the protocol's default.
struct DefaultsPresenter<Failure: Error>: ListPresenter, Sendable {
    func makeMessage(_ text: String) -> Shown { .text(text) }
    func makeActivityIndicator() -> Shown { .indicator("spinner") }
    func makeRetryButton(title: String, retry: @escaping @Sendable () -> Void) -> Shown { .button(title, press: retry) }
}

/// A backend that answers every request asynchronously on its own serial queue, in the order asked.
final class QueueBackend<Key: Sendable, Response: Sendable, Failure: Error>: Sendable {
    private let queue = DispatchQueue(label: "seeds.backend")
    private let log = Locked<[Key]>([])
    private let answer: @Sendable (Key) -> Result<Response, Failure>

    /// - Parameter answer: The response (or error) to send for a key; called on the backend's queue.
    init(answer: @escaping @Sendable (Key) -> Result<Response, Failure>) {
        self.answer = answer
    }

    /// The keys of every request so far, in the order they were made.
    var keys: [Key] { log.value }

    /// The producer to return from a load closure for `key`.
    func producer(_ key: Key) -> SignalProducer<Response, Failure> {
        SignalProducer { [log, queue, answer] observer, _ in
            log.append(key)
            queue.async {
                switch answer(key) {
                case .success(let response):
                    observer.send(value: response)
                    observer.sendCompleted()
                case .failure(let error):
                    observer.send(error: error)
                }
            }
        }
    }

    /// Waits until every answer asked for so far was sent.
    func drain() {
        queue.sync {}
    }
}

/// Long-lived threads that run one racing body per round, all released together from a start barrier.
///
/// `raceFromBarrier` starts fresh threads for every race; stress tests that race a thousand times
/// reuse these instead, which keeps them fast under Thread Sanitizer.
final class RacingThreads: Sendable {
    private let count: Int
    private let round = Locked<(body: (@Sendable (Int) -> Void)?, stop: Bool)>((nil, false))
    private let go: [DispatchSemaphore]
    private let done = DispatchGroup()
    private let exited = DispatchGroup()

    /// Starts `count` threads, parked until the first round.
    init(count: Int) {
        self.count = count
        go = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        for index in 0..<count {
            exited.enter()
            Thread.detachNewThread { [round, go, done, exited] in
                // Each round's body is released before the round is reported done.
                func runRound() -> Bool {
                    let (body, stop) = round.value
                    body?(index)
                    return !stop
                }
                while true {
                    go[index].wait()
                    guard runRound() else { break }
                    done.leave()
                }
                exited.leave()
            }
        }
    }

    /// Runs `body` once on every thread, all released together, and waits until all have returned.
    func race(_ body: @escaping @Sendable (_ thread: Int) -> Void) {
        round.value = (body, false)
        for _ in 0..<count { done.enter() }
        for semaphore in go { semaphore.signal() }
        done.wait()
        round.value = (nil, false)
    }

    /// Ends the threads; call once, when no round runs.
    func stop() {
        round.value = (nil, true)
        for semaphore in go { semaphore.signal() }
        exited.wait()
    }
}
