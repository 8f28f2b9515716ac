/// The incremental state of one transformed list: the rows after each step, per source page.
///
/// Each layer holds one chunk per source page, plus a chunk above the first page and one below the last
/// (where separators at the list's edges go): chunk 0 is the top edge, chunk `p + 1` source page `p`,
/// the last chunk the bottom edge. Layer 0 holds the source rows; layer `s + 1` what step `s` made of
/// layer `s`. Every row has an identity (`id`) that survives edits and refreshes, and the round in which
/// its value was last computed; a step computes only the rows whose input is new or changed this round,
/// and reuses the others, so each page is transformed once, when it arrives.
///
/// A transformer is driven by one thread at a time: the one delivering its paginator's publications.
final class ListTransformer<Output: Sendable>: @unchecked Sendable {
    // Guarded by the engine's flusher claim: only the thread that claimed the paginator's flush (under its
    // outbox lock, `Outbox.isFlushing`) calls `apply`, one publication at a time; `init` runs before the
    // transformer is registered with the engine.
    let steps: [TransformStep]
    let makeHeader: (@Sendable (ListEdge) -> (any Sendable)?)?
    let makeFooter: (@Sendable (ListEdge) -> (any Sendable)?)?
    var layers: [ContiguousArray<TransformChunk>]
    var nextID = 0
    /// Increases with every publication; a row whose `round` equals it was computed for this one.
    var round = 1
    /// Whether the top and the bottom of the list were reached, as the separators last saw it.
    var top = false
    var bottom = false
    var headerEdge: ListEdge?
    var footerEdge: ListEdge?
    /// The snapshot the transformer has made so far.
    var output = TransformedItems<Output>()
    /// The paginator's items the layers hold.
    var source: (any SourcePageStarts)?

    init<Item>(_ transform: ListTransform<Item, Output>) {
        makeHeader = transform.header
        makeFooter = transform.footer
        // A transform without steps still keeps a layer of its own, so every layer has one before it.
        steps = transform.steps.isEmpty ? [.element { $0 }] : transform.steps
        layers = Array(repeating: [[], []], count: steps.count + 1)
    }

    /// Transforms what changed in a publication and returns the transformed list's update, if its rows
    /// changed, and how many rows the change inserted.
    ///
    /// - Complexity: O(rows of the pages that changed) for pages added at either end and for edits;
    ///   O(rows) for a refresh, a drop or a reload.
    func apply<Item: Sendable>(_ input: TransformInput<Item>) -> (update: TransformedUpdate<Output>?, inserted: Int) {
        round += 1
        let previous = output
        let topChanged = top != input.top
        let bottomChanged = bottom != input.bottom
        (top, bottom) = (input.top, input.bottom)
        var header = previous.header
        var footer = previous.footer
        let headerChanged = makeHeader != nil && headerEdge != input.header
        let footerChanged = makeFooter != nil && footerEdge != input.footer
        if headerChanged, let makeHeader {
            headerEdge = input.header
            header = makeHeader(input.header).map { $0 as! Output }
        }
        if footerChanged, let makeFooter {
            footerEdge = input.footer
            footer = makeFooter(input.footer).map { $0 as! Output }
        }
        var segments = ChangeSegments()
        var reloaded = false
        switch updateSource(input) {
        case .rebuild(let reload):
            reloaded = reload
            let old = layers[layers.count - 1]
            rebuildLayers()
            let final = layers[layers.count - 1]
            var body = PagedItems<TransformedSlot<Output>>()
            for index in final.indices.dropFirst().dropLast() { body = body.appending(slots(final[index])) }
            output = TransformedItems(
                header: header, leading: slots(final[0]), body: body, trailing: slots(final[final.count - 1]),
                footer: footer, source: input.items)
            segments.add(old: old.joined(), at: previous.headerCount, new: final.joined(), at: output.headerCount)
        case .chunks(let structure, let changed):
            let replaced = runSteps(changed: changed, topChanged: topChanged, bottomChanged: bottomChanged)
            output = updatedOutput(structure: structure, replaced: replaced, header: header, footer: footer, input)
            for (index, old) in replaced {
                let new = layers[layers.count - 1][index]
                guard !isUnchanged(old, new) else { continue }
                let oldStart = structure.oldIndex(of: index).map { previous.start(ofChunk: $0) } ?? 0
                segments.add(old: old, at: oldStart, new: new, at: output.start(ofChunk: index))
            }
        }
        if headerChanged {
            segments.addEdgeRow(
                id: ChangeSegments.headerID, old: previous.header == nil ? nil : 0, new: header == nil ? nil : 0)
        }
        if footerChanged {
            segments.addEdgeRow(
                id: ChangeSegments.footerID, old: previous.footer == nil ? nil : previous.count - 1,
                new: footer == nil ? nil : output.count - 1)
        }
        source = input.items
        guard
            let (change, inserted) = segments.change(
                oldCount: previous.count, newCount: output.count, round: round, reloaded: reloaded)
        else { return (nil, 0) }
        return (TransformedUpdate(previous: previous, items: output, change: change), inserted)
    }

    /// The snapshot with the recomputed chunks of the last layer in place.
    private func updatedOutput<Item>(
        structure: Structure, replaced: [(index: Int, old: TransformChunk)], header: Output?, footer: Output?,
        _ input: TransformInput<Item>
    ) -> TransformedItems<Output> {
        let final = layers[layers.count - 1]
        var (leading, body, trailing) = (output.leading, output.body, output.trailing)
        var added = 0..<0
        switch structure {
        case .same: break
        case .appended(let position, let count):
            added = position..<position + count
            for index in added { body = body.appending(slots(final[index])) }
        case .prepended(let count):
            added = 1..<1 + count
            for index in added.reversed() { body = body.prepending(slots(final[index])) }
        }
        for (index, old) in replaced where !added.contains(index) && !isUnchanged(old, final[index]) {
            if index == 0 {
                leading = slots(final[0])
            } else if index == final.count - 1 {
                trailing = slots(final[index])
            } else {
                body = body.replacingPage(at: index - 1, with: slots(final[index]))
            }
        }
        return TransformedItems(
            header: header, leading: leading, body: body, trailing: trailing, footer: footer, source: input.items)
    }

    /// Whether a recomputed chunk shows the same rows as before.
    private func isUnchanged(_ old: TransformChunk, _ new: TransformChunk) -> Bool {
        guard old.count == new.count else { return false }
        for (before, after) in zip(old, new) where before.id != after.id || after.round == round {
            if before.value == nil && after.value == nil && before.id == after.id { continue }
            return false
        }
        return true
    }

    /// The rows of a final chunk, as the snapshot holds them.
    func slots(_ chunk: TransformChunk) -> ContiguousArray<TransformedSlot<Output>> {
        var slots = ContiguousArray<TransformedSlot<Output>>()
        slots.reserveCapacity(chunk.count)
        for row in chunk {
            if let value = row.value { slots.append(TransformedSlot(value: value as! Output, offset: row.offset)) }
        }
        return slots
    }

    /// A fresh id.
    func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }
}

/// One row of a transform's layer.
struct TransformRow: Sendable {
    /// The row's identity: a source row keeps its id through edits and refreshes, the steps' rows keep
    /// the id of the row they come from, and a separator keeps its id while its neighbours stay.
    var id: Int
    /// For a separator, the ids of the rows before and after it (`-1` at an edge of the list);
    /// ``TransformRow/notSeparator`` for other rows.
    var left: Int
    var right: Int
    /// The round in which `value` was computed.
    var round: Int
    /// The position in its source page of the row this one comes from.
    var offset: Int
    /// The value; `nil` for a separator that returned none (kept so it is not asked again).
    var value: (any Sendable)?

    static let notSeparator = -2
}

/// The rows of one source page (or edge) in one layer.
typealias TransformChunk = ContiguousArray<TransformRow>

/// What the paginator published, as the transformer reads it.
struct TransformInput<Item: Sendable> {
    var previous: PagedItems<Item>
    var items: PagedItems<Item>
    var change: ItemsChange?
    var top: Bool
    var bottom: Bool
    var header: ListEdge
    var footer: ListEdge
}
