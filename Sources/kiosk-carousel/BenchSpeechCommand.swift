import ArgumentParser
import Foundation
import LinuxSystem
import Speech

/// `bench speech`: how long espeak-ng takes to start and to synthesize a typical title, its
/// details and a notice (what the kiosk says), per language: wall time on the calling thread
/// (as the speech thread spends it) and the clip's length.
struct BenchSpeechCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "speech",
        abstract: "espeak-ng: start-up and synthesis time of typical utterances.",
        usage: "kiosk-carousel bench speech [options]")

    @Option(help: "Times each utterance is synthesized.") var rounds: Int = 20
    @Option(help: "Languages, comma-separated.") var languages: String = "en,de"

    func validate() throws {
        guard rounds >= 1 && rounds <= 10_000 else { throw ValidationError("--rounds must be 1…10000") }
    }

    static let utterances: [(kind: String, text: String)] = [
        ("title", "The Harbour."),
        ("title", "Mountain Dawn."),
        ("details", "First light on the ridge. Snow on a ridge, lit orange by the rising sun."),
        ("notice", "New content. 12 items from the USB stick. Touch the screen to continue."),
    ]

    func run() throws {
        let start = MonotonicClock.now()
        let synthesizer: ESpeakSynthesizer
        do { synthesizer = try ESpeakSynthesizer() } catch { throw CommandFailure("bench speech: \(error)") }
        print(String(format: "bench speech: espeak-ng started in %.1f ms (%d Hz, %d languages), %d rounds each",
                     (MonotonicClock.now() - start) * 1000, synthesizer.sampleRate, synthesizer.languages.count, rounds))
        print("lang  kind     chars  clip s   median ms   p90 ms   max ms")
        for language in languages.split(separator: ",").map(String.init) {
            for u in Self.utterances {
                var times: [Double] = []
                var clipSeconds = 0.0
                for _ in 0..<rounds {
                    let t0 = MonotonicClock.now()
                    let clip = try synthesizer.synthesize(Utterance(text: u.text, language: language), shouldStop: { false })
                    times.append((MonotonicClock.now() - t0) * 1000)
                    clipSeconds = Double(clip?.samples.count ?? 0) / Double(synthesizer.sampleRate)
                }
                times.sort()
                print(language.padding(toLength: 6, withPad: " ", startingAt: 0) + u.kind.padding(toLength: 8, withPad: " ", startingAt: 0)
                      + String(format: "%6d  %6.2f  %10.2f  %7.2f  %7.2f", u.text.count, clipSeconds,
                               times[times.count / 2], times[times.count * 9 / 10], times.last!))
            }
        }
    }
}
