/// Comparing two sort tuples where their bytes lie, for collections with a ``StoreCollation/localized``
/// component: the SQLite store's collation compares tuples in SQLite's buffers with no allocation, and the
/// memory store compares its arrays the same way.
extension SortKeyEncoding {
    /// -1, 0 or 1 as the tuple `left` sorts before, with or after `right` under `rules`: each localized
    /// string compared with `localized`, every other component by its bytes, then what follows the last
    /// component (the identity) by its bytes.
    ///
    /// A component that does not parse ends the walk: the rest of both tuples is compared by bytes, so
    /// damaged tuples still compare consistently.
    static func compare(
        _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>, rules: [SortRule],
        localized: StoreLocalizedOrder
    ) -> Int {
        var leftStart = 0
        var rightStart = 0
        for rule in rules {
            guard let a = span(in: left, at: leftStart, rule: rule), let b = span(in: right, at: rightStart, rule: rule)
            else { break }
            let result: Int
            if rule.collation == .localized, let leftText = a.text, let rightText = b.text {
                let ascending = withText(left[leftText], inverted: rule.descending) { leftString in
                    withText(right[rightText], inverted: rule.descending) { localized.compare(leftString, $0) }
                }
                result = rule.descending ? -ascending : ascending
            } else {
                result = compareBytes(left[leftStart..<a.end], right[rightStart..<b.end])
            }
            if result != 0 { return result }
            leftStart = a.end
            rightStart = b.end
        }
        return compareBytes(left[min(leftStart, left.count)...], right[min(rightStart, right.count)...])
    }

    /// The index just after the component that starts at `start`, and, for a present text, the range of its
    /// encoded characters (without tag and terminator); `nil` if the bytes there are no component.
    private static func span(in bytes: UnsafeBufferPointer<UInt8>, at start: Int, rule: SortRule)
        -> (end: Int, text: Range<Int>?)?
    {
        guard start < bytes.count else { return nil }
        if bytes[start] == rule.nullMarker { return (start + 1, nil) }
        guard start + 1 < bytes.count else { return nil }
        let mask: UInt8 = rule.descending ? 0xFF : 0
        switch bytes[start + 1] ^ mask {
        case integerTag, realTag:
            return (start + 10, nil)
        case textTag:
            var index = start + 2
            while index + 1 < bytes.count {
                guard bytes[index] ^ mask == 0 else {
                    index += 1
                    continue
                }
                switch bytes[index + 1] ^ mask {
                case 0: return (index + 2, start + 2..<index)
                case 0xFF: index += 2
                default: return nil
                }
            }
            return nil
        default:
            return nil
        }
    }

    /// Calls `body` with the string whose encoded characters are `encoded` (inverted for a descending
    /// component): read in place when nothing needs undoing, else decoded into a buffer on the stack.
    private static func withText<Result>(
        _ encoded: Slice<UnsafeBufferPointer<UInt8>>, inverted: Bool, _ body: (String) -> Result
    ) -> Result {
        let mask: UInt8 = inverted ? 0xFF : 0
        if !inverted, !encoded.contains(0) {
            return body(String(decoding: UnsafeBufferPointer(rebasing: encoded), as: UTF8.self))
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, encoded.count)) { buffer in
            var count = 0
            var index = encoded.startIndex
            while index < encoded.endIndex {
                let byte = encoded[index] ^ mask
                buffer[count] = byte
                count += 1
                // An encoded 0x00 is followed by 0xFF, which is not part of the string.
                index += byte == 0 ? 2 : 1
            }
            return body(String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self))
        }
    }
}
