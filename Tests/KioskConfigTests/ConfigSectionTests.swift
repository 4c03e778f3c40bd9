import CarouselCore
import LinuxSystem
import XCTest
@testable import KioskConfig

/// Every section's keys land in the model.
final class ConfigSectionTests: XCTestCase {
    var fixture: ConfigFixture!
    override func setUp() { fixture = ConfigFixture() }
    override func tearDown() { fixture = nil }

    func testEmptyFileGivesTheDefaults() throws {
        var expected = KioskConfiguration()
        expected.file = (fixture.folder as NSString).appendingPathComponent("config.toml")
        XCTAssertEqual(try fixture.load(""), expected)
    }

    func testDisplay() throws {
        let c = try fixture.load("""
            [display]
            backend = "drm"
            device = "/dev/dri/card1"
            connector = "HDMI-A-1"
            mode = "1920x1080@59.94"
            rotation = 270
            buffers = 3
            render_threads = 2
            headless_size = [800, 480]
            """).display
        XCTAssertEqual(c.backend, .drm)
        XCTAssertEqual(c.device, "/dev/dri/card1")
        XCTAssertEqual(c.connector, "HDMI-A-1")
        XCTAssertEqual(c.parsedMode, DisplayMode(width: 1920, height: 1080, refresh: 59.94))
        XCTAssertEqual(c.rotation, 270)
        XCTAssertEqual(c.buffers, 3)
        XCTAssertEqual(c.renderThreads, 2)
        XCTAssertTrue(c.headlessSize == (800, 480))
        XCTAssertEqual(DisplayMode(parsing: "640x480"), DisplayMode(width: 640, height: 480))
        for bad in ["640x", "x480", "640x480@", "640x480@0", "0x480", "640x480@60@1", "+640x480", "640x480@nan", "99999x1"] {
            XCTAssertNil(DisplayMode(parsing: bad), bad)
        }
    }

    /// Burn-in care: off unless asked for; at most 16 pixels; a step at most once a second.
    func testPixelShift() throws {
        XCTAssertEqual(KioskConfiguration().display.pixelShift, 0, "off by default")
        XCTAssertEqual(KioskConfiguration().display.pixelShiftInterval, 600)
        let c = try fixture.load("[display]\npixel_shift = 16\npixel_shift_interval = 90\n").display
        XCTAssertEqual(c.pixelShift, 16)
        XCTAssertEqual(c.pixelShiftInterval, 90)
        XCTAssertNotEqual(c, KioskConfiguration().display, "a reload sees the change")
        XCTAssertEqual(fixture.report("[display]\npixel_shift = 17\n"), ["2:15: 'pixel_shift' 17 is out of range (0 to 16)"])
        XCTAssertEqual(fixture.report("[display]\npixel_shift = -1\n"), ["2:15: 'pixel_shift' -1 is out of range (0 to 16)"])
        XCTAssertEqual(fixture.report("[display]\npixel_shift_interval = 0.5\n"),
                       ["2:24: 'pixel_shift_interval' 0.5 is out of range (1 to 86400)"])
    }

    /// `render_scale`: 1 by default, a number from 0.5 to 1, or "auto"; anything else is
    /// reported at its line and column.
    func testRenderScale() throws {
        XCTAssertEqual(KioskConfiguration().display.renderScale, .fixed(1))
        XCTAssertEqual(try fixture.load("[display]\nrender_scale = 0.5\n").display.renderScale, .fixed(0.5))
        XCTAssertEqual(try fixture.load("[display]\nrender_scale = 1\n").display.renderScale, .fixed(1))
        XCTAssertEqual(try fixture.load("[display]\nrender_scale = 0.75\n").display.renderScale.initial, 0.75)
        let auto = try fixture.load("[display]\nrender_scale = \"auto\"\n").display
        XCTAssertEqual(auto.renderScale, .auto)
        XCTAssertEqual(auto.renderScale.initial, 1, "auto starts at full size")
        XCTAssertNotEqual(auto, KioskConfiguration().display, "a reload sees the change")
        XCTAssertEqual(fixture.report("[display]\nrender_scale = 0.4\n"),
                       ["2:16: 'render_scale' 0.4 is out of range (0.5 to 1, or \"auto\")"])
        XCTAssertEqual(fixture.report("[display]\nrender_scale = 2\n"),
                       ["2:16: 'render_scale' 2 is out of range (0.5 to 1, or \"auto\")"])
        XCTAssertEqual(fixture.report("[display]\nrender_scale = \"half\"\n"),
                       ["2:16: 'render_scale' \"half\" is not a number or \"auto\"; write a number 0.5 to 1 or \"auto\""])
        XCTAssertEqual(fixture.report("[display]\nrender_scale = true\n"),
                       ["2:16: 'render_scale' must be a number (0.5 to 1) or \"auto\", not a boolean"])
    }

    func testCarouselLayoutPhysicsAndGestures() throws {
        let c = try fixture.load("""
            [carousel]
            type = "conveyor-belt"
            vertical = true
            item_size = [320, 240]
            item_width = 300
            perspective = -0.001
            viewpoint_offset = [0, -20]
            content_offset = [10, 5]
            count = 10
            arc = 3.0
            radius = 500
            angle = 0.3
            tilt = 0.5
            spacing = 0.4
            fade_min = -2
            fade_max = 2
            fade_range = 1.5
            fade_min_alpha = 0.1
            show_backfaces = false
            wrap = true
            offset_multiplier = 1.5
            visible_items = 7
            placeholders = 2
            max_items_on_front = 4
            roller_radius = 120
            rotate_factor = 0.2
            focus_point = [0.5, 0.7]
            inset = 30
            corner_radius = 8
            tick_hz = 240
            scroll_speed = 2
            scroll_enabled = false
            deceleration_rate = 0.9
            bounces = false
            bounce_distance = 0.5
            stop_at_item_boundary = false
            scroll_to_item_boundary = false
            paging = true
            scroll_duration = 0.6
            autoscroll = -0.5
            center_item_when_selected = false
            pan_slop = 4
            ignore_perpendicular_swipes = false
            tap_max_movement = 20
            tap_max_duration = 0.5
            velocity_window = 0.05
            """)
        var o = CarouselOptions()
        o.type = .conveyorBelt; o.vertical = true; o.itemSize = Size2(320, 240); o.itemWidth = 300; o.perspective = -0.001
        o.viewpointOffset = Point2(0, -20); o.contentOffset = Point2(10, 5); o.count = 10; o.arc = 3; o.radius = 500; o.angle = 0.3
        o.tilt = 0.5; o.spacing = 0.4; o.fadeMin = -2; o.fadeMax = 2; o.fadeRange = 1.5; o.fadeMinAlpha = 0.1; o.showBackfaces = false
        o.wrap = true; o.offsetMultiplier = 1.5; o.visibleItems = 7; o.maxItemsOnFront = 4; o.rollerRadius = 120; o.rotateFactor = 0.2
        o.focusPoint = Point2(0.5, 0.7); o.inset = 30; o.cornerRadius = 8; o.tickHz = 240; o.scrollSpeed = 2; o.scrollEnabled = false
        o.decelerationRate = 0.9; o.bounces = false; o.bounceDistance = 0.5; o.stopAtItemBoundary = false; o.scrollToItemBoundary = false
        o.paging = true; o.scrollDuration = 0.6; o.autoscroll = -0.5; o.centerItemWhenSelected = false
        o.placeholders = 2
        XCTAssertEqual(c.carousel, o)
        var g = GestureOptions()
        g.panSlop = 4; g.ignorePerpendicularSwipes = false; g.tapMaxMovement = 20; g.tapMaxDuration = 0.5
        g.velocityWindow = 0.05
        XCTAssertEqual(c.gestures, g)
        XCTAssertEqual(c.gestures.velocityWindow, 0.05)
    }

    func testCustomPathKeyframesAreSortedByOffset() throws {
        let c = try fixture.load("""
            [carousel]
            type = "custom"
            [[carousel.keyframes]]
            offset = 1
            translate = [300, 0, -100]
            rotate = [0, -30, 0]
            scale = 0.8
            alpha = 0.5
            [[carousel.keyframes]]
            offset = -1
            translate = [-300, 0, -100]
            [[carousel.keyframes]]
            offset = 0
            """).carousel
        XCTAssertEqual(c.keyframes.map(\.offset), [-1, 0, 1])
        XCTAssertEqual(c.keyframes[2], PathKeyframe(offset: 1, translate: (300, 0, -100), rotate: (0, -30, 0), scale: 0.8, alpha: 0.5))
        XCTAssertEqual(c.keyframes[0], PathKeyframe(offset: -1, translate: (-300, 0, -100)))
        XCTAssertEqual(c.keyframes[1], PathKeyframe(offset: 0))
        // The inline form reads the same.
        let inline = try fixture.load("""
            [carousel]
            type = "custom"
            keyframes = [{ offset = -1, scale = 0.5 }, { offset = 1, alpha = 0.2 }]
            """).carousel
        XCTAssertEqual(inline.keyframes, [PathKeyframe(offset: -1, scale: 0.5), PathKeyframe(offset: 1, alpha: 0.2)])
    }

    func testInputRotaryDialAndKeymap() throws {
        let c = try fixture.load("""
            [input]
            seat = "seat1"
            devices = ["/dev/input/event3", "/dev/input/event4"]
            calibration = [0, 1, 0, -1, 0, 1]
            [input.rotary]
            name = "rotary@4"
            axis = "ABS_X"
            detents_per_item = 2
            invert = true
            acceleration = 0.5
            fast_interval = 0.03
            select_key = "KEY_SPACE"
            [input.dial]
            center = [1600, 540]
            inner_radius = 100
            outer_radius = 250
            items_per_turn = 12
            [input.keymap]
            KEY_PAGEDOWN = "right"
            BTN_LEFT = "enter"
            """)
        XCTAssertEqual(c.input.seat, "seat1")
        XCTAssertEqual(c.input.devices, ["/dev/input/event3", "/dev/input/event4"])
        XCTAssertEqual(c.input.calibration, [0, 1, 0, -1, 0, 1])
        var r = RotarySettings()
        r.name = "rotary@4"; r.axis = .absX; r.invert = true; r.selectKey = "KEY_SPACE"
        XCTAssertEqual(c.input.rotary, r)
        XCTAssertEqual(c.gestures.detentsPerItem, 2)
        XCTAssertEqual(c.gestures.rotaryAcceleration, 0.5)
        XCTAssertEqual(c.gestures.rotaryFastInterval, 0.03)
        XCTAssertEqual(c.gestures.dial, DialOptions(center: Point2(1600, 540), innerRadius: 100, outerRadius: 250, itemsPerTurn: 12))
        XCTAssertEqual(c.input.keymap, ["KEY_PAGEDOWN": .right, "BTN_LEFT": .enter])
        // Absent tables stay absent.
        let plain = try fixture.load("[input]\nseat = \"seat0\"\n")
        XCTAssertNil(plain.input.rotary)
        XCTAssertNil(plain.gestures.dial)
    }

    /// The reference allows "a code up to 767" for the knob's button: written as a TOML
    /// number it is that code, as the quoted form is; past 767 it is refused at the value.
    func testRotarySelectKeyAsANumber() throws {
        for written in ["28", "\"28\""] {
            let c = try fixture.load("[input.rotary]\nname = \"knob\"\nselect_key = \(written)\n")
            let key = try XCTUnwrap(c.input.rotary?.selectKey, written)
            XCTAssertEqual(LinuxKeyCodes.code(of: key), 28, written)
        }
        XCTAssertEqual(fixture.report("[input.rotary]\nname = \"knob\"\nselect_key = 768\n"),
                       ["3:14: 'select_key' 768 is out of range (key codes are 0 to 767)"])
    }

    /// A picture and a folder whose names are on disk in NFD ("o" + combining diaeresis, as
    /// macOS writes them) are found from the config's NFC spelling: the same name to a person.
    func testNamesInAnotherUnicodeNormalizationAreTheFilesOnDisk() throws {
        let folderOnDisk = "Bilder-Gro\u{0308}ße", fileOnDisk = "Ba\u{0308}r.png"
        let picture = fixture.write(folderOnDisk + "/" + fileOnDisk, "x")
        XCTAssertEqual("Bilder-Größe/Bär.png".unicodeScalars.count + 2, (folderOnDisk + "/" + fileOnDisk).unicodeScalars.count)
        let c = try fixture.load("[items]\ndirectory = \"Bilder-Größe\"\nextensions = [\"txt\"]\n[[item]]\nimage = \"Bilder-Größe/Bär.png\"\n")
        XCTAssertEqual(c.items.first?.image.map { Array($0.unicodeScalars) }, Array(picture.unicodeScalars))
        XCTAssertEqual(c.itemsDirectory.directory.map { Array($0.unicodeScalars) },
                       Array((fixture.folder + "/" + folderOnDisk).unicodeScalars))
    }

    func testIdle() throws {
        let text = """
            [idle]
            attract_after = 30
            attract_interval = 4
            attract_autoscroll = 0.25
            home_after = 60
            home_item = %@
            blank_after = 600
            [[item]]
            id = "a"
            [[item]]
            id = "b"
            """
        let byIndex = try fixture.load(text.replacingOccurrences(of: "%@", with: "1")).idle
        var expected = IdleSettings()
        expected.attractAfter = 30; expected.attractInterval = 4; expected.attractAutoscroll = 0.25
        expected.homeAfter = 60; expected.homeItem = 1; expected.blankAfter = 600
        XCTAssertEqual(byIndex, expected)
        XCTAssertEqual(try fixture.load(text.replacingOccurrences(of: "%@", with: "\"b\"")).idle, expected)
    }

    func testThemeAndItemStyleOverrides() throws {
        fixture.write("media/a.svg")
        let c = try fixture.load("""
            [theme]
            background = "#000000"
            background_bottom = "#80112233"
            [theme.card]
            background = "#123456"
            corner_radius = 20
            shadow = true
            title_lines = 3
            text_align = "left"
            image_fit = "contain"
            font = "Noto Sans"
            [theme.page_indicator]
            show = false
            max_items = 12
            current_color = "#FFD166"
            position = "top"
            [theme.title_overlay]
            show = false
            size = 40
            background = "#66000000"
            [theme.dial]
            show = false
            width = 4
            [[item]]
            id = "plain"
            [[item]]
            id = "styled"
            title = "Styled"
            image = "media/a.svg"
            background = "#FF0000"
            border_width = 3
            """)
        XCTAssertEqual(c.theme.background, 0xFF00_0000)
        XCTAssertEqual(c.theme.backgroundBottom, 0x8011_2233)
        XCTAssertEqual(c.theme.card.background, 0xFF12_3456)
        XCTAssertEqual(c.theme.card.cornerRadius, 20)
        XCTAssertTrue(c.theme.card.shadow)
        XCTAssertEqual(c.theme.card.titleLines, 3)
        XCTAssertEqual(c.theme.card.textAlign, "left")
        XCTAssertEqual(c.theme.card.imageFit, "contain")
        XCTAssertEqual(c.theme.card.font, "Noto Sans")
        XCTAssertFalse(c.theme.showPageIndicator)
        XCTAssertEqual(c.theme.pageIndicatorMaxItems, 12)
        XCTAssertEqual(c.theme.pageIndicator.currentColor, 0xFFFF_D166)
        XCTAssertEqual(c.theme.pageIndicator.position, .top)
        XCTAssertFalse(c.theme.showTitle)
        XCTAssertEqual(c.theme.titleOverlay.size, 40)
        XCTAssertEqual(c.theme.titleOverlay.background, 0x6600_0000)
        XCTAssertFalse(c.theme.showDial)
        XCTAssertEqual(c.theme.dialRing.width, 4)
        // An item starts from [theme.card] and overrides only what it says.
        XCTAssertEqual(c.items[0].style, c.theme.card)
        var styled = c.theme.card
        styled.background = 0xFFFF_0000
        styled.borderWidth = 3
        XCTAssertEqual(c.items[1].style, styled)
        XCTAssertEqual(c.items[0].id, "plain")
        XCTAssertEqual(c.items[1].title, "Styled")
    }

    func testItemsActionsAndControl() throws {
        fixture.write("media/one.png")
        fixture.write("bin/show.sh", "#!/bin/sh\n", executable: true)
        fixture.write("work/.keep")
        let c = try fixture.load("""
            [actions]
            inherit_environment = false
            working_directory = "work"
            [actions.env]
            LANG = "de_DE.UTF-8"
            EMPTY = ""
            [control]
            socket = "run/control.sock"
            [[item]]
            title = "First"
            subtitle = "sub"
            image = "media/one.png"
            action = { exec = ["bin/show.sh", "--fast"], mode = "background", timeout = 30, cwd = "work" }
            [[item]]
            title = "Second"
            action = { exec = ["mpv", "film.mp4"] }
            [[item]]
            title = "Third"
            action = { emit = "door" }
            [[item]]
            title = "Fourth"
            """)
        let f = fixture.folder
        XCTAssertFalse(c.actions.inheritEnvironment)
        XCTAssertEqual(c.actions.workingDirectory, f + "/work")
        XCTAssertEqual(c.actions.env, ["LANG": "de_DE.UTF-8", "EMPTY": ""])
        XCTAssertEqual(c.control.socket, f + "/run/control.sock")
        XCTAssertEqual(c.items.map(\.id), ["item1", "item2", "item3", "item4"])
        XCTAssertEqual(c.items[0].subtitle, "sub")
        XCTAssertEqual(c.items[0].image, f + "/media/one.png")
        XCTAssertEqual(c.items[0].action, .exec(argv: [f + "/bin/show.sh", "--fast"], mode: .background, timeout: 30, cwd: f + "/work"))
        XCTAssertEqual(c.items[1].action, .exec(argv: ["mpv", "film.mp4"], mode: .foreground, timeout: nil, cwd: nil))
        XCTAssertEqual(c.items[2].action, .emit("door"))
        XCTAssertEqual(c.items[3].action, .none)
        XCTAssertEqual(fixture.report("[actions.env]\n\"1BAD\" = \"x\"\n"),
                       ["2:1: '1BAD' is not an environment variable name (letters, digits and _, not starting with a digit)"])
    }

    /// Issue 27 §14: an exec action's own `env`, checked as `[actions.env]` is.
    func testAnExecActionsOwnEnvironment() throws {
        let c = try fixture.load("[[item]]\naction = { exec = [\"mpv\"], env = { LANG = \"de_DE.UTF-8\", HOME = \"\" } }\n")
        XCTAssertEqual(c.items[0].action, .exec(argv: ["mpv"], mode: .foreground, timeout: nil, cwd: nil,
                                                env: ["LANG": "de_DE.UTF-8", "HOME": ""]))
        XCTAssertEqual(fixture.report("[[item]]\naction = { exec = [\"mpv\"], env = { \"1BAD\" = \"x\" } }\n"),
                       ["2:36: 'env' '1BAD' is not an environment variable name (letters, digits and _, not starting with a digit)"])
        XCTAssertEqual(fixture.report("[[item]]\naction = { exec = [\"mpv\"], env = { N = 3 } }\n"),
                       ["2:40: 'env' N must be a string, not an integer"])
        XCTAssertEqual(fixture.report("[[item]]\naction = { exec = [\"mpv\"], env = \"LANG=C\" }\n"),
                       ["2:34: 'env' must be a table such as { LANG = \"en_GB.UTF-8\" }, not a string"])
        XCTAssertEqual(fixture.report("[[item]]\naction = { emit = \"x\", env = { A = \"b\" } }\n"),
                       ["2:30: 'env' applies only to exec actions"])
        XCTAssertTrue(ConfigReference.markdown().contains("| `env` | table of strings"), "the reference has the key")
    }

    func testItemsFromAFolderFollowTheItemTables() throws {
        for name in ["10-tenth.png", "2-second_item.jpg", "01-first.svg", "notes.txt", ".hidden.png", "Zebra.PNG"] { fixture.write("media/" + name) }
        fixture.write("media/sub/inner.png")
        let c = try fixture.load("""
            [theme.card]
            corner_radius = 4
            [items]
            directory = "media/"
            [[item]]
            id = "hand"
            title = "By hand"
            """)
        XCTAssertEqual(c.itemsDirectory.directory, fixture.folder + "/media")
        XCTAssertEqual(c.items.map(\.id), ["hand", "file:01-first.svg", "file:2-second_item.jpg", "file:10-tenth.png", "file:Zebra.PNG"])
        XCTAssertEqual(c.items.map(\.title), ["By hand", "first", "second item", "tenth", "Zebra"])
        XCTAssertEqual(c.items[1].image, fixture.folder + "/media/01-first.svg")
        XCTAssertEqual(c.items.map(\.fromDirectory), [false, true, true, true, true])
        XCTAssertTrue(c.items.allSatisfy { $0.style.cornerRadius == 4 })
        let only = try fixture.load("[items]\ndirectory = \"media\"\nextensions = [\".SVG\"]\n")
        XCTAssertEqual(only.items.map(\.id), ["file:01-first.svg"])
        XCTAssertEqual(fixture.report("[items]\ndirectory = \"media\"\n[[item]]\nid = \"file:01-first.svg\"\n"),
                       ["2:13: the folder's file \"file:01-first.svg\" has the same id as an [[item]]; change that item's id"])
        XCTAssertThrowsError(try ItemsDirectory.items(in: fixture.folder + "/none", extensions: ["png"], style: CardStyle()))
    }

    func testTitlesFromFileNames() {
        XCTAssertEqual(ItemsDirectory.title(fromFileName: "03-harbour_at_dusk.jpg"), "harbour at dusk")
        XCTAssertEqual(ItemsDirectory.title(fromFileName: "2024.png"), "2024")
        XCTAssertEqual(ItemsDirectory.title(fromFileName: "café au lait.svg"), "café au lait")
        XCTAssertEqual(ItemsDirectory.title(fromFileName: "7_.png"), "7")
        XCTAssertTrue(ItemsDirectory.nameOrder("item2", "item10"))
        XCTAssertTrue(ItemsDirectory.nameOrder("apple", "Banana"))
        XCTAssertFalse(ItemsDirectory.nameOrder("item10", "item2"))
        XCTAssertTrue(ItemsDirectory.nameOrder("a", "b"))
        XCTAssertTrue(ItemsDirectory.nameOrder("a01", "a1"))
    }

    func testColours() {
        XCTAssertEqual(ColorValue.parse("#1E90FF"), 0xFF1E_90FF)
        XCTAssertEqual(ColorValue.parse("#801e90ff"), 0x801E_90FF)
        for bad in ["1E90FF", "#1E90F", "#GGGGGG", "#1E90FF0", "", "#", "#１２３４５６"] { XCTAssertNil(ColorValue.parse(bad), bad) }
        XCTAssertEqual(ColorValue.format(0xFF1E_90FF), "#1E90FF")
        XCTAssertEqual(ColorValue.format(0x0000_0001), "#00000001")
    }
}
