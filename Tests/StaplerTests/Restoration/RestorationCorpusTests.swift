import Foundation
import Stapler
import TestSupport
import Testing

/// The seed inputs of the restoration fuzz target (`Fuzz/Corpus/Restoration`): two option bytes, then a
/// saved list's JSON, as `Fuzz/Restoration/FuzzRestoration.swift` reads them. Seeds that no longer decode
/// would leave the fuzzer to find the saved format from nothing, so every seed must decode and restore.
/// With `STAPLER_WRITE_RESTORATION_SEEDS=1` the test writes them again from the lists below (after a
/// change of the saved format).
@Suite("Restoration fuzz corpus")
struct RestorationCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/Restoration")

    /// Loads pages on `paginator`, answering each request from a list of `total` rows.
    static func load(
        _ paginator: Paginator<Int, Int, String, Response, ServerError>, _ server: TwoEndedServer,
        total: Int, calls: [(Paginator<Int, Int, String, Response, ServerError>) -> Void]
    ) {
        paginator.refresh()
        answer(server.last, total: total)
        for call in calls {
            call(paginator)
            if let request = server.pending.last { answer(request, total: total) }
        }
    }

    /// Each seed's name, option bytes and list.
    static func seeds() -> [(name: String, options: [UInt8], saved: SavedList?)] {
        let next: (Paginator<Int, Int, String, Response, ServerError>) -> Void = { $0.loadNextPage() }
        let previous: (Paginator<Int, Int, String, Response, ServerError>) -> Void = { $0.loadPreviousPage() }

        let top = TwoEndedServer()
        let threePages = offsetPaginator(top)
        load(threePages, top, total: 100, calls: [next, next])

        let middle = TwoEndedServer()
        let opened = offsetPaginator(middle, initialKey: 500)
        load(opened, middle, total: 1_000, calls: [previous, next, previous])

        let bounded = TwoEndedServer()
        let scrolled = offsetPaginator(bounded, prefetchDistance: 5, maxPages: 3)
        load(scrolled, bounded, total: 200, calls: Array(repeating: next, count: 8))

        let whole = TwoEndedServer()
        let ended = offsetPaginator(whole)
        load(ended, whole, total: 25, calls: [next, next, next])

        let edits = TwoEndedServer()
        let edited = offsetPaginator(edits)
        load(edited, edits, total: 100, calls: [next])
        _ = edited.remove(at: 3)
        _ = edited.insert(-1, at: 0)

        return [
            ("three-pages", [0, 1], threePages.savedState),
            ("opened-midway-revalidated", [0x10, 2], opened.savedState),
            ("bounded-dropped-above", [0x01, 3], scrolled.savedState),
            ("placeholders-jump", [0x06, 4], threePages.savedState),
            ("whole-list-deduplicated", [0x28, 5], ended.savedState),
            ("edited", [0x09, 6], edited.savedState),
        ]
    }

    @Test("every seed of the restoration fuzz target decodes and restores with no request")
    func seedsDecode() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for seed in Self.seeds() {
            let saved = try #require(seed.saved, "\(seed.name) saved nothing")
            let file = Self.corpus.appendingPathComponent(seed.name)
            if ProcessInfo.processInfo.environment["STAPLER_WRITE_RESTORATION_SEEDS"] == "1" {
                try FileManager.default.createDirectory(at: Self.corpus, withIntermediateDirectories: true)
                try (Data(seed.options) + encoder.encode(saved)).write(to: file)
            }
            let bytes = try Data(contentsOf: file)
            #expect(Array(bytes.prefix(2)) == seed.options, "\(seed.name)")
            let decoded = try JSONDecoder().decode(SavedList.self, from: bytes.dropFirst(2))
            #expect(decoded == saved, "\(seed.name): the committed seed is not the list its scenario saves")
            let server = TwoEndedServer()
            let restored = try RestoredPaginatorTests.restore(decoded, on: server)
            #expect(Array(restored.items.value) == decoded.items && server.requests.isEmpty, "\(seed.name)")
        }
    }
}
