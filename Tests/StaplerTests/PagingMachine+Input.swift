@testable import Stapler

// A dispatch of the machine's inputs for the tests that drive the machine directly.

extension PagingMachine {
    /// What the machine is asked to do: the engine calls the `receive` methods directly; this is the same
    /// dispatch for the inputs these tests drive.
    enum Input {
        /// Start a new generation from the opening key, with a new query or the current one.
        case refresh(query: Query?)
        /// Load the next page; with `retryingFailedPage`, a failed next page is requested again.
        case loadNext(retryingFailedPage: Bool)
        /// Load the previous page.
        case loadPrevious
        /// Load a page at whichever edge row `index` is within `distance` rows of.
        case preload(index: Int, distance: Int)
        /// Request what failed again.
        case retry
        /// Cancel the loads in flight; `generation` limits it to a first-page load of that generation.
        case cancel(generation: UInt64?)
        /// A load's page arrived; `identities` are its items' identities when deduplicating.
        case loaded(ticket: UInt64, page: Page<Item, Key, Metadata>, identities: [ItemIdentity]?)
        /// A load failed.
        case failed(ticket: UInt64, error: PagingError<Failure>)
        /// A load ended without a page or an error (it was interrupted).
        case interrupted(ticket: UInt64)
    }

    /// Applies `input` and returns the effects to run.
    ///
    /// - Complexity: O(1) for every input but a page, which costs O(page size + log pages).
    mutating func handle(_ input: Input) -> Effects {
        switch input {
        case .refresh(let newQuery): receiveRefresh(query: newQuery)
        case .loadNext(let retrying): receiveLoadNext(retryingFailedPage: retrying)
        case .loadPrevious: receiveLoadPrevious()
        case .preload(let index, let distance):
            receivePreload(index: index, distance: distance, seenLeadingCount: nil, seenListSerial: nil)
        case .retry: receiveRetry()
        case .cancel(let generation): receiveCancel(generation: generation)
        case .loaded(let ticket, let page, let identities):
            receiveLoaded(ticket: ticket, page: page, identities: identities)
        case .failed(let ticket, let error): receiveFailed(ticket: ticket, error: error)
        case .interrupted(let ticket): receiveInterrupted(ticket: ticket)
        }
    }
}
