import Stapler

/// The first rule a page source broke under ``PageSourceConformance/check(_:timeout:)``: where, for which key,
/// with which items, in words.
public struct ConformanceViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// The direction of the load that showed the violation.
    public let direction: PageDirection
    /// The key of that load, by its description (the opening key for a list that misses items).
    public let key: String
    /// The ids involved, by their descriptions.
    public let ids: [String]
    /// The violation in words, naming the direction, the key and the ids: `prepend from key 20 returned
    /// ids 20–29, already loaded from key 20`.
    public let description: String

    /// Creates a violation.
    ///
    /// - Parameters:
    ///   - direction: The direction of the load that showed it.
    ///   - key: The key of that load.
    ///   - ids: The ids involved.
    ///   - description: The violation in words.
    public init(direction: PageDirection, key: String, ids: [String], description: String) {
        self.direction = direction
        self.key = key
        self.ids = ids
        self.description = description
    }
}

/// The description of a key, without the `Optional(...)` wrapper of an optional key.
func describeKey<Key>(_ key: Key) -> String {
    let mirror = Mirror(reflecting: key)
    guard mirror.displayStyle == .optional else { return String(describing: key) }
    return mirror.children.first.map { describeKey($0.value) } ?? "nil"
}

/// A run of ids in words: `20–29` for several, `20` for one.
func describeRun(_ ids: [String]) -> String {
    guard let first = ids.first, let last = ids.last else { return "none" }
    return ids.count == 1 ? first : "\(first)–\(last)"
}
