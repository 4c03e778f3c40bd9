import Cards
import Display
import Foundation
import Glibc
import KioskConfig
import LinuxSystem
import Logging
import XCTest
@testable import Kiosk

/// Reloads for months (issue 27 §19: each reload of the example config kept 13.8 kB). A live
/// kiosk (`KioskApp.run`, headless) is reloaded the three ways a kiosk is, in turn, by a timer
/// on its own loop: `{"cmd":"reload"}` on its control socket, its config file rewritten
/// (inotify), and a `[[schedule]]` window opening or closing (its wall clock moved by 12 hours:
/// the shown items change as in a reload). RSS and the heap's bytes in use are sampled as it goes;
/// the slope of each over the reloads after warm-up (least squares) must stay under a bound a
/// leak of a few kB per reload exceeds. `make test` runs 300 reloads; `make soak`
/// (scripts/soak.sh) sets `KIOSK_SOAK_RELOADS=6000`.
final class ReloadSoakTests: XCTestCase {
    /// Bytes per reload, the least-squares slope of `samples` (reload count, bytes).
    static func slope(_ samples: [(x: Double, y: Double)]) -> Double {
        let n = Double(samples.count)
        let mx = samples.map(\.x).reduce(0, +) / n, my = samples.map(\.y).reduce(0, +) / n
        let sxy = samples.map { ($0.x - mx) * ($0.y - my) }.reduce(0, +)
        let sxx = samples.map { ($0.x - mx) * ($0.x - mx) }.reduce(0, +)
        return sxx > 0 ? sxy / sxx : 0
    }

    func testSlopeOfAGrowingSeries() {
        // A leak of 14 kB a reload under 0–600 kB of arena noise.
        let leak = (0..<100).map { (i: Int) -> (x: Double, y: Double) in
            let x = Double(i), noise = Double(i % 7) * 100_000
            return (x, 50e6 + 14_000 * x + noise)
        }
        XCTAssertEqual(Self.slope(leak), 14_000, accuracy: 2_000)
        XCTAssertEqual(Self.slope((0..<100).map { (x: Double($0), y: 50e6) }), 0)
    }

    func testReloadsByTheSocketAFileChangeAndTheScheduleKeepMemoryFlat() throws {
        let reloads = Int(ProcessInfo.processInfo.environment["KIOSK_SOAK_RELOADS"] ?? "") ?? 300
        let folder = NSTemporaryDirectory() + "reload-soak-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let path = folder + "/config.toml", socket = folder + "/control.sock"
        // The example config (its pictures where they are), a control socket, and two windows a
        // day: the morning shows two items, the afternoon all of them.
        let text = try String(contentsOfFile: root + "/config/example.toml", encoding: .utf8)
            .replacingOccurrences(of: "\"media/", with: "\"\(root)/config/media/")
            .replacingOccurrences(of: "backend = \"auto\"", with: "backend = \"headless\"")
            + "\n[control]\nsocket = \"\(socket)\"\n"
            + "[[schedule]]\nfrom = \"00:00\"\nto = \"12:00\"\nitems = [\"dawn\", \"lake\"]\n"
            + "[[schedule]]\nfrom = \"12:00\"\nto = \"24:00\"\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let clock = ManualWallClock(unixTime: 1_780_000_000, timeZone: TimeZone(identifier: "UTC")!)
        let app = try KioskApp(configPath: path, config: try ConfigLoader.load(path: path),
                               display: HeadlessDisplay(width: 320, height: 240, paced: true), inputs: [],
                               log: try EventLog(path: nil), logger: Logger(label: "soak"), exitAfter: 3600,
                               notifier: nil, scheduleClock: clock)
        let client = try SoakControlClient(path: socket)
        var soak = ReloadSoak(reloads: reloads)
        let timer = try TickTimer()
        timer.armRepeating(interval: 0.002)
        try app.reactor.watch(timer.fd) { [unowned app] in
            _ = timer.acknowledge()
            client.discardReceived()
            // Each rewrite differs (a comment with the count), as an edit does.
            let edited = text + "# \(soak.done)\n"
            if soak.step(app: app, client: client, rewrite: { try? edited.write(toFile: path, atomically: true, encoding: .utf8) },
                         clock: clock) { app.reactor.stop() }
        }
        XCTAssertEqual(try app.run(), 0)
        XCTAssertNil(soak.failure)
        XCTAssertEqual(soak.done, reloads, "the run ended early")
        XCTAssertEqual(soak.switches, reloads / 3, "every schedule step switched the shown items")
        XCTAssertEqual(app.behavior.configLoadErrors, 0)
        // Sampled every 10th reload after the warm-up: a run without samples would prove nothing.
        XCTAssertGreaterThanOrEqual(soak.rss.count, (reloads - soak.warmUp) / 10 - 1, "memory was not sampled")
        let rss = Self.slope(soak.rss), heap = Self.slope(soak.heap)
        let mb = { (b: Double) in String(format: "%.1f MB", b / 1_048_576) }
        print(String(format: "reload soak: %d reloads (socket, file, schedule) in %.0f s; RSS %@ -> %@, slope %.0f bytes/reload; heap in use slope %.0f bytes/reload",
                     reloads, soak.seconds, mb(soak.rss.first?.y ?? 0), mb(soak.rss.last?.y ?? 0), rss, heap))
        // A leak of 13.8 kB a reload (issue 27) is far above the heap's bound, in every run (a
        // planted 14 kB leak: 14,282 bytes a reload). The heap's own slope moves with what the
        // reload threads and the card workers hold at each sample: -922 to +1,281 bytes a reload
        // seen over make test's 225 measured reloads on a loaded machine, so the bound is 3 kB.
        // RSS moves with malloc's arenas by over a megabyte in those reloads (slopes of 0.5 to
        // 6.5 kB a reload seen), so its slope is held to 2 kB a reload only in make soak's long
        // run (6,000 reloads).
        XCTAssertLessThan(heap, 3072, "the heap grew by \(Int(heap)) bytes a reload")
        // Under qemu-user (scripts/arm64/check.sh sets KIOSK_TEST_UNDER_EMULATION) the resident
        // set is the emulator's, whose translated-code cache grows as new paths run (190 kB a
        // reload seen): only the heap, which is the program's own malloc, says something there.
        if reloads >= 1000, ProcessInfo.processInfo.environment["KIOSK_TEST_UNDER_EMULATION"] == nil {
            XCTAssertLessThan(rss, 2048, "RSS grew by \(Int(rss)) bytes a reload")
        }
    }
}

/// The soak's steps, one per timer tick of the kiosk's loop: a reload by the socket, by the
/// file, by the schedule, in turn; a reload asked for is waited for (its configuration
/// generation) before the next one.
struct ReloadSoak {
    let reloads: Int
    /// Reloads before memory is sampled (caches, arenas).
    let warmUp: Int
    private(set) var done = 0
    private(set) var switches = 0
    private(set) var rss: [(x: Double, y: Double)] = []
    private(set) var heap: [(x: Double, y: Double)] = []
    private(set) var failure: String?
    private var waiting: (generation: Int, since: Double, what: String)?
    /// A sample is due (every 10th reload past the warm-up): taken once the faces are drawn,
    /// before the next reload.
    private var sampleDue: Double?
    private let start = monotonicNow()
    var seconds: Double { monotonicNow() - start }

    init(reloads: Int) {
        self.reloads = reloads
        warmUp = reloads / 4
    }

    /// The screen shows what it should and the card workers are idle (no face queued or being
    /// drawn: one holds its buffers): memory is sampled then only.
    static func facesDrawn(_ app: KioskApp) -> Bool {
        app.framesPresented > 0 && app.session.cards.outstandingJobs == 0 && !app.session.needsFrame
    }

    /// One step; true when the soak is over.
    mutating func step(app: KioskApp, client: SoakControlClient, rewrite: () -> Void, clock: ManualWallClock) -> Bool {
        if done == 0 && waiting == nil && !Self.facesDrawn(app) {
            // Start-up: the first faces are drawn before the first reload.
            if seconds > 120 { failure = "start-up: the card faces were not all drawn within 120 s"; return true }
            return false
        }
        if let w = waiting {
            if app.behavior.configGeneration > w.generation {
                waiting = nil
                done += 1
                sample(app)
            } else if monotonicNow() - w.since > 30 {
                failure = "reload \(done + 1) (\(w.what)) not applied within 30 s"
                return true
            } else {
                return false
            }
        }
        if let due = sampleDue {
            if Self.facesDrawn(app) {
                rss.append((Double(done), Double(residentBytes())))
                heap.append((Double(done), Double(HeapTuning.bytesInUse)))
                sampleDue = nil
            } else if monotonicNow() - due > 30 {
                failure = "after reload \(done): the card faces were not all drawn within 30 s"
                return true
            } else {
                return false
            }
        }
        if done >= reloads { return true }
        let generation = app.behavior.configGeneration
        switch done % 3 {
        case 0:
            client.send(#"{"cmd":"reload"}"#)
            waiting = (generation, monotonicNow(), "control socket")
        case 1:
            rewrite()
            waiting = (generation, monotonicNow(), "file change")
        default:
            let before = app.session.config.items.count
            clock.unixTime += 12 * 3600
            app.behavior.updateSchedule(now: app.now)
            if app.session.config.items.count != before { switches += 1 }
            done += 1
            sample(app)
        }
        return false
    }

    /// After every 10th reload past the warm-up, a sample is due: taken once every face is drawn
    /// (a face being drawn holds its buffers), before the next reload.
    private mutating func sample(_ app: KioskApp) {
        guard done > warmUp, done % 10 == 0 else { return }
        sampleDue = monotonicNow()
    }
}

/// The soak's control client: sends commands, reads and drops what the kiosk writes (replies and
/// events) so that the kiosk never drops it for not reading.
final class SoakControlClient {
    let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard UnixSocketAddress.with(path, { connect(fd, $0, $1) }) == 0 else { throw SystemCallError(call: "connect", subject: path) }
    }

    deinit { close(fd) }

    func send(_ line: String) { _ = (line + "\n").withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }

    func discardReceived() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
    }
}
