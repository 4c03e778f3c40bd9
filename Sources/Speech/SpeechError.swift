/// Why espeak-ng could not speak.
public enum SpeechError: Error, Equatable, CustomStringConvertible {
    /// `espeak_Initialize` failed: its data (`espeak-ng-data`) was not found or not readable.
    case initialize(dataPath: String?)
    /// `espeak_Synth` returned this `espeak_ERROR`.
    case synthesis(code: Int32)
    /// The library itself could not be opened (`ESpeakLibrary`): the loader's words.
    case library(soname: String, reason: String)

    public var description: String {
        switch self {
        case .initialize(let path):
            return "espeak-ng could not start: its voice data is missing or unreadable (\(path ?? "the default folder, from espeak-ng-data"))"
        case .synthesis(let code):
            return "espeak-ng refused the text (espeak_Synth error \(code))"
        case .library(let soname, let reason):
            return "espeak-ng (\(soname)) could not be loaded: \(reason)"
        }
    }
}
