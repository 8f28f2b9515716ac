/// Turns a ``ListPresentation`` into the host's views: placeholders, indicators and footers.
///
/// The presenter is generic over the host's view type, so UIKit (`UIView`), SwiftUI (`AnyView`) and a
/// terminal (`String`) all render the same presentation. A conformer implements three primitives
/// (``makeMessage(_:)``, ``makeActivityIndicator()`` and ``makeRetryButton(title:retry:)``); every placeholder and
/// indicator has a default built from them, and each can be replaced on its own (LeadKit's pagination
/// delegate, TIPagination's default UI delegate).
///
/// ## What to show, and what to do once
///
/// ``render(_:retry:)`` says what to show and nothing else: it is pure apart from building views, so a
/// host may call it as often as it likes (SwiftUI may call it on every evaluation of a view's body) and
/// the same presentation always gives the same views. Every method it calls, the `make…` methods and
/// ``suppressesErrorPlaceholder(for:)``, must therefore be free of side effects.
///
/// Reacting to an error, such as showing an alert or a sign-in screen, happens once per error, so it is
/// an event rather than part of rendering: observe ``Paginator/initialErrors``, which sends each first-page
/// error that leaves no rows to show, once, on the paginator's delivery scheduler. A host that handles an
/// error this way and wants no error placeholder under its alert says so with
/// ``suppressesErrorPlaceholder(for:)``:
///
/// ```swift
/// struct TablePresenter: ListPresenter {
///     func makeMessage(_ text: String) -> UIView { PlaceholderLabel(text) }
///     func makeActivityIndicator() -> UIView { UIActivityIndicatorView(style: .medium) }
///     func makeRetryButton(title: String, retry: @escaping @Sendable () -> Void) -> UIView {
///         RetryButton(title: title, action: retry)
///     }
///     // What to show: no error placeholder when the session expired (pure).
///     func suppressesErrorPlaceholder(for error: PagingError<APIError>) -> Bool {
///         error.sourceError == .sessionExpired
///     }
/// }
///
/// // What to do, once per error: the sign-in alert.
/// paginator.initialErrors.observeValues { error in
///     if error.sourceError == .sessionExpired { showLoginAlert() }
/// }
/// ```
///
/// ``render(_:retry:)`` is called on whatever thread the host calls it from: call it where the host may
/// touch its views (for example in an observer delivered on the main queue, or in a SwiftUI body).
public protocol ListPresenter<View, Failure> {
    /// The host's view type.
    associatedtype View
    /// The source's error type.
    associatedtype Failure: Error

    /// A view that shows `text` (the base of every default placeholder and notice).
    ///
    /// - Parameter text: The message to show.
    /// - Returns: The message view.
    func makeMessage(_ text: String) -> View

    /// A view that shows activity (the base of the default loading indicators).
    ///
    /// - Returns: The indicator view.
    func makeActivityIndicator() -> View

    /// A button titled `title` that calls `retry` when pressed (the base of the default retry footer).
    ///
    /// - Parameters:
    ///   - title: The button's title.
    ///   - retry: Requests the failed page again.
    /// - Returns: The button view.
    func makeRetryButton(title: String, retry: @escaping @Sendable () -> Void) -> View

    /// The indicator shown in place of the rows while the first page loads; defaults to
    /// ``makeActivityIndicator()``.
    ///
    /// - Returns: The indicator view.
    func makeInitialLoadingIndicator() -> View

    /// The placeholder shown when the first page came back empty; defaults to a ``makeMessage(_:)``.
    ///
    /// - Returns: The placeholder view.
    func makeEmptyPlaceholder() -> View

    /// The placeholder shown when the first page failed and there are no rows; defaults to a
    /// ``makeMessage(_:)`` describing `error`.
    ///
    /// Never used for a later page's error, which is the retry footer under the rows.
    ///
    /// - Parameter error: Why the first page failed.
    /// - Returns: The placeholder view.
    func makeErrorPlaceholder(for error: PagingError<Failure>) -> View

    /// Whether the screen shows no error placeholder for this first-page error, because the host shows
    /// the error its own way (LeadKit's `customInitialLoadingErrorHandling`); defaults to
    /// ``handlesInitialError(_:)``, which defaults to `false`.
    ///
    /// A pure query: ``render(_:retry:)`` asks it each time it renders a ``ListPresentation/failed(_:)``
    /// presentation, so it may be asked many times for one error, and it must not react to the error
    /// (an alert belongs in an observer of ``Paginator/initialErrors``, which sends each error once). It is
    /// never asked about a later page's error, which is always the retry footer.
    ///
    /// - Parameter error: Why the first page failed.
    /// - Returns: `true` to show no error placeholder, `false` to show ``makeErrorPlaceholder(for:)``.
    func suppressesErrorPlaceholder(for error: PagingError<Failure>) -> Bool

    /// The earlier name of ``suppressesErrorPlaceholder(for:)``: whether the host shows this first-page
    /// error its own way, so the screen shows no error placeholder; defaults to `false`.
    ///
    /// Kept so that presenters written for it keep working: the default of
    /// ``suppressesErrorPlaceholder(for:)`` asks it. Like that query, it must be pure, since rendering
    /// may ask it many times for one error: react to the error in an observer of
    /// ``Paginator/initialErrors`` instead. New presenters implement ``suppressesErrorPlaceholder(for:)``.
    ///
    /// - Parameter error: Why the first page failed.
    /// - Returns: Whether the host shows the error its own way.
    func handlesInitialError(_ error: PagingError<Failure>) -> Bool

    /// The footer shown while a later page loads or pages are left; defaults to ``makeActivityIndicator()``.
    ///
    /// - Returns: The footer view.
    func makeLoadingMoreIndicator() -> View

    /// The footer shown after a later page failed; defaults to a ``makeRetryButton(title:retry:)``.
    ///
    /// - Parameters:
    ///   - error: Why the later page failed.
    ///   - retry: Requests the failed page again.
    /// - Returns: The footer view.
    func makeRetryFooter(for error: PagingError<Failure>, retry: @escaping @Sendable () -> Void) -> View

    /// The footer shown after the last page, if any; defaults to none.
    ///
    /// - Returns: The footer view, or `nil` for no footer.
    func makeEndFooter() -> View?

    /// The footer after a later page failed in a way retrying cannot fix; by default a message.
    ///
    /// - Parameter error: The error (``PagingError/isRetryable`` is `false`).
    /// - Returns: The footer view.
    func makeUnavailableFooter(for error: PagingError<Failure>) -> View

    /// The notice shown over the rows when a refresh failed but the rows stay; defaults to a
    /// ``makeMessage(_:)`` describing `error`.
    ///
    /// - Parameter error: Why the refresh failed.
    /// - Returns: The notice view, or `nil` for none.
    func makeRefreshFailedNotice(for error: PagingError<Failure>) -> View?
}

extension ListPresenter {
    /// Shows ``makeActivityIndicator()``.
    public func makeInitialLoadingIndicator() -> View { makeActivityIndicator() }

    /// Shows "Nothing here yet".
    public func makeEmptyPlaceholder() -> View { makeMessage("Nothing here yet") }

    /// Shows "Could not load: " and the error.
    public func makeErrorPlaceholder(for error: PagingError<Failure>) -> View {
        makeMessage("Could not load: \(error)")
    }

    /// Asks ``handlesInitialError(_:)``, the earlier name of this query.
    ///
    /// - Parameter error: Why the first page failed.
    /// - Returns: What ``handlesInitialError(_:)`` returns.
    public func suppressesErrorPlaceholder(for error: PagingError<Failure>) -> Bool { handlesInitialError(error) }

    /// Suppresses nothing: the error placeholder shows.
    ///
    /// - Parameter error: Why the first page failed.
    /// - Returns: `false`.
    public func handlesInitialError(_ error: PagingError<Failure>) -> Bool { false }

    /// Shows ``makeActivityIndicator()``.
    public func makeLoadingMoreIndicator() -> View { makeActivityIndicator() }

    /// Shows a "Retry" button.
    public func makeRetryFooter(for error: PagingError<Failure>, retry: @escaping @Sendable () -> Void) -> View {
        makeRetryButton(title: "Retry", retry: retry)
    }

    /// Shows no footer at the end.
    public func makeEndFooter() -> View? { nil }

    /// A message that the rest of the list cannot be loaded.
    public func makeUnavailableFooter(for error: PagingError<Failure>) -> View {
        makeMessage("The rest of the list is unavailable")
    }

    /// Shows "Could not refresh: " and the error.
    public func makeRefreshFailedNotice(for error: PagingError<Failure>) -> View? {
        makeMessage("Could not refresh: \(error)")
    }

    /// The views for `presentation`: a pure function of it, however often it is called.
    ///
    /// A first-page error for which ``suppressesErrorPlaceholder(for:)`` returns `true` shows no
    /// placeholder; a later page's error is always the retry footer, never a placeholder. Rendering
    /// reacts to nothing: the one-time reaction to a first-page error is ``Paginator/initialErrors``.
    ///
    /// - Parameters:
    ///   - presentation: What the screen shows, usually `paginator.presentation.value`.
    ///   - retry: What the retry footer's button does, usually `{ paginator.retry() }`.
    /// - Returns: The background, footer and notice views to install.
    public func render(
        _ presentation: ListPresentation<Failure>, retry: @escaping @Sendable () -> Void
    ) -> RenderedList<View> {
        switch presentation {
        case .idle:
            return RenderedList()
        case .loading:
            return RenderedList(background: makeInitialLoadingIndicator())
        case .empty:
            return RenderedList(background: makeEmptyPlaceholder())
        case .failed(let error):
            return RenderedList(
                background: suppressesErrorPlaceholder(for: error) ? nil : makeErrorPlaceholder(for: error))
        case .content(let content):
            let footer: View? =
                switch content.footer {
                case .hidden: nil
                case .loadingRow: makeLoadingMoreIndicator()
                case .retry(let error): makeRetryFooter(for: error, retry: retry)
                case .unavailable(let error): makeUnavailableFooter(for: error)
                case .end: makeEndFooter()
                }
            return RenderedList(
                rowCount: content.itemCount, footer: footer,
                notice: content.refreshError.flatMap(makeRefreshFailedNotice),
                isRefreshing: content.isRefreshing)
        }
    }
}

/// The views a ``ListPresenter`` made for one ``ListPresentation``.
public struct RenderedList<View> {
    /// The number of item rows to show.
    public var rowCount: Int
    /// The view shown in place of the rows (initial indicator or placeholder), if any.
    public var background: View?
    /// The view shown after the last row, if any.
    public var footer: View?
    /// A notice shown over the rows (a failed refresh), if any.
    public var notice: View?
    /// Whether a refresh runs over the rows.
    public var isRefreshing: Bool

    /// Creates a rendering.
    ///
    /// - Parameters:
    ///   - rowCount: The number of item rows.
    ///   - background: The view in place of the rows.
    ///   - footer: The view after the last row.
    ///   - notice: A notice over the rows.
    ///   - isRefreshing: Whether a refresh runs over the rows.
    public init(
        rowCount: Int = 0, background: View? = nil, footer: View? = nil, notice: View? = nil, isRefreshing: Bool = false
    ) {
        self.rowCount = rowCount
        self.background = background
        self.footer = footer
        self.notice = notice
        self.isRefreshing = isRefreshing
    }
}

extension RenderedList: Sendable where View: Sendable {}

extension RenderedList: Equatable where View: Equatable {}
