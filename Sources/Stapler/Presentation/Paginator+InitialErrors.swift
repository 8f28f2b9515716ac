import Reactive

extension Paginator {
    /// Each first-page error that leaves no rows to show, once, when it happens: where a host reacts to
    /// such an error (an alert, a sign-in screen) instead of doing so while rendering.
    ///
    /// It sends the error of every change of ``presentation`` to ``ListPresentation/failed(_:)``, with
    /// that change: in the same order as every other notification, on the paginator's delivery scheduler
    /// if it has one. A presentation reaches `failed` only from `loading`, so each failed load sends its
    /// error once, whoever renders the presentation and however often; a new error needs a new load
    /// (``refresh()``, ``refresh(query:)-2seyi`` or ``retry()-1n6nq``). It sends nothing for a later page's error
    /// (that is ``errorsAfterFirstPage``) or for a refresh that fails while rows stay on screen (that is
    /// ``ListContent/refreshError``, shown as a notice over the rows).
    ///
    /// ```swift
    /// paginator.initialErrors.observeValues { error in
    ///     if error.sourceError == .sessionExpired { showLoginAlert() }
    /// }
    /// ```
    ///
    /// With ``ListPresenter/suppressesErrorPlaceholder(for:)`` returning `true` for the same errors, the
    /// screen shows no error placeholder under the alert.
    ///
    /// Each access makes a new signal, of the errors that happen from then on (an error already on screen
    /// is not sent again). Observing it does not keep the paginator alive.
    @inlinable
    public var initialErrors: Signal<PagingError<Failure>, Never> {
        presentation.signal.compactMap { presentation in
            if case .failed(let error) = presentation { return error }
            return nil
        }
    }
}
