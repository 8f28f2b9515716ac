import Stapler

/// One request a fake source received, as its log keeps it.
///
/// The page models hand a source only the key, the size and the query; ``direction`` is then the
/// direction the key was produced for (a next key: `.append`, a previous key: `.prepend`, the opening
/// key: `.refresh`). The custom-keys source sees the paginator's own direction.
public struct TestRequest<Query: Sendable>: Sendable, CustomStringConvertible {
    /// The request's position in the log, from 1.
    public let index: Int
    /// The key, by its description: `"20"` for an offset, `"3"` for page 3, `"c40"` for a cursor.
    public let key: String
    /// Where the page goes.
    public let direction: PageDirection
    /// How many items were asked for.
    public let pageSize: Int
    /// The query of the request.
    public let query: Query
    /// The offset in the list of the page's first item.
    public let offset: Int

    /// The request, in words: `append(key: 20, size: 10)`.
    public var description: String { "\(direction)(key: \(key), size: \(pageSize))" }
}
