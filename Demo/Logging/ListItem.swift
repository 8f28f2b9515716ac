/// An item the log and the invariant checker can name: anything with a printable, hashable id.
protocol ListItem: Sendable {
    associatedtype ID: Hashable & Sendable & CustomStringConvertible
    /// The item's unique id.
    var id: ID { get }
}

extension Collection where Element: ListItem {
    /// The ids of the items, shortened for a log line: runs of consecutive numbers collapse
    /// (`ids 1…10`, `ids 3, 5…7, 12`), and a long list keeps its ends (`ids 3, 5, 9, …, 41`).
    var idSummary: String {
        guard !isEmpty else { return "no items" }
        let ids = map { "\($0.id)" }
        let prefix = ids.count == 1 ? "id " : "ids "
        let numbers = ids.compactMap { Int($0) }
        var parts: [String] = []
        if numbers.count == ids.count {
            var start = numbers[0]
            var end = start
            for number in numbers.dropFirst() + [Int.min] {
                if number == end + 1 {
                    end = number
                    continue
                }
                parts.append(start == end ? "\(start)" : end == start + 1 ? "\(start), \(end)" : "\(start)…\(end)")
                start = number
                end = number
            }
        } else {
            parts = ids
        }
        if parts.count > 8 {
            parts = parts.prefix(4) + ["…"] + parts.suffix(2)
        }
        return prefix + parts.joined(separator: ", ")
    }
}
