import CarouselCore
@testable import KioskConfig
import XCTest

/// Problems are found, worded and placed right, and all of them come out in one run.
final class ConfigValidationTests: XCTestCase {
    var fixture: ConfigFixture!
    override func setUp() { fixture = ConfigFixture() }
    override func tearDown() { fixture = nil }

    func testUnknownKeyGetsASuggestion() {
        XCTAssertEqual(fixture.report("[carousel]\nfade_mni = 2\n"), ["2:1: unknown key 'fade_mni' in [carousel]; did you mean 'fade_min'?"])
        XCTAssertEqual(fixture.report("[carousel]\ndecelerationRate = 0.9\n"),
                       ["2:1: unknown key 'decelerationRate' in [carousel]; did you mean 'deceleration_rate'?"])
    }

    func testUnknownSectionGetsASuggestion() {
        XCTAssertEqual(fixture.report("\n[dispaly]\nrotation = 90\n"), ["2:2: unknown section [dispaly]; did you mean [display]?"])
        XCTAssertEqual(fixture.report("[input.rotray]\nname = \"x\"\n"), ["1:8: unknown key 'rotray' in [input]; did you mean [input.rotary]?"])
    }

    func testKeyInTheWrongSectionSaysWhereItBelongs() {
        XCTAssertEqual(fixture.report("[display]\nseat = \"seat0\"\n"), ["2:1: unknown key 'seat' in [display]; 'seat' belongs in [input]"])
    }

    func testWrongType() {
        XCTAssertEqual(fixture.report("[display]\nrotation = \"90\"\n"), ["2:12: 'rotation' must be an integer, one of 0, 90, 180, 270, not a string"])
        XCTAssertEqual(fixture.report("[carousel]\nwrap = 1\n"), ["2:8: 'wrap' must be true or false, not an integer"])
        XCTAssertEqual(fixture.report("[cards]\nworkers = 2.0\n"), ["2:11: 'workers' must be an integer (write 2, not 2.0)"])
        XCTAssertEqual(fixture.report("carousel = 3\n"), ["1:12: 'carousel' must be a table ([carousel]), not an integer"])
        XCTAssertEqual(fixture.report("[item]\ntitle = \"x\"\n"), ["1:2: 'item' is a list: write [[item]] (two brackets) for each entry"])
        XCTAssertEqual(fixture.report("[[display]]\nrotation = 90\n"), ["1:3: 'display' must be a single table: write [display], not [[display]]"])
    }

    func testOutOfRange() {
        XCTAssertEqual(fixture.report("[carousel]\ndeceleration_rate = 1.0\n"), ["2:21: 'deceleration_rate' 1 is out of range (≥ 0 and < 1)"])
        XCTAssertEqual(fixture.report("[cards]\ncache_mb = 0\n"), ["2:12: 'cache_mb' 0 is out of range (1 to 65536)"])
        XCTAssertEqual(fixture.report("[carousel]\nitem_size = [400, -3]\n"),
                       ["2:19: 'item_size' element 2 (-3) is out of range (> 0 and ≤ 16384)"])
        XCTAssertEqual(fixture.report("[carousel]\ntick_hz = nan\n"), ["2:11: 'tick_hz' must be a finite number, not nan"])
        XCTAssertEqual(fixture.report("[input]\ncalibration = [1, 0, 0]\n"), ["2:15: 'calibration' must hold exactly 6 numbers, not 3"])
        // The engine never draws more than its limit: a larger visible_items would be a silent no-op.
        XCTAssertEqual(fixture.report("[carousel]\nvisible_items = 1000\n"), [])
        XCTAssertEqual(fixture.report("[carousel]\nvisible_items = 1001\n"), ["2:17: 'visible_items' 1001 is out of range (1 to 1000)"])
    }

    func testBadChoicesColoursModesAndKeyCodes() {
        XCTAssertEqual(fixture.report("[carousel]\ntype = \"cover-flow\"\n").first?.hasSuffix("; did you mean \"coverflow\"?"), true)
        XCTAssertEqual(fixture.report("[theme]\nbackground = \"#12345\"\n"),
                       ["2:14: 'background' \"#12345\" is not a colour; write \"#RRGGBB\" or \"#AARRGGBB\" in hexadecimal"])
        XCTAssertEqual(fixture.report("[theme.card]\ntitle_color = \"white\"\n").count, 1)
        XCTAssertEqual(fixture.report("[display]\nmode = \"1920*1080\"\n"),
                       ["2:8: 'mode' \"1920*1080\" is not a mode; write \"WIDTHxHEIGHT\" or \"WIDTHxHEIGHT@HZ\", e.g. \"1920x1080@60\""])
        // Written as a mode, with a number the reference does not allow: that is what is said.
        for mode in ["0x480", "1920x1080@0", "1920x1080@2000", "99999999999999999999x1"] {
            XCTAssertEqual(fixture.report("[display]\nmode = \"\(mode)\"\n"),
                           ["2:8: 'mode' \"\(mode)\" is out of range (1 to 16384 pixels each side, refresh > 0 and ≤ 1000 Hz)"], mode)
        }
        XCTAssertEqual(fixture.report("[input.rotary]\nname = \"knob\"\nselect_key = \"enter\"\n").count, 1)
        XCTAssertEqual(fixture.report("[input.rotary]\nname = \"knob\"\nselect_key = \"768\"\n").count, 1)
        XCTAssertEqual(fixture.report("[input.rotary]\nname = \"knob\"\nselect_key = \"28\"\n[input.keymap]\nkey_a = \"left\"\n57 = \"enter\"\n"), [])
        XCTAssertEqual(fixture.report("[input.keymap]\nspace = \"enter\"\nKEY_A = \"jump\"\n"), [
            "2:1: 'space' is not a key code the kernel knows; write KEY_… or BTN_… as in linux/input-event-codes.h (e.g. KEY_SPACE) or a number up to 767",
            // Every kiosk key is named (the accessibility parts add theirs).
            "3:9: 'KEY_A' \"jump\" is not one of " + KeyName.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "),
        ])
        // Well-formed names the kernel does not have are refused here, not first at run time.
        XCTAssertEqual(fixture.report("[input.keymap]\nKEY_PAGEDWN = \"right\"\nBTN_TOUCH = \"enter\"\n"), [
            "2:1: 'KEY_PAGEDWN' is not a key code the kernel knows; write KEY_… or BTN_… as in linux/input-event-codes.h (e.g. KEY_SPACE) or a number up to 767; did you mean KEY_PAGEDOWN?",
        ])
        XCTAssertEqual(fixture.report("[input.rotary]\nname = \"knob\"\nselect_key = \"KEY_ENTR\"\n"), [
            "3:14: 'select_key' \"KEY_ENTR\" is not a key code the kernel knows; write KEY_… or BTN_… as in linux/input-event-codes.h (e.g. \"KEY_ENTER\") or a number up to 767; did you mean \"KEY_ENTER\"?",
        ])
    }

    func testMissingFilesAndFolders() {
        XCTAssertEqual(fixture.report("[[item]]\nimage = \"media/nope.png\"\n"),
                       ["2:9: 'image' file \"media/nope.png\" (\(fixture.folder)/media/nope.png) does not exist"])
        XCTAssertEqual(fixture.report("[items]\ndirectory = \"pictures\"\n"),
                       ["2:13: 'directory' folder \"pictures\" (\(fixture.folder)/pictures) does not exist"])
        fixture.write("media/a.png")
        XCTAssertEqual(fixture.report("[[item]]\nimage = \"media\"\n"), ["2:9: 'image' \"media\" (\(fixture.folder)/media) is a folder, not a file"])
        XCTAssertEqual(fixture.report("[[item]]\naction = { exec = [\"./run.sh\"] }\n"),
                       ["2:20: 'exec' file \"./run.sh\" (\(fixture.folder)/run.sh) does not exist"])
        fixture.write("run.sh", "#!/bin/sh\n")
        XCTAssertEqual(fixture.report("[[item]]\naction = { exec = [\"./run.sh\"] }\n"),
                       ["2:20: 'exec' program \"\(fixture.folder)/run.sh\" is not executable (chmod +x?)"])
    }

    func testTOMLSyntaxErrorReportsTheParsersPlace() {
        let problems = fixture.problems("[carousel]\ntype = \"rotary\"\nwrap = tru\n")
        XCTAssertEqual(problems.count, 1)
        XCTAssertEqual(problems.first?.line, 3)
        XCTAssertEqual(problems.first?.column, 11)
        XCTAssertTrue(problems.first?.message.hasPrefix("TOML syntax error: ") ?? false, problems.first?.message ?? "")
        XCTAssertEqual(fixture.problems("a = 1\na = 2\n").first?.line, 2)
    }

    /// The parser quotes what it saw raw; a diagnostic is still one line (issue 27): the line
    /// break after `tru` is written `\n`.
    func testTOMLSyntaxErrorIsOneLine() {
        XCTAssertEqual(fixture.report("[carousel]\nwrap = tru\n"),
                       ["2:11: TOML syntax error: Error while parsing boolean: expected 'true', saw 'tru\\n'"])
        XCTAssertEqual(ConfigLoader.oneLine("a\tb\r\u{7}c"), "a\\tb\\r\\u{7}c")
    }

    /// TOML allows CRLF line ends (a config.toml saved on Windows, e.g. on the image's KIOSK
    /// partition): after a bare number or boolean too, where the \r was refused as a character
    /// of the value. The example with CRLF loads as it does with LF; a problem keeps its place.
    func testWindowsLineEndings() throws {
        let path = repositoryRoot + "/config/example.toml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertEqual(try ConfigLoader.parse(text.replacingOccurrences(of: "\n", with: "\r\n"), file: path),
                       try ConfigLoader.parse(text, file: path))
        XCTAssertEqual(fixture.report("[display]\r\nrotation = 90 # turned\r\nheadless_size = [\r\n  800,\r\n  480,\r\n]\r\n"
                                      + "[carousel]\r\nwrap = true\r\nperspective = -0.001\r\n"), [])
        XCTAssertEqual(fixture.report("[display]\r\nrotation = 45\r\n"), ["2:12: 'rotation' 45 is not one of 0, 90, 180, 270"])
    }

    /// `[display] power`, `cec_on_start`, `cec_device` (docs/cec.md): read, and a bad value placed.
    func testHDMICECKeys() throws {
        let c = try ConfigLoader.parse("[display]\npower = \"both\"\ncec_on_start = true\ncec_device = \"/dev/cec1\"\n", file: "t.toml")
        XCTAssertEqual(c.display.power, .both)
        XCTAssertTrue(c.display.cecOnStart)
        XCTAssertEqual(c.display.cecDevice, "/dev/cec1")
        let d = try ConfigLoader.parse("", file: "t.toml").display
        XCTAssertEqual(d.power, .dpms, "today's behaviour by default")
        XCTAssertFalse(d.cecOnStart)
        XCTAssertNil(d.cecDevice)
        XCTAssertEqual(fixture.report("[display]\npower = \"hdmi\"\ncec_on_start = \"yes\"\n"),
                       ["2:9: 'power' \"hdmi\" is not one of \"dpms\", \"cec\", \"both\"",
                        "3:16: 'cec_on_start' must be true or false, not a string"])
    }

    /// toml++ asserts (debug) or assumes (release) instead of reporting these; the loader reports them.
    func testSyntaxErrorsTheParserWouldTrapOn() {
        XCTAssertEqual(fixture.report("[display]\n[[+item]]\n"),
                       ["2:3: TOML syntax error: expected a table name (a bare key or a quoted string), saw '+'"])
        XCTAssertEqual(fixture.report("[\n"), ["1:2: TOML syntax error: expected a table name (a bare key or a quoted string), saw the end of the line"])
        XCTAssertEqual(fixture.report("a = 1\nb = [\n  1,\n  }\n]\n"), ["4:3: TOML syntax error: expected a value or ']', saw '}'"])
        XCTAssertEqual(fixture.report("a = [\u{2028}]\n"), ["1:6: TOML syntax error: expected a value or ']', saw U+2028"])
        XCTAssertEqual(fixture.report("[idle]\nwhen = 1979-05-27T:00\n"),
                       ["2:18: TOML syntax error: expected a time (HH:MM:SS) after 'T' in a date-time"])
        XCTAssertEqual(fixture.report("a = [1979-05-27t+01:00]\n"), ["1:16: TOML syntax error: expected a time (HH:MM:SS) after 't' in a date-time"])
        XCTAssertEqual(fixture.report("a = 1979-05-27T07:32:00Z\n"), ["1:1: unknown key 'a' at the top level"])
        // An earlier error the parser reports itself comes first, as the parser gives it.
        let earlier = fixture.problems("a = [1 2]\n[+b]\n")
        XCTAssertEqual(earlier.map(\.line), [1])
        XCTAssertTrue(earlier.first?.message.hasPrefix("TOML syntax error: ") ?? false)
    }

    func testManyProblemsComeOutTogetherInFileOrder() {
        fixture.write("media/ok.png")
        let text = """
            [[item]]
            id = "one"
            image = "media/ok.png"

            [display]
            rotation = 45
            buffers = 4

            [carousel]
            type = "rotary"
            fade_min = 2
            fade_max = 1
            spacng = 1

            [[item]]
            id = "one"
            titel = "Two"
            image = "media/missing.png"

            [idle]
            home_item = 7
            """
        XCTAssertEqual(fixture.report(text), [
            "6:12: 'rotation' 45 is not one of 0, 90, 180, 270",
            "7:11: 'buffers' 4 is not one of 2, 3",
            "11:12: 'fade_min' (2) must not be greater than 'fade_max' (1)",
            "13:1: unknown key 'spacng' in [carousel]; did you mean 'spacing'?",
            "16:6: item id \"one\" is already used by [[item]] #1; ids must be unique",
            "17:1: unknown key 'titel' in [[item]] #2; did you mean 'title'?",
            "18:9: 'image' file \"media/missing.png\" (\(fixture.folder)/media/missing.png) does not exist",
            "21:13: 'home_item' is 7, but there are only 2 items (the first is 0)",
        ])
        let d = fixture.problems(text)
        XCTAssertTrue(d.allSatisfy { $0.file.hasSuffix("/config.toml") })
        XCTAssertTrue(d[0].description.hasSuffix("config.toml:6:12: 'rotation' 45 is not one of 0, 90, 180, 270"))
    }

    func testInconsistentValues() {
        XCTAssertEqual(fixture.report("[input.dial]\ncenter = [500, 500]\ninner_radius = 200\nouter_radius = 200\n"),
                       ["3:16: 'inner_radius' (200) must be less than 'outer_radius' (200)"])
        XCTAssertEqual(fixture.report("[input.dial]\ncenter = [1, 1]\nouter_radius = 9\nitems_per_turn = 0\n"),
                       ["4:18: 'items_per_turn' must not be 0"])
        XCTAssertEqual(fixture.report("[input.dial]\ninner_radius = 20\n"), ["1:8: [input.dial] needs 'center'", "1:8: [input.dial] needs 'outer_radius'"])
        XCTAssertEqual(fixture.report("[input.rotary]\ninvert = true\n"), ["1:8: [input.rotary] needs 'device' or 'name' to find the knob"])
        XCTAssertEqual(fixture.report("[input.volume_knob]\ndetents_per_step = 2\n"), ["1:8: [input.volume_knob] needs 'device' or 'name' to find the knob"])
        XCTAssertEqual(fixture.report("[input.volume_knob]\nname = \"k\"\ndetents_per_step = 0\n"), ["3:20: 'detents_per_step' 0 is out of range (1 to 100)"])
        XCTAssertEqual(fixture.report("[carousel]\ntype = \"custom\"\n[[carousel.keyframes]]\noffset = 0\n"),
                       ["2:8: type = \"custom\" needs at least two [[carousel.keyframes]] (it has 1)"])
        XCTAssertEqual(fixture.report("[[carousel.keyframes]]\noffset = 1\n[[carousel.keyframes]]\noffset = 1.0\n"),
                       ["4:10: 'offset' 1 repeats keyframe #1's; each keyframe needs its own offset"])
        XCTAssertEqual(fixture.report("[[carousel.keyframes]]\nscale = 2\n"), ["1:12: [[carousel.keyframes]] #1 needs 'offset'"])
        XCTAssertEqual(fixture.report("[idle]\nhome_item = \"hom\"\n[[item]]\nid = \"home\"\n"),
                       ["2:13: 'home_item' names item \"hom\", but no item has that id; did you mean \"home\"?"])
    }

    func testActionShapes() {
        XCTAssertEqual(fixture.report("[[item]]\naction = {}\n"), ["2:1: an action needs exec = [\"/path/to/program\", …], emit = \"…\" or play = \"fullscreen\""])
        XCTAssertEqual(fixture.report("[[item]]\naction = { exec = [\"true\"], emit = \"x\" }\n"), ["2:36: an action takes one of exec, emit and play, not exec and emit"])
        XCTAssertEqual(fixture.report("[[item]]\naction = { emit = \"x\", timeout = 3 }\n"), ["2:34: 'timeout' applies only to exec actions"])
        XCTAssertEqual(fixture.report("[[item]]\naction = { exec = [] }\n"), ["2:19: 'exec' must name at least the program to run"])
        XCTAssertEqual(fixture.report("[[item]]\naction = \"run\"\n"), ["2:10: 'action' must be a table such as { … }, not a string"])
        XCTAssertEqual(fixture.report("[[item]]\naction = { exec = [\"true\"], mode = \"fg\" }\n"),
                       ["2:36: 'mode' \"fg\" is not one of \"foreground\", \"background\""])
    }

    func testUnreadableAndNonTextFiles() {
        let missing = (fixture.folder as NSString).appendingPathComponent("absent.toml")
        XCTAssertThrowsError(try ConfigLoader.load(path: missing)) { e in
            XCTAssertEqual((e as? ConfigErrors)?.description, "\(missing):0:0: no such file")
        }
        XCTAssertThrowsError(try ConfigLoader.load(path: missing, missingFileHint: "give another")) { e in
            XCTAssertEqual((e as? ConfigErrors)?.description, "\(missing):0:0: no such file (give another)")
        }
        XCTAssertThrowsError(try ConfigLoader.load(path: fixture.folder)) { e in
            XCTAssertEqual((e as? ConfigErrors)?.diagnostics.first?.message, "is a folder, not a config file")
        }
        XCTAssertEqual(fixture.report("a = 1\nb = \"x\0y\"\n"), ["2:7: the file contains a NUL byte; is it a text file?"])
        let path = (fixture.folder as NSString).appendingPathComponent("latin1.toml")
        _ = FileManager.default.createFile(atPath: path, contents: Data("[[item]]\ntitle = \"Caf".utf8) + Data([0xE9, 0x22, 0x0A]))
        XCTAssertThrowsError(try ConfigLoader.load(path: path)) { e in
            XCTAssertEqual((e as? ConfigErrors)?.diagnostics.map { "\($0.line):\($0.column): \($0.message)" },
                           ["2:13: byte 22 is not UTF-8; save the file as UTF-8 text"])
        }
    }

    func testSuggestionDistance() {
        XCTAssertEqual(Suggestion.closest(to: "raduis", in: ["radius", "arc"]), "radius")
        XCTAssertEqual(Suggestion.closest(to: "TickHz", in: ["tick_hz"]), "tick_hz")
        XCTAssertNil(Suggestion.closest(to: "zzzz", in: ["radius", "arc"]))
        XCTAssertNil(Suggestion.closest(to: "ab", in: ["xy"]))
    }
}

/// `[control] socket` longer than a Unix socket holds is a problem of the file (check-config
/// accepted it and `run` then exited 1 binding it); measured once resolved against the folder.
final class ControlSocketPathTests: XCTestCase {
    var fixture: ConfigFixture!
    override func setUp() { fixture = ConfigFixture() }
    override func tearDown() { fixture = nil }

    func testASocketPathLongerThan107BytesIsAProblemAtItsValue() throws {
        let longest = "/run/" + String(repeating: "s", count: 102)
        XCTAssertEqual(longest.utf8.count, 107)
        XCTAssertEqual(try fixture.load("[control]\nsocket = \"\(longest)\"\n").control.socket, longest)
        let tooLong = longest + "x"
        XCTAssertEqual(fixture.report("[control]\nsocket = \"\(tooLong)\"\n"), [
            "2:10: 'socket' \"\(tooLong)\" is 108 bytes long; a Unix socket's path holds at most 107: "
                + "choose a shorter one, e.g. \"/run/kiosk-carousel/control.sock\"",
        ])
        // Relative: the config's folder counts too.
        let relative = String(repeating: "r", count: 108 - fixture.folder.utf8.count - 1)
        let resolved = fixture.folder + "/" + relative
        XCTAssertEqual(resolved.utf8.count, 108)
        XCTAssertEqual(fixture.report("[control]\nsocket = \"\(relative)\"\n"), [
            "2:10: 'socket' \"\(relative)\" (\(resolved)) is 108 bytes long; a Unix socket's path holds at most 107: "
                + "choose a shorter one, e.g. \"/run/kiosk-carousel/control.sock\"",
        ])
    }
}
