/// One collection of a ``MemoryStore``: its members sorted by tuple, and its edge data.
struct MemoryCollectionState: Sendable {
    /// Each member's tuple.
    var tuples: [StoreID: StoreCursor] = [:]
    /// The members in the collection's order.
    var sorted: [(cursor: StoreCursor, id: StoreID)] = []
    /// The remote keys of the edges.
    var keys = StoreRemoteKeys.none
    /// The last refresh.
    var refreshed: WallTime?
}

/// Everything a ``MemoryStore`` holds, as one value: a commit applies to it in place, and a reader keeps
/// the (copy-on-write) value it started with.
struct MemoryStoreState<Row: StoreRow>: Sendable {
    let schema: StoreSchema<Row>
    var rows: [StoreID: Row] = [:]
    var collections: [MemoryCollectionState]
    var version: UInt64 = 0

    init(schema: StoreSchema<Row>) {
        self.schema = schema
        self.collections = Array(repeating: MemoryCollectionState(), count: schema.collections.count)
    }

    /// The index in `collection`'s sorted members of the first tuple not before `cursor`.
    func lowerBound(_ cursor: StoreCursor, in collection: Int) -> Int {
        let definition = schema.collections[collection]
        let members = collections[collection].sorted
        var low = 0
        var high = members.count
        while low < high {
            let middle = (low + high) / 2
            if definition.compare(members[middle].cursor.bytes, cursor.bytes, localized: schema.localizedOrder) < 0 {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// Makes `id` a member of `collection` at `cursor` (moving it if it was elsewhere).
    mutating func place(_ id: StoreID, at cursor: StoreCursor, in collection: Int) {
        // A member whose tuple did not change keeps its place: the sorted members need no move.
        if collections[collection].tuples[id] == cursor { return }
        remove(id, from: collection)
        let index = lowerBound(cursor, in: collection)
        collections[collection].sorted.insert((cursor, id), at: index)
        collections[collection].tuples[id] = cursor
    }

    /// Removes `id` from `collection`; returns whether it was a member.
    @discardableResult
    mutating func remove(_ id: StoreID, from collection: Int) -> Bool {
        guard let old = collections[collection].tuples.removeValue(forKey: id) else { return false }
        let index = lowerBound(old, in: collection)
        collections[collection].sorted.remove(at: index)
        return true
    }

    /// Whether any collection other than `excluded` holds `id`.
    func isHeld(_ id: StoreID, besides excluded: Int) -> Bool {
        collections.indices.contains { $0 != excluded && collections[$0].tuples[id] != nil }
    }

    /// Stores the planned row and updates its membership everywhere; `joining` names an explicit collection
    /// it enters.
    mutating func upsert(_ planned: PlannedRow<Row>, joining: Int? = nil, touch: inout StoreTouch) {
        rows[planned.id] = planned.row
        touch.ids.insert(planned.id)
        for index in collections.indices {
            let isMember = collections[index].tuples[planned.id] != nil
            let enters = schema.collections[index].membership == .query || index == joining
            if let cursor = planned.placements[index], isMember || enters {
                place(planned.id, at: cursor, in: index)
                touch.collections.insert(index)
            } else if planned.placements[index] == nil, remove(planned.id, from: index) {
                touch.collections.insert(index)
            }
        }
    }

    /// Deletes `id` everywhere.
    mutating func delete(_ id: StoreID, touch: inout StoreTouch) {
        guard rows.removeValue(forKey: id) != nil else { return }
        touch.ids.insert(id)
        for index in collections.indices where remove(id, from: index) {
            touch.collections.insert(index)
        }
    }

    /// Applies one planned operation at wall time `now`.
    mutating func apply(_ operation: PlannedOperation<Row>, now: WallTime, touch: inout StoreTouch) {
        switch operation {
        case .upsert(let rows):
            for row in rows { upsert(row, touch: &touch) }
        case .delete(let id):
            delete(id, touch: &touch)
        case .replaceWindow(let collection, let rows, let keys):
            let old = collections[collection].sorted.map(\.id)
            for row in rows { upsert(row, joining: collection, touch: &touch) }
            let kept = Set(rows.filter { $0.placements[collection] != nil }.map(\.id))
            for id in old where !kept.contains(id) {
                if !isHeld(id, besides: collection) {
                    delete(id, touch: &touch)
                } else if schema.collections[collection].membership == .explicit {
                    remove(id, from: collection)
                }
            }
            collections[collection].keys = keys
            collections[collection].refreshed = now
            touch.collections.insert(collection)
        case .append(let collection, let rows, let key, let edge):
            for row in rows { upsert(row, joining: collection, touch: &touch) }
            switch edge {
            case .before: collections[collection].keys.before = key
            case .after: collections[collection].keys.after = key
            }
            touch.collections.insert(collection)
        case .setRemoteKeys(let collection, let keys):
            collections[collection].keys = keys
            touch.collections.insert(collection)
        case .markRefreshed(let collection):
            collections[collection].refreshed = now
            touch.collections.insert(collection)
        case .clear(let collection):
            for id in collections[collection].sorted.map(\.id) {
                if isHeld(id, besides: collection) {
                    remove(id, from: collection)
                } else {
                    delete(id, touch: &touch)
                }
            }
            collections[collection] = MemoryCollectionState()
            touch.collections.insert(collection)
        }
    }
}
