/// A DRM connector's `DPMS` property: finding it and setting it through the syscall seam.
///
/// Every KMS driver exposes `DPMS` on its connectors (an enum: On 0, Standby 1, Suspend 2,
/// Off 3). On atomic drivers setting it Off turns the CRTC inactive (page flips then fail with
/// EINVAL) and On turns it active again, through the kernel's legacy helper; on legacy drivers it
/// calls the driver's dpms hook. Its id is looked up each time (blanking is rare; a hotplug may
/// have switched connectors), never cached.
struct ConnectorDPMS {
    /// The levels of the property, as `drm_mode.h` numbers them.
    enum Level: UInt64, CustomStringConvertible {
        case on = 0, standby = 1, suspend = 2, off = 3

        var description: String {
            switch self {
            case .on: return "On"
            case .standby: return "Standby"
            case .suspend: return "Suspend"
            case .off: return "Off"
            }
        }
    }

    /// The property's id.
    let propertyID: UInt32

    /// The connector's `DPMS` property, or nil when it has none.
    static func find(fd: Int32, connector: UInt32, system: DisplaySystem) throws -> ConnectorDPMS? {
        guard let p = try system.drmConnectorProperties(fd, connector: connector).first(where: { $0.name == "DPMS" }) else {
            return nil
        }
        return ConnectorDPMS(propertyID: p.id)
    }

    /// Sets the property to `level` (DRM master only).
    func set(_ level: Level, fd: Int32, connector: UInt32, system: DisplaySystem) throws {
        try system.drmConnectorSetProperty(fd, connector: connector, property: propertyID, value: level.rawValue)
    }
}
