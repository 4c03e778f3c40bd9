import ArgumentParser
import Cards
import Foundation
import KioskConfig

/// `--config FILE`, shared by every subcommand that reads the configuration (`@OptionGroup`).
struct ConfigOption: ParsableArguments {
    @Option(help: ArgumentHelp("The config file (default: $KIOSK_CAROUSEL_CONFIG, then /etc/kiosk-carousel/config.toml).", valueName: "file"))
    var config: String?

    /// The file used: `--config`, else the environment, else the system file.
    var path: String { ConfigLoader.resolvePath(explicit: config) }

    /// Added to "no such file": how to give another file (none when `--config` named it).
    var missingFileHint: String? { ConfigLoader.missingFileHint(explicit: config) }

    /// Loads and validates the file as `check-config` and `run` do (every clip opened:
    /// `MediaFileCheck.kiosk`); on problems prints every `FILE:LINE:COLUMN: message` to standard
    /// error and exits with status 1.
    func load() throws -> KioskConfiguration {
        do { return try ConfigLoader.load(path: path, media: MediaFileCheck.kiosk, missingFileHint: missingFileHint) } catch let e as ConfigErrors {
            FileHandle.standardError.write(Data((e.description + "\n").utf8))
            throw ExitCode(1)
        }
    }

    /// As `load()`, but without `--config` and with no file at the default place: the defaults
    /// (for commands that are useful before any configuration exists, such as `record`).
    func loadOrDefaults() throws -> KioskConfiguration {
        if config == nil, !FileManager.default.fileExists(atPath: path) { return KioskConfiguration() }
        return try load()
    }
}
