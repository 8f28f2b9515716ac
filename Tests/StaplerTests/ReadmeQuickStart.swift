// README.md's quick start, line for line: scripts/check-readme.sh fails if the README's first ```swift
// block under "Quick start" differs from the lines between the two markers below. `User`, `APIError`,
// `UsersAPI` and `UsersScreen` are the app's; ReadmeQuickStartTests.swift defines them over an
// in-memory backend and runs this code.
// README quick start: begin
import Reactive
import Stapler

/// One page of the backend's list: its items and the total count on the server.
struct UsersPage: PaginatedResponse {
    let items: [User]
    let total: Int
}

final class UsersViewModel: Sendable {
    let stapler: Stapler<UsersPage, APIError>

    init(api: UsersAPI) {
        stapler = Stapler(pageSize: 20) { offset, size in
            api.users(offset: offset, limit: size)  // a SignalProducer<UsersPage, APIError>
        }
    }

    func bind(to screen: some UsersScreen) {
        stapler.items.producer.startWithValues { users in screen.show(users) }
        stapler.shouldShowNextPageActivityIndicator.producer.startWithValues { screen.showSpinner($0) }
        stapler.initialLoadAction.errors.observeValues { error in screen.showErrorPlaceholder(error) }
        stapler.errorsAfterFirstPage.observeValues { error in screen.showRetryFooter(error) }
    }

    func screenAppeared() { stapler.initialLoadAction.apply().start() }
    func lastRowAppeared() { stapler.loadNextPageIfNeeded() }
    func pulledToRefresh() { stapler.refreshAction.apply().start() }
}
// README quick start: end
