/// A separators step: a row between each two neighbouring rows, and at the ends of the list.
struct SeparatorStep<Value: Sendable>: TransformStep {
    /// The row between two neighbours (`nil` at an edge of the list), or `nil` for none.
    let separator: @Sendable (Value?, Value?) -> Value?

    func makeStage(input: any AnyTransformLayer, context: TransformContext) -> (
        stage: any TransformStage, output: any AnyTransformLayer
    ) {
        // The chain was typed when it was built: the layer before this step holds its rows.
        let stage = SeparatorStage(input: input as! TransformLayer<Value>, separator: separator, context: context)
        return (stage, stage.output)
    }
}

/// Runs a ``SeparatorStep`` on the chunks of its input layer: each chunk gets a separator before each of
/// its rows (the first one between the last row above the chunk and its first row), and the bottom
/// edge's chunk one after the list's last row.
final class SeparatorStage<Value: Sendable>: TransformStage {
    /// The identity of a separator: the ids of its neighbours.
    struct Neighbours: Hashable {
        let left: Int
        let right: Int
    }

    let input: TransformLayer<Value>
    let output = TransformLayer<Value>()
    let separator: @Sendable (Value?, Value?) -> Value?
    let context: TransformContext

    init(
        input: TransformLayer<Value>, separator: @escaping @Sendable (Value?, Value?) -> Value?,
        context: TransformContext
    ) {
        self.input = input
        self.separator = separator
        self.context = context
    }

    func run(changed: [Int], topChanged: Bool, bottomChanged: Bool) -> [Int] {
        let chunks = input.chunks
        var affected = Set(changed)
        for index in changed where index < chunks.count - 1 {
            affected.insert(firstChunkWithRows(after: index) ?? chunks.count - 1)
        }
        if topChanged, let first = firstChunkWithRows(after: -1) { affected.insert(first) }
        if bottomChanged || (!changed.isEmpty && context.bottom) { affected.insert(chunks.count - 1) }
        let recomputed = affected.sorted()
        for index in recomputed {
            let lookup = separatorLookup(output.chunks[index])
            output.replace(
                index,
                with: separators(
                    chunks[index], after: lastRow(before: index), isBottom: index == chunks.count - 1, lookup: lookup))
        }
        return recomputed
    }

    func rebuild() {
        var lookup: [Neighbours: TransformRow<Value>] = [:]
        for chunk in output.chunks {
            for row in chunk where row.left != TransformRow<Value>.notSeparator {
                lookup[Neighbours(left: row.left, right: row.right)] = row
            }
        }
        var layer = ContiguousArray<TransformChunk<Value>>()
        layer.reserveCapacity(input.chunks.count)
        var last: TransformRow<Value>?
        for (index, chunk) in input.chunks.enumerated() {
            layer.append(separators(chunk, after: last, isBottom: index == input.chunks.count - 1, lookup: lookup))
            last = chunk.last(where: { $0.value != nil }) ?? last
        }
        output.chunks = layer
    }

    /// The separators of one chunk: one before each of its rows (after `last`, the last row above the
    /// chunk, or at the top edge), and, for the bottom edge's chunk, one after the list's last row.
    private func separators(
        _ rows: TransformChunk<Value>, after last: TransformRow<Value>?, isBottom: Bool,
        lookup: [Neighbours: TransformRow<Value>]
    ) -> TransformChunk<Value> {
        var made = TransformChunk<Value>()
        made.reserveCapacity(rows.count * 2 + 1)
        let round = context.round
        func add(between before: TransformRow<Value>?, and after: TransformRow<Value>?, offset: Int) {
            let key = Neighbours(left: before?.id ?? -1, right: after?.id ?? -1)
            // A page that just arrived has no separators to reuse: no lookup at all.
            let old = lookup.isEmpty ? nil : lookup[key]
            if let old, before.map({ $0.round != round }) ?? true, after.map({ $0.round != round }) ?? true {
                var kept = old
                kept.offset = offset
                made.append(kept)
                return
            }
            made.append(
                TransformRow(
                    id: old?.id ?? context.makeID(), left: key.left, right: key.right, round: round, offset: offset,
                    value: separator(before?.value, after?.value)))
        }
        // The row before the next one: `last` (above the chunk) until a row of the chunk takes its place.
        var previous: Int? = nil
        for index in rows.indices where rows[index].value != nil {
            if let previous {
                add(between: rows[previous], and: rows[index], offset: rows[index].offset)
            } else if last != nil || context.top {
                add(between: last, and: rows[index], offset: rows[index].offset)
            }
            if rows[index].left == TransformRow<Value>.notSeparator {
                made.append(rows[index])
            } else {
                var row = rows[index]
                row.left = TransformRow<Value>.notSeparator
                row.right = TransformRow<Value>.notSeparator
                made.append(row)
            }
            previous = index
        }
        if isBottom, context.bottom, let final = previous.map({ rows[$0] }) ?? last {
            add(between: final, and: nil, offset: final.offset)
        }
        return made
    }

    /// The separators of `old`, by their neighbours.
    private func separatorLookup(_ old: TransformChunk<Value>) -> [Neighbours: TransformRow<Value>] {
        var lookup: [Neighbours: TransformRow<Value>] = [:]
        for row in old where row.left != TransformRow<Value>.notSeparator {
            lookup[Neighbours(left: row.left, right: row.right)] = row
        }
        return lookup
    }

    /// The index of the first input chunk after `index` that holds a row, if any.
    private func firstChunkWithRows(after index: Int) -> Int? {
        var next = index + 1
        while next < input.chunks.count {
            if input.chunks[next].contains(where: { $0.value != nil }) { return next }
            next += 1
        }
        return nil
    }

    /// The last input row above chunk `index`, if any.
    private func lastRow(before index: Int) -> TransformRow<Value>? {
        var chunk = index - 1
        while chunk >= 0 {
            if let row = input.chunks[chunk].last(where: { $0.value != nil }) { return row }
            chunk -= 1
        }
        return nil
    }
}
