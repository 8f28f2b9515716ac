/// How a refresh reloads the list.
///
/// Every mode starts a new generation: loads in flight are disposed and their answers never applied,
/// and the rows shown stay until the refresh commits (or stay for good if it fails).
public enum RefreshMode<Key: Sendable>: Sendable {
    /// Load the first page again at the key the list was opened at (the source's first key, or the key
    /// of the latest ``open(at:)``), and replace the list with it.
    case restart
    /// Open the list at `key`: its first page is the page of that key, and later restarts reload it.
    /// A chat opens at its newest page and pages older; a timeline opens mid-list.
    case open(at: Key)
    /// Reload every shown page, one request at a time: first the page the list was opened at, by its own
    /// key, then the pages below it and then the pages above it, as far as the shown pages reach, each key
    /// taken from the fresh page next to it. A chat opened at its newest page and paged older reloads
    /// every older page it shows; a timeline opened mid-list reloads both ways. (When a memory bound
    /// dropped the opening page, the shown page nearest to it stands in for it.) The old rows stay until
    /// the last page is in; then one update replaces them. A fresh chain that ends early commits fewer
    /// pages; a page that fails leaves the rows and `retry()` resumes at that page, with its fresh key.
    case reloadAll
    /// Reload every shown page in parallel, at most `max` requests at once, when the source computes each
    /// page's key without the page before it (offset, page number): N pages in about one round trip instead
    /// of N. Elsewhere (a cursor API, whose stored cursors may name pages that moved) it is ``reloadAll``.
    ///
    /// Each page is asked by its stored key; the old rows stay until every page is in, then one update
    /// replaces them. If the pages do not line up (a total changed between them, a page does not start
    /// where the page before it says the next one starts, or a page starts with a row the page before
    /// holds: the data moved while they loaded) nothing is shown from them and the list is reloaded one
    /// page at a time, as ``reloadAll`` does. A failed page leaves the rows, and `retry()` reloads them one
    /// page at a time.
    ///
    /// `max` is at least 1; a smaller value traps, naming `max`.
    case reloadAllInParallel(max: Int)
    /// Reload the page that holds row `index` (by its stored key), then pages above and below it, in
    /// turn, until at least `minimumCount` rows are in (the anchor's page alone for 0), and replace the
    /// list with them in one update, so the user's position survives a refresh (Paging 3's refresh key).
    ///
    /// The update's ``ItemsUpdate/anchor`` tells where the anchor row went, when items have an
    /// identity. An index outside the list is ignored (the call does nothing); with no rows it is a
    /// ``restart``.
    case around(index: Int, minimumCount: Int = 0)
    /// Reload only the page at the end the list grows at (the top of a feed; the newest page of a chat
    /// opened at its newest page and paged older) by its stored key, and merge it with the rows shown by
    /// identity, in one update: one request when the server's change fits in a page.
    ///
    /// The merge is the one of ``Paginator/catchUp(at:maxPages:)``. Rows shown between that end and the
    /// row where the fresh page meets the list, which the fresh page lacks, are removed (the fresh page
    /// proves them gone); rows beyond it stay, and copies of fresh rows among them go, so no row is shown
    /// twice. When the fresh page meets no row shown (more new rows than a page), up to `catchUp` pages
    /// next to it are loaded, one at a time, until one meets the list; if none does, the fresh pages
    /// replace the rows, so that no gap hides between the two. Like every mode, the rows stay until the
    /// merge commits, and a failed page leaves them and `retry()` goes on.
    ///
    /// It needs rows to merge with and an identity to merge by: before the first page, with a new query
    /// (but for a list of that query the ``QueryCache`` shows, which it revalidates with one request),
    /// without a deduplication, or while a memory bound keeps pages dropped beyond that end, it is a
    /// ``restart``. An empty fresh page at the top of a feed is the server's list: the list is emptied.
    ///
    /// `catchUp` is at least 0; a negative value traps, naming `catchUp`.
    case firstPage(catchUp: Int)

    /// Reload only the page at the end the list grows at and merge it by identity, following on for at
    /// most 2 more pages: ``firstPage(catchUp:)`` with its default.
    public static var firstPage: RefreshMode { .firstPage(catchUp: 2) }
}
