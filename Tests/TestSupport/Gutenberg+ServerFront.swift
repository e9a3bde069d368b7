import Foundation

extension Gutenberg {
  /// This instance with book files from `front` (`GUTENBERG_MIRROR`), trusting its test CA.
  func mirrored(to front: ServerFront) -> Gutenberg {
    var copy = mirrored(to: front.url)
    copy.extraEnvironment.merge(front.clientEnvironment) { _, new in new }
    return copy
  }
}
