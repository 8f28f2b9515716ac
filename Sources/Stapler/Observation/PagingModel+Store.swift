#if canImport(Observation)
    import Observation

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    extension PagingModel
    where Item: StoreRow, Key == StorePosition, Query == Void, Metadata == StoreListMetadata, Failure == StoreError {
        /// Tells the list over a store whether the app shows it; see ``Paginator/setObserved(_:)``.
        ///
        /// - Parameter observed: Whether the list is on screen.
        public func setObserved(_ observed: Bool) {
            paginator.setObserved(observed)
        }
    }
#endif
