/// The incremental state of one transformed list: the rows after each step, per source page.
///
/// Each step reads one layer and writes the next (see ``TransformLayer``): layer 0 holds the source rows,
/// layer `s + 1` what step `s` made of layer `s`, each typed by its rows. The steps were typed when the
/// transform was built and are joined here once, so a page goes through code that knows its rows' types,
/// with one call per step and page. Every row has an identity (`id`) that survives edits and refreshes,
/// and the round in which its value was last computed; a step computes only the rows whose input is new or
/// changed this round, and reuses the others, so each page is transformed once, when it arrives.
///
/// A pipeline is made by the closure of its ``ListTransform`` (see ``ListTransform/makePipeline``), in
/// inlinable code: its per-page code below is inlinable too, so it runs compiled for `Item` and `Output` in
/// the caller's module, with the steps' stages joined as closures compiled for their own rows. A pipeline
/// is driven by one thread at a time: the one delivering its paginator's publications, through its
/// ``ListTransformer``.
@usableFromInline
final class TransformPipeline<Item: Sendable, Output: Sendable> {
    @usableFromInline let makeHeader: (@Sendable (ListEdge) -> Output?)?
    @usableFromInline let makeFooter: (@Sendable (ListEdge) -> Output?)?
    /// `apply(_:)` as compiled for `Item` and `Output` where the transform was built.
    @usableFromInline let run: (TransformPipeline, TransformInput<Item>) -> (TransformedUpdate<Output>?, Int)
    /// The round, the identities and the ends of the list, shared with the stages.
    @usableFromInline let context = TransformContext()
    /// Layer 0: the source rows.
    @usableFromInline let sourceLayer = TransformLayer<Item>()
    /// The stages, in order: stage `s` reads layer `s` and writes layer `s + 1`.
    @usableFromInline let stages: [TransformStage]
    /// The last layer: the rows of the snapshot.
    @usableFromInline let finalLayer: TransformLayer<Output>
    @usableFromInline var headerEdge: ListEdge?
    @usableFromInline var footerEdge: ListEdge?
    /// The snapshot the pipeline has made so far.
    @usableFromInline var output = TransformedItems<Output>()
    /// The paginator's items the layers hold.
    @usableFromInline var source = PagedItems<Item>()
    /// Without steps, the source layer's chunks before a rebuild replaced them: the rows shown before.
    @usableFromInline var sourceBeforeRebuild: ContiguousArray<TransformChunk<Item>>?

    /// A pipeline running `steps`, with the header and the footer they make.
    ///
    /// Without steps (the identity transform, whose `Output` is `Item`), the source layer is the last
    /// layer: the rows pass through with no step copying them.
    @inlinable
    init(
        steps: [TransformStep], header: (@Sendable (ListEdge) -> Output?)?, footer: (@Sendable (ListEdge) -> Output?)?,
        apply: @escaping (TransformPipeline, TransformInput<Item>) -> (TransformedUpdate<Output>?, Int)
    ) {
        makeHeader = header
        makeFooter = footer
        run = apply
        var layer: AnyObject = sourceLayer
        var stages: [TransformStage] = []
        for step in steps {
            let stage = step.makeStage(layer, context)
            stages.append(stage)
            layer = stage.output
        }
        self.stages = stages
        // The steps were typed when the transform was built: the last one makes `Output` rows.
        finalLayer = unsafeDowncast(layer, to: TransformLayer<Output>.self)
    }

    /// Transforms what changed in a publication and returns the transformed list's update, if its rows
    /// changed, and how many rows the change inserted.
    ///
    /// - Complexity: O(rows of the pages that changed) for pages added at either end and for edits;
    ///   O(rows) for a refresh, a drop or a reload.
    @inlinable
    func apply(_ input: TransformInput<Item>) -> (TransformedUpdate<Output>?, Int) {
        // A publication that changes neither the rows nor what the steps, the header and the footer read of
        // the edges (a load starting, an error, a change of the metadata) changes nothing here.
        if input.change == nil, input.items.isIdentical(to: source), context.top == input.top,
            context.bottom == input.bottom, makeHeader == nil || headerEdge == input.header,
            makeFooter == nil || footerEdge == input.footer
        {
            return (nil, 0)
        }
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
        // Recorded from here: without steps, the source layer's own changes are the last layer's.
        finalLayer.startRecording()
        switch updateSource(input) {
        case .rebuild(let reload):
            reloaded = reload
            _ = finalLayer.stopRecording()
            let old = finalLayer.chunks
            let passedThrough = sourceBeforeRebuild
            sourceBeforeRebuild = nil
            for stage in stages { stage.rebuild() }
            let final = finalLayer.chunks
            var body = PagedItems<TransformedRow<Output>>()
            for index in final.indices.dropFirst().dropLast() { body = body.appending(slots(final[index])) }
            output = TransformedItems(
                header: header, leading: slots(final[0]), body: body, trailing: slots(final[final.count - 1]),
                footer: footer, source: input.items)
            var oldKeys = ContiguousArray<RowKey>()
            if let passedThrough {
                for chunk in passedThrough { appendKeys(of: chunk, to: &oldKeys) }
            } else {
                for chunk in old { appendKeys(of: chunk, to: &oldKeys) }
            }
            var newKeys = ContiguousArray<RowKey>()
            for chunk in final { appendKeys(of: chunk, to: &newKeys) }
            segments.add(old: oldKeys, at: previous.headerCount, new: newKeys, at: output.headerCount)
        case .chunks(let structure, let changed):
            let replaced = runStages(changed: changed, topChanged: topChanged, bottomChanged: bottomChanged)
            output = updatedOutput(structure: structure, replaced: replaced, header: header, footer: footer, input)
            for (index, old) in replaced {
                let new = finalLayer.chunks[index]
                guard !isUnchanged(old, new) else { continue }
                let newStart = output.start(ofChunk: index)
                if valueCount(old) == 0 {
                    // Rows of a chunk that showed none: insertions, whatever their identities (ids are
                    // never shared between chunks, so none of them was shown elsewhere before).
                    segments.addInserted(count: valueCount(new), at: newStart)
                    continue
                }
                let oldStart = structure.oldIndex(of: index).map { previous.start(ofChunk: $0) } ?? 0
                segments.add(old: keys(old), at: oldStart, new: keys(new), at: newStart)
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
    @inlinable
    func updatedOutput(
        structure: TransformStructure, replaced: [(index: Int, old: TransformChunk<Output>)], header: Output?,
        footer: Output?, _ input: TransformInput<Item>
    ) -> TransformedItems<Output> {
        let final = finalLayer.chunks
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

    /// Runs every stage on the `changed` chunks of layer 0 (and, for separators, on the chunks whose
    /// neighbouring rows or edges changed), the last layer recording since ``apply(_:)`` began.
    ///
    /// - Returns: The chunks of the last layer that were recomputed, ascending, each with its rows before.
    @inlinable
    func runStages(
        changed: [Int], topChanged: Bool, bottomChanged: Bool
    ) -> [(index: Int, old: TransformChunk<Output>)] {
        var changed = changed
        for stage in stages {
            changed = stage.run(changed, topChanged, bottomChanged)
        }
        return finalLayer.stopRecording()
    }

    /// Whether a recomputed chunk shows the same rows as before.
    @inlinable
    func isUnchanged(_ old: TransformChunk<Output>, _ new: TransformChunk<Output>) -> Bool {
        let round = context.round
        guard old.count == new.count else { return false }
        for (before, after) in zip(old, new) where before.id != after.id || after.round == round {
            if before.value == nil && after.value == nil && before.id == after.id { continue }
            return false
        }
        return true
    }
}

/// Runs a transform's pipeline for the engine: the entry point of a transformed list's per-page work.
///
/// The engine's hook is generic code compiled once for every row type; this shell hands each publication
/// to the pipeline's `run`, compiled for the list's rows where the transform was built.
///
/// Not `Sendable`: a transformed list keeps it in a ``DelivererOwned``, and only its paginator's deliverer
/// calls ``apply(_:)``, one publication at a time.
@usableFromInline
final class ListTransformer<Output: Sendable> {
    /// The pipeline: a ``TransformPipeline`` of the transform's `Item` and `Output` rows.
    @usableFromInline let pipeline: AnyObject
    /// The snapshot the transformer has made so far.
    @usableFromInline var output = TransformedItems<Output>()

    @inlinable
    init<Item>(_ transform: ListTransform<Item, Output>) {
        pipeline = transform.makePipeline()
    }

    /// Transforms what changed in a publication and returns the transformed list's update, if its rows
    /// changed, and how many rows the change inserted.
    ///
    /// - Complexity: O(rows of the pages that changed) for pages added at either end and for edits;
    ///   O(rows) for a refresh, a drop or a reload.
    @inlinable
    func apply<Item: Sendable>(_ input: TransformInput<Item>) -> (update: TransformedUpdate<Output>?, inserted: Int) {
        // The pipeline was made by a `ListTransform<Item, Output>`, the transform this list was made with.
        let pipeline = unsafeDowncast(pipeline, to: TransformPipeline<Item, Output>.self)
        let (update, inserted) = pipeline.run(pipeline, input)
        output = pipeline.output
        return (update, inserted)
    }
}

/// What the paginator published, as the transformer reads it.
@usableFromInline
struct TransformInput<Item: Sendable> {
    @usableFromInline var previous: PagedItems<Item>
    @usableFromInline var items: PagedItems<Item>
    @usableFromInline var change: ItemsChange?
    @usableFromInline var top: Bool
    @usableFromInline var bottom: Bool
    @usableFromInline var header: ListEdge
    @usableFromInline var footer: ListEdge

    @inlinable
    init(
        previous: PagedItems<Item>, items: PagedItems<Item>, change: ItemsChange?, top: Bool, bottom: Bool,
        header: ListEdge, footer: ListEdge
    ) {
        self.previous = previous
        self.items = items
        self.change = change
        self.top = top
        self.bottom = bottom
        self.header = header
        self.footer = footer
    }
}
