import Dispatch
import Foundation

extension GutendexServerCommand {
  /// Returns when the process gets SIGINT or SIGTERM, so the server can stop cleanly.
  static func waitForTerminationSignal() async {
    let (signals, continuation) = AsyncStream<Int32>.makeStream()
    let sources = [SIGINT, SIGTERM].map { number in
      // The default action would kill the process before the server closes its sockets.
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { continuation.yield(number) }
      source.resume()
      return source
    }
    for await _ in signals { break }
    for source in sources { source.cancel() }
  }
}
