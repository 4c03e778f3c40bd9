import Foundation
import Glibc
import LinuxSystem

/// A program `usb-import` runs and waits for (blkid, systemd-run, systemctl) without
/// Foundation's `Process`, whose run loop needs a socket pair that the import unit's sandbox
/// does not give it ("Could not create wakeup socket pair for CFSocket", then a spin: found by
/// `Tests/vm/usb-stick.sh`): `posix_spawn` with stdin from /dev/null and stdout and stderr into
/// two files in `scratch`, then `waitpid`.
enum StickCommand {
    /// Runs `argv` (its first element a path, or a name looked up in PATH); returns its exit
    /// status (128 + N after signal N), stdout and stderr.
    static func run(_ argv: [String], scratch: String) throws -> ChildProcess.Result {
        let program = try ProcessSpawner.resolve(argv[0], path: ProcessInfo.processInfo.environment["PATH"])
        mkdir(scratch, 0o700)
        let base = "\(scratch)/command-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        let out = base + ".out", err = base + ".err"
        defer { unlink(out); unlink(err) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)   // not the signals this process blocks for its signalfd
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK))
        let cArgv = argv.map { strdup($0) } + [nil]
        defer { cArgv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = cArgv.withUnsafeBufferPointer { posix_spawn(&pid, program, &actions, &attr, $0.baseAddress!, environ) }
        guard rc == 0 else { throw SystemCallError(call: "posix_spawn", errno: rc, subject: program) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw SystemCallError(call: "waitpid", subject: program) }
        }
        let exited = status & 0x7f == 0
        let code = exited ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return ChildProcess.Result(status: code, output: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                                   errors: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "", stopped: nil)
    }
}
