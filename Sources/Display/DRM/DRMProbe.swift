#if canImport(Glibc)
import Glibc
#endif

/// Finds the card, connector, mode and CRTC the DRM backend drives, with errors that say how to
/// fix the setup.
enum DRMProbe {
    /// An opened card with the connector to drive.
    struct Card {
        var fd: Int32
        var path: String
        var resources: DRMResources
        var connector: DRMConnector
    }

    /// `/dev/dri/card*`, in number order.
    static func cardPaths(system: DisplaySystem) -> [String] {
        system.directoryEntries("/dev/dri")
            .filter { $0.hasPrefix("card") && Int($0.dropFirst(4)) != nil }
            .sorted { Int($0.dropFirst(4))! < Int($1.dropFirst(4))! }
            .map { "/dev/dri/\($0)" }
    }

    /// Opens `options.device`, or the first card with a connected connector (the named one when
    /// `options.connector` is set).
    static func openCard(_ options: DisplayOptions, system: DisplaySystem) throws -> Card {
        let candidates = options.device.map { [$0] } ?? cardPaths(system: system)
        guard !candidates.isEmpty else {
            throw DisplayError(.noDevice, "no DRM device in /dev/dri: load the GPU's kernel driver (vc4, i915, amdgpu, "
                + "bochs, virtio-gpu …), or use the framebuffer with [display] backend = \"fbdev\"")
        }
        var problems: [String] = []
        var denied: [String] = []
        var seenConnectors: [String] = []
        for path in candidates {
            let fd: Int32
            do {
                fd = try system.open(path, flags: O_RDWR | O_CLOEXEC | O_NONBLOCK)
            } catch let e as SystemCallError {
                if e.errno == EACCES || e.errno == EPERM { denied.append(path) }
                else if e.errno == ENOENT && options.device != nil {
                    throw DisplayError(.noDevice, "\(path) does not exist: set [display] device to one of "
                        + "\(cardPaths(system: system).joined(separator: ", ")) or leave it out to pick the first card with a screen")
                } else { problems.append("\(path): \(e)") }
                continue
            }
            do {
                guard system.drmSupportsDumbBuffers(fd) else { throw DisplayError(.unsupported, "\(path) has no dumb buffers (not a KMS device)") }
                let res = try system.drmResources(fd)
                var connectors: [DRMConnector] = []
                for id in res.connectors { if let c = try? system.drmConnector(fd, id: id) { connectors.append(c) } }
                seenConnectors += connectors.map { "\($0.name) (\($0.connected ? "connected" : "disconnected"))" }
                if let name = options.connector {
                    if let c = connectors.first(where: { $0.name == name }) {
                        if c.connected && !c.modes.isEmpty { return Card(fd: fd, path: path, resources: res, connector: c) }
                        problems.append("\(path): connector \(name) has no screen connected")
                    }
                } else if let c = connectors.first(where: { $0.connected && !$0.modes.isEmpty }) {
                    return Card(fd: fd, path: path, resources: res, connector: c)
                }
            } catch let e as DisplayError {
                problems.append(e.description)
            } catch {
                problems.append("\(path): \(error)")
            }
            system.close(fd)
        }
        if !denied.isEmpty && denied.count == candidates.count {
            throw DisplayError(.permissionDenied, "permission denied opening \(denied.joined(separator: ", ")): add the kiosk's user "
                + "to the 'video' group (usermod -aG video USER, then log in again), or start it through a seat manager "
                + "(seatd, systemd-logind) that hands out the device")
        }
        if let name = options.connector, !seenConnectors.isEmpty {
            let hasName = seenConnectors.contains { $0.hasPrefix(name + " ") }
            throw DisplayError(.noConnector, hasName
                ? "connector \(name) has no screen connected: plug one in, or set [display] connector to one of \(seenConnectors.joined(separator: ", "))"
                : "no connector named \(name): set [display] connector to one of \(seenConnectors.joined(separator: ", ")), or leave it out")
        }
        if !seenConnectors.isEmpty {
            throw DisplayError(.noConnector, "no connected screen on \(candidates.joined(separator: ", ")) "
                + "(\(seenConnectors.joined(separator: ", "))): plug in a screen and check its cable, or set [display] connector")
        }
        var text = "no usable DRM device among \(candidates.joined(separator: ", "))"
        if !problems.isEmpty { text += " (\(problems.joined(separator: "; ")))" }
        if !denied.isEmpty { text += "; permission denied on \(denied.joined(separator: ", ")): add the user to the 'video' group" }
        throw DisplayError(.noDevice, text + "; or use [display] backend = \"fbdev\"")
    }

    /// The mode to set: the requested one (an error lists the available modes when it is not
    /// offered), else the connector's preferred one, else its first.
    static func chooseMode(_ request: String?, connector: DRMConnector) throws -> DRMMode {
        if let request {
            guard let want = ModeRequest(request) else {
                throw DisplayError(.unavailableMode, "[display] mode \"\(request)\" must look like 1920x1080 or 1920x1080@60")
            }
            guard let m = want.pick(from: connector.modes) else {
                throw DisplayError(.unavailableMode, "mode \(request) is not offered by \(connector.name); available: "
                    + availableModes(connector).joined(separator: ", ") + " (or leave [display] mode out for the preferred one)")
            }
            return m
        }
        guard let m = connector.modes.first(where: \.isPreferred) ?? connector.modes.first else {
            throw DisplayError(.noConnector, "\(connector.name) offers no modes: check the cable and the screen's EDID")
        }
        return m
    }

    /// The connector's modes as `WxH@Hz`, each once, in the kernel's order (preferred marked `*`).
    static func availableModes(_ connector: DRMConnector) -> [String] {
        var seen = Set<String>()
        return connector.modes.compactMap { m in
            let s = m.description + (m.isPreferred ? "*" : "")
            return seen.insert(s).inserted ? s : nil
        }
    }

    /// The CRTC to drive `connector`: the one it is on now, else the first its encoders can use.
    static func chooseCrtc(fd: Int32, connector: DRMConnector, resources: DRMResources, system: DisplaySystem) throws -> UInt32 {
        if connector.encoderID != 0, let e = try? system.drmEncoder(fd, id: connector.encoderID), e.crtcID != 0 {
            return e.crtcID
        }
        for id in connector.encoders {
            guard let e = try? system.drmEncoder(fd, id: id) else { continue }
            for (i, crtc) in resources.crtcs.enumerated() where i < 32 && e.possibleCrtcs & (1 << UInt32(i)) != 0 {
                return crtc
            }
        }
        throw DisplayError(.unsupported, "no CRTC can drive \(connector.name)")
    }
}
