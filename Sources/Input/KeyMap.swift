import CEvdev
import Foundation
import CarouselCore
import LinuxSystem

/// Linux key code names (`KEY_ENTER`, `BTN_LEFT`, …) and numbers: `LinuxKeyCodes`, the table
/// the config validates names with, so every name `check-config` accepts is bound.
public enum KeyCodeNames {
    /// The code of a `KEY_*`/`BTN_*` name or a decimal key code (`"28"`); nil when unknown.
    public static func code(of name: String) -> UInt16? { LinuxKeyCodes.code(of: name) }

    /// The kernel's name of a key code (`KEY_ENTER`), or its number when it has none.
    public static func name(of code: UInt16) -> String { LinuxKeyCodes.name(of: code) }
}

/// Which Linux key code drives which kiosk key. Codes not in the map are ignored.
public struct KeyMap: Equatable, Sendable {
    public private(set) var bindings: [UInt16: KeyName]

    public init(bindings: [UInt16: KeyName]) { self.bindings = bindings }

    /// The defaults: arrows step, Enter/keypad Enter/Space/Select/OK select, Escape/Back cancel,
    /// Home goes home, Language (KEY_LANGUAGE) shows the next language; a remote control's keys
    /// and a keyboard's work out of the box.
    public static let standard = KeyMap(bindings: [
        UInt16(KEY_LEFT): .left, UInt16(KEY_RIGHT): .right, UInt16(KEY_UP): .up, UInt16(KEY_DOWN): .down,
        UInt16(KEY_ENTER): .enter, UInt16(KEY_KPENTER): .enter, UInt16(KEY_SPACE): .enter,
        UInt16(KEY_SELECT): .enter, UInt16(KEY_OK): .enter,
        UInt16(KEY_ESC): .escape, UInt16(KEY_BACK): .escape,
        UInt16(KEY_HOME): .home,
        UInt16(KEY_LANGUAGE): .language,
        // Speech (docs/accessibility.md): a help key turns it on and off, "again" repeats.
        UInt16(KEY_HELP): .speech, UInt16(KEY_AGAIN): .repeat,
        UInt16(KEY_VOLUMEUP): .volumeUp, UInt16(KEY_VOLUMEDOWN): .volumeDown,
        // seeing (issue 30): a remote's Zoom key for large text, Pause/Play-Pause for attract mode
        UInt16(KEY_ZOOM): .largeText, UInt16(KEY_PAUSE): .pause, UInt16(KEY_PLAYPAUSE): .pause,
    ])

    /// The kiosk key of a code.
    public func key(for code: UInt16) -> KeyName? { bindings[code] }

    /// The standard map with `[input] keymap` entries (`"KEY_A" = "left"`) added or replacing
    /// defaults. Throws one error naming every unknown key code name.
    public static func standard(adding entries: [String: KeyName]) throws -> KeyMap {
        var map = standard
        var unknown: [String] = []
        for (name, key) in entries.sorted(by: { $0.key < $1.key }) {
            guard let code = KeyCodeNames.code(of: name) else { unknown.append(name); continue }
            map.bindings[code] = key
        }
        if !unknown.isEmpty {
            throw InputConfigError("unknown key code name\(unknown.count == 1 ? "" : "s") "
                + unknown.map { "\"\($0)\"" }.joined(separator: ", ")
                + " in the key map (use names such as KEY_A, KEY_PAGEDOWN, BTN_LEFT or a decimal code)")
        }
        return map
    }

    /// Parses key map entries given as strings on both sides (`"KEY_A" = "left"`).
    public static func standard(addingNames entries: [String: String]) throws -> KeyMap {
        var typed: [String: KeyName] = [:]
        var bad: [String] = []
        for (code, key) in entries {
            if let k = KeyName(rawValue: key) { typed[code] = k } else { bad.append("\(code) = \"\(key)\"") }
        }
        if !bad.isEmpty {
            throw InputConfigError("key map: \(bad.sorted().joined(separator: ", ")): the kiosk key must be one of "
                + KeyName.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return try standard(adding: typed)
    }
}
