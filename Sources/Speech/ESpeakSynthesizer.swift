import Audio
import CESpeakNG
import Logging

/// Text to speech with espeak-ng (Debian's `libespeak-ng1`, offline), in its synchronous mode:
/// `espeak_Synth` returns when the text is spoken, its samples collected by a callback into a
/// `PCMClip` (mono, 16 bit, espeak-ng's rate: 22050 Hz). No sound device of its own.
///
/// espeak-ng keeps its state in the process, not in a handle, and is not thread-safe: make one
/// at a time and use it from one thread (`SpeechWorker` does both).
public final class ESpeakSynthesizer: SpeechSynthesizer {
    /// Samples per second of every clip.
    public let sampleRate: Int
    /// The languages espeak-ng-data has a voice for (`en`, `en-us`, `de`, `fr`, …: lower case).
    public let languages: Set<String>
    /// What a language without a voice is spoken in.
    public let defaultLanguage: String
    private let logger: Logger
    private var currentLanguage: String?
    private var reportedMissing: Set<String> = []

    /// - Parameters:
    ///   - dataPath: the folder that holds `espeak-ng-data` (nil: the library's own).
    ///   - wordsPerMinute: espeak-ng's rate (its default is 175; a little slower is easier to follow).
    ///   - defaultLanguage: the voice of a language espeak-ng has none for.
    public init(dataPath: String? = nil, wordsPerMinute: Int = 160, defaultLanguage: String = "en",
                logger: Logger = Logger(label: "kiosk.speech")) throws {
        try ESpeakLibrary.load()
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 200, dataPath, Int32(espeakINITIALIZE_DONT_EXIT))
        guard rate > 0 else { throw SpeechError.initialize(dataPath: dataPath) }
        sampleRate = Int(rate)
        espeak_SetSynthCallback(collectSamples)
        _ = espeak_SetParameter(espeakRATE, Int32(wordsPerMinute), 0)
        languages = Self.installedLanguages()
        self.defaultLanguage = defaultLanguage.lowercased()
        self.logger = logger
    }

    /// espeak-ng's state is the process's: one synthesizer at a time (the kiosk has one, on its
    /// speech thread); ending one while another starts deadlocks espeak-ng.
    deinit { _ = espeak_Terminate() }

    /// The voice `language` is spoken with: itself when espeak-ng has it, else its first part
    /// (`de-CH` → `de`), else `defaultLanguage` (and a log line, once per language).
    public func voiceLanguage(for language: String) -> String {
        let wanted = language.lowercased().replacingOccurrences(of: "_", with: "-")
        if languages.contains(wanted) { return wanted }
        if let primary = wanted.split(separator: "-").first.map(String.init), languages.contains(primary) { return primary }
        if reportedMissing.insert(wanted).inserted {
            logger.warning("espeak-ng has no voice for language \"\(language)\"; speaking it with the \"\(defaultLanguage)\" voice")
        }
        return defaultLanguage
    }

    public func synthesize(_ utterance: Utterance, shouldStop: @escaping () -> Bool) throws -> PCMClip? {
        selectVoice(voiceLanguage(for: utterance.language))
        let collector = SampleCollector(shouldStop: shouldStop)
        activeCollector = collector
        defer { activeCollector = nil }
        let text = Array(utterance.text.utf8CString)
        let result = text.withUnsafeBufferPointer {
            espeak_Synth($0.baseAddress, $0.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, nil)
        }
        guard result == EE_OK else { throw SpeechError.synthesis(code: result.rawValue) }
        if collector.stopped { return nil }
        return PCMClip(sampleRate: sampleRate, channels: 1, samples: collector.samples)
    }

    private func selectVoice(_ language: String) {
        guard language != currentLanguage else { return }
        var spec = espeak_VOICE()
        let found = language.withCString { name -> Bool in
            spec.languages = name
            return espeak_SetVoiceByProperties(&spec) == EE_OK
        }
        if !found { logger.warning("espeak-ng could not select the voice for \"\(language)\"; keeping the previous one") }
        currentLanguage = language
    }

    /// Every language of every voice espeak-ng lists (`espeak_VOICE.languages`: pairs of a
    /// priority byte and a name, ended by a zero byte).
    private static func installedLanguages() -> Set<String> {
        var names: Set<String> = []
        guard var voice = espeak_ListVoices(nil) else { return names }
        while let v = voice.pointee {
            if var p = v.pointee.languages {
                while p.pointee != 0 {
                    let name = String(cString: p + 1)
                    names.insert(name.lowercased())
                    p += 1 + name.utf8.count + 1
                }
            }
            voice += 1
        }
        return names
    }
}

/// The samples of the utterance being synthesized; espeak-ng's callback is a C function and
/// synthesis runs on one thread at a time, so the collector of the moment is held here.
private final class SampleCollector {
    var samples: [Int16] = []
    var stopped = false
    let shouldStop: () -> Bool
    init(shouldStop: @escaping () -> Bool) { self.shouldStop = shouldStop }
}

private var activeCollector: SampleCollector?

private func collectSamples(_ wav: UnsafeMutablePointer<Int16>?, _ count: Int32,
                            _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let collector = activeCollector else { return 1 }
    if let wav, count > 0 { collector.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count))) }
    if collector.shouldStop() {
        collector.stopped = true
        return 1
    }
    return 0
}
