import CSQLite
import Stapler

/// The comparison of one localized collection's sort tuples, registered with SQLite as a collation.
///
/// A localized collection stores its tuples as hexadecimal text so that SQLite compares them with this
/// collation, which decodes them and compares them exactly as the in-memory store does. A comparison
/// allocates nothing of its own: both tuples are decoded into buffers on the stack.
final class SQLiteCollation: Sendable {
    let compare: @Sendable (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Int

    init(compare: @escaping @Sendable (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Int) {
        self.compare = compare
    }

    /// The collation's name for the collection `name`: `stapler_` and the name's UTF-8 in hexadecimal.
    static func name(of collection: String) -> String {
        "stapler_" + Hex.encode(Array(collection.utf8))
    }

    /// Registers `collation` on `connection` as `name`.
    static func register(_ collation: SQLiteCollation, as name: String, on connection: SQLiteConnection)
        throws(StoreError)
    {
        let context = Unmanaged.passRetained(collation).toOpaque()
        let result = sqlite3_create_collation_v2(
            connection.handle, name, SQLITE_UTF8, context,
            { context, leftCount, left, rightCount, right in
                guard let context else { return 0 }
                let collation = Unmanaged<SQLiteCollation>.fromOpaque(context).takeUnretainedValue()
                return Hex.withDecoded(Hex.text(left, count: leftCount)) { leftBytes in
                    Hex.withDecoded(Hex.text(right, count: rightCount)) { rightBytes in
                        Int32(collation.compare(leftBytes, rightBytes))
                    }
                }
            },
            { context in
                guard let context else { return }
                Unmanaged<SQLiteCollation>.fromOpaque(context).release()
            })
        guard result == SQLITE_OK else { throw connection.error(result) }
    }
}

/// Lowercase hexadecimal, which orders like the bytes it encodes.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of `text`; characters that are not hexadecimal digits count as 0.
    static func decode<Text: Collection<UInt8>>(_ text: Text) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var iterator = text.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(value(high) << 4 | value(low))
        }
        return bytes
    }

    /// Calls `body` with the bytes of `text` (as ``decode(_:)`` reads them), decoded into a buffer on the
    /// stack.
    static func withDecoded<Result>(_ text: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) -> Result)
        -> Result
    {
        let count = text.count / 2
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, count)) { buffer in
            for index in 0..<count {
                buffer[index] = value(text[2 * index]) << 4 | value(text[2 * index + 1])
            }
            return body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The `count` bytes SQLite passes a collation at `start` (none for a null pointer or a negative count).
    static func text(_ start: UnsafeRawPointer?, count: Int32) -> UnsafeRawBufferPointer {
        guard let start, count > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: start, count: Int(count))
    }

    /// The value of the hexadecimal digit `digit`, 0 for any other character.
    private static func value(_ digit: UInt8) -> UInt8 {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: 0
        }
    }
}
