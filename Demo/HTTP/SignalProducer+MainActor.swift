import Reactive

extension SignalProducer where Value: Sendable {
    /// A producer whose every run awaits `work` in a task and sends its result on the main actor;
    /// disposing the run cancels the task.
    ///
    /// The HTTP run pages from the main actor and delivers every page there too, so each change of
    /// the paginator reaches all its observers before the user's next call: the log stays in the
    /// order things happened. (The library's `async` page-source initializers send from whichever
    /// thread the task ends on, which is right for an app that hops to its UI itself.)
    static func onMainActor(_ work: @escaping @Sendable () async throws(Error) -> Value) -> SignalProducer {
        SignalProducer { observer, lifetime in
            let task = Task { @MainActor in
                do throws(Error) {
                    let value = try await work()
                    observer.send(value: value)
                    observer.sendCompleted()
                } catch {
                    observer.send(error: error)
                }
            }
            lifetime.observeEnded { task.cancel() }
        }
    }
}
