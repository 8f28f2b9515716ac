import Reactive

extension PagingEngine {
    /// What a transition leaves for the query cache's eviction timers: timers to start, by the kept
    /// entry's serial, and timers of entries no longer kept, to dispose.
    @usableFromInline
    struct EvictionWork {
        @usableFromInline var schedule: [(serial: UInt64, after: Duration)]
        @usableFromInline var cancel: [any Disposable] = []

        @inlinable
        init(schedule: [(serial: UInt64, after: Duration)]) {
            self.schedule = schedule
        }
    }

    /// Takes, under the state lock and right after a transition, the eviction timers to start and those to
    /// stop: a kept list shown again (or evicted by the capacity) loses its timer in the same critical
    /// section as the lookup that took it out, so a timer that fires later finds nothing to evict.
    ///
    /// - Returns: `nil` when there is nothing to do (no timer runs and none starts), at the cost of two
    ///   emptiness checks.
    @inlinable
    func takeEvictionWork(_ effects: Machine.Effects, _ state: inout State) -> EvictionWork? {
        guard !effects.schedulesEviction.isEmpty || !state.evictionTimers.isEmpty else { return nil }
        var work = EvictionWork(schedule: effects.schedulesEviction)
        let kept = Set(state.machine.queryCache?.entries.map(\.serial) ?? [])
        for (serial, timer) in state.evictionTimers where !kept.contains(serial) {
            work.cancel.append(timer)
            state.evictionTimers[serial] = nil
        }
        return work
    }

    /// Disposes the timers `work` stops and starts those it schedules, with no lock held; a timer whose
    /// entry went meanwhile is disposed at once.
    @inlinable
    func run(_ work: EvictionWork) {
        for timer in work.cancel { timer.dispose() }
        for (serial, delay) in work.schedule {
            let timer = policy.clock.schedule(after: delay) { [weak self] in self?.evict(serial) }
            let kept = state.withLock { state -> Bool in
                guard state.machine.queryCache?.entries.contains(where: { $0.serial == serial }) == true else {
                    return false
                }
                state.evictionTimers[serial] = timer
                return true
            }
            if !kept { timer.dispose() }
        }
    }

    /// Evicts the kept list with `serial`, if it is still kept (not shown again since); it is released
    /// here, with no lock held (releasing rows can run user code).
    @inlinable
    func evict(_ serial: UInt64) {
        let evicted = state.withLock { state -> Machine.CachedLists.Entry? in
            state.evictionTimers[serial] = nil
            return state.machine.queryCache?.evict(serial)
        }
        withExtendedLifetime(evicted) {}
    }

    /// Disposes every eviction timer; called when the paginator goes.
    @inlinable
    func disposeEvictionTimers() {
        let timers = state.withLock { state -> [any Disposable] in
            defer { state.evictionTimers = [:] }
            return Array(state.evictionTimers.values)
        }
        for timer in timers { timer.dispose() }
    }
}
