import Foundation
import Glibc
import KioskConfig
import LinuxSystem
import XCTest
@testable import Kiosk

/// Records the foreground hand-over calls in order.
private final class HandOverRecorder: ActionRunnerDelegate {
    var calls: [String] = []
    var refuse = false
    struct Refused: Error {}
    func actionRunnerWillStartForeground(_ runner: ActionRunner) throws {
        calls.append("release")
        if refuse { throw Refused() }
    }
    func actionRunnerDidEndForeground(_ runner: ActionRunner) { calls.append("reclaim") }
}

final class ActionRunnerTests: XCTestCase {
    private var recorder = HandOverRecorder()

    private func makeRunner(env: [String: String] = [:], cwd: String? = nil, inherit: Bool = true,
                            grace: Double = 0.2) -> ActionRunner {
        var settings = ActionSettings()
        settings.env = env
        settings.inheritEnvironment = inherit
        settings.workingDirectory = cwd
        let runner = ActionRunner(settings: settings,
                                  baseEnvironment: ["PATH": "/usr/bin:/bin", "NOTIFY_SOCKET": "/run/x", "HOME": "/root"],
                                  terminationGrace: grace)
        recorder = HandOverRecorder()
        runner.delegate = recorder
        return runner
    }

    /// Drives the runner as the loop would (timeouts and SIGCHLD) until no child is left.
    private func drain(_ runner: ActionRunner, limit: Double = 5) -> [ActionEvent] {
        var events: [ActionEvent] = []
        let end = monotonicNow() + limit
        while (!runner.runningPIDs.isEmpty || runner.isForegroundActive) && monotonicNow() < end {
            let now = monotonicNow()
            events += runner.update(now: now)
            events += runner.reapChildren(now: now)
            usleep(5_000)
        }
        XCTAssertTrue(runner.runningPIDs.isEmpty, "children still running after \(limit) s")
        return events
    }

    private func exec(_ argv: [String], mode: ItemAction.ExecMode = .background, timeout: Double? = nil,
                      cwd: String? = nil, env: [String: String] = [:]) -> ActionRequest {
        .exec(ExecSpec(argv: argv, mode: mode, timeout: timeout, workingDirectory: cwd, environment: env))
    }

    private func exitTermination(_ events: [ActionEvent]) -> (Termination, Bool)? {
        for e in events { if case .exited(_, let t, _, let timedOut) = e.kind { return (t, timedOut) } }
        return nil
    }

    func testTrueExitsZero() {
        let runner = makeRunner()
        let started = runner.perform(exec(["/bin/true"]), index: 2, id: "t", now: monotonicNow())
        XCTAssertEqual(started.map(\.name), ["action_started"])
        let events = drain(runner)
        XCTAssertEqual(events.map(\.name), ["action_exited"])
        XCTAssertEqual(exitTermination(events)?.0, .exited(code: 0))
        XCTAssertEqual(events[0].index, 2)
        XCTAssertEqual(events[0].id, "t")
    }

    /// A program item runs without a shell (docs/security.md, "The kiosk builder's config"):
    /// `;`, `$(…)`, `|`, `>` and globs in the arguments reach the program as they are written.
    func testArgumentsAreNotInterpretedByAShell() throws {
        let folder = NSTemporaryDirectory() + "no-shell-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        XCTAssertEqual(mkdir(folder, 0o700), 0)
        defer { _ = try? FileManager.default.removeItem(atPath: folder) }
        let runner = makeRunner(cwd: folder)
        let words = ["a; touch semicolon", "$(touch substituted)", "`touch backquoted`", "| touch piped", "> redirected", "*"]
        _ = runner.perform(exec(["/usr/bin/touch", "--"] + words), index: 0, id: "literal", now: monotonicNow())
        XCTAssertEqual(exitTermination(drain(runner))?.0, .exited(code: 0))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), words.sorted(),
                       "each argument is one file name, nothing else was run")
    }

    func testExitStatusIsReported() {
        let runner = makeRunner()
        _ = runner.perform(exec(["/bin/sh", "-c", "exit 3"]), index: 0, id: "three", now: monotonicNow())
        let events = drain(runner)
        XCTAssertEqual(exitTermination(events)?.0, .exited(code: 3))
        let fields = Dictionary(uniqueKeysWithValues: events[0].fields)
        XCTAssertEqual(fields["status"], "3")
        XCTAssertEqual(fields["id"], "\"three\"")
        XCTAssertEqual(fields["timed_out"], "false")
        XCTAssertNil(fields["signal"])
    }

    func testProgramFoundThroughPATH() {
        let runner = makeRunner()
        _ = runner.perform(exec(["sh", "-c", "exit 4"]), index: 0, id: "p", now: monotonicNow())
        XCTAssertEqual(exitTermination(drain(runner))?.0, .exited(code: 4))
    }

    func testTimeoutSendsTERM() {
        let runner = makeRunner()
        let t0 = monotonicNow()
        _ = runner.perform(exec(["/bin/sleep", "10"], timeout: 0.1), index: 1, id: "slow", now: t0)
        XCTAssertEqual(runner.nextDeadline!, t0 + 0.1, accuracy: 1e-9)
        let events = drain(runner)
        XCTAssertEqual(events.map(\.name), ["action_timeout", "action_exited"])
        XCTAssertEqual(events[0].kind, .timeout(pid: runner.lastPID(events), signal: SIGTERM))
        let (t, timedOut) = exitTermination(events)!
        XCTAssertEqual(t, .signaled(signal: SIGTERM))
        XCTAssertTrue(timedOut)
        XCTAssertLessThan(monotonicNow() - t0, 2)
    }

    func testChildIgnoringTERMIsKilled() throws {
        let runner = makeRunner(grace: 0.2)
        // The shell ignores TERM and execs sleep, which inherits the ignored disposition.
        let ready = try temporaryDirectory() + "/ready"
        _ = runner.perform(exec(["/bin/sh", "-c", "trap '' TERM; : > \(ready); exec /bin/sleep 10"], timeout: 0.1),
                           index: 0, id: "stubborn", now: monotonicNow())
        waitForFile(ready)
        let events = drain(runner)
        XCTAssertEqual(events.map(\.name), ["action_timeout", "action_timeout", "action_exited"])
        if case .timeout(_, let s) = events[1].kind { XCTAssertEqual(s, SIGKILL) } else { XCTFail() }
        XCTAssertEqual(exitTermination(events)?.0, .signaled(signal: SIGKILL))
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: events[2].fields)["signal"], "\"SIGKILL\"")
    }

    func testTimeoutEndsTheWholeProcessGroup() throws {
        let dir = try temporaryDirectory()
        let marker = dir + "/grandchild.pid"
        let runner = makeRunner()
        _ = runner.perform(exec(["/bin/sh", "-c", "/bin/sleep 10 & echo $! > \(marker); wait"], timeout: 0.2),
                           index: 0, id: "group", now: monotonicNow())
        _ = drain(runner)
        let pid = pid_t(try String(contentsOfFile: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))!
        usleep(50_000)
        // The grandchild got SIGTERM too (it is a zombie or gone, never still sleeping).
        let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        XCTAssertFalse(state.contains(") S "), "grandchild still running: \(state)")
    }

    func testMissingBinaryFailsWithoutChild() {
        let runner = makeRunner()
        let events = runner.perform(exec(["/nonexistent/program"], mode: .foreground), index: 5, id: "nope", now: 1)
        XCTAssertEqual(events.map(\.name), ["action_failed"])
        if case .failed(let message) = events[0].kind {
            XCTAssertTrue(message.contains("/nonexistent/program"), message)
            XCTAssertTrue(message.contains("No such file"), message)
        } else { XCTFail() }
        XCTAssertTrue(runner.runningPIDs.isEmpty)
        XCTAssertEqual(recorder.calls, ["release", "reclaim"], "the screen must come back after a failed start")
        XCTAssertFalse(runner.isForegroundActive)
    }

    func testMissingProgramInPATH() {
        let runner = makeRunner()
        let events = runner.perform(exec(["no-such-program-xyz"]), index: 0, id: "x", now: 0)
        XCTAssertEqual(events.map(\.name), ["action_failed"])
    }

    func testForegroundHandOverAndIgnoredSelections() {
        let runner = makeRunner()
        let events = runner.perform(exec(["/bin/sh", "-c", "exit 0"], mode: .foreground), index: 0, id: "fg", now: monotonicNow())
        XCTAssertEqual(events.map(\.name), ["action_started"])
        XCTAssertEqual(recorder.calls, ["release"])
        XCTAssertTrue(runner.isForegroundActive)
        // While it runs, every other selection is ignored.
        XCTAssertEqual(runner.perform(ActionRequest.emit("x"), index: 1, id: "e", now: monotonicNow()), [])
        XCTAssertEqual(runner.perform(exec(["/bin/true"], mode: .background), index: 2, id: "b", now: monotonicNow()), [])
        _ = drain(runner)
        XCTAssertEqual(recorder.calls, ["release", "reclaim"])
        XCTAssertFalse(runner.isForegroundActive)
    }

    func testEndForegroundSendsTERMOnceAndTheScreenComesBack() {
        let runner = makeRunner()
        _ = runner.perform(exec(["/bin/sleep", "60"], mode: .foreground), index: 1, id: "game", now: monotonicNow())
        XCTAssertTrue(runner.isForegroundActive)
        let left = runner.endForeground(now: monotonicNow())
        XCTAssertEqual(left.map(\.name), ["action_left"])
        XCTAssertEqual(left.first.map { Dictionary(uniqueKeysWithValues: $0.fields)["id"] }, "\"game\"")
        XCTAssertEqual(runner.endForeground(now: monotonicNow()), [], "asked once: SIGKILL follows by the grace period")
        let events = drain(runner)
        XCTAssertEqual(exitTermination(events)?.0, .signaled(signal: SIGTERM))
        XCTAssertEqual(recorder.calls, ["release", "reclaim"])
        XCTAssertFalse(runner.isForegroundActive)
        XCTAssertEqual(runner.endForeground(now: monotonicNow()), [], "nothing runs")
    }

    func testForegroundLeftoversAreEndedBeforeTheScreenComesBack() throws {
        let runner = makeRunner(grace: 0.2)
        let ready = try temporaryDirectory() + "/ready"
        // The program exits at once but leaves a process in its group that ignores SIGTERM
        // (as a browser's helper that keeps the screen).
        let script = "(trap '' TERM; : > \(ready); exec /bin/sleep 10) & while [ ! -e \(ready) ]; do :; done; exit 0"
        _ = runner.perform(exec(["/bin/sh", "-c", script], mode: .foreground), index: 0, id: "fg", now: monotonicNow())
        var events: [ActionEvent] = []
        let end = monotonicNow() + 5
        while events.isEmpty && monotonicNow() < end {
            events += runner.reapChildren(now: monotonicNow())
            usleep(5_000)
        }
        XCTAssertEqual(events.map(\.name), ["action_exited", "action_leftovers"])
        XCTAssertTrue(runner.isForegroundActive, "the screen stays with the leftovers")
        XCTAssertEqual(recorder.calls, ["release"])
        events = drain(runner)
        XCTAssertEqual(events.map(\.name), ["action_leftovers"])
        if case .leftovers(_, let s) = events.first?.kind { XCTAssertEqual(s, SIGKILL) } else { XCTFail() }
        XCTAssertEqual(recorder.calls, ["release", "reclaim"])
        XCTAssertFalse(runner.isForegroundActive)
    }

    func testCrashIsReportedWithItsSignal() {
        let runner = makeRunner()
        _ = runner.perform(exec(["/bin/sh", "-c", "kill -SEGV $$"]), index: 0, id: "crash", now: monotonicNow())
        let events = drain(runner)
        XCTAssertEqual(exitTermination(events)?.0, .signaled(signal: SIGSEGV))
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: events[0].fields)["signal"], "\"SIGSEGV\"")
    }

    func testRefusedHandOverDoesNotSpawn() {
        let runner = makeRunner()
        recorder.refuse = true
        let events = runner.perform(exec(["/bin/true"], mode: .foreground), index: 0, id: "fg", now: 0)
        XCTAssertEqual(events.map(\.name), ["action_failed"])
        XCTAssertTrue(runner.runningPIDs.isEmpty)
        XCTAssertEqual(recorder.calls, ["release", "reclaim"])
    }

    func testBackgroundDoesNotTouchTheScreenAndRepeatIsIgnored() {
        let runner = makeRunner()
        let now = monotonicNow()
        XCTAssertEqual(runner.perform(exec(["/bin/sleep", "0.1"]), index: 3, id: "bg", now: now).map(\.name), ["action_started"])
        XCTAssertEqual(runner.perform(exec(["/bin/sleep", "0.1"]), index: 3, id: "bg", now: now), [], "same item twice")
        XCTAssertEqual(runner.perform(exec(["/bin/true"]), index: 4, id: "other", now: now).map(\.name), ["action_started"])
        XCTAssertEqual(drain(runner).count, 2)
        XCTAssertEqual(recorder.calls, [])
    }

    func testEnvironmentAndWorkingDirectory() throws {
        let dir = try temporaryDirectory()
        let runner = makeRunner(env: ["FOO": "bar", "HOME": ""], cwd: "/")
        let script = """
            test "$FOO" = bar || exit 10
            test "$PER_ACTION" = yes || exit 11
            test -z "${NOTIFY_SOCKET+set}" || exit 12
            test -z "${HOME+set}" || exit 13
            test "$KIOSK_ITEM_INDEX" = 7 || exit 14
            test "$KIOSK_ITEM_ID" = envtest || exit 15
            test "$(pwd -P)" = "$(cd \(dir) && pwd -P)" || exit 16
            exit 0
            """
        _ = runner.perform(exec(["/bin/sh", "-c", script], cwd: dir, env: ["PER_ACTION": "yes"]), index: 7, id: "envtest", now: monotonicNow())
        XCTAssertEqual(exitTermination(drain(runner))?.0, .exited(code: 0))
    }

    /// Issue 27 §14: an action's own `env`, written in the config, reaches the program over
    /// `[actions.env]` (and `""` removes a variable).
    func testAnActionsOwnEnvFromTheConfigIsMergedOverActionsEnv() throws {
        let dir = try temporaryDirectory()
        let path = dir + "/config.toml"
        let script = "test \\\"$FOO\\\" = mine && test \\\"$KEEP\\\" = k && test -z \\\"${HOME+set}\\\""
        try """
            [actions.env]
            FOO = "global"
            KEEP = "k"
            [[item]]
            id = "e"
            action = { exec = ["/bin/sh", "-c", "\(script)"], mode = "background", env = { FOO = "mine", HOME = "" } }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: path)
        let runner = makeRunner(env: config.actions.env)
        let request = try XCTUnwrap(ActionRequest(config.items[0].action))
        _ = runner.perform(request, index: 0, id: "e", now: monotonicNow())
        XCTAssertEqual(exitTermination(drain(runner))?.0, .exited(code: 0))
    }

    func testEnvironmentWithoutInheritance() {
        let runner = makeRunner(env: ["ONLY": "this"], inherit: false)
        let script = "test -z \"${HOME+set}\" || exit 10; test \"$ONLY\" = this || exit 11; test \"$KIOSK_ITEM_ID\" = n || exit 12"
        _ = runner.perform(exec(["/bin/sh", "-c", script]), index: 0, id: "n", now: monotonicNow())
        XCTAssertEqual(exitTermination(drain(runner))?.0, .exited(code: 0))
        XCTAssertEqual(ActionEnvironment.merge(base: ["A": "1", "NOTIFY_SOCKET": "/x"], settings: ["B": "2", "A": ""], action: ["C": "3"],
                                               itemIndex: 4, itemID: "i"),
                       ["B": "2", "C": "3", "KIOSK_ITEM_INDEX": "4", "KIOSK_ITEM_ID": "i"])
    }

    func testDefaultWorkingDirectoryFromSettingsAndBadDirectory() throws {
        let dir = try temporaryDirectory()
        let runner = makeRunner(cwd: dir)
        _ = runner.perform(exec(["/bin/sh", "-c", "test \"$(pwd -P)\" = \"$(cd \(dir) && pwd -P)\""]), index: 0, id: "a", now: monotonicNow())
        XCTAssertEqual(exitTermination(drain(runner))?.0, .exited(code: 0))
        let failed = runner.perform(exec(["/bin/true"], cwd: dir + "/missing"), index: 1, id: "b", now: 0)
        XCTAssertEqual(failed.map(\.name), ["action_failed"])
    }

    func testChildGetsCleanSignalMaskAndNoInheritedDescriptors() throws {
        // The loop blocks TERM for its signalfd; a child must not inherit the block.
        var block = sigset_t(), old = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &block, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        let fd = open("/dev/null", O_RDONLY)  // no O_CLOEXEC on purpose
        defer { close(fd) }
        let runner = makeRunner(grace: 1)
        _ = runner.perform(exec(["/bin/sh", "-c", "test -e /proc/self/fd/\(fd) && exit 20; exit 0"]),
                           index: 0, id: "fds", now: monotonicNow())
        XCTAssertEqual(exitTermination(drain(runner))?.0, .exited(code: 0), "descriptor \(fd) leaked into the child")
        let ready = try temporaryDirectory() + "/ready"
        _ = runner.perform(exec(["/bin/sh", "-c", ": > \(ready); exec /bin/sleep 10"], timeout: 0.05),
                           index: 1, id: "mask", now: monotonicNow())
        waitForFile(ready)
        // With TERM blocked in the child, only the SIGKILL a second later would end it.
        XCTAssertEqual(exitTermination(drain(runner))?.0, .signaled(signal: SIGTERM))
    }

    func testEmitAndNone() {
        let runner = makeRunner()
        let events = runner.perform(ActionRequest.emit("door-open"), index: 1, id: "door", now: 2.5)
        XCTAssertEqual(events, [ActionEvent(time: 2.5, index: 1, id: "door", kind: .emitted(value: "door-open"))])
        XCTAssertEqual(events[0].name, "emitted")
        XCTAssertEqual(events[0].fields.map { "\($0.0)=\($0.1)" }, ["index=1", "id=\"door\"", "value=\"door-open\""])
        XCTAssertEqual(runner.perform(ItemAction.none, index: 0, id: "a", now: 0), [])
        XCTAssertEqual(runner.perform(ItemAction.emit("v"), index: 0, id: "a", now: 0).map(\.name), ["emitted"])
        XCTAssertEqual(ActionRequest(ItemAction.exec(argv: ["/bin/true"], mode: .background, timeout: 3, cwd: "/srv")),
                       .exec(ExecSpec(argv: ["/bin/true"], mode: .background, timeout: 3, workingDirectory: "/srv")))
    }

    func testTerminateAllAndKillAllAndWait() throws {
        let runner = makeRunner(grace: 0.1)
        let ready = try temporaryDirectory() + "/ready"
        _ = runner.perform(exec(["/bin/sh", "-c", "trap '' TERM; : > \(ready); exec /bin/sleep 10"], mode: .foreground),
                           index: 0, id: "fg", now: monotonicNow())
        waitForFile(ready)
        runner.terminateAll(now: monotonicNow())
        XCTAssertNotNil(runner.nextDeadline)
        let events = drain(runner)
        XCTAssertEqual(exitTermination(events)?.0, .signaled(signal: SIGKILL))
        XCTAssertEqual(recorder.calls, ["release", "reclaim"])

        _ = runner.perform(exec(["/bin/sleep", "10"]), index: 1, id: "bg", now: monotonicNow())
        let killed = runner.killAllAndWait(now: monotonicNow())
        XCTAssertEqual(exitTermination(killed)?.0, .signaled(signal: SIGKILL))
        XCTAssertTrue(runner.runningPIDs.isEmpty)
    }

    func testOtherChildrenAreNotReaped() {
        // A child the runner did not start must stay for its owner to reap.
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { argv.forEach { free($0) } }
        XCTAssertEqual(posix_spawn(&pid, "/bin/true", nil, nil, argv, environ), 0)
        usleep(50_000)
        let runner = makeRunner()
        XCTAssertEqual(runner.reapChildren(now: 0), [])
        var status: Int32 = 0
        XCTAssertEqual(waitpid(pid, &status, 0), pid)
    }

    func testTerminationDecoding() {
        XCTAssertEqual(Termination(waitStatus: 3 << 8), .exited(code: 3))
        XCTAssertEqual(Termination(waitStatus: SIGKILL), .signaled(signal: SIGKILL))
        XCTAssertEqual(Termination.signaled(signal: SIGTERM).description, "killed by signal 15 (SIGTERM)")
    }
}

extension ActionRunner {
    /// The pid in the first event that names one (test helper).
    func lastPID(_ events: [ActionEvent]) -> Int32 {
        for e in events {
            switch e.kind {
            case .timeout(let p, _), .exited(let p, _, _, _), .started(let p, _): return p
            default: continue
            }
        }
        return -1
    }
}

/// Waits (at most 5 s) until the file exists: a child's way to say it is ready.
func waitForFile(_ path: String) {
    let end = monotonicNow() + 5
    while access(path, F_OK) != 0 && monotonicNow() < end { usleep(2_000) }
    XCTAssertEqual(access(path, F_OK), 0, "\(path) never appeared")
}

/// A fresh, empty folder under /tmp, removed when the process ends.
func temporaryDirectory() throws -> String {
    var template = Array("/tmp/kiosk-test-XXXXXX".utf8CString)
    guard let p = mkdtemp(&template) else { throw SystemCallError(call: "mkdtemp") }
    return String(cString: p)
}
