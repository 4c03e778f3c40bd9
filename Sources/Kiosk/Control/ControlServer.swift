import Glibc
import JSON
import LinuxSystem
import Logging

/// Identifies one connected control client for the length of its connection (never reused).
public struct ControlClientID: Hashable, Sendable, CustomStringConvertible {
    public let value: Int
    public var description: String { "client \(value)" }
}

/// A well-formed command from a client, waiting for the loop to act and `reply`.
public struct ControlRequest: Equatable, Sendable {
    public var client: ControlClientID
    public var command: ControlCommand
    public var requestID: JSONValue?
    /// Where its reply goes among the client's replies (`ControlReplyOrder`).
    var replyPlace: Int
}

/// The control socket: a unix stream socket where local programs send JSON-line commands and
/// receive replies and the event stream.
///
/// Loop-friendly: the server registers its listening socket and each client in the loop's
/// `DescriptorWatching` (the kiosk's `Reactor`; a `DescriptorPoller` of its own when made
/// without one), and accepts, reads, writes and drops clients there without ever blocking. The
/// commands that arrived are taken with `takeRequests()` (`onRequests` says when there are
/// some); the loop acts on each and calls `reply(to:_:)`; `broadcast(_:)` sends an event line to
/// everyone. Without a loop, `handleEvents()` does the pending socket work and takes them.
///
/// Limits: lines longer than `maxLineBytes` get an error reply and are skipped; a client whose
/// unsent output exceeds `maxQueuedBytes` (it does not read) is dropped; more than `maxClients`
/// connections are refused. Malformed lines are answered with an error by the server itself and
/// never reach the loop; each client still reads its replies in the order it sent the lines
/// (`ControlReplyOrder`), and only its first `loggedRefusalsPerClient` refusals are logged.
public final class ControlServer {
    public struct Limits: Sendable {
        public var maxLineBytes = 16 * 1024
        public var maxQueuedBytes = 256 * 1024
        public var maxClients = 16
        /// Bytes read from one client each time it is ready (fairness between clients).
        public var readBudget = 64 * 1024
        /// Refused lines logged per client; the rest are counted and summed up in one line
        /// when the client goes (`RefusalLogBudget`).
        public var loggedRefusalsPerClient = 10
        public init() {}
    }

    private final class Client {
        let id: ControlClientID
        let fd: Int32
        var input: [UInt8] = []
        var output: [UInt8] = []
        var discardingLongLine = false
        /// The client ended its writing (or the connection broke for reading).
        var readClosed = false
        /// Its replies in the order of its lines (requests with the loop hold later ones back).
        var replies = ControlReplyOrder()
        var refusalLog: RefusalLogBudget
        /// The epoll events registered now.
        var interest: Epoll.Events = .readable
        init(id: ControlClientID, fd: Int32, loggedRefusals: Int) {
            self.id = id; self.fd = fd
            refusalLog = RefusalLogBudget(limit: loggedRefusals)
        }
    }

    /// The socket's path.
    public var path: String { listener.path }
    /// Without a loop (made with no `watcher`): the descriptor to wait on (readable: call
    /// `handleEvents()`); -1 when the loop's watcher is used.
    public var fileDescriptor: Int32 { ownPoller?.fd ?? -1 }
    /// The listening socket's and the clients' descriptors (what the server watches).
    public var descriptors: Set<Int32> { Set(clients.keys).union(listener.fd >= 0 ? [listener.fd] : []) }
    /// Called when commands arrived (take them with `takeRequests()`).
    public var onRequests: (() -> Void)?
    /// Connected clients.
    public var clientCount: Int { clients.count }
    public let limits: Limits

    private let listener: UnixListener
    /// Where the listening socket and the clients are watched (nil once closed).
    private weak var watcher: DescriptorWatching?
    /// The watcher made for a server without a loop.
    private let ownPoller: DescriptorPoller?
    /// Commands read and not yet taken.
    private var received: [ControlRequest] = []
    private var clients: [Int32: Client] = [:]
    private var fdOfClient: [ControlClientID: Int32] = [:]
    private var nextClient = 1
    private let logger: Logger

    /// Creates the socket at `path` (see `UnixListener` for how it is made safe), watched in
    /// `watcher` (nil: a `DescriptorPoller` of its own, driven by `handleEvents()`).
    public init(path: String, limits: Limits = Limits(), logger: Logger = Logger(label: "kiosk.control"),
                watcher: DescriptorWatching? = nil) throws {
        self.limits = limits
        self.logger = logger
        listener = try UnixListener(path: path)
        do {
            ownPoller = watcher == nil ? try DescriptorPoller() : nil
            let watcher = watcher ?? ownPoller!
            try watcher.watch(listener.fd, events: .readable) { [unowned self] _ in self.acceptAll() }
            self.watcher = watcher
        } catch var e as SystemCallError {
            listener.close()
            e.subject = path
            throw e
        }
        logger.info("control socket listening on \(path)")
    }

    deinit { close() }

    /// Disconnects every client, closes the socket and removes its file.
    public func close() {
        for c in Array(clients.values) { drop(c, reason: nil) }
        if listener.fd >= 0 {
            watcher?.unwatch(listener.fd)
            listener.close()
        }
        watcher = nil
    }

    /// The commands received since the last call, in order.
    public func takeRequests() -> [ControlRequest] {
        defer { received.removeAll() }
        return received
    }

    /// Without a loop: does all pending socket work without blocking; returns the commands
    /// received, in order.
    public func handleEvents() -> [ControlRequest] {
        try? ownPoller?.dispatchReady(timeout: 0)
        return takeRequests()
    }

    /// A client's descriptor is ready: read, write, or drop it.
    private func clientReady(_ c: Client, _ events: Epoll.Events) {
        let fd = c.fd
        guard clients[fd] === c else { return }
        var requests: [ControlRequest] = []
        if !events.isDisjoint(with: [.readable, .hangUp, .error]) && !c.readClosed {
            requests = read(c)
        }
        if clients[fd] === c {
            if events.contains(.writable) { flush(c) }
            if clients[fd] === c && events.contains(.error) { drop(c, reason: "socket error") }
            // Both directions are shut: the peer is gone, nobody can read a reply (and the
            // hang-up would keep the descriptor readable forever).
            if clients[fd] === c && events.contains(.hangUp) { drop(c, reason: nil) }
        }
        guard !requests.isEmpty else { return }
        received += requests
        onRequests?()
    }

    /// Sends the loop's answer to a request (dropped silently if the client has gone), after the
    /// replies to that client's earlier lines. Every request should get exactly one reply: the
    /// replies to later lines wait for it, and a client that closed its writing side is kept
    /// until its last request is answered.
    public func reply(to request: ControlRequest, _ reply: ControlReply) {
        guard let fd = fdOfClient[request.client], let c = clients[fd] else { return }
        let line = reply.line(command: request.command.name, requestID: request.requestID)
        enqueue(c.replies.answer(request.replyPlace, with: line), to: c)
    }

    /// Sends one line (an event) to every client.
    public func broadcast(_ line: String) {
        for c in Array(clients.values) { enqueue([line], to: c) }
    }

    /// Sends one line to one client.
    public func send(_ line: String, to id: ControlClientID) {
        guard let fd = fdOfClient[id], let c = clients[fd] else { return }
        enqueue([line], to: c)
    }

    // MARK: - Connections

    private func acceptAll() {
        while let fd = listener.accept() {
            if clients.count >= limits.maxClients {
                let line = ControlReply.error("too many control clients (\(limits.maxClients))").line(command: nil, requestID: nil) + "\n"
                _ = line.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
                Glibc.close(fd)
                logger.warning("control: refused a connection: already \(limits.maxClients) clients")
                continue
            }
            let c = Client(id: ControlClientID(value: nextClient), fd: fd, loggedRefusals: limits.loggedRefusalsPerClient)
            nextClient += 1
            clients[fd] = c
            fdOfClient[c.id] = fd
            do {
                try watcher?.watch(fd, events: .readable) { [unowned self, unowned c] events in self.clientReady(c, events) }
            } catch {
                drop(c, reason: "\(error)")
                continue
            }
            logger.debug("control: \(c.id) connected")
        }
    }

    private func drop(_ c: Client, reason: String?) {
        guard clients[c.fd] === c else { return }
        let refusals = c.refusalLog.summary.map { "; \($0)" } ?? ""
        if let reason {
            logger.warning("control: dropped \(c.id): \(reason)\(refusals)")
        } else if !refusals.isEmpty {
            logger.info("control: \(c.id) disconnected\(refusals)")
        } else {
            logger.debug("control: \(c.id) disconnected")
        }
        watcher?.unwatch(c.fd)
        Glibc.close(c.fd)
        clients[c.fd] = nil
        fdOfClient[c.id] = nil
    }

    // MARK: - Reading

    private func read(_ c: Client) -> [ControlRequest] {
        var requests: [ControlRequest] = []
        var budget = limits.readBudget
        var chunk = [UInt8](repeating: 0, count: 8192)
        while budget > 0 {
            let want = min(chunk.count, budget)
            let n = chunk.withUnsafeMutableBytes { buf in retryingOnEINTR { recv(c.fd, buf.baseAddress, want, Int32(MSG_DONTWAIT)) } }
            if n > 0 {
                budget -= n
                requests += consume(chunk[0..<n], from: c)
                if clients[c.fd] !== c { return requests }
                continue
            }
            if n == 0 {
                // End of the client's writing: a last line without newline still counts.
                c.readClosed = true
                if !c.input.isEmpty && !c.discardingLongLine { requests += handleLine(c.input, from: c) }
                c.input.removeAll()
                if clients[c.fd] === c { finishOrUpdateInterest(c) }
                return requests
            }
            if errno == EAGAIN || errno == EWOULDBLOCK { break }
            // A client that hangs up with event lines still unread resets the connection:
            // an ordinary goodbye, not a warning (each `control-client.py` call did this).
            drop(c, reason: errno == ECONNRESET ? nil : errnoMessage("recv"))
            return requests
        }
        return requests
    }

    private func consume(_ bytes: ArraySlice<UInt8>, from c: Client) -> [ControlRequest] {
        var requests: [ControlRequest] = []
        var rest = bytes
        while let nl = rest.firstIndex(of: UInt8(ascii: "\n")) {
            let piece = rest[rest.startIndex..<nl]
            rest = rest[(nl + 1)...]
            if c.discardingLongLine {
                c.discardingLongLine = false
                c.input.removeAll()
                continue
            }
            if tooLong(c.input.count + piece.count, last: piece.last ?? c.input.last) {
                c.input.removeAll()
                refuseLongLine(c)
                continue
            }
            c.input += piece
            let line = c.input
            c.input.removeAll(keepingCapacity: true)
            requests += handleLine(line, from: c)
            if clients[c.fd] !== c { return requests }
        }
        if c.discardingLongLine { return requests }
        c.input += rest
        if tooLong(c.input.count, last: c.input.last) {
            c.input.removeAll()
            c.discardingLongLine = true
            refuseLongLine(c)
        }
        return requests
    }

    /// A line of `count` bytes ending in `last` is over `maxLineBytes`; a trailing `\r` belongs
    /// to the line's end (`\r\n`) and is not counted.
    private func tooLong(_ count: Int, last: UInt8?) -> Bool {
        count - (last == UInt8(ascii: "\r") ? 1 : 0) > limits.maxLineBytes
    }

    private func refuseLongLine(_ c: Client) {
        refuse(ControlCommandError(message: "line longer than \(limits.maxLineBytes) bytes; ignored"), from: c)
    }

    /// Answers a refused line in its turn among the client's replies, and logs it while the
    /// client's log budget lasts.
    private func refuse(_ refusal: ControlCommandError, from c: Client) {
        if let line = c.refusalLog.logLine(refusal.message, client: c.id) { logger.info("\(line)") }
        let reply = ControlLineReader.replyLine(for: refusal)
        if wouldOverflow(c, adding: [reply]) { return }
        enqueue(c.replies.answerNow(reply), to: c)
    }

    private func handleLine(_ raw: [UInt8], from c: Client) -> [ControlRequest] {
        switch ControlLineReader.read(raw) {
        case .blank:
            return []
        case .command(let parsed):
            return [ControlRequest(client: c.id, command: parsed.command, requestID: parsed.requestID,
                                   replyPlace: c.replies.reserve())]
        case .refused(let e):
            refuse(e, from: c)
            return []
        }
    }

    // MARK: - Writing

    /// True, after dropping the client, when `lines` would take its unsent output (held replies
    /// included) past `maxQueuedBytes`.
    private func wouldOverflow(_ c: Client, adding lines: [String]) -> Bool {
        let adding = lines.reduce(0) { $0 + $1.utf8.count + 1 }
        guard c.output.count + c.replies.heldBytes + adding > limits.maxQueuedBytes else { return false }
        drop(c, reason: "not reading (more than \(limits.maxQueuedBytes) bytes waiting)")
        return true
    }

    /// Queues `lines` (in order, each with its newline) and sends what the socket takes now.
    private func enqueue(_ lines: [String], to c: Client) {
        guard clients[c.fd] === c, !lines.isEmpty, !wouldOverflow(c, adding: lines) else { return }
        for line in lines {
            c.output += line.utf8
            c.output.append(UInt8(ascii: "\n"))
        }
        flush(c)
    }

    private func flush(_ c: Client) {
        while !c.output.isEmpty {
            let n = c.output.withUnsafeBytes { buf in
                retryingOnEINTR { Glibc.send(c.fd, buf.baseAddress, buf.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
            }
            if n > 0 {
                c.output.removeFirst(n)
                continue
            }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            let gone = n < 0 && (errno == ECONNRESET || errno == EPIPE)
            drop(c, reason: gone ? nil : n < 0 ? errnoMessage("send") : "send returned 0")
            return
        }
        finishOrUpdateInterest(c)
    }

    /// Closes a half-closed client with nothing left to say, or registers the events it needs:
    /// reading until it ends its writing, writing while output waits.
    private func finishOrUpdateInterest(_ c: Client) {
        if c.readClosed && c.output.isEmpty && !c.replies.isWaiting {
            drop(c, reason: nil)
            return
        }
        var wanted: Epoll.Events = []
        if !c.readClosed { wanted.insert(.readable) }
        if !c.output.isEmpty { wanted.insert(.writable) }
        if wanted != c.interest {
            c.interest = wanted
            do { try watcher?.modify(c.fd, events: wanted) } catch { drop(c, reason: "\(error)") }
        }
    }
}
