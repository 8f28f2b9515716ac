#if canImport(Observation)
    import Reactive
    import Stapler
    import Testing

    /// Remote loads belong to the list, not to the model that shows it (P51).
    @MainActor @Suite struct RemoteModelTests {
        typealias PostModel = PagingModel<Post, StorePosition, Void, StoreListMetadata, StoreError>

        @Test(
            "P51: leaving and coming back keeps the append; cancelled, it is asked again once, by any model",
            arguments: listStoreKinds)
        func p51LeaveAndComeBack(kind: StoreKind) async throws {
            let setup = try StoreListSetup(kind, seed: nil)
            let mediator = ManualMediator()
            let list = setup.mediatedList(mediator)
            try mediator.last.refresh(posts(200, through: 181))
            var model: PostModel? = PostModel(list)
            model?.preload(index: 19)
            #expect(mediator.loads(.append).count == 1)
            let append = mediator.last
            model = nil
            let back = PostModel(list)
            #expect(append.cancelCount == 0)
            append.fail(CancellationError())
            await back.settled()
            #expect(back.remoteLoadStates.append == .idle(endReached: false))
            #expect(back.loadStates.append == .idle(endReached: false))
            #expect(back.items.count == 20)
            let second = PostModel(list)
            back.preload(index: 19)
            second.preload(index: 19)
            #expect(mediator.loads(.append).count == 2)
            #expect(mediator.last.edgeID == 181)
            try mediator.last.page(posts(180, through: 161))
            await back.settled()
            await second.settled()
            #expect(back.items.count == 40)
            #expect(second.items.count == 40)
        }
    }
#endif
