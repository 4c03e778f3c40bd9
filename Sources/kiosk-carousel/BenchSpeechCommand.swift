import ArgumentParser
import Audio
import CarouselCore
import Foundation
import Kiosk
import KioskConfig
import LinuxSystem
import Speech

/// `bench speech`: how long espeak-ng takes to start and to synthesize a typical title, its
/// details and a notice (what the kiosk says), per language: wall time on the calling thread
/// (as the speech thread spends it) and the clip's length; then what speaking costs the
/// carousel: the frame time of a drag, silent and while speaking (`frames`).
struct BenchSpeechCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "speech",
        abstract: "espeak-ng: start-up and synthesis time of typical utterances.",
        usage: "kiosk-carousel bench speech [options]")

    @Option(help: "Times each utterance is synthesized.") var rounds: Int = 20
    @Option(help: "Languages, comma-separated.") var languages: String = "en,de"
    @Option(help: "Frames of each timed drag (0: no drag).") var dragFrames = 300
    @Option(help: "Silent and speaking drags, each, interleaved.") var dragRounds = 3
    @Option(help: "Screen size of the carousel, WIDTHxHEIGHT.", transform: PixelSize.init(parsing:)) var screen = PixelSize(1920, 1080)

    func validate() throws {
        guard rounds >= 1 && rounds <= 10_000 else { throw ValidationError("--rounds must be 1…10000") }
        guard dragFrames == 0 || (dragFrames >= 20 && dragRounds >= 1) else { throw ValidationError("--drag-frames must be 0 or at least 20, --drag-rounds at least 1") }
    }

    static let utterances: [(kind: String, text: String)] = [
        ("title", "The Harbour."),
        ("title", "Mountain Dawn."),
        ("details", "First light on the ridge. Snow on a ridge, lit orange by the rising sun."),
        ("notice", "New content. 12 items from the USB stick. Touch the screen to continue."),
    ]

    func run() throws {
        // The synthesizer of the timings is gone before the drag's starts (one at a time).
        try timings()
        if dragFrames > 0 { try frames() }
    }

    /// Start-up and synthesis time of each utterance, per language.
    func timings() throws {
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

    /// The frame time of a drag across a 9-card cover flow at the carousel's tick rate, silent
    /// and while speaking as the kiosk does: at every change of the centred card its title and
    /// details are synthesized by espeak-ng on the speech thread (`SpeechWorker`; a newer
    /// request stops the older), each clip is said into the mixer, and the mixer is pulled at the
    /// real rate by a thread as the ALSA output's is (`BenchSoundPull`, no device). Silent and
    /// speaking runs interleave, so a busy machine's load falls on both.
    func frames() throws {
        print("bench speech: frame time of a drag (cover flow \(screen.width)x\(screen.height), \(dragFrames) frames at the tick rate, 8 px each), silent and speaking, \(dragRounds) rounds each")
        var all: [Bool: [Double]] = [false: [], true: []]
        var spoken = 0
        // One speech thread for every round, as the kiosk has one: espeak-ng's state is the
        // process's, and a synthesizer ended on one thread while another starts deadlocks it.
        let worker = try SpeechWorker { try ESpeakSynthesizer() }
        defer { worker.stop() }
        var lastID = 0
        for round in 0..<(2 * dragRounds) {
            let speaking = round % 2 == 1
            let (times, said) = try drag(speaking: speaking, worker: worker, lastID: &lastID)
            all[speaking]! += times
            spoken += said
        }
        var medians: [Bool: Double] = [:]
        for speaking in [false, true] {
            let t = all[speaking]!.sorted()
            medians[speaking] = t[t.count / 2]
            print(String(format: "  %@ median %6.2f ms   p90 %6.2f ms   p99 %6.2f ms",
                         (speaking ? "speaking" : "silent").padding(toLength: 10, withPad: " ", startingAt: 0) as NSString,
                         t[t.count / 2] * 1000, t[t.count * 9 / 10] * 1000, t[t.count * 99 / 100] * 1000))
        }
        print(String(format: "  ratio speaking / silent (medians): %.3f  (%d utterances said during the speaking drags)",
                     medians[true]! / max(1e-9, medians[false]!), spoken))
    }

    /// One drag; returns each frame's time (input, tick, render) and the utterances said.
    private func drag(speaking: Bool, worker: SpeechWorker, lastID id: inout Int) throws -> ([Double], Int) {
        var config = KioskConfiguration()
        config.carousel.type = .coverflow
        config.carousel.itemSize = Size2(480, 360)
        config.items = (0..<9).map { ItemConfig(id: "i\($0)", title: "Item \($0)") }
        let s = CarouselSession(config: config, width: screen.width, height: screen.height, synchronousCards: true)
        let start = MonotonicClock.now()
        let clock: @Sendable () -> Double = { MonotonicClock.now() - start }
        let mixer = AudioMixer(volume: 0.8, clock: clock)
        let pull = BenchSoundPull(mixer: mixer, clock: clock)
        defer { pull.stop() }
        defer { worker.cancel(); mixer.stopSpeech() }
        let text = Self.utterances[2].text
        var said = 0
        id += 1
        var focus = s.position.index
        if speaking { worker.request(Utterance(text: "Item \(focus). " + text, language: "en"), id: id) }
        let dt = 1 / config.carousel.tickHz
        var now = clock()
        _ = s.tick(now: now)
        _ = s.renderFrame(now: now)
        s.apply(.fingerDown(Point2(Double(screen.width) / 2, Double(screen.height) / 2)), now: now)
        s.apply(.dragBegan, now: now)
        var times: [Double] = []
        var next = MonotonicClock.now()
        for i in 0..<dragFrames {
            next += dt
            let pause = next - MonotonicClock.now()
            if pause > 0 { usleep(UInt32(pause * 1e6)) }
            now = clock()
            let t0 = MonotonicClock.now()
            // Back and forth, so the drag stays over the cards.
            s.apply(.dragMoved(pixels: (i / 60) % 2 == 0 ? -8 : 8), now: now)
            _ = s.tick(now: now)
            _ = s.renderFrame(now: now)
            times.append(MonotonicClock.now() - t0)
            if speaking {
                for r in worker.takeResults() {
                    mixer.say(r.clip)
                    said += 1
                }
                if s.position.index != focus {
                    focus = s.position.index
                    id += 1
                    mixer.stopSpeech()
                    worker.request(Utterance(text: "Item \(focus). " + text, language: "en"), id: id)
                }
            }
        }
        return (times, said)
    }
}
