/// A ``ListPresenter`` whose views are lines of text, for terminals, logs and tests.
///
/// ```swift
/// let presenter = TextListPresenter<APIError>()
/// let screen = presenter.render(paginator.presentation.value) { paginator.retry() }
/// print(screen.background ?? screen.footer ?? "")
/// ```
public struct TextListPresenter<Failure: Error>: ListPresenter, Sendable {
    /// Creates the presenter.
    public init() {}

    /// The text itself.
    ///
    /// - Parameter text: The message.
    /// - Returns: `text`.
    public func makeMessage(_ text: String) -> String { text }

    /// "Loading…".
    ///
    /// - Returns: The indicator line.
    public func makeActivityIndicator() -> String { "Loading…" }

    /// The title in brackets, such as "[Retry]"; the text cannot be pressed, so `retry` is not kept.
    ///
    /// - Parameters:
    ///   - title: The button's title.
    ///   - retry: Ignored.
    /// - Returns: The button line.
    public func makeRetryButton(title: String, retry: @escaping @Sendable () -> Void) -> String { "[\(title)]" }
}
