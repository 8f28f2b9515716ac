import Reactive
import Stapler

extension TestPageSource {
    /// A source of the custom-keys form (`PageSource(firstKey:loadPage:)`) whose pages the fake builds
    /// itself: keys are item offsets, the first key is ``openAt``, and every page reports its previous
    /// and next keys, the total and the items before it.
    ///
    /// A prepend ends its page before the page below it (the request's `followingKey`), so no item comes
    /// twice. The log shows the paginator's own direction for each request.
    ///
    /// - Returns: The source.
    public func custom() -> PageSource<Item, Int, Query, Void, TestSourceError> {
        PageSource(firstKey: openAt) { request in self.loadCustomPage(request) }
    }

    /// The load of ``custom()``: the page of `request`, for an app's own source or a conformance check.
    ///
    /// - Parameter request: The paginator's request.
    /// - Returns: A producer of the page.
    public func loadCustomPage(
        _ request: PageRequest<Int, Query>
    ) -> SignalProducer<Page<Item, Int, Void>, TestSourceError> {
        let opening = openAt
        return producer {
            RequestDescription(
                key: "\(request.key)", offset: request.key, size: request.pageSize, query: request.query,
                direction: request.direction, isOpening: request.key == 0 || request.key == opening)
        } respond: { state in
            let key = request.key
            let limit = request.followingKey.map { max(key, $0) - key } ?? request.pageSize
            let items = state.slice(from: key, size: min(request.pageSize, limit))
            let total = state.list.count
            let next = key + items.count < total ? key + items.count : nil
            let previous = key > 0 ? max(0, key - request.pageSize) : nil
            let described = String(describing: request.query)
            if let next { state.produce("\(next)", .append, query: described) }
            if let previous { state.produce("\(previous)", .prepend, query: described) }
            var page = Page(items: items, previousKey: previous, nextKey: next, total: total)
            page.itemsBefore = key
            return page
        }
    }
}
