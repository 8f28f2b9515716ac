/// The simulated chat's live connection (a WebSocket, a push channel): while it is open, every message
/// posted on the server reaches the screen a little later; while it is down, the messages posted reach the
/// server only, and the screen hears of them when it asks the server again.
///
/// Its events are events of the simulation, on the main thread, like every server response.
@MainActor
final class ChatSocket {
    private let chat: SimulatedChat
    private let simulation: Simulation
    private let log: Log
    private let latency: Duration
    private var onMessage: (@MainActor (Message) -> Void)?
    /// Whether the connection is up.
    private(set) var isOpen = false
    /// The ids of the messages posted while the connection was down, which it never delivered.
    private(set) var missed: [Int] = []

    /// Creates the connection to `chat`, which pushes a message `latency` after it is posted; it starts down.
    init(chat: SimulatedChat, simulation: Simulation, log: Log, latency: Duration) {
        self.chat = chat
        self.simulation = simulation
        self.log = log
        self.latency = latency
    }

    /// Opens the connection (or opens it again): from now on each message posted is pushed to `onMessage`.
    func open(onMessage: @escaping @MainActor (Message) -> Void) {
        self.onMessage = onMessage
        isOpen = true
        log.write(.server, "socket", "connected: new messages are pushed as they are posted")
    }

    /// Drops the connection: messages posted from now on reach the server only.
    func drop() {
        isOpen = false
        log.write(.server, "socket", "connection lost: nothing is pushed until it returns")
    }

    /// Someone posts `text` on the server (`POST /chat/messages`) and it is returned.
    ///
    /// While the connection is up, the message is pushed `latency` later.
    @discardableResult
    func post(text: String) -> Message {
        let message = chat.post(text: text)
        guard isOpen else {
            missed.append(message.id)
            return message
        }
        simulation.schedule(after: latency) { [self] in
            guard isOpen, let onMessage else { return }
            log.write(.server, "socket", "pushes message \(message.id) \"\(message.text)\"")
            onMessage(message)
        }
        return message
    }
}
