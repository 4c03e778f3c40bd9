import Foundation
import Glibc

/// Settings that validate but will not do what the file asks: `check-config` prints them after
/// `OK` as `FILE:LINE:COLUMN: warning: message` and still exits 0 (docs/configuration.md,
/// "Checking a file"). Each is said at the key that asks for what will not happen.
enum ConfigWarnings {
    /// The warnings of a validated `config` read from `file` (positions from `index`).
    static func of(_ config: KioskConfiguration, file: String, index: TOMLPositionIndex) -> [ConfigDiagnostic] {
        var found: [ConfigDiagnostic] = []
        func warn(at path: ConfigPath, _ message: String) {
            let p = index.keyPosition(path)
            found.append(ConfigDiagnostic(file: file, line: p.line, column: p.column, message: message))
        }
        // `update reboot-when-quiet` asks the kiosk's control socket whether anybody is using it
        // (QuietMoment); without one it never reboots into an installed update. Content from
        // `[content] url` needs no socket: the kiosk watches the import's status file.
        if config.update.url != nil && config.control.socket == nil {
            warn(at: [.key("update"), .key("url")], updateWithoutControlSocket)
        }
        // A pinned CA that cannot be read refuses every download; an http:// URL with one is refused.
        if let ca = config.update.ca {
            if access(ca, R_OK) != 0 {
                warn(at: [.key("update"), .key("ca")], "\(ValueFormat.quoted(ca)) cannot be read (\(String(cString: strerror(errno)))): "
                     + "every update and content download will be refused until it can")
            }
            for (table, url) in [("update", config.update.url), ("content", config.contentSource.url)]
            where url?.lowercased().hasPrefix("http://") == true {
                warn(at: [.key(table), .key("url")], "[update] ca pins the servers' TLS certificates, so this http:// URL "
                     + "will be refused; write its https:// form")
            }
        }
        // EN 301 549 11.2.3.1: no more than three flashes a second. The kiosk turns at most 3
        // items a second on its own and steps attract mode at most twice a second
        // (FlashLimits.clamped, applied by the loader).
        if abs(config.carousel.autoscroll) > FlashLimits.fastestAutoscroll {
            warn(at: [.key("carousel"), .key("autoscroll")], tooFast("autoscroll"))
        }
        if abs(config.idle.attractAutoscroll) > FlashLimits.fastestAutoscroll {
            warn(at: [.key("idle"), .key("attract_autoscroll")], tooFast("attract_autoscroll"))
        }
        if config.idle.attractInterval < FlashLimits.shortestAttractInterval {
            warn(at: [.key("idle"), .key("attract_interval")], """
                attract_interval below 0.5 s could make the screen flash more than three times a second \
                (EN 301 549 11.2.3.1, docs/accessibility.md): the kiosk steps every 0.5 s
                """)
        }
        return found
    }

    static func tooFast(_ key: String) -> String {
        """
        \(key) faster than 3 items a second could make the screen flash more than three times a second \
        (EN 301 549 11.2.3.1, docs/accessibility.md): the kiosk turns at 3
        """
    }

    /// The warning for `[update] url` without `[control] socket`.
    static let updateWithoutControlSocket = """
        [update] url is set but there is no [control] socket: an update it installs never takes \
        effect by itself, because the reboot into it waits for a quiet moment and asks the kiosk \
        through that socket whether anybody is using it (docs/updates.md); add [control] \
        socket = "/run/kiosk-carousel/control.sock" (the image adds it to the config.toml it \
        ships: keep it when you replace that file), or reboot the kiosk yourself after each update
        """
}
