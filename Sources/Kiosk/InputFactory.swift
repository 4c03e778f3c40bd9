import Input
import KioskConfig
import Logging

extension InputOptions {
    /// The input sources' options from `[input]`, `[input.rotary]`, `[input.volume_knob]` and `[display] rotation`,
    /// for a panel of `panelWidth`×`panelHeight` pixels (the display mode, before rotation).
    /// Throws `InputConfigError` for an unknown key code name or a malformed matrix.
    public init(settings: InputSettings, rotation: Int, panelWidth: Int, panelHeight: Int) throws {
        self.init()
        seat = settings.seat
        devices = settings.devices
        self.panelWidth = panelWidth
        self.panelHeight = panelHeight
        guard let r = InputRotation(rawValue: rotation) else {
            throw InputConfigError("rotation must be 0, 90, 180 or 270, not \(rotation)")
        }
        self.rotation = r
        if let c = settings.calibration { calibration = try CalibrationMatrix(c).values }
        keyMap = try KeyMap.standard(adding: settings.keymap)
        if let r = settings.rotary {
            guard let axis = RotaryOptions.Axis(rawValue: r.axis.rawValue) else {
                throw InputConfigError("[input.rotary] axis \(r.axis.rawValue) is not supported")
            }
            var selectKey: UInt16?
            if !r.selectKey.isEmpty {
                guard let code = KeyCodeNames.code(of: r.selectKey) else {
                    throw InputConfigError("[input.rotary] select_key \"\(r.selectKey)\" is not a key code name (KEY_ENTER, BTN_0, …) or number")
                }
                selectKey = code
            }
            rotary = RotaryOptions(device: r.device, name: r.name, axis: axis, invert: r.invert, selectKeyCode: selectKey)
        }
        if let v = settings.volumeKnob {
            guard let axis = RotaryOptions.Axis(rawValue: v.axis.rawValue) else {
                throw InputConfigError("[input.volume_knob] axis \(v.axis.rawValue) is not supported")
            }
            var knob = RotaryOptions(device: v.device, name: v.name, axis: axis, invert: v.invert, selectKeyCode: nil)
            knob.label = "volume knob"
            knob.table = "[input.volume_knob]"
            volumeKnob = VolumeKnobOptions(knob: knob, detentsPerStep: v.detentsPerStep)
        }
    }
}

/// Opens the kiosk's real input devices as the config asks.
public enum InputFactory {
    /// libinput on `[input] seat` (or the listed devices) and the `[input.rotary]` knob, mapped to
    /// a screen of `screenWidth`×`screenHeight` (the display's size, already rotated). When the
    /// devices cannot be opened at all (no udev, a bad key map) the kiosk still runs: the reason
    /// is logged and no source is returned.
    public static func open(_ config: KioskConfiguration, screenWidth: Int, screenHeight: Int,
                            logger: Logger) -> [InputSource] {
        InputTestFault.current?.waitWhileHeld()
        do {
            // The display reports the rotated (screen) size; the options want the panel's.
            var options = try InputOptions(settings: config.input, rotation: config.display.rotation,
                                           panelWidth: 0, panelHeight: 0)
            options.setScreenSize(width: screenWidth, height: screenHeight)
            options.headphoneJack = config.speech.mode == .headphones
            return [try InputDevices(options: options)]
        } catch {
            logger.error("input: \(config.file.isEmpty ? "" : config.file + ": ")\(error); running without input devices")
            return []
        }
    }
}
