import FlyingSocks

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `TCP_NODELAY`: send each write at once. Without it, Nagle's algorithm holds a response's
/// body back until the client acknowledges its headers (about 40 ms with delayed ACKs).
struct NoDelaySocketOption: SocketOption {
  var level: Int32 { Int32(IPPROTO_TCP) }
  var name: Int32 { TCP_NODELAY }

  func makeValue(from socketValue: Int32) -> Bool {
    socketValue != 0
  }

  func makeSocketValue(from value: Bool) -> Int32 {
    value ? 1 : 0
  }
}
