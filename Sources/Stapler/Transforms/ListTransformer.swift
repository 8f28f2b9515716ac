/// The incremental state of one transformed list: the rows after each step, per source page.
///
/// Each step reads one layer and writes the next (see ``TransformLayer``): layer 0 holds the source rows,
/// layer `s + 1` what step `s` made of layer `s`, each typed by its rows. The steps were typed when the
/// transform was built and are joined here once, so a page goes through code that knows its rows' types,
/// with one call per step and page. Every row has an identity (`id`) that survives edits and refreshes,
/// and the round in which its value was last computed; a step computes only the rows whose input is new or
/// changed this round, and reuses the others, so each page is transformed once, when it arrives.
///
/// A transformer is driven by one thread at a time: the one delivering its paginator's publications.
final class ListTransformer<Output: Sendable>: @unchecked Sendable {
    // Guarded by the engine's delivery queue: only its deliverer calls `apply`, one publication at a time
    // (the queue delivers one thing at a time, on one thread); `init` runs before the transformer is
    // registered with the engine. The layers, the stages and the context are this
    // transformer's alone.
    let makeHeader: (@Sendable (ListEdge) -> Output?)?
    let makeFooter: (@Sendable (ListEdge) -> Output?)?
    /// The loops over the rows of the snapshot, compiled for their type.
    let kernels: RowKernels<Output>
    /// The round, the identities and the ends of the list, shared with the stages.
    let context = TransformContext()
    /// Every layer, the source rows first, the rows of the snapshot last.
    let layers: [any AnyTransformLayer]
    /// The stages, in order: stage `s` reads layer `s` and writes layer `s + 1`.
    let stages: [any TransformStage]
    /// The last layer: the rows of the snapshot.
    let finalLayer: TransformLayer<Output>
    var headerEdge: ListEdge?
    var footerEdge: ListEdge?
    /// The snapshot the transformer has made so far.
    var output = TransformedItems<Output>()
    /// The paginator's items the layers hold.
    var source: (any SourcePageStarts)?

    init<Item>(_ transform: ListTransform<Item, Output>) {
        makeHeader = transform.header
        makeFooter = transform.footer
        kernels = transform.outputKernels
        // A transform without steps still keeps a layer of its own, so every layer has one before it.
        let steps = transform.steps.isEmpty ? [transform.identity] : transform.steps
        let source = TransformLayer<Item>()
        source.sourceRows = transform.sourceKernels.sourceRows
        var layers: [any AnyTransformLayer] = [source]
        var stages: [any TransformStage] = []
        for step in steps {
            let (stage, output) = step.makeStage(input: layers[layers.count - 1], context: context)
            stages.append(stage)
            layers.append(output)
        }
        self.layers = layers
        self.stages = stages
        // The steps were typed when the transform was built: the last one makes `Output` rows.
        finalLayer = layers[layers.count - 1] as! TransformLayer<Output>
    }

    /// Transforms what changed in a publication and returns the transformed list's update, if its rows
    /// changed, and how many rows the change inserted.
    ///
    /// - Complexity: O(rows of the pages that changed) for pages added at either end and for edits;
    ///   O(rows) for a refresh, a drop or a reload.
    func apply<Item: Sendable>(_ input: TransformInput<Item>) -> (update: TransformedUpdate<Output>?, inserted: Int) {
        context.round += 1
        let round = context.round
        let previous = output
        let topChanged = context.top != input.top
        let bottomChanged = context.bottom != input.bottom
        (context.top, context.bottom) = (input.top, input.bottom)
        var header = previous.header
        var footer = previous.footer
        let headerChanged = makeHeader != nil && headerEdge != input.header
        let footerChanged = makeFooter != nil && footerEdge != input.footer
        if headerChanged, let makeHeader {
            headerEdge = input.header
            header = makeHeader(input.header)
        }
        if footerChanged, let makeFooter {
            footerEdge = input.footer
            footer = makeFooter(input.footer)
        }
        var segments = ChangeSegments()
        var reloaded = false
        switch updateSource(input) {
        case .rebuild(let reload):
            reloaded = reload
            let old = finalLayer.chunks
            for stage in stages { stage.rebuild() }
            let final = finalLayer.chunks
            var body = PagedItems<TransformedRow<Output>>()
            for index in final.indices.dropFirst().dropLast() { body = body.appending(kernels.slots(final[index])) }
            output = TransformedItems(
                header: header, leading: kernels.slots(final[0]), body: body,
                trailing: kernels.slots(final[final.count - 1]),
                footer: footer, source: input.items)
            segments.add(
                old: old.flatMap(kernels.keys), at: previous.headerCount, new: final.flatMap(kernels.keys),
                at: output.headerCount)
        case .chunks(let structure, let changed):
            let replaced = runStages(changed: changed, topChanged: topChanged, bottomChanged: bottomChanged)
            output = updatedOutput(structure: structure, replaced: replaced, header: header, footer: footer, input)
            for (index, old) in replaced {
                let new = finalLayer.chunks[index]
                guard !isUnchanged(old, new) else { continue }
                let oldStart = structure.oldIndex(of: index).map { previous.start(ofChunk: $0) } ?? 0
                segments.add(
                    old: kernels.keys(old), at: oldStart, new: kernels.keys(new), at: output.start(ofChunk: index))
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
        structure: Structure, replaced: [(index: Int, old: TransformChunk<Output>)], header: Output?,
        footer: Output?, _ input: TransformInput<Item>
    ) -> TransformedItems<Output> {
        let final = finalLayer.chunks
        var (leading, body, trailing) = (output.leading, output.body, output.trailing)
        var added = 0..<0
        switch structure {
        case .same: break
        case .appended(let position, let count):
            added = position..<position + count
            for index in added { body = body.appending(kernels.slots(final[index])) }
        case .prepended(let count):
            added = 1..<1 + count
            for index in added.reversed() { body = body.prepending(kernels.slots(final[index])) }
        }
        for (index, old) in replaced where !added.contains(index) && !isUnchanged(old, final[index]) {
            if index == 0 {
                leading = kernels.slots(final[0])
            } else if index == final.count - 1 {
                trailing = kernels.slots(final[index])
            } else {
                body = body.replacingPage(at: index - 1, with: kernels.slots(final[index]))
            }
        }
        return TransformedItems(
            header: header, leading: leading, body: body, trailing: trailing, footer: footer, source: input.items)
    }

    /// Runs every stage on the `changed` chunks of layer 0 (and, for separators, on the chunks whose
    /// neighbouring rows or edges changed).
    ///
    /// - Returns: The chunks of the last layer that were recomputed, ascending, each with its rows before.
    private func runStages(
        changed: [Int], topChanged: Bool, bottomChanged: Bool
    ) -> [(index: Int, old: TransformChunk<Output>)] {
        finalLayer.startRecording()
        var changed = changed
        for stage in stages {
            changed = stage.run(changed: changed, topChanged: topChanged, bottomChanged: bottomChanged)
        }
        return finalLayer.stopRecording()
    }

    /// Whether a recomputed chunk shows the same rows as before.
    private func isUnchanged(_ old: TransformChunk<Output>, _ new: TransformChunk<Output>) -> Bool {
        let round = context.round
        guard old.count == new.count else { return false }
        for (before, after) in zip(old, new) where before.id != after.id || after.round == round {
            if before.value == nil && after.value == nil && before.id == after.id { continue }
            return false
        }
        return true
    }
}

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
