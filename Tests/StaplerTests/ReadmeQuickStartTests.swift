import Reactive
import Stapler
import TestSupport
import Testing

// What README.md's quick start (ReadmeQuickStart.swift) leaves to the app, over an in-memory backend.

struct User: Equatable, Sendable {
    let id: Int
}

enum APIError: Error, Equatable {
    case unavailable
}

/// An in-memory `GET /users?offset=&limit=`: it answers at once, from a list of `count` users, and fails
/// the offsets the test marks as failing, once each.
final class UsersAPI: Sendable {
    private let count: Int
    private let failing: Locked<Set<Int>>
    private let log = Locked<[Int]>([])

    init(count: Int, failingOnce failing: Set<Int> = []) {
        self.count = count
        self.failing = Locked(failing)
    }

    /// The offset of every request, in order.
    var offsets: [Int] { log.value }

    func users(offset: Int, limit: Int) -> SignalProducer<UsersPage, APIError> {
        log.append(offset)
        if failing.withLock({ $0.remove(offset) }) != nil {
            return SignalProducer(error: .unavailable)
        }
        let ids = offset..<min(offset + limit, count)
        return SignalProducer(value: UsersPage(items: ids.map(User.init), total: count))
    }
}

/// What the screen can show.
protocol UsersScreen: Sendable {
    func show(_ users: PagedItems<User>)
    func showSpinner(_ isShown: Bool)
    func showErrorPlaceholder(_ error: PagingError<APIError>)
    func showRetryFooter(_ error: PagingError<APIError>)
}

/// A screen that records what it was asked to show, for whole-history assertions.
final class RecordingScreen: UsersScreen {
    enum Shown: Equatable {
        /// The ids of the users shown.
        case users([Int])
        case spinner(Bool)
        case errorPlaceholder(PagingError<APIError>)
        case retryFooter(PagingError<APIError>)
    }

    private let log = Locked<[Shown]>([])

    var history: [Shown] { log.value }

    func show(_ users: PagedItems<User>) { log.append(.users(users.map(\.id))) }

    func showSpinner(_ isShown: Bool) { log.append(.spinner(isShown)) }
    func showErrorPlaceholder(_ error: PagingError<APIError>) { log.append(.errorPlaceholder(error)) }
    func showRetryFooter(_ error: PagingError<APIError>) { log.append(.retryFooter(error)) }
}

@Suite("README quick start")
struct ReadmeQuickStartTests {
    @Test("the quick start pages 45 users by 20, stops at the total, and pull to refresh reloads the first page")
    func pagesToTheEndAndRefreshes() {
        let api = UsersAPI(count: 45)
        let viewModel = UsersViewModel(api: api)
        let screen = RecordingScreen()
        viewModel.bind(to: screen)
        viewModel.lastRowAppeared()  // before the first page: nothing
        viewModel.screenAppeared()
        viewModel.lastRowAppeared()
        viewModel.lastRowAppeared()
        viewModel.lastRowAppeared()  // after the last page: nothing
        viewModel.pulledToRefresh()
        #expect(api.offsets == [0, 20, 40, 0])
        #expect(
            screen.history == [
                .users([]), .spinner(false),
                .users(Array(0..<20)),
                .spinner(true), .users(Array(0..<40)),
                .users(Array(0..<45)), .spinner(false),
                .users(Array(0..<20)),
            ])
    }

    @Test("a first-page error shows the placeholder; a later page's error shows the retry footer and keeps the rows")
    func errors() {
        let api = UsersAPI(count: 45, failingOnce: [0, 20])
        let viewModel = UsersViewModel(api: api)
        let screen = RecordingScreen()
        viewModel.bind(to: screen)
        viewModel.screenAppeared()
        viewModel.screenAppeared()
        viewModel.lastRowAppeared()
        viewModel.lastRowAppeared()  // after a later page's error, the facade asks for that page again
        #expect(api.offsets == [0, 0, 20, 20])
        #expect(
            screen.history == [
                .users([]), .spinner(false),
                .errorPlaceholder(.source(.unavailable)),
                .users(Array(0..<20)),
                .spinner(true), .spinner(false), .retryFooter(.source(.unavailable)),
                .spinner(true), .users(Array(0..<40)),
            ])
        #expect(viewModel.stapler.items.value.count == 40)
    }
}
