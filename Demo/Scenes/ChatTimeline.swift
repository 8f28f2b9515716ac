import Stapler

/// The chat as its screen shows it: the messages under a header for each day, built with a
/// ``ListTransform`` so the screen gets incremental changes of its own rows (12 messages a day).
enum ChatTimeline {
    /// A row of the chat screen.
    enum Row: Equatable, Sendable {
        case day(Int)
        case message(Message)
    }

    /// How many messages the simulated chat posts a day.
    static let messagesPerDay = 12

    /// The day a message was posted.
    static func day(of message: Message) -> Int {
        (message.id - 1) / messagesPerDay + 1
    }

    /// A message row each, and a day header above the first message of each day: between two pages only
    /// once both are loaded, and above the first message only once the chat's start was reached.
    static let transform = ListTransform<Message, Message>()
        .map { Row.message($0) }
        .separators { before, after in
            guard case .message(let message)? = after else { return nil }
            if case .message(let previous)? = before, day(of: previous) == day(of: message) { return nil }
            return .day(day(of: message))
        }

    /// The rows of `messages` computed from scratch, the way the transform promises them.
    static func rows(of messages: [Message], startReached: Bool) -> [Row] {
        var rows: [Row] = []
        for (index, message) in messages.enumerated() {
            let newDay = index == 0 ? startReached : day(of: messages[index - 1]) != day(of: message)
            if newDay { rows.append(.day(day(of: message))) }
            rows.append(.message(message))
        }
        return rows
    }
}
