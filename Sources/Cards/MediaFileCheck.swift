import Video

/// Whether a picture or clip can be shown, read as the card workers read it: the check a USB
/// stick's media pass before anything is copied (`usb-import`), and `check-config`'s clip probe.
public enum MediaFileCheck {
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
    /// readable): what `MediaChecks.video` is set to where a deep check is wanted.
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
