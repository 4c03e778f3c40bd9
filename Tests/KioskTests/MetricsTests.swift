import Cards
import Foundation
import Glibc
import Input
import JSON
import KioskConfig
import Logging
import TestSupport
import XCTest
@testable import Kiosk

/// `[metrics]`: the Prometheus text, the atomic file, when it is written (fake clock), and the
/// same facts in the control socket's `state` reply.
final class MetricsTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "metrics-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A kiosk whose facts are all known.
    static func knownState() -> KioskHealth {
        var h = KioskHealth()
        h.framesPresented = 1834
        h.lastFrameTime = 1_764_130_000.25
        h.lastInputTime = nil
        h.currentIndex = 2
        h.currentID = "map \"north\""
        h.itemIDs = ["welcome", "film", "map \"north\""]
        h.selections = ["film": 3, "gone": 1]
        h.errors = ["card": 2]
        h.configGeneration = 4
        h.configLoadErrors = 1
        h.displayConnected = true
        h.displayMode = "1920x1080@60"
        h.blanked = false
        h.inputDevices = 2
        h.cardCacheBytes = 12_582_912
        for seconds in [0.004, 0.009, 0.015, 7.0] { h.frameTimes.record(seconds) }
        h.flipsMissed = 3
        h.residentBytes = 48_234_496
        h.heap = HeapTuning.Usage(inUse: 21_004_288, heldFree: 3_145_728)
        h.startTime = 1_764_129_000
        h.scheduleOpen = false
        h.version = "0.1.1"
        h.slot = "B"
        h.updateState = "installed"
        h.updateMessage = "Version 0.1.2 is installed"
        h.rollbacks = 1
        h.speechOn = true
        h.volume = 0.6
        return h
    }

    func testTextFormatOfAKnownState() {
        let expected = #"""
        # HELP kiosk_carousel_frames_presented_total Frames presented since the start (black frames of a blank not counted).
        # TYPE kiosk_carousel_frames_presented_total counter
        kiosk_carousel_frames_presented_total 1834
        # HELP kiosk_carousel_last_frame_time_seconds Unix time of the last frame presented (0: none yet).
        # TYPE kiosk_carousel_last_frame_time_seconds gauge
        kiosk_carousel_last_frame_time_seconds 1764130000.250
        # HELP kiosk_carousel_last_input_time_seconds Unix time of the last event from an input device (0: none yet).
        # TYPE kiosk_carousel_last_input_time_seconds gauge
        kiosk_carousel_last_input_time_seconds 0
        # HELP kiosk_carousel_current_item Index of the current item (0 is the first).
        # TYPE kiosk_carousel_current_item gauge
        kiosk_carousel_current_item 2
        # HELP kiosk_carousel_current_item_info The current item's id.
        # TYPE kiosk_carousel_current_item_info gauge
        kiosk_carousel_current_item_info{id="map \"north\""} 1
        # HELP kiosk_carousel_selections_total Selections per item id.
        # TYPE kiosk_carousel_selections_total counter
        kiosk_carousel_selections_total{id="film"} 3
        kiosk_carousel_selections_total{id="gone"} 1
        kiosk_carousel_selections_total{id="map \"north\""} 0
        kiosk_carousel_selections_total{id="welcome"} 0
        # HELP kiosk_carousel_errors_total Errors by kind: action, card, config_reload, display, video.
        # TYPE kiosk_carousel_errors_total counter
        kiosk_carousel_errors_total{kind="action"} 0
        kiosk_carousel_errors_total{kind="card"} 2
        kiosk_carousel_errors_total{kind="config_reload"} 0
        kiosk_carousel_errors_total{kind="display"} 0
        kiosk_carousel_errors_total{kind="video"} 0
        # HELP kiosk_carousel_config_generation 1 for the configuration loaded at start, +1 at every reload applied.
        # TYPE kiosk_carousel_config_generation gauge
        kiosk_carousel_config_generation 4
        # HELP kiosk_carousel_config_load_errors_total Reloads refused (the running configuration was kept).
        # TYPE kiosk_carousel_config_load_errors_total counter
        kiosk_carousel_config_load_errors_total 1
        # HELP kiosk_carousel_display_connected 1 when a screen is connected.
        # TYPE kiosk_carousel_display_connected gauge
        kiosk_carousel_display_connected 1
        # HELP kiosk_carousel_display_mode_info The mode of the screen: WIDTHxHEIGHT@HZ of the scene.
        # TYPE kiosk_carousel_display_mode_info gauge
        kiosk_carousel_display_mode_info{mode="1920x1080@60"} 1
        # HELP kiosk_carousel_blanked 1 while the screen is blanked by the idle controller.
        # TYPE kiosk_carousel_blanked gauge
        kiosk_carousel_blanked 0
        # HELP kiosk_carousel_input_devices Input devices open now.
        # TYPE kiosk_carousel_input_devices gauge
        kiosk_carousel_input_devices 2
        # HELP kiosk_carousel_card_cache_bytes Bytes held by the card face cache.
        # TYPE kiosk_carousel_card_cache_bytes gauge
        kiosk_carousel_card_cache_bytes 12582912
        # HELP kiosk_carousel_frame_duration_seconds Seconds each presented frame took to draw and hand to the display.
        # TYPE kiosk_carousel_frame_duration_seconds histogram
        kiosk_carousel_frame_duration_seconds_bucket{le="0.001"} 0
        kiosk_carousel_frame_duration_seconds_bucket{le="0.002"} 0
        kiosk_carousel_frame_duration_seconds_bucket{le="0.003"} 0
        kiosk_carousel_frame_duration_seconds_bucket{le="0.004"} 1
        kiosk_carousel_frame_duration_seconds_bucket{le="0.005"} 1
        kiosk_carousel_frame_duration_seconds_bucket{le="0.006"} 1
        kiosk_carousel_frame_duration_seconds_bucket{le="0.008"} 1
        kiosk_carousel_frame_duration_seconds_bucket{le="0.01"} 2
        kiosk_carousel_frame_duration_seconds_bucket{le="0.012"} 2
        kiosk_carousel_frame_duration_seconds_bucket{le="0.014"} 2
        kiosk_carousel_frame_duration_seconds_bucket{le="0.0167"} 3
        kiosk_carousel_frame_duration_seconds_bucket{le="0.02"} 3
        kiosk_carousel_frame_duration_seconds_bucket{le="0.025"} 3
        kiosk_carousel_frame_duration_seconds_bucket{le="0.0333"} 3
        kiosk_carousel_frame_duration_seconds_bucket{le="0.05"} 3
        kiosk_carousel_frame_duration_seconds_bucket{le="0.0667"} 3
        kiosk_carousel_frame_duration_seconds_bucket{le="0.1"} 3
        kiosk_carousel_frame_duration_seconds_bucket{le="0.15"} 3
        kiosk_carousel_frame_duration_seconds_bucket{le="0.25"} 3
        kiosk_carousel_frame_duration_seconds_bucket{le="0.5"} 3
        kiosk_carousel_frame_duration_seconds_bucket{le="1.0"} 3
        kiosk_carousel_frame_duration_seconds_bucket{le="2.0"} 3
        kiosk_carousel_frame_duration_seconds_bucket{le="5.0"} 3
        kiosk_carousel_frame_duration_seconds_bucket{le="+Inf"} 4
        kiosk_carousel_frame_duration_seconds_sum 7.028000
        kiosk_carousel_frame_duration_seconds_count 4
        # HELP kiosk_carousel_flips_missed_total Page flips that reached the screen more than a refresh late, or never.
        # TYPE kiosk_carousel_flips_missed_total counter
        kiosk_carousel_flips_missed_total 3
        # HELP kiosk_carousel_process_resident_memory_bytes Resident memory of the process (/proc/self/statm).
        # TYPE kiosk_carousel_process_resident_memory_bytes gauge
        kiosk_carousel_process_resident_memory_bytes 48234496
        # HELP kiosk_carousel_heap_bytes Bytes malloc has handed out and not had back (mallinfo2: every arena and mmapped blocks).
        # TYPE kiosk_carousel_heap_bytes gauge
        kiosk_carousel_heap_bytes 21004288
        # HELP kiosk_carousel_heap_free_bytes Bytes malloc holds free in its arenas, not given back to the system (mallinfo2's fordblks).
        # TYPE kiosk_carousel_heap_free_bytes gauge
        kiosk_carousel_heap_free_bytes 3145728
        # HELP kiosk_carousel_process_start_time_seconds Unix time the process started.
        # TYPE kiosk_carousel_process_start_time_seconds gauge
        kiosk_carousel_process_start_time_seconds 1764129000.000
        # HELP kiosk_carousel_version_info The running version and root slot (none off the image).
        # TYPE kiosk_carousel_version_info gauge
        kiosk_carousel_version_info{slot="B",version="0.1.1"} 1
        # HELP kiosk_carousel_update_state_info The last update's state: checking, downloading, installing, installed, failed.
        # TYPE kiosk_carousel_update_state_info gauge
        kiosk_carousel_update_state_info{state="installed"} 1
        # HELP kiosk_carousel_rollbacks_total Boots that went back to the old slot because the new one did not start.
        # TYPE kiosk_carousel_rollbacks_total counter
        kiosk_carousel_rollbacks_total 1

        """#
        XCTAssertEqual(PrometheusText.render(Self.knownState()), expected)
    }

    func testEveryNameFollowsPrometheusRules() {
        let text = PrometheusText.render(Self.knownState())
        var typed: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("# TYPE ") {
            let parts = line.split(separator: " ")
            typed[String(parts[2])] = String(parts[3])
        }
        XCTAssertEqual(typed.count, 23)
        for (name, type) in typed {
            XCTAssertNotNil(name.range(of: "^kiosk_carousel_[a-z_]+$", options: .regularExpression), name)
            XCTAssertEqual(type == "counter", name.hasSuffix("_total"), "\(name): counters and only counters end in _total")
        }
        // Every sample has its family's HELP and TYPE before it.
        var declared: Set<String> = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# HELP ") { declared.insert(String(line.split(separator: " ")[2])) }
            if !line.hasPrefix("#") {
                var name = String(line.prefix { $0 != "{" && $0 != " " })
                // A histogram's samples: the family's name with _bucket, _sum or _count after it.
                for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
                    let family = String(name.dropLast(suffix.count))
                    if typed[family] == "histogram" { name = family }
                }
                XCTAssertTrue(declared.contains(name), "\(name) sampled before its HELP")
            }
        }
        XCTAssertEqual(PrometheusText.escape("a\\b\"c\nd"), #"a\\b\"c\nd"#)
    }

    func testNoScreenAndNoItemsLeaveTheInfoMetricsWithoutSamples() {
        var h = KioskHealth()
        h.startTime = 10
        let text = PrometheusText.render(h)
        XCTAssertTrue(text.contains("# TYPE kiosk_carousel_display_mode_info gauge\n# HELP kiosk_carousel_blanked"))
        XCTAssertTrue(text.contains("kiosk_carousel_display_connected 0\n"))
        XCTAssertFalse(text.contains("resident_memory"), "not read: not written")
        XCTAssertFalse(text.contains("heap_bytes"), "not read: not written")
        XCTAssertFalse(text.contains("heap_free_bytes"), "not read: not written")
    }

    // MARK: - When it is written (fake clock)

    private func reporter(interval: Double = 5, path: String? = nil) -> MetricsReporter {
        let r = MetricsReporter(path: path ?? folder + "/m.prom", interval: interval, asynchronous: false,
                                logger: Logger(label: "test.metrics"))
        r.residentBytes = { 4096 }
        r.heap = { HeapTuning.Usage(inUse: 2048, heldFree: 1024) }
        return r
    }

    private func health(frames: Int) -> KioskHealth {
        var h = KioskHealth()
        h.framesPresented = frames
        return h
    }

    /// The loop's pass: observe, then write when due; returns whether it wrote.
    private func pass(_ r: MetricsReporter, _ h: KioskHealth, at t: Double) -> Bool {
        r.observe(h, now: t)
        return r.writeIfDue(now: t)
    }

    func testWrittenOnlyWhenSomethingChanged() {
        let r = reporter()
        XCTAssertTrue(pass(r, health(frames: 1), at: 0), "the first facts are written at once")
        XCTAssertNil(r.nextDeadline)
        for t in stride(from: 1.0, through: 600, by: 7) {
            XCTAssertFalse(pass(r, health(frames: 1), at: t), "nothing changed at \(t)")
            XCTAssertNil(r.nextDeadline, "a still kiosk arms no timer for its metrics")
        }
        XCTAssertEqual(r.file.writes, 1)
        XCTAssertTrue(pass(r, health(frames: 2), at: 700), "a change after a quiet spell is written at once")
        XCTAssertEqual(r.file.writes, 2)
    }

    func testAtMostEveryInterval() {
        let r = reporter(interval: 5)
        var writes: [Double] = []
        // A moving carousel: a new frame every 1/60 s for 12 s.
        var frames = 0
        for n in 0...720 {
            let t = Double(n) / 60
            frames += 1
            if pass(r, health(frames: frames), at: t) { writes.append(t) }
            // The loop's timer: a pass at the deadline even when no frame came.
            if let due = r.nextDeadline { XCTAssertGreaterThan(due, t) }
        }
        XCTAssertEqual(writes, [0, 5, 10], "written at 0, then every 5 s while it changes")
        // It stopped at 12 s: the change after the write at 10 is due at 15, and then nothing.
        XCTAssertEqual(r.nextDeadline, 15)
        XCTAssertFalse(r.writeIfDue(now: 14.99))
        XCTAssertTrue(r.writeIfDue(now: 15))
        XCTAssertNil(r.nextDeadline)
        XCTAssertFalse(pass(r, health(frames: frames), at: 30))
        XCTAssertEqual(try String(contentsOfFile: folder + "/m.prom", encoding: .utf8)
            .contains("kiosk_carousel_frames_presented_total \(frames)\n"), true, "the last write has the last facts")
    }

    func testScheduleAlone() {
        var s = MetricsSchedule(interval: 5)
        XCTAssertNil(s.due)
        s.changed(now: 3)
        XCTAssertEqual(s.due, 3)
        XCTAssertTrue(s.take(now: 3))
        s.changed(now: 4)
        XCTAssertEqual(s.due, 8)
        s.changed(now: 6)
        XCTAssertEqual(s.due, 8, "a second change does not move the deadline")
        XCTAssertFalse(s.take(now: 7.9))
        XCTAssertTrue(s.take(now: 8.5))
        XCTAssertFalse(s.take(now: 20), "nothing changed since")
    }

    // MARK: - The file

    func testFileIsReplacedByRenameAndAReaderKeepsTheOldFile() throws {
        let path = folder + "/kiosk.prom"
        let file = MetricsFile(path: path, asynchronous: false, logger: Logger(label: "test.metrics"))
        let old = PrometheusText.render(health(frames: 1))
        file.write(old)
        let reader = try XCTUnwrap(FileHandle(forReadingAtPath: path))
        defer { try? reader.close() }
        var before = stat(), after = stat()
        XCTAssertEqual(stat(path, &before), 0)
        let new = PrometheusText.render(Self.knownState())
        file.write(new)
        XCTAssertEqual(stat(path, &after), 0)
        XCTAssertNotEqual(before.st_ino, after.st_ino, "a new inode: renamed into place, not rewritten")
        XCTAssertEqual(String(decoding: reader.readDataToEndOfFile(), as: UTF8.self), old,
                       "a reader holding the old file reads it whole")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), new)
        XCTAssertEqual(after.st_mode & 0o777, 0o644)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["kiosk.prom"], "no temporary file left")
    }

    func testConcurrentReaderNeverSeesHalfAFile() throws {
        let path = folder + "/kiosk.prom"
        let file = MetricsFile(path: path, asynchronous: true, logger: Logger(label: "test.metrics"))
        var h = Self.knownState()
        file.write(PrometheusText.render(h))
        file.flush()
        let done = ManagedAtomicFlag()
        let reader = Thread {
            while !done.value {
                guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
                if !text.hasSuffix("kiosk_carousel_rollbacks_total 1\n") { done.fail(text) }
            }
        }
        reader.start()
        for n in 0..<300 {
            h.framesPresented = n
            h.selections["film"] = n * 1000   // lengths change
            file.write(PrometheusText.render(h))
            file.flush()
        }
        done.set()
        while !reader.isFinished { usleep(1000) }
        XCTAssertNil(done.failure, "a reader saw a partial file")
        file.stop()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["kiosk.prom"])
    }

    func testFolderTargetGetsTheCollectorFileName() throws {
        let file = MetricsFile(path: folder, asynchronous: false, logger: Logger(label: "test.metrics"))
        XCTAssertEqual(file.target, folder + "/kiosk_carousel.prom")
        let old = umask(0o077)
        defer { umask(old) }
        file.write("x 1\n")
        var st = stat()
        XCTAssertEqual(stat(folder + "/kiosk_carousel.prom", &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o644, "readable by node_exporter whatever the kiosk's umask")
        XCTAssertEqual(MetricsFile(path: folder + "/new/", asynchronous: false, logger: Logger(label: "t")).target,
                       folder + "/new/kiosk_carousel.prom", "a path ending in / is a folder")
    }

    func testUnwritableFolderGivesOneLogLineAndTheKioskGoesOn() throws {
        let capture = LogCapture()
        let logger = Logger(label: "test.metrics") { _ in capture.handler }
        // A missing folder, and a "folder" that is a file (root writes anywhere else).
        let missing = MetricsFile(path: folder + "/nowhere/kiosk.prom", asynchronous: false, logger: logger)
        for n in 0..<5 { missing.write("x \(n)\n") }
        XCTAssertEqual(missing.failures, 5)
        XCTAssertEqual(capture.lines.count, 1, "one line for one cause, not one per write: \(capture.lines)")
        XCTAssertTrue(capture.lines[0].hasPrefix("error: metrics: \(folder)/nowhere/kiosk.prom: cannot create the file (No such file or directory); "),
                      capture.lines[0])
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/plain", contents: Data()))
        let notAFolder = MetricsFile(path: folder + "/plain/kiosk.prom", asynchronous: false, logger: logger)
        notAFolder.write("x 1\n")
        XCTAssertTrue(capture.lines.last!.contains("Not a directory"), capture.lines.last!)
        // Made writable: it works again and says so once.
        try FileManager.default.createDirectory(atPath: folder + "/nowhere", withIntermediateDirectories: false)
        missing.write("x 9\n")
        XCTAssertEqual(missing.writes, 1)
        XCTAssertEqual(capture.lines.last, "notice: metrics: writing \(folder)/nowhere/kiosk.prom works again")
        XCTAssertEqual(try String(contentsOfFile: folder + "/nowhere/kiosk.prom", encoding: .utf8), "x 9\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/nowhere"), ["kiosk.prom"])
    }

    func testImmutableFolderWhenTheFileSystemAllowsIt() throws {
        // chattr +i refuses even root; skipped where the file system or the container does not allow it.
        let dir = folder + "/locked"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        let chattr = Process()
        chattr.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        chattr.arguments = ["+i", dir]
        chattr.standardError = FileHandle.nullDevice
        guard (try? chattr.run()) != nil else { throw XCTSkip("no chattr") }
        chattr.waitUntilExit()
        guard chattr.terminationStatus == 0 else { throw XCTSkip("chattr +i not allowed here") }
        defer {
            let undo = Process()
            undo.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            undo.arguments = ["-i", dir]
            try? undo.run(); undo.waitUntilExit()
        }
        let capture = LogCapture()
        let file = MetricsFile(path: dir, asynchronous: false, logger: Logger(label: "t") { _ in capture.handler })
        file.write("x 1\n"); file.write("x 2\n")
        XCTAssertEqual(capture.lines.count, 1)
        XCTAssertTrue(capture.lines[0].contains("Operation not permitted") || capture.lines[0].contains("Permission denied"), capture.lines[0])
    }

    /// The figure for docs/control.md: one write (text, then temporary file + fsync + rename),
    /// median of 200, in the test's temporary folder and on tmpfs (/dev/shm: as /run, where the
    /// unit's RuntimeDirectory is). Run: `swift test --skip-build --filter MetricsTests/testWriteTimeFigure`.
    func testWriteTimeFigure() throws {
        var places = [folder]
        let shm = "/dev/shm/kiosk-metrics-\(getpid())"
        if (try? FileManager.default.createDirectory(atPath: shm, withIntermediateDirectories: false)) != nil { places.append(shm) }
        defer { try? FileManager.default.removeItem(atPath: shm) }
        for place in places {
            let file = MetricsFile(path: place, asynchronous: false, logger: Logger(label: "test.metrics"))
            var h = Self.knownState()
            var render: [Double] = [], write: [Double] = []
            for n in 0..<200 {
                h.framesPresented = n
                let t0 = DispatchTime.now().uptimeNanoseconds
                let text = PrometheusText.render(h)
                let t1 = DispatchTime.now().uptimeNanoseconds
                file.write(text)
                let t2 = DispatchTime.now().uptimeNanoseconds
                render.append(Double(t1 - t0) / 1000); write.append(Double(t2 - t1) / 1000)
            }
            XCTAssertEqual(file.writes, 200)
            // What every loop pass pays while frames change: compare the facts with the last seen.
            let reporter = MetricsReporter(path: place, interval: 3600, asynchronous: false, logger: Logger(label: "t"))
            var observe: [Double] = []
            for n in 0..<200 {
                h.framesPresented = 1000 + n
                let t0 = DispatchTime.now().uptimeNanoseconds
                reporter.observe(h, now: Double(n))
                observe.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000)
            }
            print(String(format: "metrics observe per loop pass: %.1f µs median", observe.sorted()[100]))
            func median(_ a: [Double]) -> Double { a.sorted()[a.count / 2] }
            print(String(format: "metrics write in %@: text %.0f µs median (on the loop), file %.0f µs median, %.0f µs max (on the writer's thread); %d bytes",
                         place, median(render), median(write), write.max()!, PrometheusText.render(h).utf8.count))
        }
    }

    // MARK: - The facts in the behaviour and in `state`

    func testBehaviourCountsSelectionsGenerationsAndRefusedReloads() throws {
        let path = folder + "/config.toml"
        let good = "[[item]]\nid = \"a\"\ntitle = \"A\"\n[[item]]\nid = \"b\"\ntitle = \"B\"\n"
        try good.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ConfigLoader.load(path: path)
        let session = CarouselSession(config: config, width: 640, height: 480)
        let b = KioskBehavior(session: session, log: try EventLog(path: nil), now: 0, performAction: KioskBehavior.simulatedAction)
        let logger = Logger(label: "test.metrics")
        XCTAssertEqual(b.configGeneration, 1)
        b.command(.scrollTo(index: 1, duration: 0), now: 1)
        b.tick(now: 1.1)
        b.command(.select, now: 1.2); b.flushEvents()
        b.command(.select, now: 1.3); b.flushEvents()
        XCTAssertEqual(b.selections, ["b": 2])
        try "[[item]\nbroken".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertNil(b.reload(path: path, reason: "test", now: 2, logger: logger))
        XCTAssertEqual(b.configLoadErrors, 1)
        XCTAssertEqual(b.configGeneration, 1)
        try (good + "[[item]]\nid = \"c\"\ntitle = \"C\"\n").write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertNotNil(b.reload(path: path, reason: "test", now: 3, logger: logger))
        XCTAssertEqual(b.configGeneration, 2)
        XCTAssertEqual(b.configLoadErrors, 1)
    }

    func testStateReplyCarriesTheSameFacts() throws {
        final class Effects: ControlEffects {
            func reload(reason: String) -> Bool { true }
            func writeScreenshot(to path: String) throws {}
            var screenSize: (width: Int, height: Int) { (1920, 1080) }
            var fps: Double { 60 }
            var framesPresented: Int { 1834 }
            var foregroundActive: Bool { false }
            var blanked: Bool { false }
            var health: KioskHealth? { MetricsTests.knownState() }
        }
        let config = try ConfigLoader.parse("[[item]]\nid = \"a\"\ntitle = \"A\"\n", file: "t.toml")
        let b = KioskBehavior(session: CarouselSession(config: config, width: 1920, height: 1080), log: try EventLog(path: nil),
                              now: 0, performAction: KioskBehavior.simulatedAction)
        let reply = ControlCommandHandler.handle(.state, behavior: b, now: 0, effects: Effects())
        let line = reply.line(command: "state", requestID: .string("q1"))
        XCTAssertEqual(line, #"{"reply":"state","id":"q1","ok":true,"index":0,"offset":0,"item_count":1,"width":1920,"height":1080,"fps":60,"frames":1834,"foreground":false,"blanked":false,"card":null,"language":"en","item_id":"map \"north\"","last_frame_time":1764130000.250,"last_input_time":null,"selections":{"film":3,"gone":1,"map \"north\"":0,"welcome":0},"errors":{"action":0,"card":2,"config_reload":0,"display":0,"video":0},"config_generation":4,"config_load_errors":1,"display_connected":true,"display_mode":"1920x1080@60","input_devices":2,"card_cache_bytes":12582912,"rss_bytes":48234496,"start_time":1764129000.000,"schedule_open":false,"version":"0.1.1","slot":"B","update_state":"installed","update_message":"Version 0.1.2 is installed","rollbacks":1,"speech":true,"volume":0.6,"tv_power":null,"tv_power_time":null,"cec_sent":null,"cec_failed":null,"frames_timed":4,"frame_seconds_median":0.0100,"frame_seconds_p99":5,"flips_missed":3}"#)
        XCTAssertNotNil(JSONValue.parse(line), "valid JSON")
    }

    func testTheTVOverCECInStateAndMetrics() {
        var h = KioskHealth()
        h.tv = TVHealth(power: "standby_to_on", reportedAt: 1_764_130_001.5, messagesSent: 7, messagesFailed: 2)
        let fields = Dictionary(ControlReply.healthFields(h), uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(fields["tv_power"], #""standby_to_on""#)
        XCTAssertEqual(fields["tv_power_time"], "1764130001.500")
        XCTAssertEqual(fields["cec_sent"], "7")
        XCTAssertEqual(fields["cec_failed"], "2")
        let text = PrometheusText.render(h)
        XCTAssertTrue(text.contains("kiosk_carousel_tv_power_info{state=\"standby_to_on\"} 1\n"), text)
        XCTAssertTrue(text.contains("kiosk_carousel_tv_power_time_seconds 1764130001.500\n"))
        XCTAssertTrue(text.contains("kiosk_carousel_cec_messages_sent_total 7\n"))
        XCTAssertTrue(text.contains("kiosk_carousel_cec_messages_failed_total 2\n"))
        XCTAssertFalse(PrometheusText.render(KioskHealth()).contains("tv_power"), "no CEC: no TV metrics")
    }

    func testModeText() {
        XCTAssertEqual(KioskApp.modeText(width: 1280, height: 720, refreshRate: 60), "1280x720@60")
        XCTAssertEqual(KioskApp.modeText(width: 1920, height: 1080, refreshRate: 59.94), "1920x1080@59.94")
    }

    func testResidentBytesFromProc() throws {
        let rss = try XCTUnwrap(KioskHealth.readResidentBytes())
        XCTAssertGreaterThan(rss, 1 << 20)
    }

    func testHeapBytesFollowMallocAndFree() throws {
        let before = HeapTuning.usage.inUse
        // 64 MiB, checked to within 8 MiB: another test's worker may still allocate beside it.
        let block = try XCTUnwrap(malloc(64 << 20))
        let held = HeapTuning.usage.inUse
        free(block)
        let after = HeapTuning.usage
        XCTAssertGreaterThanOrEqual(held - before, 56 << 20, "a block handed out is counted")
        XCTAssertGreaterThanOrEqual(held - after.inUse, 56 << 20, "and no longer once it is freed")
        XCTAssertGreaterThanOrEqual(after.heldFree, 0)
    }
}

/// A flag the reader thread polls, with the text it saw when something was wrong.
private final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var _value = false
    private var _failure: String?
    var value: Bool { lock.lock(); defer { lock.unlock() }; return _value }
    var failure: String? { lock.lock(); defer { lock.unlock() }; return _failure }
    func set() { lock.lock(); _value = true; lock.unlock() }
    func fail(_ text: String) { lock.lock(); if _failure == nil { _failure = text }; lock.unlock() }
}
