@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
extension SignalProducer {
    /// A producer whose every run iterates `elements` in a new `Task`, sending each element, then
    /// completing, or failing with the sequence's error.
    ///
    /// Disposing the run cancels the task, and the run stops sending at once; a sequence that honours
    /// cancellation then stops producing too.
    ///
    /// ```swift
    /// let ticks = SignalProducer(clock.ticks)  // any AsyncSequence
    /// ticks.startWithValues { print($0) }
    /// ```
    ///
    /// - Parameters:
    ///   - elements: Iterated from the start on every run (a fresh iterator per run).
    ///   - priority: The priority of each run's task; `nil` for the priority of the starting task.
    public init<Elements: AsyncSequence & Sendable>(
        _ elements: Elements,
        priority: TaskPriority? = nil
    ) where Elements.Element == Value, Elements.Failure == Error {
        self.init { observer, lifetime in
            let task = Task(priority: priority) {
                var iterator = elements.makeAsyncIterator()
                do throws(Error) {
                    while let element = try await iterator.next(isolation: nil) {
                        guard !Task.isCancelled else { return }
                        observer.send(value: element)
                    }
                    observer.sendCompleted()
                } catch {
                    observer.send(error: error)
                }
            }
            lifetime.observeEnded { task.cancel() }
        }
    }
}
