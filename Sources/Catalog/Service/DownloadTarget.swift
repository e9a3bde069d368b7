import Foundation
import Gutendex

/// Where one download goes.
public enum DownloadTarget: Sendable, Hashable {
  /// Into this directory, under our own file name (``DownloadNaming``).
  case directory(URL)
  /// Exactly this file.
  case file(URL)
}
