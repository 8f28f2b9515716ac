/// A position in a collection's order: the sort tuple of one row (its order's values, then its identity),
/// encoded so that two tuples compare as their bytes do (save where a component is
/// ``StoreCollation/localized``).
///
/// A page's first and last entries carry theirs; read the rows after or before one with
/// ``StorePosition/after(_:)`` and ``StorePosition/before(_:)``. A cursor stays valid whatever happens to
/// its row: reading after it returns the rows that now sort after that position.
public struct StoreCursor: Hashable, Sendable {
    /// The encoded tuple.
    package let bytes: [UInt8]

    /// A cursor over the encoded tuple `bytes`.
    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }
}

/// How one component of an order compares: direction, NULL rule and collation.
struct SortRule: Hashable, Sendable {
    /// Whether larger values come first.
    let descending: Bool
    /// Where null values go.
    let nulls: StoreNulls
    /// How strings compare.
    let collation: StoreCollation

    /// The marker byte of a present value: it sorts before the null marker under `.last`.
    var presentMarker: UInt8 { nulls == .last ? 0x01 : 0x02 }
    /// The marker byte of a null value.
    var nullMarker: UInt8 { nulls == .last ? 0x02 : 0x01 }
}

/// The byte encoding of sort tuples and identities, and the comparison of tuples.
///
/// A component is a marker byte (present or null, placed by the NULL rule and never inverted), then, if
/// present, a type tag and the value: an integer as 8 big-endian bytes with the sign bit flipped, a real
/// as 8 big-endian bytes ordered like the number, a string as its UTF-8 bytes with each 0x00 written
/// 0x00 0xFF and a 0x00 0x00 terminator. A descending component inverts its tag and value bytes. Every
/// encoding is prefix-free, so comparing two tuples byte by byte compares them component by component.
package enum SortKeyEncoding {
    static let integerTag: UInt8 = 0x10
    static let realTag: UInt8 = 0x20
    static let textTag: UInt8 = 0x30

    /// The key of `id` in a table of rows: the encoding of the identity, ascending.
    package static func key(of id: StoreID) -> [UInt8] {
        var bytes: [UInt8] = []
        appendIdentity(id, descending: false, to: &bytes)
        return bytes
    }

    /// The identity whose ``key(of:)`` is `bytes`, or `nil` if they encode none.
    package static func identity(fromKey bytes: [UInt8]) -> StoreID? {
        guard let tag = bytes.first else { return nil }
        switch tag {
        case integerTag where bytes.count == 9:
            return .integer(Int64(bitPattern: readUInt64(bytes, at: 1) ^ (1 << 63)))
        case textTag:
            guard let (text, end) = readText(bytes, from: 1, inverted: false), end == bytes.count else { return nil }
            return .text(text)
        default:
            return nil
        }
    }

    /// The tuple of `values` under `rules`, then `id` as the tie-breaker.
    static func tuple(values: [StoreValue], rules: [SortRule], id: StoreID) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 10 + 10)
        for (value, rule) in zip(values, rules) {
            if value == .null {
                bytes.append(rule.nullMarker)
            } else {
                bytes.append(rule.presentMarker)
                appendValue(value, descending: rule.descending, to: &bytes)
            }
        }
        appendIdentity(id, descending: rules.last?.descending ?? false, to: &bytes)
        return bytes
    }

    static func appendIdentity(_ id: StoreID, descending: Bool, to bytes: inout [UInt8]) {
        switch id {
        case .integer(let value): appendValue(.integer(value), descending: descending, to: &bytes)
        case .text(let value): appendValue(.text(value), descending: descending, to: &bytes)
        }
    }

    static func appendValue(_ value: StoreValue, descending: Bool, to bytes: inout [UInt8]) {
        let start = bytes.count
        switch value {
        case .null:
            return
        case .integer(let number):
            bytes.append(integerTag)
            appendUInt64(UInt64(bitPattern: number) ^ (1 << 63), to: &bytes)
        case .real(let number):
            bytes.append(realTag)
            let bits = number.isNaN ? Double.nan.bitPattern : number.bitPattern
            appendUInt64(bits >> 63 == 1 ? ~bits : bits | (1 << 63), to: &bytes)
        case .text(let string):
            bytes.append(textTag)
            for byte in string.utf8 {
                bytes.append(byte)
                if byte == 0 { bytes.append(0xFF) }
            }
            bytes.append(0)
            bytes.append(0)
        }
        if descending {
            for index in start..<bytes.count { bytes[index] = ~bytes[index] }
        }
    }

    static func appendUInt64(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    static func readUInt64(_ bytes: [UInt8], at start: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in start..<start + 8 { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// The string encoded from `start` (just after its tag), and the index after its terminator.
    static func readText(_ bytes: [UInt8], from start: Int, inverted: Bool) -> (String, Int)? {
        let mask: UInt8 = inverted ? 0xFF : 0
        var utf8: [UInt8] = []
        var index = start
        while index + 1 < bytes.count {
            let byte = bytes[index] ^ mask
            if byte == 0 {
                let next = bytes[index + 1] ^ mask
                if next == 0 { return (String(decoding: utf8, as: UTF8.self), index + 2) }
                guard next == 0xFF else { return nil }
                utf8.append(0)
                index += 2
            } else {
                utf8.append(byte)
                index += 1
            }
        }
        return nil
    }

    /// -1, 0 or 1 as `left` sorts before, with or after `right`, comparing their bytes.
    package static func compareBytes<Bytes: RandomAccessCollection<UInt8>>(_ left: Bytes, _ right: Bytes) -> Int
    where Bytes.Index == Int {
        var leftIndex = left.startIndex
        var rightIndex = right.startIndex
        while leftIndex < left.endIndex && rightIndex < right.endIndex {
            let a = left[leftIndex]
            let b = right[rightIndex]
            if a != b { return a < b ? -1 : 1 }
            leftIndex += 1
            rightIndex += 1
        }
        let leftDone = leftIndex == left.endIndex
        let rightDone = rightIndex == right.endIndex
        return leftDone == rightDone ? 0 : leftDone ? -1 : 1
    }
}
