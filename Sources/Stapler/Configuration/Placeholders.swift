/// Whether a paginator shows the list at full length, with a placeholder for each row not loaded, and
/// whether a preload far from the loaded rows loads its own page directly.
///
/// Placeholders show as soon as the pages say where they sit in a list of known total (offset + total,
/// page number + count, or ``Page/itemsBefore`` with ``Page/total``); ``Paginator/preload(index:)`` then
/// takes slot indices.
public enum Placeholders: Sendable, Hashable {
    /// No placeholders: ``Paginator/slots`` holds the items alone (the default).
    case off
    /// Placeholders for the rows not loaded; a preload near the loaded rows loads the page at that edge,
    /// and pages load edge by edge.
    case shown
    /// Placeholders, and a preload more than `threshold` slots from the loaded rows loads the page of
    /// that slot directly instead of every page in between.
    ///
    /// Offset and page-number sources only (a cursor cannot compute a page's key from a position);
    /// `threshold` is at least 0. Both are checked when the paginator is created: a programmer error
    /// traps, naming `jumpThreshold`.
    case jumping(threshold: Int)

    /// Whether placeholders are shown.
    public var isShown: Bool {
        self != .off
    }

    /// The jump threshold, or `nil` when a preload never jumps.
    public var jumpThreshold: Int? {
        if case .jumping(let threshold) = self { return threshold }
        return nil
    }
}
