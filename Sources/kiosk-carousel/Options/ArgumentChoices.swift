import ArgumentParser
import Display
import Input
import KioskConfig
import Raster

// Options whose value is one of a fixed set: ArgumentParser lists the choices in the help and
// refuses anything else with them in the message.

extension DisplaySettings.Backend: ExpressibleByArgument {}
extension DisplayBackendKind: ExpressibleByArgument {}
extension TextureFilter: ExpressibleByArgument {}
extension InstructionSet: ExpressibleByArgument {}
extension RotarySettings.Axis: ExpressibleByArgument {
    /// Axis names in any case (`rel_dial` as `REL_DIAL`).
    public init?(argument: String) { self.init(rawValue: argument.uppercased()) }
}
