/// One field value of a stored row, as a collection's order sees it.
///
/// A collection orders its rows by values of this type. Values of one type compare by value (integers
/// as signed numbers, reals as numbers with `-0.0` before `+0.0`, texts by their collation); values of
/// different types compare by type, integers before reals before texts. `null` is placed by the order's
/// ``StoreNulls`` rule, never by this type.
public enum StoreValue: Hashable, Sendable {
    /// No value: placed first or last by the order's ``StoreNulls`` rule.
    case null
    /// A signed 64-bit integer (also a `Bool`, as 0 or 1).
    case integer(Int64)
    /// A floating-point number. NaN sorts after every other real.
    case real(Double)
    /// A string, compared by the order's ``StoreCollation``.
    case text(String)
}

/// A value a collection can order rows by: integers, reals, strings, `Bool` and optionals of them.
///
/// Conform a type of your own (an enum stored as a string, a date as milliseconds) by giving the
/// ``StoreValue`` it sorts as.
public protocol StoreSortable: Sendable {
    /// The value this one sorts as.
    var storeValue: StoreValue { get }
}

extension Int: StoreSortable {
    /// The integer, as a 64-bit integer.
    public var storeValue: StoreValue { .integer(Int64(self)) }
}

extension Int64: StoreSortable {
    /// The integer itself.
    public var storeValue: StoreValue { .integer(self) }
}

extension Int32: StoreSortable {
    /// The integer, widened to 64 bits.
    public var storeValue: StoreValue { .integer(Int64(self)) }
}

extension Bool: StoreSortable {
    /// `false` as 0, `true` as 1.
    public var storeValue: StoreValue { .integer(self ? 1 : 0) }
}

extension Double: StoreSortable {
    /// The number itself.
    public var storeValue: StoreValue { .real(self) }
}

extension String: StoreSortable {
    /// The string itself, compared by the order's collation.
    public var storeValue: StoreValue { .text(self) }
}

extension Optional: StoreSortable where Wrapped: StoreSortable {
    /// The wrapped value's, or ``StoreValue/null`` for `nil`.
    public var storeValue: StoreValue {
        switch self {
        case .some(let value): value.storeValue
        case .none: .null
        }
    }
}
