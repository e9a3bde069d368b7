import FlyingSocks
import Foundation

/// SO_LINGER: a timeout of 0 makes `close` reset the connection instead of closing it.
struct LingerSocketOption: SocketOption {
  var level: Int32 { SOL_SOCKET }
  var name: Int32 { SO_LINGER }

  /// The linger timeout in seconds, nil when lingering is off.
  func makeValue(from socketValue: linger) -> Int32? {
    socketValue.l_onoff == 0 ? nil : socketValue.l_linger
  }

  func makeSocketValue(from value: Int32?) -> linger {
    linger(l_onoff: value == nil ? 0 : 1, l_linger: value ?? 0)
  }
}
