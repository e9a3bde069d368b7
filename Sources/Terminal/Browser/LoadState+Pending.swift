import Catalog

extension LoadState {
  /// True while there is nothing settled to show (before the first load, or while loading).
  var isPending: Bool {
    switch self {
    case .idle, .loading: true
    default: false
    }
  }
}
