#if canImport(Glibc)
import Glibc
#endif

/// Reads what a card's CRTCs show, without keeping DRM master: used by `display-test` to prove
/// that `close()` gives the screen back. Opened *before* the backend and kept open across its
/// `close()`, it also keeps the kernel from restoring the console on its own (which it does
/// when the last file of the device closes), so what it reads afterwards is what the backend
/// restored.
public final class DRMStateProbe {
    public let path: String
    private let fd: Int32
    private let system: DisplaySystem

    public convenience init(path: String) throws { try self.init(path: path, system: LinuxDisplaySystem()) }

    init(path: String, system: DisplaySystem) throws {
        self.path = path
        self.system = system
        do { fd = try system.open(path, flags: O_RDWR | O_CLOEXEC) } catch {
            throw DisplayError(.noDevice, "cannot open \(path)", underlying: error)
        }
        // The first opener becomes master; give it up so the backend can take it.
        try? system.drmDropMaster(fd)
    }

    deinit { system.close(fd) }

    /// One line per CRTC: `crtc ID: fb FB WxH@HZ` or `crtc ID: off`.
    public func crtcStates() -> [String] {
        guard let res = try? system.drmResources(fd) else { return [] }
        return res.crtcs.map { id in
            guard let c = try? system.drmCrtc(fd, id: id) else { return "crtc \(id): unreadable" }
            guard c.framebuffer != 0, let m = c.mode else { return "crtc \(id): off" }
            return "crtc \(id): fb \(c.framebuffer) \(m) at \(c.x),\(c.y)"
        }
    }
}
