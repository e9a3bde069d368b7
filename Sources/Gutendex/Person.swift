/// An author, editor or translator as Gutendex gives them ("Last, First" names, years may be
/// null or negative for BCE).
public struct Person: Sendable, Hashable, Codable {
  /// The name as Project Gutenberg writes it, usually "Last, First".
  public var name: String
  /// Year of birth; negative for BCE, nil when unknown.
  public var birthYear: Int?
  /// Year of death; negative for BCE, nil when unknown.
  public var deathYear: Int?

  /// A person; years are nil when the catalogue does not know them.
  public init(name: String, birthYear: Int? = nil, deathYear: Int? = nil) {
    self.name = name
    self.birthYear = birthYear
    self.deathYear = deathYear
  }

  enum CodingKeys: String, CodingKey {
    case name
    case birthYear = "birth_year"
    case deathYear = "death_year"
  }

  /// Decodes `name`, `birth_year` and `death_year` (null years allowed).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
    birthYear = try container.decodeIfPresent(Int.self, forKey: .birthYear)
    deathYear = try container.decodeIfPresent(Int.self, forKey: .deathYear)
  }

  /// Encodes the server's keys, with null for unknown years.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(birthYear, forKey: .birthYear)
    try container.encode(deathYear, forKey: .deathYear)
  }
}
