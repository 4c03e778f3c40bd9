import ArgumentParser
import CarouselCore

extension CarouselType {
    /// A comma-separated list of layout types (`coverflow,rotary`): `bench scale --layouts`,
    /// `bench perf-table --types`. A `ValidationError` naming the option, the unknown name and
    /// the known ones otherwise.
    static func parseList(_ text: String, option: String) throws -> [CarouselType] {
        try text.split(separator: ",").map { name in
            guard let type = CarouselType(rawValue: String(name)) else {
                throw ValidationError("\(option): unknown layout type '\(name)' (one of \(allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return type
        }
    }
}
