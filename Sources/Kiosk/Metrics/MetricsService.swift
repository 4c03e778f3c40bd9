import KioskConfig
import Logging

/// `[metrics]` as the kiosk's adopted configuration says: a `MetricsReporter` for its file, made,
/// replaced or ended when a configuration that changes `[metrics]` is adopted (`adopt`). A file
/// given up keeps the last facts written to it, as at exit.
final class MetricsService {
    /// The reporter of the adopted `[metrics] file`; nil: no metrics file.
    private(set) var reporter: MetricsReporter?
    /// The settings `reporter` was made with.
    private(set) var settings = MetricsSettings()
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    /// Brings the reporter in line with `new`: nothing when unchanged; otherwise the old one
    /// writes what it has not written yet and stops, and a new one starts (it writes at once).
    func adopt(_ new: MetricsSettings) {
        guard new != settings else { return }
        let old = reporter
        old?.finish()
        reporter = nil
        settings = new
        if let path = new.file {
            let made = MetricsReporter(path: path, interval: new.interval, logger: logger)
            reporter = made
            logger.info("metrics: writing \(made.file.target) when the facts change, at most every \(new.interval) s")
        } else if let old {
            logger.info("metrics: off ([metrics] file is not set); \(old.file.target) keeps the last facts written")
        }
    }

    /// At exit: the last facts are written.
    func finish() {
        reporter?.finish()
    }
}
