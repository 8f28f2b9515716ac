import Foundation
import Stapler

/// A saved list of the shop's products, as `Paginator.savedState` gives it.
typealias SavedProducts = PagingSavedState<Product, Int, Category?, ProductsPage>

/// The file the relaunch scene keeps its list in: the paginator's saved state as JSON
/// (`JSONEncoder`, keys sorted, so the same list writes the same bytes).
enum SavedListFile {
    /// Writes `saved` to `url`, replacing the file; returns how many bytes were written.
    static func write(_ saved: SavedProducts, to url: URL) throws -> Int {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(saved)
        try data.write(to: url, options: .atomic)
        return data.count
    }

    /// Reads a saved list from `url`, with the number of bytes read.
    ///
    /// The bytes are decoded through `PagingSavedState.decode`, so whatever the file holds (text that
    /// is not JSON, JSON of another shape, a list that does not hold together) fails as a `RestoreError`.
    ///
    /// - Throws: The file's read error, or the `RestoreError` of bytes that are not a saved list.
    static func read(from url: URL) throws -> (saved: SavedProducts, bytes: Int) {
        let data = try Data(contentsOf: url)
        let saved = try SavedProducts.decode { try JSONDecoder().decode(SavedProducts.self, from: data) }
        return (saved, data.count)
    }
}
