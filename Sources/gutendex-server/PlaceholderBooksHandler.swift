import Foundation
import Gutendex

/// TEMPORARY stand-in until `GutendexEngine` lands: serves the first page of a JSONL file of
/// books at `/books/`, unfiltered (query parameters are ignored), and 404 for anything else.
struct PlaceholderBooksHandler: Requestable {
  /// Why the books file could not be served.
  struct LoadError: Error, CustomStringConvertible {
    var description: String
  }

  private let page: Data

  /// Loads `jsonLines` (one book object per line); no file means an empty catalogue.
  init(jsonLines path: String?) throws {
    var count = 0
    var firstPage: [Data] = []
    if let path {
      let data: Data
      do {
        data = try Data(contentsOf: URL(fileURLWithPath: path))
      } catch {
        throw LoadError(description: "cannot read \(path): \(error.localizedDescription)")
      }
      for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() {
        guard !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) else {
          continue
        }
        count += 1
        guard firstPage.count < BookQuery.pageSize else { continue }
        guard (try? JSONSerialization.jsonObject(with: line)) is [String: Any] else {
          throw LoadError(description: "\(path):\(index + 1): not a JSON object")
        }
        firstPage.append(Data(line))
      }
    }
    var page = Data(#"{"count":\#(count),"next":null,"previous":null,"results":["#.utf8)
    page.append(Data(firstPage.joined(separator: Data(",".utf8))))
    page.append(Data("]}".utf8))
    self.page = page
  }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let json = ["Content-Type": "application/json"]
    var path = request.url.path(percentEncoded: true)
    while path.hasSuffix("/") { path.removeLast() }
    guard request.method == "GET" else {
      return HTTPResponse(
        status: 405, headers: json.merging(["Allow": "GET, HEAD"]) { $1 },
        body: Data(#"{"detail":"Method not allowed."}"#.utf8), url: request.url)
    }
    guard path == "/books" else {
      return HTTPResponse(
        status: 404, headers: json, body: Data(#"{"detail":"Not found."}"#.utf8), url: request.url
      )
    }
    return HTTPResponse(status: 200, headers: json, body: page, url: request.url)
  }
}
