import Reactive

// Stand-in for the library's `filter` until the operators branch lands.
extension Signal {
    func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value, Error> {
        Signal { output, lifetime in
            lifetime += observe { event in
                if case .value(let value) = event, !isIncluded(value) { return }
                output.send(event)
            }
        }
    }
}
