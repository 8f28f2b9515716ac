import Stapler

extension HTTPSession {
    /// With `--edit-rows`, while the page just asked for loads: replaces the middle row of the list with
    /// itself and modifies the row after it, two local edits by id that must leave every item in place,
    /// whatever the page in flight brings (by id, so that a page landing meanwhile cannot shift them).
    func editWhileLoading<Key, Metadata>(_ paginator: Paginator<RemoteItem, Key, Void, Metadata, HTTPFailure>) {
        guard options.editsRows else { return }
        let items = paginator.items.value
        guard items.count >= 3 else { return }
        let middle = items[items.index(items.startIndex, offsetBy: items.count / 2)]
        let next = items[items.index(items.startIndex, offsetBy: items.count / 2 + 1)]
        let replaced = paginator.replace(id: middle.id, with: middle)
        let modified = paginator.modify(id: next.id) { _ in }
        log.write(
            .user, "edits",
            "replaces id \(middle.id) and modifies id \(next.id) while a page loads: \(replaced), \(modified)")
    }
}

/// The memory bound of the `--url` run: `--max-pages`, raised to the fewest pages that hold a page and
/// the prefetch window on both sides of the row shown (a smaller bound is a programmer error that traps).
struct MemoryBoundChoice: CustomStringConvertible {
    let maxPages: Int
    let prefetchDistance: Int
    let requested: Int

    init?(requested: Int?, pageSize: Int) {
        guard let requested else { return nil }
        prefetchDistance = max(pageSize / 2, DemoOptions.screenRows)
        let fewest = (pageSize + 2 * prefetchDistance + pageSize - 1) / pageSize
        maxPages = max(requested, fewest)
        self.requested = requested
    }

    var description: String {
        let raised =
            maxPages > requested
            ? " (raised from --max-pages \(requested): the fewest that hold a page and the rows kept around it)" : ""
        return
            "maxPages \(maxPages)\(raised), prefetchDistance \(prefetchDistance): pages far from the row shown are dropped and reload when scrolled back to"
    }
}
