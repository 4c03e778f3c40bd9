/// What a gesture means to the carousel. Gestures produce these; the engine consumes them.
public enum Intent: Equatable, Sendable {
    /// A pan started (after the slop threshold).
    case dragBegan
    /// The pan moved by `pixels` along the scroll axis since the last report.
    case dragMoved(pixels: Double)
    /// The pan ended with a release velocity in pixels per second along the scroll axis.
    case dragEnded(velocity: Double)
    /// The on-screen dial turned by `items` since the last report (already converted from radians).
    case dialMoved(items: Double)
    /// The dial was released, turning at `itemsPerSecond`.
    case dialEnded(itemsPerSecond: Double)
    /// A finger (or the pointer button) went down at a screen point: whatever moves stops, as in
    /// every flick list, and autoscroll pauses until the finger lifts.
    case fingerDown(Point2)
    /// The finger lifted without becoming a pan, a dial turn or a tap (a long press, a rejected
    /// perpendicular swipe): the carousel settles.
    case fingerUp
    /// A tap at a screen point: a side item scrolls to the centre, the centred item is selected.
    case tap(Point2)
    /// Step by whole items (keys, knob detents).
    case step(Int)
    /// Select the current item (enter, knob press).
    case select
    /// Go to the home item.
    case home
    /// Stop whatever moves and settle.
    case cancel
    /// Scroll to `index` the shortest way round (`duration` nil: `scroll_duration`).
    case scrollTo(index: Int, duration: Double?)
    /// Scroll by `items` (whole numbers land on item boundaries, as iCarousel's `scrollByNumberOfItems`).
    case scrollBy(items: Double, duration: Double?)
}

/// One item as it is drawn: where its card goes on screen and how opaque it is.
public struct ItemPose: Equatable, Sendable {
    /// The item's index in the data (an item shown twice on a small ring appears twice).
    public var index: Int
    /// Offset from the focus, in item units.
    public var offset: Double
    /// The full transform: layout, perspective and viewpoint, in `CATransform3D` order, mapping
    /// card-centred pixel coordinates to view-centred ones (before the view's centre is added).
    public var transform: Transform3D
    /// Screen positions of the card's top-left, top-right, bottom-right, bottom-left corners.
    public var corners: [Point2]
    public var alpha: Double
    /// Larger is nearer; the list is sorted by it, back to front.
    public var depth: Double
    /// Corner radius in card pixels the layout asks for (the scaling pager's `corner_radius`), 0: square.
    public var cornerRadius: Double
    /// A placeholder slot (iCarousel's `placeholders`), not an item: `index` is the slot
    /// position, below 0 or at/after the item count.
    public var isPlaceholder: Bool
    public init(index: Int, offset: Double, transform: Transform3D, corners: [Point2], alpha: Double, depth: Double,
                cornerRadius: Double = 0, isPlaceholder: Bool = false) {
        self.index = index; self.offset = offset; self.transform = transform
        self.corners = corners; self.alpha = alpha; self.depth = depth; self.cornerRadius = cornerRadius
        self.isPlaceholder = isPlaceholder
    }
}
