import Foundation
import Stapler

/// An encoder a SQLite store can write rows with: `JSONEncoder` and `PropertyListEncoder` conform.
public protocol RowEncoder: SendableMetatype {
    /// The encoding of `value`.
    func encode<Value: Encodable>(_ value: Value) throws -> Data
}

/// A decoder a SQLite store can read rows with: `JSONDecoder` and `PropertyListDecoder` conform.
public protocol RowDecoder: SendableMetatype {
    /// The value of `type` encoded in `data`.
    func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value
}

extension JSONEncoder: RowEncoder {}
extension JSONDecoder: RowDecoder {}
extension PropertyListEncoder: RowEncoder {}
extension PropertyListDecoder: RowDecoder {}

/// How a SQLite store turns rows into bytes and back: any encoder and decoder pair, JSON by default.
///
/// A row that no longer decodes (the app's `Codable` type changed) is reported as
/// ``Stapler/StoreError/undecodable(collection:id:underlying:)`` by the read that meets it; a type that
/// only gained an optional field decodes every old row.
public struct SQLiteRowCoding<Row: StoreRow>: Sendable {
    let encode: @Sendable (Row) throws -> [UInt8]
    /// Makes the decoding of one store call: one decoder, used for every row the call reads.
    let makeDecode: @Sendable () -> (UnsafeRawBufferPointer) throws -> Row

    /// A coding made by `makeEncoder` and `makeDecoder`: each store call makes its own coder, so coders
    /// that are not thread safe work.
    ///
    /// - Parameters:
    ///   - makeEncoder: Makes the encoder of one write.
    ///   - makeDecoder: Makes the decoder of one read.
    public init(
        encoder makeEncoder: @escaping @Sendable () -> some RowEncoder,
        decoder makeDecoder: @escaping @Sendable () -> some RowDecoder
    ) {
        encode = { row in Array(try makeEncoder().encode(row)) }
        makeDecode = {
            let decoder = makeDecoder()
            return { bytes in try decoder.decode(Row.self, from: Data(bytes)) }
        }
    }

    /// JSON, with Foundation's default `JSONEncoder` and `JSONDecoder` settings.
    public static var json: SQLiteRowCoding {
        SQLiteRowCoding(encoder: { JSONEncoder() }, decoder: { JSONDecoder() })
    }
}
