/// How a mediator made from a ``PageSource`` keeps the source's keys in the store, as strings.
///
/// A key that does not decode is treated as missing (``StoreError/missingRemoteKey(id:)``), never as the
/// end of the list.
public struct RemoteKeyCoding<Key: Sendable>: Sendable {
    /// The key as a string.
    public let encode: @Sendable (Key) -> String
    /// The key a string holds, or `nil`.
    public let decode: @Sendable (String) -> Key?

    /// A coding of `encode` and `decode`, which must invert each other.
    public init(encode: @escaping @Sendable (Key) -> String, decode: @escaping @Sendable (String) -> Key?) {
        self.encode = encode
        self.decode = decode
    }
}

extension RemoteKeyCoding where Key: LosslessStringConvertible {
    /// Keys written as their description (offsets, strings, numbers).
    public static var lossless: RemoteKeyCoding {
        RemoteKeyCoding(encode: { $0.description }, decode: { Key($0) })
    }
}

extension RemoteKeyCoding {
    /// Optional keys (a cursor source's `nil` first cursor): `nil` as an empty string, a value after a `~`.
    ///
    /// - Parameter wrapped: The coding of the wrapped key.
    /// - Returns: The coding.
    public static func optional<Wrapped: Sendable>(_ wrapped: RemoteKeyCoding<Wrapped>) -> RemoteKeyCoding
    where Key == Wrapped? {
        RemoteKeyCoding(
            encode: { key in key.map { "~" + wrapped.encode($0) } ?? "" },
            decode: { text in
                if text.isEmpty { return .some(nil) }
                guard text.hasPrefix("~"), let key = wrapped.decode(String(text.dropFirst())) else { return nil }
                return .some(key)
            })
    }
}

extension RemoteKeyCoding where Key == PageNumberKey {
    /// Page-number keys, as `page,itemsBefore`.
    public static var pageNumber: RemoteKeyCoding {
        RemoteKeyCoding(
            encode: { "\($0.page),\($0.itemsBefore)" },
            decode: { text in
                let parts = text.split(separator: ",")
                guard parts.count == 2, let page = Int(parts[0]), let before = Int(parts[1]) else { return nil }
                return PageNumberKey(page: page, itemsBefore: before)
            })
    }
}
