/// Why the engine has no answer to a typed query (``GutendexEngine/pageJSON(for:linkBase:)``):
/// what the server would say with an HTTP status, said as a value.
public enum QueryFailure: Error, Sendable, Hashable {
  /// The page asked for is not one of the query's pages (the server's "Invalid page.").
  case invalidPage
  /// A record could not be read: the catalogue file is damaged (the reason).
  case damaged(String)
}
