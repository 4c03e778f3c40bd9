import Glibc

/// What a directory entry is, in words, from its `st_mode`: "a FIFO (named pipe)", "a device",
/// "a symbolic link"… for the messages of the USB import.
struct FileKind: CustomStringConvertible, Equatable {
    var mode: mode_t

    var isRegularFile: Bool { mode & S_IFMT == S_IFREG }

    var description: String {
        switch mode & S_IFMT {
        case S_IFREG: return "a file"
        case S_IFDIR: return "a folder"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "an unknown kind of entry"
        }
    }
}
