// A libFuzzer target for the paging engine: the input bytes are read as a session of paginator calls and
// server answers (good, short, empty, overlapping, a bad key, failures, no page, two pages, a page that
// never completes; to the latest request or to an older, superseded one; at once, late on the delivery
// scheduler, or from inside a notification; for a refresh, a prepend or an append), run on a real
// `Paginator` by the model-based test's `PagingSession`, which checks it against `PagingReference` after
// every step. The first byte picks the configuration (page model, deduplication, delivery scheduler,
// opened mid-way, policies, a memory bound, placeholders and jumps, save and restore: a restored
// paginator driven alongside must agree with the saved one). A disagreement traps, so libFuzzer keeps
// the input as a crash.
//
// `scripts/fuzz.sh engine` builds it with the model-based test's own files (Tests/StaplerTests/ModelBased),
// so the fuzzer and `swift test` check against one reference.

import Dispatch
import Foundation

/// Reads bytes one at a time; 0 once they run out.
struct EngineByteReader {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    mutating func next() -> Int {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return Int(bytes[position])
    }

    var isAtEnd: Bool { position >= bytes.count }
}

/// Turns fuzzer bytes into the operations of a model-based session.
enum EngineInputDecoder {
    /// Inputs longer than this many operations are cut: longer sessions add time, not new states.
    static let operationLimit = 160

    static func configuration(_ reader: inout EngineByteReader) -> ModelConfiguration {
        ModelConfiguration(seed: UInt64(reader.next()))
    }

    static func operations(_ reader: inout EngineByteReader, in configuration: ModelConfiguration)
        -> [PagingOperation]
    {
        var operations: [PagingOperation] = []
        while !reader.isAtEnd, operations.count < operationLimit {
            operations.append(operation(&reader, in: configuration))
        }
        return operations
    }

    /// One operation: the low four bits of its first byte choose the kind, the next two the queue.
    static func operation(_ reader: inout EngineByteReader, in configuration: ModelConfiguration) -> PagingOperation {
        let head = reader.next()
        let queue = (head >> 4) % 4
        // With policies, the clock moves too; calls from inside a synchronous notification are left out
        // there, as the generator of the model-based test leaves them out (their timers' order differs).
        if configuration.usesPolicies,
            head % 16 == 14 && queue >= 2
                || !configuration.delaysDelivery && (head % 16 == 12 || head % 16 == 13)
        {
            return .advanceClock(seconds: reader.next() % 6 + 1)
        }
        switch head % 16 {
        case 0..<9:
            return .call(call(kind: head % 16, &reader), queue: queue)
        case 9, 10, 11:
            let age = reader.next() % 8
            let answer = self.answer(reader.next())
            let delay = configuration.delaysDelivery ? (head >> 6) : 0
            return .respond(age: age, answer: answer, queue: queue, delay: delay)
        case 12:
            return .respondWhenStateChanges(age: reader.next() % 8, answer: answer(reader.next()))
        case 13:
            return .whenItemsChange(call(kind: reader.next() % 9, &reader))
        case 14:
            return queue == 0 ? .runScheduler : .advance(ticks: queue - 1)
        default:
            // A release throws the paginator away: rare, or sessions would rarely get deep.
            if queue == 3 { return .release }
            return queue == 2 && configuration.restores ? .saveAndRestore : .call(.loadNext, queue: 0)
        }
    }

    static func call(kind: Int, _ reader: inout EngineByteReader) -> PagingOperation.Call {
        switch kind {
        case 0:
            let query = reader.next() % (PagingReference.sizes.count + 1)
            return .refresh(query: query == PagingReference.sizes.count ? nil : query)
        case 1: return .reloadAll
        case 2: return .refreshAround(row: row(reader.next()))
        case 3: return .loadNext
        case 4: return .loadPrevious
        case 5: return .preload(row: row(reader.next()))
        case 6: return .retry
        case 7: return .cancel
        default:
            let byte = reader.next()
            let kinds: [PagingOperation.EditKind] = [.insert, .remove, .replace]
            return .edit(kinds[byte % 3], row: (byte / 3) % 30)
        }
    }

    /// A row from -2 to 29: a few out of range at both ends.
    static func row(_ byte: Int) -> Int { byte % 32 - 2 }

    static func answer(_ byte: Int) -> PagingOperation.Answer {
        let all = PagingOperation.Answer.allCases
        return all[byte % all.count]
    }
}

/// The queues the session hops to, made once: every input reuses them.
let fuzzQueues = (1...3).map { DispatchQueue(label: "fuzz.engine.q\($0)") }

/// A deliberately wrong reference, named by `STAPLER_FUZZ_REFERENCE_MUTATION` (`appliesStaleResponses`,
/// `keepsIdentitiesAcrossRefresh`, `ignoresDrops` or `restoresWithoutTheEnd`): proves that the target
/// finds a disagreement (`scripts/fuzz.sh` never sets it).
let fuzzReferenceMutation: PagingReference.Mutation? =
    switch ProcessInfo.processInfo.environment["STAPLER_FUZZ_REFERENCE_MUTATION"] {
    case "appliesStaleResponses": .appliesStaleResponses
    case "keepsIdentitiesAcrossRefresh": .keepsIdentitiesAcrossRefresh
    case "ignoresDrops": .ignoresDrops
    case "restoresWithoutTheEnd": .restoresWithoutTheEnd
    default: nil
    }

/// The fuzz entry point: runs the session `start` encodes and traps on the first disagreement.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEngine(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start, count > 0 else { return 0 }
    var reader = EngineByteReader(bytes: UnsafeRawBufferPointer(start: start, count: count))
    let configuration = EngineInputDecoder.configuration(&reader)
    let operations = EngineInputDecoder.operations(&reader, in: configuration)
    let session = PagingSession(configuration, queues: fuzzQueues, mutation: fuzzReferenceMutation)
    for (step, operation) in operations.enumerated() {
        if let failure = session.apply(operation) {
            fatalError(
                "engine fuzz (\(configuration)): step \(step), \(operation): \(failure)\n"
                    + "operations: \(operations.prefix(step + 1))")
        }
    }
    if let failure = session.finish() {
        fatalError("engine fuzz (\(configuration)): after the scheduler ran: \(failure)\noperations: \(operations)")
    }
    return 0
}
