import Foundation
import KioskConfig
import Logging
@testable import Kiosk

/// A USB stick and a kiosk's content folder acted out in a temporary folder, for the import's
/// tests (`ContentImporterTests`, `HostileStickTests`): `stick` holds `kiosk-carousel/pictures/`,
/// `content` is `[usb] content`.
struct StickFolder {
    let folder = NSTemporaryDirectory() + "stick-\(UUID().uuidString)"
    var stick: String { folder + "/stick" }
    var content: String { folder + "/content" }
    /// A picture that decodes.
    static let picture = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"8\" height=\"8\"><rect width=\"8\" height=\"8\" fill=\"red\"/></svg>"

    init() throws {
        try FileManager.default.createDirectory(atPath: stick + "/kiosk-carousel/pictures", withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    /// Writes `text` at `name` in the stick's `kiosk-carousel/`.
    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: stick + "/kiosk-carousel/" + name, atomically: true, encoding: .utf8)
    }

    /// An import into `content` for a machine with one item of its own.
    func importer(maxMB: Int = 4096, configure: (inout KioskConfiguration) -> Void = { _ in }) -> ContentImporter {
        var machine = KioskConfiguration()
        machine.usb.importEnabled = true
        machine.usb.content = content
        machine.usb.maxMB = maxMB
        machine.items = [ItemConfig(id: "m", title: "m")]
        configure(&machine)
        return ContentImporter(machine: machine, logger: Logger(label: "test"))
    }
}
