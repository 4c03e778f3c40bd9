/// How the picture is turned on the panel: the clockwise angle, as `[display] rotation` says.
/// With 90°, the picture's top edge runs down the panel's right edge. The same convention as
/// the display's `Display.DisplayRotation` (Input does not import Display; convert by raw value).
public enum InputRotation: Int, CaseIterable, Sendable {
    case none = 0, quarter = 90, half = 180, threeQuarters = 270

    /// 90° and 270° swap the screen's width and height.
    public var swapsAxes: Bool { self == .quarter || self == .threeQuarters }
}

/// Maps a position on the panel (pixels of the display mode, as libinput's `_transformed`
/// functions report them after calibration) to the screen the carousel is laid out in
/// (pixels, origin top-left, y down, after rotation).
public struct ScreenMapping: Equatable, Sendable {
    public var panelWidth: Double
    public var panelHeight: Double
    public var rotation: InputRotation

    public init(panelWidth: Int, panelHeight: Int, rotation: InputRotation) {
        self.panelWidth = Double(panelWidth); self.panelHeight = Double(panelHeight); self.rotation = rotation
    }

    /// The screen size after rotation.
    public var screenWidth: Double { rotation.swapsAxes ? panelHeight : panelWidth }
    public var screenHeight: Double { rotation.swapsAxes ? panelWidth : panelHeight }

    /// The screen point shown at panel point (`px`, `py`).
    public func screenPoint(panelX px: Double, panelY py: Double) -> (x: Double, y: Double) {
        switch rotation {
        case .none: return (px, py)
        case .quarter: return (py, panelWidth - px)
        case .half: return (panelWidth - px, panelHeight - py)
        case .threeQuarters: return (panelHeight - py, px)
        }
    }

    /// The panel point that shows screen point (`x`, `y`): the inverse of `screenPoint`.
    public func panelPoint(screenX x: Double, screenY y: Double) -> (x: Double, y: Double) {
        switch rotation {
        case .none: return (x, y)
        case .quarter: return (panelWidth - y, x)
        case .half: return (panelWidth - x, panelHeight - y)
        case .threeQuarters: return (y, panelHeight - x)
        }
    }

    /// Keeps a screen point on the screen (the pointer cannot leave it).
    public func clamp(x: Double, y: Double) -> (x: Double, y: Double) {
        (min(max(x, 0), max(screenWidth - 1, 0)), min(max(y, 0), max(screenHeight - 1, 0)))
    }
}

/// libinput's touchscreen calibration: a 2×3 matrix `[a, b, c, d, e, f]` applied to the device's
/// normalized coordinates (0…1 on both axes, before any scaling to pixels):
/// `x' = a·x + b·y + c`, `y' = d·x + e·y + f`. This is exactly what
/// `libinput_device_config_calibration_set_matrix` and udev's `LIBINPUT_CALIBRATION_MATRIX` mean;
/// the live path lets libinput apply it, this type is the same math for checks and tests.
public struct CalibrationMatrix: Equatable, Sendable {
    public var values: [Double]

    /// The identity `[1, 0, 0, 0, 1, 0]`.
    public static let identity = CalibrationMatrix(unchecked: [1, 0, 0, 0, 1, 0])

    private init(unchecked: [Double]) { values = unchecked }

    /// Checks the matrix: six finite numbers.
    public init(_ values: [Double]) throws {
        guard values.count == 6 else {
            throw InputConfigError("calibration must have 6 numbers [a, b, c, d, e, f], not \(values.count)")
        }
        guard values.allSatisfy(\.isFinite) else { throw InputConfigError("calibration numbers must be finite") }
        self.values = values
    }

    /// The calibrated normalized point.
    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        let m = values
        return (m[0] * x + m[1] * y + m[2], m[3] * x + m[4] * y + m[5])
    }

    /// The whole touch path as the kiosk runs it: calibration in the device's normalized space
    /// (by libinput), scaling to the panel size (libinput's `_transformed`), then the display
    /// rotation (by us).
    public func screenPoint(normalizedX x: Double, normalizedY y: Double,
                            mapping: ScreenMapping) -> (x: Double, y: Double) {
        let c = apply(x: x, y: y)
        return mapping.screenPoint(panelX: c.x * mapping.panelWidth, panelY: c.y * mapping.panelHeight)
    }
}

/// A problem in the input settings (an unknown key name, a malformed matrix, …).
public struct InputConfigError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
