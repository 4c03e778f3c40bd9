import Foundation
import Glibc
import LinuxSystem

/// How `usb-import` runs a program that parses a stick's bytes (mtools) without privilege: a
/// transient unit of its own (`systemd-run`), as an unprivileged dynamic user with no
/// capabilities, no network, `@system-service` system calls, the one device readable and, for a
/// copy, one folder writable, ended after a time limit (docs/usb.md, "Reading FAT without a
/// kernel mount"). The unit runs in PID 1's namespaces, not in the import's private mount
/// namespace: the device and the folder are the real ones. Not `systemd-run --wait --pipe`: that
/// needs the D-Bus system bus, which a kiosk need not have; the unit stays after its end
/// (`RemainAfterExit=`), its output goes to files, and its end is read with `systemctl show`,
/// both over systemd's own socket.
public struct StickSandbox: Sendable {
    /// The group the sandboxed reader runs in (besides its dynamic one): the device node and the
    /// staging folder are given to it for the time of the read (the package's sysusers makes it).
    public static let group = "kiosk-carousel-stick"
    /// `systemd-run` and `systemctl`.
    public var systemdRun = "systemd-run", systemctl = "systemctl"
    /// Where the units' output files go (the import unit's runtime folder).
    public var outputFolder = "/run/kiosk-carousel-usb"

    public init() {}

    /// Why a sandboxed program could not be run or did not end.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `program` (absolute) with `arguments` in a transient unit `unit` (`….service`):
    /// `device` readable, `writable` (if any) writable, at most `seconds` long; `whileRunning` is
    /// called between the looks at its state (about 5 times a second). Returns its exit status
    /// (128 + N after signal N, 124 when it ran out of time), stdout and stderr.
    func run(unit: String, program: String, arguments: [String], device: String, writable: String?,
             seconds: Int, whileRunning: (() -> Void)? = nil) throws(Failure) -> ChildProcess.Result {
        mkdir(outputFolder, 0o700)
        let out = "\(outputFolder)/\(unit).out", err = "\(outputFolder)/\(unit).err"
        defer {
            unlink(out); unlink(err)
            // A unit that ended stays loaded (RemainAfterExit=): stopped and forgotten.
            _ = try? ChildProcess.run([systemctl, "stop", unit])
            _ = try? ChildProcess.run([systemctl, "reset-failed", unit])
        }
        let argv = command(unit: unit, program: program, arguments: arguments, device: device, writable: writable,
                           seconds: seconds, output: (out, err))
        let started: ChildProcess.Result
        do { started = try ChildProcess.run(argv) } catch { throw Failure(description: "\(systemdRun) could not be started: \(error)") }
        guard started.status == 0 else {
            throw Failure(description: "\(systemdRun) \(unit) (exit status \(started.status)): \(started.said)")
        }
        // Its end: SubState exited (RemainAfterExit=), failed or dead. A little longer than its
        // own limit, for systemd to end it.
        let deadline = MonotonicClock.now() + Double(seconds) + 30
        var state: [String: String] = [:]
        while true {
            if let shown = try? ChildProcess.run([systemctl, "show", unit, "-p", "SubState", "-p", "Result",
                                                   "-p", "ExecMainCode", "-p", "ExecMainStatus"]) {
                state = Dictionary(shown.output.split(separator: "\n").compactMap { line in
                    line.firstIndex(of: "=").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) }
                }, uniquingKeysWith: { a, _ in a })
            }
            if ["exited", "failed", "dead"].contains(state["SubState"] ?? "") { break }
            whileRunning?()
            if MonotonicClock.now() > deadline {
                throw Failure(description: "\(unit) did not end within \(seconds + 30) s (state: \(state["SubState"] ?? "unknown"))")
            }
            usleep(200_000)
        }
        let output = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        let code = Int32(state["ExecMainCode"] ?? "") ?? 0, number = Int32(state["ExecMainStatus"] ?? "") ?? -1
        // CLD_EXITED (1): the status; else the signal; out of time: 124, as timeout(1) says.
        let status: Int32 = state["Result"] == "timeout" ? 124 : code == 1 ? number : 128 + number
        return ChildProcess.Result(status: status, output: output, errors: errors, stopped: nil)
    }

    /// The `systemd-run` command line of `run`.
    func command(unit: String, program: String, arguments: [String], device: String, writable: String?,
                 seconds: Int, output: (String, String)) -> [String] {
        var properties = [
            // Only what this unit needs (the import runs after the boot anyway), also under a
            // systemd that was not booted with the whole system (the VM tests').
            "DefaultDependencies=no", "RemainAfterExit=yes",
            "StandardOutput=truncate:\(output.0)", "StandardError=truncate:\(output.1)",
            "DynamicUser=yes", "SupplementaryGroups=\(Self.group)",
            "DevicePolicy=closed", "DeviceAllow=\(device) r",
            "PrivateNetwork=yes", "IPAddressDeny=any", "RestrictAddressFamilies=AF_UNIX",
            "SystemCallFilter=@system-service", "SystemCallErrorNumber=EPERM", "SystemCallArchitectures=native",
            "CapabilityBoundingSet=", "AmbientCapabilities=", "NoNewPrivileges=yes",
            "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes", "PrivateIPC=yes",
            "ProtectKernelTunables=yes", "ProtectKernelModules=yes", "ProtectKernelLogs=yes",
            "ProtectControlGroups=yes", "ProtectHostname=yes", "ProtectClock=yes", "ProtectProc=invisible",
            "RestrictNamespaces=yes", "RestrictRealtime=yes", "RestrictSUIDSGID=yes", "LockPersonality=yes",
            "MemoryDenyWriteExecute=yes", "UMask=0022", "RuntimeMaxSec=\(seconds)",
        ]
        if let writable { properties.append("ReadWritePaths=\(writable)") }
        return [systemdRun, "--quiet", "--unit=\(unit)", "--service-type=exec",
                "--description=KioskCarousel: reading the USB stick \(device)"]
            + properties.map { "--property=\($0)" }
            // Names as UTF-8 (mtools converts the stick's UTF-16 long names to the locale's set).
            + ["--setenv=LC_ALL=C.UTF-8", "--setenv=MTOOLS_SKIP_CHECK=1", "--", program] + arguments
    }

    /// The sandbox group's id; nil when the group does not exist.
    public static func groupID() -> gid_t? {
        guard let entry = getgrnam(group) else { return nil }
        return entry.pointee.gr_gid
    }
}
