// The loops over the rows of one page. They are inlinable, and only inlinable code calls them: the stages
// and the pipeline, whose closures the inlinable operators of `ListTransform` make, so they are compiled in
// the caller's module, where the rows' types are known, and each page goes through code specialised for
// its rows, with one closure call per page and step.

/// The identity of a row of the last layer, and the round its value was computed in.
@usableFromInline
struct RowKey: Sendable {
    @usableFromInline let id: Int
    @usableFromInline let round: Int

    @inlinable
    init(id: Int, round: Int) {
        self.id = id
        self.round = round
    }
}

/// The identity of a separator: the ids of its neighbours (`-1` at an edge of the list).
@usableFromInline
struct SeparatorNeighbours: Hashable, Sendable {
    @usableFromInline let left: Int
    @usableFromInline let right: Int

    @inlinable
    init(left: Int, right: Int) {
        self.left = left
        self.right = right
    }
}

/// The source rows of a page's items, each with a fresh id from `nextID`.
@inlinable
func sourceRows<Value: Sendable>(
    _ items: ContiguousArray<Value>, round: Int, nextID: inout Int
) -> TransformChunk<Value> {
    let first = nextID
    nextID += items.count
    var rows = TransformChunk<Value>()
    rows.reserveCapacity(items.count)
    for offset in items.indices {
        rows.append(TransformRow(items[offset], id: first + offset, offset: offset, round: round))
    }
    return rows
}

/// The rows of a chunk as a snapshot holds them: its rows with a value.
@inlinable
func slots<Value: Sendable>(_ chunk: TransformChunk<Value>) -> ContiguousArray<TransformedRow<Value>> {
    var slots = ContiguousArray<TransformedRow<Value>>()
    slots.reserveCapacity(chunk.count)
    for row in chunk {
        guard let value = row.value else { continue }
        slots.append(TransformedRow(value: value, offset: row.offset))
    }
    return slots
}

/// The keys of a chunk's rows with a value, in order, appended to `keys`.
@inlinable
func appendKeys<Value: Sendable>(of chunk: TransformChunk<Value>, to keys: inout ContiguousArray<RowKey>) {
    for row in chunk where row.value != nil { keys.append(RowKey(id: row.id, round: row.round)) }
}

/// The keys of a chunk's rows with a value, in order.
@inlinable
func keys<Value: Sendable>(_ chunk: TransformChunk<Value>) -> ContiguousArray<RowKey> {
    var keys = ContiguousArray<RowKey>()
    keys.reserveCapacity(chunk.count)
    for row in chunk where row.value != nil { keys.append(RowKey(id: row.id, round: row.round)) }
    return keys
}

/// The number of a chunk's rows with a value.
@inlinable
func valueCount<Value: Sendable>(_ chunk: TransformChunk<Value>) -> Int {
    var count = 0
    for row in chunk where row.value != nil { count += 1 }
    return count
}

/// An element step over one chunk: `element` of each row computed this round; the rows of `lookup` (by
/// id) for the others, or none if the step left them out before.
@inlinable
func elementRows<Input: Sendable, Output: Sendable>(
    _ rows: TransformChunk<Input>, lookup: [Int: TransformRow<Output>], round: Int,
    _ element: (Input) -> Output?
) -> TransformChunk<Output> {
    var made = TransformChunk<Output>()
    made.reserveCapacity(rows.count)
    for row in rows {
        guard let value = row.value else { continue }
        if row.round != round {
            if var kept = lookup[row.id] {
                kept.offset = row.offset
                made.append(kept)
            }
            continue
        }
        if let mapped = element(value) {
            made.append(TransformRow(mapped, id: row.id, offset: row.offset, round: round))
        }
    }
    return made
}

/// Where a chunk of a separators step lies: whether the list's top and bottom were reached, and whether
/// the chunk is the bottom edge's.
@usableFromInline
struct SeparatorEdges: Sendable {
    @usableFromInline let top: Bool
    @usableFromInline let bottom: Bool
    @usableFromInline let isBottomChunk: Bool

    @inlinable
    init(top: Bool, bottom: Bool, isBottomChunk: Bool) {
        self.top = top
        self.bottom = bottom
        self.isBottomChunk = isBottomChunk
    }
}

/// The separators of one chunk.
///
/// One before each of its rows (after `last`, the last row above the chunk, or at the top edge), and, for
/// the bottom edge's chunk, one after the list's last row. A separator whose neighbours kept their
/// identity and value is taken from `lookup`; a new one gets an id from `nextID`.
@inlinable
func separatorRows<Value: Sendable>(
    _ rows: TransformChunk<Value>, after last: TransformRow<Value>?, edges: SeparatorEdges, round: Int,
    nextID: inout Int, lookup: [SeparatorNeighbours: TransformRow<Value>],
    _ separator: (Value?, Value?) -> Value?
) -> TransformChunk<Value> {
    var made = TransformChunk<Value>()
    made.reserveCapacity(rows.count * 2 + 1)
    func add(between before: TransformRow<Value>?, and after: TransformRow<Value>?, offset: Int) {
        let key = SeparatorNeighbours(left: before?.id ?? -1, right: after?.id ?? -1)
        // A page that just arrived has no separators to reuse: no lookup at all.
        let old = lookup.isEmpty ? nil : lookup[key]
        if let old, before.map({ $0.round != round }) ?? true, after.map({ $0.round != round }) ?? true {
            var kept = old
            kept.offset = offset
            made.append(kept)
            return
        }
        let id: Int
        if let old {
            id = old.id
        } else {
            id = nextID
            nextID += 1
        }
        made.append(
            TransformRow(
                id: id, left: key.left, right: key.right, round: round, offset: offset,
                value: separator(before?.value, after?.value)))
    }
    // The row before the next one: `last` (above the chunk) until a row of the chunk takes its place.
    var previous: Int? = nil
    for index in rows.indices where rows[index].value != nil {
        if let previous {
            add(between: rows[previous], and: rows[index], offset: rows[index].offset)
        } else if last != nil || edges.top {
            add(between: last, and: rows[index], offset: rows[index].offset)
        }
        var row = rows[index]
        row.left = TransformRow<Value>.notSeparator
        row.right = TransformRow<Value>.notSeparator
        made.append(row)
        previous = index
    }
    if edges.isBottomChunk, edges.bottom, let final = previous.map({ rows[$0] }) ?? last {
        add(between: final, and: nil, offset: final.offset)
    }
    return made
}
