/// Turns one line a control client sent (the bytes before its newline) into a checked command
/// or the reason it is refused. Pure: `ControlServer` uses it for every line it reads, the soak
/// for the lines it makes up, so both see exactly the same verdicts.
public enum ControlLineReader {
    /// What a line amounts to.
    public enum Outcome: Equatable, Sendable {
        /// Only blanks (or nothing): ignored, no reply.
        case blank
        /// A well-formed command.
        case command(ControlLine)
        /// Refused; the client gets `ControlReply.error(message)` and nothing changes.
        case refused(ControlCommandError)
    }

    /// Reads `raw` (a trailing `\r` is dropped): not UTF-8, not JSON, or not a valid command are
    /// refusals with a message for the client.
    public static func read(_ raw: [UInt8]) -> Outcome {
        var bytes = raw[...]
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .blank }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .refused(ControlCommandError(message: "line is not valid UTF-8"))
        }
        switch ControlCommandParser.parse(text) {
        case .success(let line): return .command(line)
        case .failure(let e): return .refused(e)
        }
    }

    /// The error reply line for a refusal (without the newline).
    public static func replyLine(for refusal: ControlCommandError) -> String {
        ControlReply.error(refusal.message).line(command: refusal.command, requestID: refusal.requestID)
    }
}
