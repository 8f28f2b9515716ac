extension ListTransformer {
    /// The identity of a separator: the ids of its neighbours.
    struct Neighbours: Hashable {
        let left: Int
        let right: Int
    }

    /// Runs every step on the `changed` chunks of layer 0 (and, for separators, on the chunks whose
    /// neighbouring rows or edges changed).
    ///
    /// - Returns: The chunks of the last layer that were recomputed, ascending, each with its rows before.
    func runSteps(
        changed: [Int], topChanged: Bool, bottomChanged: Bool
    ) -> [(index: Int, old: TransformChunk)] {
        var changed = changed
        var replaced: [(index: Int, old: TransformChunk)] = []
        for (step, transform) in steps.enumerated() {
            let isLast = step == steps.count - 1
            switch transform {
            case .element(let element):
                for index in changed {
                    let old = layers[step + 1][index]
                    if isLast { replaced.append((index, old)) }
                    layers[step + 1][index] = elements(layers[step][index], old: old, element)
                }
            case .separators(let separator):
                let input = layers[step]
                var affected = Set(changed)
                for index in changed where index < input.count - 1 {
                    affected.insert(firstChunkWithRows(in: input, after: index) ?? input.count - 1)
                }
                if topChanged, let first = firstChunkWithRows(in: input, after: -1) { affected.insert(first) }
                if bottomChanged || (!changed.isEmpty && bottom) { affected.insert(input.count - 1) }
                changed = affected.sorted()
                for index in changed {
                    let old = layers[step + 1][index]
                    if isLast { replaced.append((index, old)) }
                    let lookup = separatorLookup(old)
                    layers[step + 1][index] = separators(
                        input[index], after: lastRow(in: input, before: index),
                        isBottom: index == input.count - 1, lookup: lookup, separator)
                }
            }
        }
        if steps.isEmpty { return changed.map { ($0, []) } }
        return replaced
    }

    /// Runs every step on every chunk, reusing the rows whose inputs kept their identity.
    func rebuildLayers() {
        for (step, transform) in steps.enumerated() {
            let input = layers[step]
            var layer = ContiguousArray<TransformChunk>()
            layer.reserveCapacity(input.count)
            switch transform {
            case .element(let element):
                var lookup: [Int: TransformRow] = [:]
                for chunk in layers[step + 1] { for row in chunk { lookup[row.id] = row } }
                for chunk in input { layer.append(elements(chunk, lookup: lookup, element)) }
            case .separators(let separator):
                var lookup: [Neighbours: TransformRow] = [:]
                for chunk in layers[step + 1] {
                    for row in chunk where row.left != TransformRow.notSeparator {
                        lookup[Neighbours(left: row.left, right: row.right)] = row
                    }
                }
                var last: TransformRow?
                for (index, chunk) in input.enumerated() {
                    layer.append(
                        separators(chunk, after: last, isBottom: index == input.count - 1, lookup: lookup, separator))
                    last = chunk.last(where: { $0.value != nil }) ?? last
                }
            }
            layers[step + 1] = layer
        }
    }

    /// Step `element` over one chunk; the rows of `old` are reused for inputs that did not change.
    private func elements(
        _ input: TransformChunk, old: TransformChunk, _ element: @Sendable (any Sendable) -> (any Sendable)?
    ) -> TransformChunk {
        var lookup: [Int: TransformRow] = [:]
        if !old.isEmpty {
            lookup.reserveCapacity(old.count)
            for row in old { lookup[row.id] = row }
        }
        return elements(input, lookup: lookup, element)
    }

    private func elements(
        _ input: TransformChunk, lookup: [Int: TransformRow], _ element: @Sendable (any Sendable) -> (any Sendable)?
    ) -> TransformChunk {
        var output = TransformChunk()
        output.reserveCapacity(input.count)
        for row in input {
            guard let value = row.value else { continue }
            if row.round != round {
                // Unchanged input: its row as before, or none if the step left it out before.
                if var kept = lookup[row.id] {
                    kept.offset = row.offset
                    output.append(kept)
                }
                continue
            }
            if let mapped = element(value) {
                output.append(
                    TransformRow(
                        id: row.id, left: TransformRow.notSeparator, right: TransformRow.notSeparator, round: round,
                        offset: row.offset, value: mapped))
            }
        }
        return output
    }

    /// The separators of one chunk: one before each of its rows (after `after`, the last row above the
    /// chunk, or at the top edge), and, for the bottom edge's chunk, one after the list's last row.
    private func separators(
        _ input: TransformChunk, after last: TransformRow?, isBottom: Bool, lookup: [Neighbours: TransformRow],
        _ separator: @Sendable ((any Sendable)?, (any Sendable)?) -> (any Sendable)?
    ) -> TransformChunk {
        var output = TransformChunk()
        output.reserveCapacity(input.count * 2 + 1)
        let round = round
        func add(between before: TransformRow?, and after: TransformRow?, offset: Int) {
            let key = Neighbours(left: before?.id ?? -1, right: after?.id ?? -1)
            // A page that just arrived has no separators to reuse: no lookup at all.
            let old = lookup.isEmpty ? nil : lookup[key]
            if let old, before.map({ $0.round != round }) ?? true, after.map({ $0.round != round }) ?? true {
                var kept = old
                kept.offset = offset
                output.append(kept)
                return
            }
            output.append(
                TransformRow(
                    id: old?.id ?? makeID(), left: key.left, right: key.right, round: round, offset: offset,
                    value: separator(before?.value, after?.value)))
        }
        // The row before the next one: `last` (above the chunk) until a row of the chunk takes its place.
        var previous: Int? = nil
        for index in input.indices where input[index].value != nil {
            if let previous {
                add(between: input[previous], and: input[index], offset: input[index].offset)
            } else if last != nil || top {
                add(between: last, and: input[index], offset: input[index].offset)
            }
            if input[index].left == TransformRow.notSeparator {
                output.append(input[index])
            } else {
                var row = input[index]
                row.left = TransformRow.notSeparator
                row.right = TransformRow.notSeparator
                output.append(row)
            }
            previous = index
        }
        if isBottom, bottom, let final = previous.map({ input[$0] }) ?? last {
            add(between: final, and: nil, offset: final.offset)
        }
        return output
    }

    /// The separators of `old`, by their neighbours.
    private func separatorLookup(_ old: TransformChunk) -> [Neighbours: TransformRow] {
        var lookup: [Neighbours: TransformRow] = [:]
        for row in old where row.left != TransformRow.notSeparator {
            lookup[Neighbours(left: row.left, right: row.right)] = row
        }
        return lookup
    }

    /// The index of the first chunk after `index` that holds a row, if any.
    private func firstChunkWithRows(in layer: ContiguousArray<TransformChunk>, after index: Int) -> Int? {
        var next = index + 1
        while next < layer.count {
            if layer[next].contains(where: { $0.value != nil }) { return next }
            next += 1
        }
        return nil
    }

    /// The last row above chunk `index`, if any.
    private func lastRow(in layer: ContiguousArray<TransformChunk>, before index: Int) -> TransformRow? {
        var chunk = index - 1
        while chunk >= 0 {
            if let row = layer[chunk].last(where: { $0.value != nil }) { return row }
            chunk -= 1
        }
        return nil
    }
}
