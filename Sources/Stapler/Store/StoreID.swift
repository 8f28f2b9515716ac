/// A stored row's identity: an integer or a string, and never both.
///
/// The integer 1 and the string "1" are two different rows in every store: the identity keeps its type.
/// Identities order integers first (by value), then strings (by their UTF-8 bytes); a change
/// notification lists its ids in that order.
public enum StoreID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// An integer identity, such as a database's row id.
    case integer(Int64)
    /// A string identity, such as a server's UUID.
    case text(String)

    /// `1` for an integer identity, `"a"` for a string one.
    public var description: String {
        switch self {
        case .integer(let value): "\(value)"
        case .text(let value): "\"\(value)\""
        }
    }

    /// Whether `left` comes before `right`: integers first, by value, then strings, by UTF-8 bytes.
    public static func < (left: StoreID, right: StoreID) -> Bool {
        switch (left, right) {
        case (.integer(let a), .integer(let b)): a < b
        case (.integer, .text): true
        case (.text, .integer): false
        case (.text(let a), .text(let b)): a.utf8.lexicographicallyPrecedes(b.utf8)
        }
    }
}

extension StoreID: ExpressibleByIntegerLiteral {
    /// The integer identity `value`.
    public init(integerLiteral value: Int64) {
        self = .integer(value)
    }
}

extension StoreID: ExpressibleByStringLiteral {
    /// The string identity `value`.
    public init(stringLiteral value: String) {
        self = .text(value)
    }
}

/// A row a ``LocalStore`` keeps: a `Codable` value with an identity.
///
/// A store holds each row once, by ``storeID``; every collection that shows the row shows that one
/// stored value, so one write changes it in all of them.
///
/// ```swift
/// struct Post: StoreRow {
///     var id: Int
///     var createdAt: Int?
///     var title: String
///     var storeID: StoreID { .integer(Int64(id)) }
/// }
/// ```
public protocol StoreRow: Codable, Sendable {
    /// The row's identity. It must not change while the row is stored: a row with another identity is
    /// another row.
    var storeID: StoreID { get }
}

extension StoreID: Codable {
    /// Decodes an integer identity from a number, a string identity from a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            self = .integer(number)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    /// Encodes an integer identity as a number, a string identity as a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let number): try container.encode(number)
        case .text(let text): try container.encode(text)
        }
    }
}
