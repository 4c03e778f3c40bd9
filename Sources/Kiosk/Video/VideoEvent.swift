/// A line of the event stream about a clip (`video_started`, `video_stopped`, `video_failed`,
/// `video_fullscreen_started`, `video_fullscreen_ended`), collected by the session and written
/// by `KioskBehavior` with the carousel's own events.
public struct VideoEvent: Equatable, Sendable {
    public var time: Double
    public var name: String
    public var fields: [(String, String)]

    public static func == (a: VideoEvent, b: VideoEvent) -> Bool {
        a.time == b.time && a.name == b.name && a.fields.map(\.0) == b.fields.map(\.0) && a.fields.map(\.1) == b.fields.map(\.1)
    }
}
