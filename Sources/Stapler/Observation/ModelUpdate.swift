/// How the rows a main-actor model shows changed in its latest turn, and where the row a list keeps in
/// place went: ``PagingModel/lastUpdate`` and ``TransformedModel/lastUpdate``.
///
/// A model may coalesce several changes of its paginator into one turn; its update then describes the
/// change from the rows it showed before that turn to the rows it shows after it, never a change between
/// two snapshots it skipped. ``change`` applied to the rows shown before gives the rows shown now, and
/// ``anchor`` names a row of the rows shown before (the same row, followed through every coalesced
/// change).
///
/// ```swift
/// ScrollViewReader { proxy in
///     List(model.items) { message in MessageRow(message) }
///         .onChange(of: model.lastUpdate?.id) {
///             guard let anchor = model.lastUpdate?.anchor else { return }
///             proxy.scrollTo(model.items[anchor.to].id, anchor: .top)
///         }
/// }
/// ```
public struct ModelUpdate: Sendable, Equatable, Identifiable {
    /// The update's number: 1 for the first update the model applied, then one more for each.
    public let id: Int
    /// What changed, in indices of the rows shown before (removals) and now (insertions, updates).
    ///
    /// Changes coalesced into one turn are composed: pages appended one after another give one
    /// ``ItemsChange/appended(_:)``, pages prepended give one ``ItemsChange/inserted(_:)`` at the top;
    /// changes that compose into no single change give ``ItemsChange/reloaded``.
    public let change: ItemsChange
    /// Row ``ItemsAnchor/from`` of the rows shown before is row ``ItemsAnchor/to`` of the rows shown now:
    /// a list keeps its position by scrolling row `to` to where row `from` was.
    ///
    /// Set for a refresh around a row (``RefreshMode/around(index:minimumCount:)``, items with an
    /// identity: where that row, or the first one after it that survived, went), and for rows inserted
    /// above the first row shown (a page prepended: where the first row shown went). When several changes
    /// were coalesced, the latest one that names a row still shown wins, followed through the later ones.
    /// `nil` when no change names a row to keep, or the row it named is gone.
    public let anchor: ItemsAnchor?

    /// Creates an update (for tests and previews).
    ///
    /// - Parameters:
    ///   - id: The update's number.
    ///   - change: The change from the rows shown before to the rows shown now.
    ///   - anchor: Where the row to keep went, if any.
    public init(id: Int, change: ItemsChange, anchor: ItemsAnchor? = nil) {
        self.id = id
        self.change = change
        self.anchor = anchor
    }
}

/// One change of a model's rows as its source delivered it, before the model coalesced it.
struct RowsStep: Sendable {
    /// The change, from the rows before it to the rows after it.
    let change: ItemsChange
    /// The change's own anchor (a refresh around a row).
    let anchor: ItemsAnchor?
    /// How many rows there were before it.
    let previousCount: Int

    /// The row this step asks a list to keep in place: its own anchor, or the first row when rows were
    /// inserted above it.
    var intent: ItemsAnchor? {
        if let anchor { return anchor }
        if case .inserted(let rows) = change, rows.lowerBound == 0, previousCount > 0 {
            return ItemsAnchor(from: 0, to: rows.count)
        }
        return nil
    }
}

extension ModelUpdate {
    /// The update numbered `id` that turns the rows before `steps` into the rows after them; `nil` for
    /// no step.
    init?(id: Int, composing steps: [RowsStep]) {
        guard let first = steps.first else { return nil }
        let change = steps.dropFirst().reduce(first.change) { Self.compose($0, then: $1.change) }
        self.init(id: id, change: change, anchor: Self.anchor(of: steps))
    }

    /// The one change that `first` then `second` make, or a reload.
    static func compose(_ first: ItemsChange, then second: ItemsChange) -> ItemsChange {
        switch (first, second) {
        case (_, .reloaded), (_, .cleared):
            return second
        case (.appended(let earlier), .appended(let later)) where later.lowerBound == earlier.upperBound:
            return .appended(earlier.lowerBound..<later.upperBound)
        case (.inserted(let earlier), .inserted(let later)) where earlier.lowerBound == 0 && later.lowerBound == 0:
            return .inserted(0..<earlier.count + later.count)
        case (.updated(let earlier), .updated(let later)) where earlier == later:
            return first
        default:
            return .reloaded
        }
    }

    /// The latest step's row to keep that is a row shown before every step (followed back through the
    /// steps before it), followed forward through the steps after it; `nil` if none is.
    static func anchor(of steps: [RowsStep]) -> ItemsAnchor? {
        for index in steps.indices.reversed() {
            guard let intent = steps[index].intent else { continue }
            var from: Int? = intent.from
            for step in steps[..<index].reversed() {
                from = from.flatMap { step.change.oldIndex(of: $0, anchor: step.anchor) }
            }
            var to: Int? = intent.to
            for step in steps[(index + 1)...] {
                to = to.flatMap { step.change.newIndex(of: $0, anchor: step.anchor) }
            }
            if let from, let to { return ItemsAnchor(from: from, to: to) }
        }
        return nil
    }
}
