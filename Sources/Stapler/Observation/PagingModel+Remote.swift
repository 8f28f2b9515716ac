#if canImport(Observation)
    import Observation

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    extension PagingModel
    where Item: StoreRow, Key == StorePosition, Query == Void, Metadata == StoreListMetadata, Failure == StoreError {
        /// The state of the list's mediator in each direction, read now from the paginator; see
        /// ``Paginator/remoteLoadStates``.
        ///
        /// Show the list from ``loadStates``, which combine it with the store's reads and change with the
        /// items; this is the detail (an edge ``RemoteLoadState/blocked`` until the first refresh).
        public var remoteLoadStates: RemoteLoadStates {
            paginator.remoteLoadStates
        }
    }
#endif
