import Foundation
import Stapler
import TestSupport
import Testing

@Suite("Saved lists: every failure to decode is a RestoreError")
struct SavedStateDecodingTests {
    /// The bytes of a saved list of three pages.
    static func validBytes() throws -> Data {
        let (_, paginator) = SavedStateTests.scriptedList()
        return try JSONEncoder().encode(try #require(paginator.savedState))
    }

    /// Decodes `bytes` as an app reads a saved list: the error thrown, if any.
    static func decodingError(_ bytes: Data) -> (any Error)? {
        do {
            _ = try SavedList.decode { try JSONDecoder().decode(SavedList.self, from: bytes) }
            return nil
        } catch {
            return error
        }
    }

    /// The error expected for `bytes`: the saved list's own `RestoreError`, or the error of Foundation's
    /// decoder kept, described, in ``RestoreError/corrupt(_:)``.
    static func expectedError(_ bytes: Data) -> RestoreError? {
        do {
            _ = try JSONDecoder().decode(SavedList.self, from: bytes)
            return nil
        } catch let error as RestoreError {
            return error
        } catch {
            return .corrupt(String(describing: error))
        }
    }

    @Test(
        "bytes that are not JSON, truncated JSON and JSON of another shape are each a RestoreError keeping the decoder's description"
    )
    func badBytesAreRestoreErrors() throws {
        let valid = try Self.validBytes()
        var versioned = try #require(try JSONSerialization.jsonObject(with: valid) as? [String: Any])
        versioned["version"] = 999
        let inputs: [(name: String, bytes: Data)] = [
            ("not JSON", Data([0xFF, 0x00, 0x13, 0x37, 0x80])),
            ("text", Data("a saved list".utf8)),
            ("empty", Data()),
            ("truncated", valid.prefix(valid.count / 2)),
            ("an array", Data("[1, 2, 3]".utf8)),
            ("a number", Data("42".utf8)),
            ("an object of another shape", Data(#"{"version": 1, "model": "offset", "pages": 3}"#.utf8)),
            ("another version", try JSONSerialization.data(withJSONObject: versioned)),
        ]
        for input in inputs {
            let expected = try #require(Self.expectedError(input.bytes), "\(input.name) decoded")
            let thrown = Self.decodingError(input.bytes)
            #expect(thrown as? RestoreError == expected, "\(input.name): \(String(describing: thrown))")
        }
        #expect(Self.expectedError(inputs[inputs.count - 1].bytes) == .unsupportedVersion(999))
    }

    @Test(
        "1,000 seeded random corruptions of a saved list's bytes each decode or throw a RestoreError, never another error"
    )
    func corruptedBytesAreRestoreErrors() throws {
        let valid = [UInt8](try Self.validBytes())
        var generator = SplitMix(seed: 29)
        var outcomes = (decoded: 0, restoreErrors: 0, others: [String]())
        for _ in 0..<1_000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
            if Int.random(in: 0..<4, using: &generator) == 0 {
                bytes.removeLast(Int.random(in: 1..<bytes.count, using: &generator))
            }
            switch Self.decodingError(Data(bytes)) {
            case nil: outcomes.decoded += 1
            case is RestoreError: outcomes.restoreErrors += 1
            case let error?: outcomes.others.append(String(describing: error))
            }
        }
        #expect(Set(outcomes.others) == [], "every failure is a RestoreError")
        #expect(outcomes.decoded > 0 && outcomes.restoreErrors > 0, "\(outcomes.decoded) decoded")
    }
}
