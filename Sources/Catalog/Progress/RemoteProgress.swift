import Foundation

/// One record of a kosync server: where a device stopped in a document.
public struct RemoteProgress: Sendable, Hashable, Codable {
  /// The document key.
  public var document: String
  /// How far, from 0 to 1.
  public var percentage: Double
  /// The reader's own position (KOReader: an xpointer in an EPUB, a page number in a PDF).
  public var progress: String
  /// The device's name (`Kobo_nova`, `gutenberg`).
  public var device: String
  /// The device's unique id.
  public var deviceID: String?
  /// When the server recorded it (seconds since 1970).
  public var timestamp: Int?

  enum CodingKeys: String, CodingKey {
    case document, percentage, progress, device, timestamp
    case deviceID = "device_id"
  }

  /// A record.
  public init(
    document: String, percentage: Double, progress: String, device: String,
    deviceID: String?, timestamp: Int?
  ) {
    self.document = document
    self.percentage = percentage
    self.progress = progress
    self.device = device
    self.deviceID = deviceID
    self.timestamp = timestamp
  }

  /// When it was recorded, if the server said.
  public var date: Date? { timestamp.map { Date(timeIntervalSince1970: TimeInterval($0)) } }
}
