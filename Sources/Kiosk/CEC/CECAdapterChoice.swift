import Foundation

/// Which `/dev/cecN` the kiosk uses when `[display] cec_device` is not set: the first (by
/// number) whose adapter is an HDMI source's — a physical address other than 0.0.0.0, which is
/// the TV's own (a board's HDMI-in, vivid's input) — or, when no adapter has a physical address
/// yet (no TV plugged in, or a TV that is off on an adapter that needs hot-plug detect), the
/// first that does not have 0.0.0.0. Adapters that cannot be read are passed over.
enum CECAdapterChoice {
    /// The `/dev/cecN` paths, by number.
    static func candidates(in folder: String = "/dev") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("cec"), let n = Int(name.dropFirst(3)) else { return nil }
            return (n, folder + "/" + name)
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The path to use among `adapters` (in order; nil info: could not be read); nil: none fits.
    static func choose(_ adapters: [(path: String, info: CECAdapterInfo?)]) -> String? {
        let readable = adapters.compactMap { a in a.info.map { (a.path, $0) } }
        if let source = readable.first(where: { $0.1.physicalAddress.map { !$0.isRoot } ?? false }) { return source.0 }
        return readable.first { $0.1.physicalAddress == nil }?.0
    }
}
