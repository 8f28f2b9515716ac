/// The fields of a saved list's encoded form.
@usableFromInline
enum SavedStateField: String, CodingKey {
    case version, model, query, openingKey, pages, top, bottom
    case droppedAbove, droppedAboveEdge, droppedBelow, droppedBelowEdge
    case total, metadata, listWasEmpty, stoppedWithoutProgress, accessedRow, firstPageIndex, removedByEdits
    case key, end, previous, next, items, itemsBefore
}

extension PagingSavedState: Codable where Item: Codable, Key: Codable {
    /// Encodes the saved list with its format version.
    ///
    /// - Throws: `EncodingError.invalidValue` when `Query` or `Metadata` is neither `Encodable` nor
    ///   `Void`, and whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SavedStateField.self)
        try container.encode(Self.formatVersion, forKey: .version)
        try container.encode(model.rawValue, forKey: .model)
        try container.encodeLoosely(query, forKey: .query)
        try container.encode(openingKey, forKey: .openingKey)
        try container.encode(pages, forKey: .pages)
        try container.encode(topEdge, forKey: .top)
        try container.encode(bottomEdge, forKey: .bottom)
        try container.encode(droppedAbove, forKey: .droppedAbove)
        try container.encode(droppedAboveEdge, forKey: .droppedAboveEdge)
        try container.encode(droppedBelow, forKey: .droppedBelow)
        try container.encode(droppedBelowEdge, forKey: .droppedBelowEdge)
        try container.encodeIfPresent(total, forKey: .total)
        if let metadata { try container.encodeLoosely(metadata, forKey: .metadata) }
        try container.encode(listWasEmpty, forKey: .listWasEmpty)
        try container.encodeIfPresent(stoppedWithoutProgress, forKey: .stoppedWithoutProgress)
        try container.encodeIfPresent(lastShownRow, forKey: .accessedRow)
        try container.encode(firstPageIndex, forKey: .firstPageIndex)
        try container.encode(removedByEdits, forKey: .removedByEdits)
    }

    /// Decodes a saved list and checks that it is one a paginator could have saved.
    ///
    /// - Throws: ``RestoreError``, never anything else and never a trap: `unsupportedVersion` for a
    ///   version this library does not read, `corrupt` for data that is not a saved list of these
    ///   types, and the other cases for a list whose pages, keys, total or row do not hold together.
    ///   Bytes a decoder cannot read at all fail in the decoder, before this runs: decode through
    ///   ``PagingSavedState/decode(_:)`` and those are a `RestoreError` too.
    public init(from decoder: any Decoder) throws {
        do {
            let container = try decoder.container(keyedBy: SavedStateField.self)
            let version = try container.decode(Int.self, forKey: .version)
            guard version == Self.formatVersion else { throw RestoreError.unsupportedVersion(version) }
            let modelName = try container.decode(String.self, forKey: .model)
            guard let model = PageModelKind(rawValue: modelName) else {
                throw RestoreError.corrupt("unknown page model \(modelName)")
            }
            let metadata: Metadata? =
                try container.contains(.metadata) && !container.decodeNil(forKey: .metadata)
                ? container.decodeLoosely(Metadata.self, forKey: .metadata) : nil
            self.init(
                model: model, query: try container.decodeLoosely(Query.self, forKey: .query),
                openingKey: try container.decode(Key.self, forKey: .openingKey),
                pages: try container.decode([SavedPage<Item, Key>].self, forKey: .pages),
                topEdge: try container.decode(SavedEdge<Key>.self, forKey: .top),
                bottomEdge: try container.decode(SavedEdge<Key>.self, forKey: .bottom),
                droppedAbove: try container.decode([SavedPageKeys<Key>].self, forKey: .droppedAbove),
                droppedAboveEdge: try container.decode(SavedEdge<Key>.self, forKey: .droppedAboveEdge),
                droppedBelow: try container.decode([SavedPageKeys<Key>].self, forKey: .droppedBelow),
                droppedBelowEdge: try container.decode(SavedEdge<Key>.self, forKey: .droppedBelowEdge),
                total: try container.decodeIfPresent(Int.self, forKey: .total), metadata: metadata,
                listWasEmpty: try container.decode(Bool.self, forKey: .listWasEmpty),
                stoppedWithoutProgress: try container.decodeIfPresent(Int.self, forKey: .stoppedWithoutProgress),
                accessedRow: try container.decodeIfPresent(Int.self, forKey: .accessedRow),
                firstPageIndex: try container.decode(Int.self, forKey: .firstPageIndex),
                removedByEdits: try container.decode([Item].self, forKey: .removedByEdits))
        } catch let error as RestoreError {
            throw error
        } catch {
            throw RestoreError.corrupt(String(describing: error))
        }
        try validate()
    }
}

extension SavedEdge: Codable where Key: Codable {
    /// Encodes `{"end": true}` or `{"key": key}`: a key that is itself `nil` stays a key.
    @usableFromInline
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SavedStateField.self)
        switch self {
        case .end: try container.encode(true, forKey: .end)
        case .key(let key): try container.encode(key, forKey: .key)
        }
    }

    @usableFromInline
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SavedStateField.self)
        if container.contains(.key) {
            self = .key(try container.decode(Key.self, forKey: .key))
        } else if try container.decodeIfPresent(Bool.self, forKey: .end) == true {
            self = .end
        } else {
            throw RestoreError.corrupt("an edge is neither a key nor the end")
        }
    }
}

extension SavedPageKeys: Codable where Key: Codable {
    @usableFromInline
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SavedStateField.self)
        try container.encode(key, forKey: .key)
        try container.encode(previousKey, forKey: .previous)
        try container.encode(nextKey, forKey: .next)
        try container.encodeIfPresent(itemsBefore, forKey: .itemsBefore)
    }

    @usableFromInline
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SavedStateField.self)
        self.init(
            key: try container.decode(Key.self, forKey: .key),
            previousKey: try container.decode(SavedEdge<Key>.self, forKey: .previous),
            nextKey: try container.decode(SavedEdge<Key>.self, forKey: .next),
            itemsBefore: try container.decodeIfPresent(Int.self, forKey: .itemsBefore))
    }
}

extension SavedPage: Codable where Item: Codable, Key: Codable {
    @usableFromInline
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SavedStateField.self)
        try container.encode(keys, forKey: .key)
        try container.encode(items, forKey: .items)
    }

    @usableFromInline
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SavedStateField.self)
        self.init(
            keys: try container.decode(SavedPageKeys<Key>.self, forKey: .key),
            items: try container.decode([Item].self, forKey: .items))
    }
}

extension KeyedEncodingContainer {
    /// Encodes `value` if it is `Encodable`; a `Void` is encoded as `true`, so its presence is kept.
    @usableFromInline
    mutating func encodeLoosely<Value>(_ value: Value, forKey key: Key) throws {
        if value is Void {
            try encode(true, forKey: key)
        } else if let encodable = value as? any Encodable {
            try encode(encodable, forKey: key)
        } else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath + [key], debugDescription: "\(Value.self) is neither Encodable nor Void"))
        }
    }
}

extension KeyedDecodingContainer {
    /// Decodes a `Value` that is `Decodable` or `Void`.
    @usableFromInline
    func decodeLoosely<Value>(_ type: Value.Type, forKey key: Key) throws -> Value {
        if let void = () as? Value { return void }
        guard let decodable = Value.self as? any Decodable.Type else {
            throw RestoreError.corrupt("\(Value.self) is neither Decodable nor Void")
        }
        func decodeValue<Concrete: Decodable>(_ concrete: Concrete.Type) throws -> Any {
            try decode(Concrete.self, forKey: key)
        }
        guard let value = try decodeValue(decodable) as? Value else {
            throw RestoreError.corrupt("\(Value.self) did not decode as itself")
        }
        return value
    }
}
