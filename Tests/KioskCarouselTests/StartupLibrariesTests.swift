import TestSupport
import XCTest

/// `run`'s fonts' thread (`StartupLibraries`) and the main thread share one load of fontconfig's
/// configuration: text wanted while the fonts' thread is still loading waits for that load
/// (`FontStartup.loadConfiguration()`) instead of making pango start a second one beside it.
final class StartupLibrariesTests: XCTestCase {
    /// A fontconfig configuration that takes a while to read (the system's, then 20,000 aliases:
    /// 0.3 s natively), so that the main thread's font check and first text come while the fonts'
    /// thread is loading it; `FC_DEBUG=1024` makes fontconfig print each file it loads. Before
    /// the fix every run loaded the configuration twice (pango's thread beside the fonts' thread).
    func testFontconfigsConfigurationIsLoadedOnceWhenTextComesDuringTheLoad() throws {
        let fixture = try ScratchFolder("startup-fonts")
        defer { fixture.remove() }
        var aliases = "<?xml version=\"1.0\"?>\n<fontconfig>\n"
        for i in 0..<20_000 {
            aliases += "<alias><family>Slow Start \(i)</family><prefer><family>DejaVu Sans</family></prefer></alias>\n"
        }
        aliases += "</fontconfig>\n"
        let aliasFile = try fixture.write("aliases.conf", aliases)
        let fontsConf = try fixture.write("fonts.conf", """
            <?xml version="1.0"?>
            <fontconfig>
              <include ignore_missing="no">/etc/fonts/fonts.conf</include>
              <include ignore_missing="no">\(aliasFile)</include>
            </fontconfig>

            """)
        // A font the config's check looks up on the main thread, and titles the first frame draws.
        var config = "[carousel]\ntype = \"linear\"\n[theme.card]\nfont = \"DejaVu Sans\"\n"
        for i in 0..<4 { config += "[[item]]\ntitle = \"Item \(i)\"\n" }
        let configFile = try fixture.write("fonts.toml", config)

        for attempt in 1...3 {
            let run = try ProductBinary.run(["run", "--config", configFile, "--backend", "headless", "--exit-after", "0"],
                                            environment: ["FONTCONFIG_FILE": fontsConf, "FC_DEBUG": "1024"])
            XCTAssertEqual(run.status, 0, "run \(attempt): \(run.errors.suffix(2000))")
            let loads = (run.output + run.errors).split(separator: "\n")
                .filter { $0.trimmingCharacters(in: .whitespaces) == "Loading config file from \(aliasFile)" }
            XCTAssertEqual(loads.count, 1, "run \(attempt): fontconfig's configuration loaded \(loads.count) times")
            XCTAssertTrue(run.errors.contains("start-up: first frame on screen"), "run \(attempt): \(run.errors.suffix(2000))")
        }
    }
}
