#if canImport(Glibc)
import Glibc
#endif
import CarouselCore
import CKioskSys
import Logging
import Raster

/// The screen through the Linux framebuffer (`/dev/fbN`), for boards without KMS.
///
/// - Reads `FBIOGET_VSCREENINFO`/`FSCREENINFO`, maps the framebuffer memory.
/// - 32 bpp (XRGB, or XBGR swapped) is written as it is; 16 bpp is converted to RGB565.
/// - Double buffering by panning when the virtual height holds two screens (asking the driver
///   for it with `FBIOPUT_VSCREENINFO` if needed): frames go into the hidden page, then
///   `FBIOPAN_DISPLAY` shows it. Otherwise frames are written into the visible page, after
///   `FBIO_WAITFORVSYNC` when the driver supports it (fewer tears).
/// - Pacing: fbdev has no completion events, so its output caps frames by the clock at the
///   refresh rate computed from the timings (60 Hz when unknown; `OutputPacing.clock`).
///   `onFrameShown` reports when the pan or write returned (`CommitOutcome.shown`).
/// - The console is put in graphics mode (`KDSETMODE`) so its cursor does not draw over the
///   picture; `close()` puts back the console's picture, panning and text mode.
/// - Screen power (`setScreenPower`): `FBIOBLANK` (powerdown / unblank). While blanked nothing
///   is written; unblanking asks for the whole frame. Drivers without it (the ioctl fails) make
///   the caller fall back to a black frame. `release()` unblanks for the console, `reacquire()`
///   blanks again if still wanted, `close()` unblanks.
///
/// Its slots are the framebuffer's pages: two when it pans, else one. `FBDevDisplay` is the
/// `Output` around it.
public final class FBDevBackend: OutputBackend {
    public let options: DisplayOptions
    public let devicePath: String
    public let fd: Int32
    public let refreshRate: Double
    /// The pixel layout written.
    public let format: ScanoutFormat
    /// True when frames are double-buffered by panning.
    public let pans: Bool
    /// True when `FBIO_WAITFORVSYNC` works.
    public let waitsForVSync: Bool
    public private(set) var restoreSummary: String?
    /// True while the screen is blanked with `FBIOBLANK` (`setScreenPower(false)`).
    public private(set) var isScreenOff = false

    let system: DisplaySystem
    private let log = Logger(label: "kiosk.display.fbdev")
    private let memory: UnsafeMutableRawPointer
    private let mappedLength: Int
    private let pitch: Int
    private let physical: (width: Int, height: Int)
    private let original: fb_var_screeninfo
    private var current: fb_var_screeninfo
    /// The console's picture, put back on close.
    private let savedPicture: [UInt8]
    /// The page on screen.
    private var front = 0
    private weak var events: (any OutputEvents)?
    private(set) var isReleased = false
    private(set) var isClosed = false
    private var consoleGraphics = false

    /// Opens `options.device` (or `/dev/fb0`) through `system`.
    init(options: DisplayOptions, system: DisplaySystem) throws {
        self.options = options
        self.system = system
        let path = options.device ?? "/dev/fb0"
        devicePath = path
        let dev: Int32
        do {
            dev = try system.open(path, flags: O_RDWR | O_CLOEXEC)
        } catch let e as SystemCallError {
            if e.errno == EACCES || e.errno == EPERM {
                throw DisplayError(.permissionDenied, "permission denied opening \(path): add the kiosk's user to the 'video' group "
                    + "(usermod -aG video USER, then log in again)")
            }
            throw DisplayError(.noDevice, "cannot open \(path)", underlying: e, parenthesized: true,
                               advice: "the board has no framebuffer device; enable the display driver's fbdev support "
                                   + "(or DRM's fbdev emulation), or set [display] device")
        }
        fd = dev
        var ok = false
        defer { if !ok { system.close(dev) } }
        var v: fb_var_screeninfo
        var f: fb_fix_screeninfo
        do {
            v = try system.fbVariableInfo(dev)
            f = try system.fbFixedInfo(dev)
        } catch {
            throw DisplayError(.unsupported, "\(path) is not a framebuffer device", underlying: error, parenthesized: true)
        }
        original = v
        guard let fmt = Self.format(of: v) else {
            throw DisplayError(.unsupported, "\(path) uses \(v.bits_per_pixel) bpp (red at bit \(v.red.offset)); supported: 32 bpp "
                + "and 16 bpp RGB565; set the depth with `fbset -depth 32` or the driver's options")
        }
        format = fmt
        physical = (Int(v.xres), Int(v.yres))
        guard physical.width > 0, physical.height > 0 else { throw DisplayError(.unsupported, "\(path) reports a 0x0 screen") }

        // Double buffer by panning when the driver can (ypanstep != 0 and room for two pages).
        let pageRows = Int(v.yres)
        var canPan = f.ypanstep != 0 && Int(v.yres_virtual) >= 2 * pageRows
        if f.ypanstep != 0 && !canPan {
            var want = v
            want.yres_virtual = v.yres * 2
            want.yoffset = 0
            if (try? system.fbPutVariableInfo(dev, &want)) != nil, let nv = try? system.fbVariableInfo(dev),
               let nf = try? system.fbFixedInfo(dev), Int(nv.yres_virtual) >= 2 * pageRows,
               Int(nf.smem_len) >= Int(nf.line_length) * 2 * pageRows {
                v = nv; f = nf; canPan = true
            }
        }
        current = v
        pans = canPan
        pitch = Int(f.line_length)
        let needed = pitch * pageRows * (canPan ? 2 : 1)
        mappedLength = max(Int(f.smem_len), needed)
        guard pitch >= physical.width * fmt.bytesPerPixel, Int(f.smem_len) >= pitch * pageRows else {
            throw DisplayError(.unsupported, "\(path): line length \(pitch) and memory \(f.smem_len) do not hold a \(physical.width)x\(physical.height) screen")
        }
        do { memory = try system.mmap(length: mappedLength, fd: dev, offset: 0) } catch {
            throw DisplayError(.failed, "cannot map \(path)", underlying: error)
        }
        // Save what the console shows (the visible page) to put it back on close.
        let visibleOffset = min(Int(v.yoffset) * pitch, mappedLength)
        savedPicture = Array(UnsafeRawBufferPointer(start: memory + visibleOffset,
                                                    count: max(0, min(pitch * pageRows, mappedLength - visibleOffset))))
        refreshRate = Self.refreshRate(of: v)
        waitsForVSync = (try? system.fbWaitForVSync(dev)) != nil
        front = canPan ? Int(v.yoffset) / max(1, pageRows) : 0
        consoleGraphics = system.setConsoleGraphicsMode(true)
        ok = true
        log.info("fbdev \(path) \(physical.width)x\(physical.height) \(v.bits_per_pixel) bpp, \(canPan ? "panning double buffer" : "single buffer"), vsync wait \(waitsForVSync ? "yes" : "no"), \(refreshRate) Hz")
    }

    deinit { close() }

    /// The pixel layout for the screen info, or nil when unsupported.
    static func format(of v: fb_var_screeninfo) -> ScanoutFormat? {
        switch v.bits_per_pixel {
        case 32 where v.red.offset == 16 && v.green.offset == 8 && v.blue.offset == 0: return .xrgb8888
        case 32 where v.red.offset == 0 && v.green.offset == 8 && v.blue.offset == 16: return .xbgr8888
        case 16 where v.red.offset == 11 && v.green.offset == 5 && v.blue.offset == 0 && v.green.length == 6: return .rgb565
        default: return nil
        }
    }

    /// Hz from the pixel clock (picoseconds) and the timings; 60 when the driver gives none.
    static func refreshRate(of v: fb_var_screeninfo) -> Double {
        let htotal = Double(v.xres + v.left_margin + v.right_margin + v.hsync_len)
        let vtotal = Double(v.yres + v.upper_margin + v.lower_margin + v.vsync_len)
        guard v.pixclock > 0, htotal > 0, vtotal > 0 else { return 60 }
        let hz = 1e12 / (Double(v.pixclock) * htotal * vtotal)
        return hz.isFinite && hz >= 10 && hz <= 500 ? hz : 60
    }

    // MARK: OutputBackend

    public var screenSize: (width: Int, height: Int) {
        options.rotation.logicalSize(physicalWidth: physical.width, physicalHeight: physical.height)
    }
    public var rotation: DisplayRotation { options.rotation }
    public var slotCount: Int { pans ? 2 : 1 }
    public var isShowing: Bool { !isClosed && !isReleased && !isScreenOff }
    public var isIdle: Bool { true }
    public var pacing: OutputPacing { .clock }
    public var health: DisplayHealth { isShowing ? .showing : .notShowing }

    public func attach(_ events: any OutputEvents) { self.events = events }

    /// The hidden page when panning, else the visible one after waiting for vsync (fewer tears).
    public func acquireSlot() -> (index: Int, buffer: ScanoutBuffer)? {
        let page = pans ? 1 - front : 0
        if !pans && waitsForVSync { try? system.fbWaitForVSync(fd) }
        return (page, ScanoutBuffer(base: memory + page * Int(physical.height) * pitch, pitch: pitch,
                                    width: physical.width, height: physical.height, format: format))
    }

    /// Pans to the page written (when double-buffered); a write into the visible page is on screen
    /// already.
    public func commit(slot page: Int, sequence: UInt64, at now: Double) throws -> CommitOutcome {
        if pans {
            var v = current
            v.xoffset = 0
            v.yoffset = UInt32(page * physical.height)
            do { try system.fbPan(fd, v) } catch {
                throw DisplayError(.failed, "\(devicePath): FBIOPAN_DISPLAY failed", underlying: error)
            }
            current = v
            front = page
        }
        return .shown(crtcID: 0)
    }

    public func firstFrameShown() { log.info("\(devicePath): first frame on screen") }

    public func release() {
        guard !isClosed, !isReleased else { return }
        isReleased = true
        if isScreenOff { try? system.fbBlank(fd, false) }
        if consoleGraphics { system.setConsoleGraphicsMode(false) }
    }

    public func reacquire() {
        guard !isClosed, isReleased else { return }
        isReleased = false
        consoleGraphics = system.setConsoleGraphicsMode(true)
        events?.slotsLost()
        if isScreenOff && (try? system.fbBlank(fd, true)) == nil {
            log.warning("\(devicePath): FBIOBLANK failed after taking the screen back; drawing again")
            isScreenOff = false
        }
    }

    public func setScreenPower(_ on: Bool) -> ScreenPowerResult {
        guard !isClosed else { return .unsupported(reason: "\(devicePath) is closed") }
        if !on && isScreenOff { return .switched(.fbBlank) }
        if on && !isScreenOff { return .unsupported(reason: "the screen of \(devicePath) was not switched off") }
        if !isReleased {
            do { try system.fbBlank(fd, !on) } catch {
                if !on { return .unsupported(reason: "\(devicePath): \(error)") }
                log.warning("\(devicePath): \(error); drawing again anyway")
            }
        }
        isScreenOff = !on
        if on { events?.slotsLost() }
        return .switched(.fbBlank)
    }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if isScreenOff { try? system.fbBlank(fd, false) }
        // Put the console's page back where it was and its picture into it.
        let visible = memory + min(Int(original.yoffset) * pitch, mappedLength)
        savedPicture.withUnsafeBytes { if let base = $0.baseAddress { visible.copyMemory(from: base, byteCount: $0.count) } }
        var v = original
        if (try? system.fbPutVariableInfo(fd, &v)) == nil { try? system.fbPan(fd, original) }
        if consoleGraphics { system.setConsoleGraphicsMode(false) }
        system.munmap(memory, length: mappedLength)
        system.close(fd)
        restoreSummary = "restored the console picture, panning offset \(original.yoffset) and text mode"
        log.info("\(devicePath): \(restoreSummary!)")
    }
}
