/// What a local edit of a paginator's items did.
///
/// An edit applies at once, as one update with an exact change. An index names a row of the snapshot
/// the caller was given (the observers' latest for a `Paginator`, `items` for a `PagingModel`), followed
/// to where that row is now. It changes the loaded items only: never the keys, the ends, or what the
/// next request asks for.
public enum EditOutcome: Sendable, Hashable {
    /// The edit was applied and published.
    case applied
    /// The index is past the end of the current items (the list changed since the caller read it):
    /// nothing changed.
    case outOfRange
    /// No loaded item has the identity: nothing changed.
    case notFound
    /// No first page was loaded yet, so there is no list to edit: nothing changed.
    case notLoaded
    /// The row the index named, in the snapshot the caller was given, was removed or replaced (a refresh
    /// replaced the list) before the edit applied: nothing changed.
    case rowGone
    /// Every row to add is in the list already, by its identity: nothing changed.
    case alreadyShown
}
