import Foundation
import Glibc
import LinuxSystem

/// A program the updater runs (`curl`, `rauc`, `openssl`, `tar`, `systemctl`) and waits for:
/// no shell, its output read whole (both pipes drained at once, so a chatty child cannot block).
struct ChildProcess {
    /// The program's exit status (128 + N when a signal N ended it), stdout and stderr.
    struct Result {
        var status: Int32
        var output: String
        var errors: String
        /// Why `stopWhen` ended it; nil when it ended by itself.
        var stopped: String?
        /// stdout and stderr, trimmed, joined: what a message quotes.
        var said: String {
            [output, errors].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }.joined(separator: "\n")
        }
    }

    /// Runs `argv` (its first element a path, or a name looked up in PATH) and waits, its stdin
    /// /dev/null, both outputs read through pipes as they come (a chatty child cannot block).
    /// `stopWhen` is asked about five times a second while it runs: a reason ends the child
    /// and what it started (SIGKILL to its process group: a child started by a process that
    /// blocks SIGTERM for a signalfd inherits the block).
    ///
    /// `posix_spawn` and `poll`, not Foundation's `Process`: that one's run loop wants a wakeup
    /// socket pair that the USB import unit's sandbox (`RestrictAddressFamilies=AF_UNIX`,
    /// `PrivateNetwork=`) does not give it, and then spins ("Could not create wakeup socket
    /// pair for CFSocket"): a stick's update bundle stayed at "Checking the update…".
    static func run(_ argv: [String], environment: [String: String]? = nil, stopWhen: (() -> String?)? = nil) throws -> Result {
        guard let first = argv.first else { throw ProcessSpawner.Failure(description: "empty argv") }
        // Close-on-exec (Glibc's module has no pipe2): the child gets them as 1 and 2 only.
        func closeOnExecPipe() throws -> [Int32] {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw SystemCallError(call: "pipe", subject: first) }
            ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
            return ends
        }
        let out = try closeOnExecPipe()
        let err: [Int32]
        do { err = try closeOnExecPipe() } catch { out.forEach { close($0) }; throw error }
        let pid: pid_t
        do {
            pid = try ProcessSpawner.spawn(argv: argv, environment: environment ?? ProcessInfo.processInfo.environment,
                                           workingDirectory: nil, stdio: (out[1], err[1]))
        } catch {
            (out + err).forEach { close($0) }
            throw error
        }
        close(out[1]); close(err[1])
        var fds = [pollfd(fd: out[0], events: Int16(POLLIN), revents: 0), pollfd(fd: err[0], events: Int16(POLLIN), revents: 0)]
        var collected: [[UInt8]] = [[], []]
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var stopped: String?
        var nextAsk = 0.0
        while fds.contains(where: { $0.fd >= 0 }) {
            let ready = poll(&fds, nfds_t(fds.count), 200)
            if ready < 0, errno != EINTR { break }
            for i in fds.indices where fds[i].fd >= 0 && fds[i].revents != 0 {
                let got = buffer.withUnsafeMutableBytes { read(fds[i].fd, $0.baseAddress, $0.count) }
                if got > 0 {
                    collected[i] += buffer[0..<got]
                } else if got == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(fds[i].fd)
                    fds[i].fd = -1
                }
            }
            // Asked on a 200 ms clock, not at every read: what it measures (a growing file, a
            // deadline) changes with time, and a chatty child must not make it run hot.
            // Not once both outputs have ended: the child is done (or nearly), nothing to stop.
            let now = Self.monotonicSeconds()
            if stopped == nil, now >= nextAsk, fds.contains(where: { $0.fd >= 0 }), let reason = stopWhen?() {
                stopped = reason
                kill(-pid, SIGKILL)
            }
            if now >= nextAsk { nextAsk = now + 0.2 }
        }
        fds.filter { $0.fd >= 0 }.forEach { close($0.fd) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw SystemCallError(call: "waitpid", subject: first) }
        }
        let signal = status & 0x7f
        return Result(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
                      output: String(decoding: collected[0], as: UTF8.self), errors: String(decoding: collected[1], as: UTF8.self),
                      stopped: stopped)
    }

    private static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
