// A libFuzzer target for restoring a saved list: arbitrary bytes, read as a saved state's JSON through
// `PagingSavedState.decode`, must decode to a `PagingSavedState` or throw a `RestoreError` (text that is
// not JSON at all included), never trap. A state that decodes must restore onto an offset source with no request,
// showing exactly its rows; saving the restored paginator and restoring that again must give the same
// saved state (a fixed point). Then a short session on the restored paginator (edge loads, preloads that
// may jump, answers, failures, refreshes, a memory bound, placeholders) must never trap, keep its pages
// within the bound, keep its published snapshot and rows in agreement, and save a list that restores.
//
// Input layout: the first byte picks the options (memory bound, placeholders, jump threshold,
// deduplication, revalidation), the second seeds the session; the rest is the saved state's JSON.
//
// `scripts/fuzz.sh restoration` builds it with the test fixtures' `Response` and `ManualServer`.

import Dispatch
import Foundation
import Stapler
import TestSupport

typealias FuzzSavedList = PagingSavedState<Int, Int, String, Response>
typealias FuzzPaginator = Paginator<Int, Int, String, Response, ServerError>

/// Whether to print each step of a session (`FUZZ_TRACE=1`), to read what led to a crash.
let tracing = ProcessInfo.processInfo.environment["FUZZ_TRACE"] == "1"

/// Traps with `message`: libFuzzer records the input as a crash.
func restorationFailure(_ message: String) -> Never {
    fatalError("restoration fuzz: \(message)")
}

/// The paginator options the first byte picks.
struct RestorationOptions {
    let maxPages: Int?
    let placeholders: Bool
    let jumpThreshold: Int?
    let deduplicates: Bool
    let revalidate: RefreshMode<Int>?

    /// The placeholders option: off, shown, or jumping beyond the threshold.
    var placeholderOption: Placeholders {
        guard placeholders else { return .off }
        return jumpThreshold.map { .jumping(threshold: $0) } ?? .shown
    }

    init(_ byte: UInt8) {
        maxPages = byte & 1 == 0 ? nil : 4
        placeholders = byte & 2 != 0
        jumpThreshold = byte & 4 == 0 || !placeholders ? nil : 30
        deduplicates = byte & 8 != 0
        switch (byte >> 4) % 4 {
        case 1: revalidate = .restart
        case 2: revalidate = .around(index: Int(byte >> 6), minimumCount: 20)
        default: revalidate = nil
        }
    }
}

/// Decodes `json` as an app does, through `PagingSavedState.decode`; `nil` when it is not a saved list.
func decodeSavedList(_ json: Data) -> FuzzSavedList? {
    do {
        return try FuzzSavedList.decode { try JSONDecoder().decode(FuzzSavedList.self, from: json) }
    } catch {
        return nil  // A `RestoreError`: `decode` throws nothing else, whatever the bytes.
    }
}

/// Restores `saved` onto an offset source over `server` with `options`.
func restore(_ saved: FuzzSavedList, _ options: RestorationOptions, server: OffsetServer, revalidates: Bool)
    -> FuzzPaginator?
{
    do {
        return try FuzzPaginator(
            restoring: saved, source: .offset { offset, size, _ in server.producer(offset, size: size) },
            options: PagingOptions(
                pageSize: 10, deduplication: options.deduplicates ? .by { $0 } : nil, maxPages: options.maxPages,
                placeholders: options.placeholderOption),
            revalidate: revalidates ? options.revalidate : nil)
    } catch {
        return nil
    }
}

/// Restores `saved` with no revalidation and checks what a restored list guarantees; returns it.
func checkedRestore(_ saved: FuzzSavedList, _ options: RestorationOptions) -> FuzzPaginator? {
    let server = OffsetServer()
    guard let paginator = restore(saved, options, server: server, revalidates: false) else { return nil }
    if !server.requests.isEmpty { restorationFailure("restoring requested \(server.keys)") }
    if !options.deduplicates, Array(paginator.items.value) != saved.items {
        restorationFailure("restored rows \(Array(paginator.items.value)) are not the saved \(saved.items)")
    }
    guard let resaved = paginator.savedState else { restorationFailure("a restored list saves nothing") }
    guard let again = restore(resaved, options, server: OffsetServer(), revalidates: false) else {
        restorationFailure("a restored list's own saved state does not restore")
    }
    if again.savedState != resaved { restorationFailure("saving, restoring and saving again changed the list") }
    return paginator
}

/// Plays a session of `steps` random calls and answers on a restored paginator, checking it after each.
func playSession(_ saved: FuzzSavedList, _ options: RestorationOptions, seed: UInt64) {
    let server = OffsetServer()
    guard let paginator = restore(saved, options, server: server, revalidates: true) else {
        restorationFailure("a list that restored once did not restore again")
    }
    var random = SplitMix(seed: seed)
    let total = saved.total ?? 400
    // A restored list longer than the bound is cut by its next load, never grown past what it held.
    let pageLimit = options.maxPages.map { max($0 + 1, paginator.snapshot.value.pages) }
    for _ in 0..<40 {
        let rows = paginator.items.value.count
        var step = ""
        switch random.next() % 8 {
        case 0: step = "loadNextPage \(paginator.loadNextPage())"
        case 1: step = "loadPreviousPage \(paginator.loadPreviousPage())"
        case 2, 3:
            let row = Int(random.next() % UInt64(max(rows, 1) + 80))
            paginator.preload(index: row)
            step = "preload \(row)"
        case 4:
            let row = Int(random.next() % UInt64(max(rows, 1)))
            step = "refresh around \(row) \(paginator.refresh(.around(index: row, minimumCount: 20)))"
        case 5:
            let request = server.pending.randomElement(using: &random)
            request?.fail(.unavailable)
            step = "fail \(request.map { "\($0.key)" } ?? "nothing")"
        default:
            if let request = server.pending.randomElement(using: &random) {
                let count = max(0, min(request.size, total - max(request.key, 0)))
                request.succeed(page(max(request.key, 0), count, total: total))
                step = "answer \(request.key) with \(count) rows"
            }
        }
        let snapshot = paginator.snapshot.value
        if tracing { print("\(step) -> \(snapshot.pages) pages: \(Array(snapshot.items))") }
        if Array(snapshot.items) != Array(paginator.items.value) {
            restorationFailure("the snapshot's rows and the items property disagree")
        }
        if let pageLimit, snapshot.pages > pageLimit {
            restorationFailure("\(snapshot.pages) pages kept with a bound of \(options.maxPages ?? 0)")
        }
    }
    if let resaved = paginator.savedState {
        do {
            _ = try FuzzPaginator(
                restoring: resaved, source: .offset { offset, size, _ in OffsetServer().producer(offset, size: size) },
                options: PagingOptions(
                    pageSize: 10, deduplication: options.deduplicates ? .by { $0 } : nil, maxPages: options.maxPages))
        } catch {
            restorationFailure("the list after the session saves a state that does not restore: \(error), \(resaved)")
        }
    }
}

extension OffsetServer {
    /// The requests whose run has not ended.
    var pending: [Request] { requests.filter { !$0.isDisposed } }
}

/// The fuzz entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRestoration(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start, count > 2 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let options = RestorationOptions(bytes[0])
    guard let saved = decodeSavedList(Data(bytes[2...])), checkedRestore(saved, options) != nil else { return 0 }
    playSession(saved, options, seed: UInt64(bytes[1]))
    return 0
}
