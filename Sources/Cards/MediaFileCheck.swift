import KioskConfig
import Video

/// Whether a picture or clip can be shown, read as the card workers read it, and whether a font
/// is installed (`FontCheck`): the `MediaChecks` the program loads its configuration with.
public enum MediaFileCheck {
    /// What `check-config`, `simulate` and `run` (start and every reload) load with: every clip
    /// opened (container and codec), so the three report the same problems. Pictures are not
    /// decoded (the card shows "!" for one that does not decode). Every `font` is looked up. A
    /// clip is probed again only when its file changed (`MediaProbeCache`): a reload (read off
    /// the loop, `ConfigReloader`) reads only new clips.
    public static let kiosk: MediaChecks = {
        let cache = MediaProbeCache()
        return MediaChecks(clip: { path in cache.problem(path: path) { videoProblem(path: $0) } },
                           font: { FontCheck.problem(font: $0) })
    }()

    /// What `usb-import` checks a stick with before anything is copied: every clip opened and
    /// every picture decoded, every `font` looked up (the kiosk would refuse the content otherwise).
    public static let stick = MediaChecks(clip: { videoProblem(path: $0) }, picture: { imageProblem(path: $0) },
                                          font: { FontCheck.problem(font: $0) })

    /// Why the picture at `path` cannot be drawn (nil when it decodes): the file is read,
    /// recognised by its content and decoded (reduced to a small box where the format allows, so a
    /// large photo is checked quickly); an SVG is parsed.
    public static func imageProblem(path: String, limits: ImageLimits = ImageLimits()) -> String? {
        do {
            _ = try ImageSource.load(path: path, fit: .cover, boxWidth: 64, boxHeight: 64, limits: limits)
            return nil
        } catch let failure as CardFailure {
            return failure.reason
        } catch {
            return "\(error)"
        }
    }

    /// Why the clip at `path` cannot be played here (nil when its container and codec are
    /// readable).
    public static func videoProblem(path: String) -> String? {
        do {
            _ = try VideoProbe.probe(path: path)
            return nil
        } catch let e as VideoError {
            return e.reason
        } catch {
            return "\(error)"
        }
    }
}
