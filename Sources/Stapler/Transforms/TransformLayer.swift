/// One row of a transform's layer, with its value typed by the layer.
@usableFromInline
struct TransformRow<Value: Sendable>: Sendable {
    /// The row's identity: a source row keeps its id through edits and refreshes, the steps' rows keep
    /// the id of the row they come from, and a separator keeps its id while its neighbours stay.
    @usableFromInline var id: Int
    /// For a separator, the ids of the rows before and after it (`-1` at an edge of the list);
    /// ``TransformRow/notSeparator`` for other rows.
    @usableFromInline var left: Int
    @usableFromInline var right: Int
    /// The round in which `value` was computed.
    @usableFromInline var round: Int
    /// The position in its source page of the row this one comes from.
    @usableFromInline var offset: Int
    /// The value; `nil` for a separator that returned none (kept so it is not asked again).
    @usableFromInline var value: Value?

    @inlinable static var notSeparator: Int { -2 }

    /// A row that is not a separator.
    @inlinable
    init(_ value: Value?, id: Int, offset: Int, round: Int) {
        self.init(
            id: id, left: TransformRow.notSeparator, right: TransformRow.notSeparator, round: round, offset: offset,
            value: value)
    }

    @inlinable
    init(id: Int, left: Int, right: Int, round: Int, offset: Int, value: Value?) {
        self.id = id
        self.left = left
        self.right = right
        self.round = round
        self.offset = offset
        self.value = value
    }
}

/// The rows of one source page (or edge) in one layer.
@usableFromInline
typealias TransformChunk<Value: Sendable> = ContiguousArray<TransformRow<Value>>

/// The rows one step of a transform made (or the source rows), one chunk per source page, plus a chunk
/// above the first page and one below the last: chunk 0 is the top edge, chunk `p + 1` source page `p`,
/// the last chunk the bottom edge.
///
/// Owned by one ``TransformPipeline`` and used only by the thread driving it.
@usableFromInline
final class TransformLayer<Value: Sendable> {
    /// The chunks, in order.
    @usableFromInline var chunks: ContiguousArray<TransformChunk<Value>> = [[], []]
    /// While recording, each chunk replaced through ``replace(_:with:)``, in order, with its rows before.
    @usableFromInline var replaced: [(index: Int, old: TransformChunk<Value>)]?

    @inlinable
    init() {}

    /// Starts recording the chunks replaced.
    @inlinable
    func startRecording() {
        replaced = []
    }

    /// Stops recording and returns the chunks replaced since ``startRecording()``.
    @inlinable
    func stopRecording() -> [(index: Int, old: TransformChunk<Value>)] {
        defer { replaced = nil }
        return replaced ?? []
    }

    /// Sets chunk `index` to `chunk`, recording its rows before while recording.
    @inlinable
    func replace(_ index: Int, with chunk: TransformChunk<Value>) {
        if replaced != nil { replaced?.append((index, chunks[index])) }
        chunks[index] = chunk
    }

    /// Inserts `count` empty chunks at `position`.
    @inlinable
    func insertEmptyChunks(count: Int, at position: Int) {
        chunks.insert(contentsOf: repeatElement([], count: count), at: position)
    }
}

/// What every step of one transformed list shares: the round, the identities handed out, and whether the
/// ends of the list were reached.
///
/// Owned by one ``TransformPipeline`` and used only by the thread driving it.
@usableFromInline
final class TransformContext {
    /// Increases with every publication; a row whose `round` equals it was computed for this one.
    @usableFromInline var round = 1
    /// The next identity to hand out.
    @usableFromInline var nextID = 0
    /// Whether the top and the bottom of the list were reached, as the separators last saw it.
    @usableFromInline var top = false
    @usableFromInline var bottom = false

    @inlinable
    init() {}

    /// A fresh id.
    @inlinable
    func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }
}

/// One step of a transform joined to its input layer.
///
/// It reads that layer and writes its `output` layer, with its rows' types known to the closures, which
/// were made where those types are known (see ``TransformStep``). The pipeline calls them once per
/// publication, never once per row.
@usableFromInline
struct TransformStage {
    /// The layer the stage writes (a ``TransformLayer`` of the step's output rows).
    @usableFromInline let output: AnyObject
    /// Recomputes the output chunks whose input chunks `changed` (ascending), and those a change next to
    /// them or at an edge affects (`topChanged`, `bottomChanged`); returns the output chunks it
    /// recomputed, ascending.
    @usableFromInline let run: (_ changed: [Int], _ topChanged: Bool, _ bottomChanged: Bool) -> [Int]
    /// Recomputes every output chunk, reusing the rows whose inputs kept their identity.
    @usableFromInline let rebuild: () -> Void
    /// Inserts `count` empty chunks into the output layer at `position`.
    @usableFromInline let insertEmptyChunks: (_ count: Int, _ position: Int) -> Void

    @inlinable
    init(
        output: AnyObject, run: @escaping ([Int], Bool, Bool) -> [Int], rebuild: @escaping () -> Void,
        insertEmptyChunks: @escaping (Int, Int) -> Void
    ) {
        self.output = output
        self.run = run
        self.rebuild = rebuild
        self.insertEmptyChunks = insertEmptyChunks
    }
}

/// A step of a transform as a value, typed by the rows it takes and makes when it was built: it joins
/// itself to a layer of its input rows.
///
/// Its stage is made by a closure that the inlinable operators of ``ListTransform`` create, so the
/// stage's loops are compiled in the caller's module for the step's row types.
@usableFromInline
struct TransformStep: Sendable {
    /// A stage running this step on `input`, which must be a ``TransformLayer`` of the rows the step
    /// takes.
    @usableFromInline let makeStage: @Sendable (_ input: AnyObject, _ context: TransformContext) -> TransformStage

    @inlinable
    init(makeStage: @escaping @Sendable (AnyObject, TransformContext) -> TransformStage) {
        self.makeStage = makeStage
    }
}
