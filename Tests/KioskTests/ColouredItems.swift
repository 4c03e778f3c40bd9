import KioskConfig

/// Items "item0", "item1", … titled "Item 0", … whose card backgrounds differ in red, so each
/// card is told apart on screen; the sessions' tests lay out and draw these.
func colouredItems(_ count: Int) -> [ItemConfig] {
    (0..<count).map { i in
        var item = ItemConfig(id: "item\(i)", title: "Item \(i)")
        item.style.background = 0xFF00_0000 | UInt32(40 + i * 30) << 16 | 0x6080
        return item
    }
}
