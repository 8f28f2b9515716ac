import Reactive

extension PagingMachine {
    /// The lists of the queries shown before, least recently shown first.
    @usableFromInline
    struct CachedLists {
        @usableFromInline struct Entry {
            @usableFromInline let key: AnyHashable
            @usableFromInline let list: ShownList
            @usableFromInline let openingKey: Key
            @usableFromInline let savedAt: SchedulerInstant
            /// Tells this keeping of the list from another: its eviction timer names it.
            @usableFromInline let serial: UInt64

            @inlinable
            init(key: AnyHashable, list: ShownList, openingKey: Key, savedAt: SchedulerInstant, serial: UInt64) {
                self.key = key
                self.list = list
                self.openingKey = openingKey
                self.savedAt = savedAt
                self.serial = serial
            }
        }

        @usableFromInline let configuration: QueryCache<Key>
        @usableFromInline var entries: [Entry] = []
        /// The identity of the query of the list shown, once a list is shown.
        @usableFromInline var shownKey: AnyHashable?
        /// The identity of the current generation's query.
        @usableFromInline var queryKey: AnyHashable
        /// The serial of the latest entry kept.
        @usableFromInline var lastSerial: UInt64 = 0

        @inlinable
        init(_ configuration: QueryCache<Key>, queryKey: AnyHashable) {
            self.configuration = configuration
            self.queryKey = queryKey
        }

        /// Keeps `list` as the list of `key`, the most recently shown.
        ///
        /// - Returns: The entry's serial.
        @inlinable
        mutating func keep(
            _ list: ShownList, openingKey: Key, as key: AnyHashable, at now: SchedulerInstant
        ) -> UInt64 {
            entries.removeAll { $0.key == key }
            lastSerial &+= 1
            entries.append(Entry(key: key, list: list, openingKey: openingKey, savedAt: now, serial: lastSerial))
            return lastSerial
        }

        /// Takes out the entry with `serial`, if it is still kept (its list was not shown again since).
        @inlinable
        mutating func evict(_ serial: UInt64) -> Entry? {
            guard let index = entries.firstIndex(where: { $0.serial == serial }) else { return nil }
            return entries.remove(at: index)
        }

        /// Takes out the list of `key`, if kept and not older than the maximum age.
        @inlinable
        mutating func take(_ key: AnyHashable, at now: SchedulerInstant) -> Entry? {
            guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: index)
            if let maxAge = configuration.maxAge, entry.savedAt.duration(to: now) > maxAge { return nil }
            return entry
        }

        /// Drops the least recently shown lists beyond the capacity.
        @inlinable
        mutating func evictBeyondCapacity() {
            if entries.count > configuration.capacity { entries.removeFirst(entries.count - configuration.capacity) }
        }
    }

    /// Switches the cache to the query of `visit` before a refresh with that query.
    ///
    /// The list shown is kept under its own query and, if the new query's list is kept, it is shown at
    /// once, stale. The caller makes `visit`'s query the current one once the refresh has started.
    ///
    /// - Returns: How the refresh must reload: the cache's revalidation if the list came from it, else
    ///   `mode`.
    @inlinable
    mutating func switchCachedList(to visit: QueryVisit, mode: RefreshMode<Key>, _ effects: inout Effects)
        -> (mode: RefreshMode<Key>, fromCache: Bool)
    {
        guard var cache = queryCache else { return (mode, false) }
        var result = (mode: mode, fromCache: false)
        if visit.key != cache.shownKey || !hasList {
            if hasList, let shownKey = cache.shownKey {
                let serial = cache.keep(list, openingKey: openingKey, as: shownKey, at: visit.now)
                if let delay = cache.configuration.evictUnobservedAfter {
                    effects.schedulesEviction.append((serial, delay))
                }
            }
            if let entry = cache.take(visit.key, at: visit.now) {
                show(entry.list, &effects)
                // The kept list is the one shown now: a list a query change blanked is not coming back,
                // and the counters of the list before do not carry over.
                refreshUndo?.blankedList = nil
                openingKey = entry.openingKey
                edges.top.forgetCounters()
                edges.bottom.forgetCounters()
                edges.bottom.requestedPage = list.pageKeys.count > 1
                cache.shownKey = visit.key
                snapshot.isStale = true
                var revalidation = cache.configuration.revalidation
                // A revalidation around a row the kept list does not have reloads it from the start.
                if case .around(let index, _) = revalidation, !list.items.indices.contains(index) {
                    revalidation = .restart
                }
                result = (revalidation, true)
            }
        }
        cache.evictBeyondCapacity()
        queryCache = cache
        return result
    }
}
