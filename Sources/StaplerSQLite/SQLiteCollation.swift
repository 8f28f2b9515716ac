import CSQLite
import Stapler

/// The comparison of one localized collection's sort tuples, registered with SQLite as a collation.
///
/// A localized collection stores its tuples as hexadecimal text so that SQLite compares them with this
/// collation, which decodes them and compares them exactly as the in-memory store does.
final class SQLiteCollation: Sendable {
    let compare: @Sendable ([UInt8], [UInt8]) -> Int

    init(compare: @escaping @Sendable ([UInt8], [UInt8]) -> Int) {
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
                let leftBytes = Hex.decode(UnsafeRawBufferPointer(start: left, count: Int(leftCount)))
                let rightBytes = Hex.decode(UnsafeRawBufferPointer(start: right, count: Int(rightCount)))
                return Int32(collation.compare(leftBytes, rightBytes))
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
        func value(_ digit: UInt8) -> UInt8 {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: 0
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var iterator = text.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(value(high) << 4 | value(low))
        }
        return bytes
    }
}
