/// One end of a list: where local rows are added (``Paginator/insert(contentsOf:at:)``) and which edge
/// a catch-up asks again (``Paginator/catchUp(at:maxPages:)``).
public enum ListEnd: Sendable, Hashable {
    /// The first row's end: the top of a feed, the oldest end of a chat shown newest last.
    case top
    /// The last row's end: the bottom of a feed, where a chat shown newest last gets new messages.
    case bottom

    /// The edge that pages at this end.
    @inlinable
    var direction: PageDirection { self == .top ? .prepend : .append }
}
